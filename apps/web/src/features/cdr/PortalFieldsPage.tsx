import { api, isLanguage, type Language, type PortalFieldRow } from '@tandem/contract';
import { Button, Card, Checkbox, Space, Table, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { Spinner } from '../../components/Spinner';
import './i18n';

type Setting = { client_viewable: boolean; vendor_viewable: boolean };

/**
 * Configuration > Carrier Portal CDR Fields: which catalogue fields the client and the vendor
 * portals show. A side the field can never be shown to (the other leg's costs and routes) has no
 * checkbox; a required field stays checked.
 */
export default function PortalFieldsPage() {
  const { t, i18n } = useTranslation();
  const lang: Language = isLanguage(i18n.language) ? i18n.language : 'en';
  const { flash } = useFeedback();
  const current = useApi(api.cdrSearch.getPortalFields, {}, { staleTime: 0 });
  const [edit, setEdit] = useState<Record<string, Setting>>({});
  const [saving, setSaving] = useState(false);
  const load = (items: PortalFieldRow[]) =>
    setEdit(
      Object.fromEntries(
        items.map((r) => [
          r.name,
          { client_viewable: r.client_viewable, vendor_viewable: r.vendor_viewable },
        ]),
      ),
    );
  useEffect(() => {
    if (current.data) load(current.data.items);
  }, [current.data]);
  if (!current.data) return <Spinner />;
  const rows = current.data.items;
  const dirty = rows.some(
    (r) =>
      edit[r.name]?.client_viewable !== r.client_viewable ||
      edit[r.name]?.vendor_viewable !== r.vendor_viewable,
  );
  const save = async () => {
    setSaving(true);
    try {
      const r = await call(
        api.cdrSearch.putPortalFields,
        { body: { fields: rows.map((x) => ({ name: x.name, ...edit[x.name]! })) } },
        { errorMode: 'inline' },
      );
      load(r.items);
      await current.refetch();
      flash(t('cdr.saved'));
    } catch {
      /* the toast names the field */
    } finally {
      setSaving(false);
    }
  };
  const box = (r: PortalFieldRow, side: 'client' | 'vendor') => {
    const allowed = side === 'client' ? r.client_allowed : r.vendor_allowed;
    const required = side === 'client' ? r.requiredForClient : r.requiredForVendor;
    if (!allowed) return <Typography.Text type="secondary">{t('cdr.notForSide')}</Typography.Text>;
    const key = side === 'client' ? 'client_viewable' : 'vendor_viewable';
    return (
      <Space>
        <Checkbox
          checked={required || (edit[r.name]?.[key] ?? false)}
          disabled={required}
          onChange={(e) => setEdit((x) => ({ ...x, [r.name]: { ...x[r.name]!, [key]: e.target.checked } }))}
          data-testid={`${side}-${r.name}`}
        />
        {required ? <Tag>{t('cdr.required')}</Tag> : null}
      </Space>
    );
  };
  return (
    <Card
      title={<h1 style={{ fontSize: 20, margin: 0 }}>{t('cdr.portalFields')}</h1>}
      extra={
        <Space>
          <Button disabled={!dirty} onClick={() => load(rows)}>
            {t('common.reset')}
          </Button>
          <Button
            type="primary"
            disabled={!dirty}
            loading={saving}
            onClick={() => void save()}
            data-testid="fields-save"
          >
            {t('common.save')}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">{t('cdr.fieldsHelp')}</Typography.Paragraph>
      <Table<PortalFieldRow>
        size="small"
        rowKey="name"
        pagination={false}
        dataSource={rows}
        columns={[
          { key: 'label', title: t('cdr.field'), render: (_, r) => r.label[lang] },
          { key: 'leg', title: '', width: 160, render: (_, r) => t(`cdr.legs.${r.leg}`) },
          { key: 'client', title: t('cdr.clientSees'), width: 220, render: (_, r) => box(r, 'client') },
          { key: 'vendor', title: t('cdr.vendorSees'), width: 220, render: (_, r) => box(r, 'vendor') },
        ]}
        data-testid="fields-table"
      />
    </Card>
  );
}
