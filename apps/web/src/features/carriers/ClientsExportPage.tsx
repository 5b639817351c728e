import { DownloadOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { Button, Card, Checkbox, Form, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { urlOf } from '../../api/client';
import { useFeedback } from '../../app/feedback';
import { getToken } from '../../lib/storage';
import { i18next } from '../../i18n';
import './i18n';

const COLUMNS = api.carriers.EXPORT_COLUMNS;

/** Termination > Clients Export: the server writes the CSV (and the export log); the browser saves it. */
export default function ClientsExportPage() {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const [busy, setBusy] = useState(false);
  const [form] = Form.useForm<{
    client_type?: string;
    company_type?: string;
    is_active?: string;
    columns: string[];
  }>();

  const download = async () => {
    const v = form.getFieldsValue();
    const url = urlOf(api.carriers.exportCarriers, {
      query: {
        client_type: v.client_type,
        company_type: v.company_type,
        is_active: v.is_active,
        columns: (v.columns ?? []).join(','),
      } as never,
    });
    setBusy(true);
    try {
      const res = await fetch(url, {
        headers: { 'X-Auth-Token': getToken() ?? '', 'X-Lang': i18next.language },
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
        flash(body?.error?.message ?? res.statusText, 'error');
        return;
      }
      const name =
        /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'carriers.csv';
      const a = document.createElement('a');
      a.href = URL.createObjectURL(await res.blob());
      a.download = name;
      document.body.appendChild(a);
      a.click();
      a.remove();
      flash(t('common.exportedSuccessfully'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card
      title={<h1 style={{ fontSize: 20, margin: 0 }}>{t('carriers.clientsExport')}</h1>}
      style={{ maxWidth: 860 }}
    >
      <Typography.Paragraph type="secondary">{t('carriers.exportHelp')}</Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ client_type: 'client', columns: COLUMNS.slice(0, 12) }}
        data-testid="form-export"
      >
        <Space wrap>
          <Form.Item name="client_type" label={t('carriers.clientType')}>
            <Select
              allowClear
              style={{ width: 180 }}
              options={['client', 'vendor'].map((v) => ({ value: v, label: t(`carriers.types.${v}`) }))}
              data-testid="field-client_type"
            />
          </Form.Item>
          <Form.Item name="company_type" label={t('carriers.companyType')}>
            <Select
              allowClear
              style={{ width: 180 }}
              options={['termination', 'origination'].map((v) => ({
                value: v,
                label: t(`carriers.companyTypes.${v}`),
              }))}
              data-testid="field-company_type"
            />
          </Form.Item>
          <Form.Item name="is_active" label={t('common.status')}>
            <Select
              allowClear
              style={{ width: 180 }}
              options={[
                { value: 'true', label: t('common.active') },
                { value: 'false', label: t('common.inactive') },
              ]}
              data-testid="field-is_active"
            />
          </Form.Item>
        </Space>
        <Form.Item name="columns" label={t('carriers.columns')}>
          <Checkbox.Group
            options={COLUMNS.map((c) => ({
              value: c,
              label: <span title={c}>{t(`carriers.exportColumns.${c}`)}</span>,
            }))}
            data-testid="field-columns"
          />
        </Form.Item>
        <Button
          type="primary"
          icon={<DownloadOutlined />}
          loading={busy}
          onClick={() => void download()}
          data-testid="export-download"
        >
          {t('carriers.download')}
        </Button>
      </Form>
    </Card>
  );
}
