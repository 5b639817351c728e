import { api } from '@tandem/contract';
import { Alert, Button, Card, Form, Space } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import type { z } from 'zod';
import { ApiError, call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { Spinner } from '../../components/Spinner';
import { TrunkTabs } from './TrunkForm';
import { cleanValues, issuesToFields, pathOf, tabOf } from './trunkFormLogic';
import './i18n';

type Values = Record<string, unknown>;
type Direction = 'ingress' | 'egress';

const newTrunk = (direction: Direction, carrierId: number | null): Values => ({
  ...(api.trunks.defaultTrunkSettings() as unknown as Values),
  name: '',
  carrier_id: carrierId ?? undefined,
  is_active: true,
  registration: api.trunks.registration.parse({}),
  hosts: [{ host_type: 'ip', host: '', port: null, netmask: 32 }],
  routing_rows: [],
  direction,
});
const keysOf = (schema: z.ZodType) => Object.keys((schema as unknown as z.ZodObject).shape);
const pick = (v: Values, keys: string[]) =>
  Object.fromEntries(keys.filter((k) => v[k] !== undefined).map((k) => [k, v[k]]));

/**
 * Trunk new and edit (/routing/trunks/{type}/new[/{carrier_id}][?template=], /routing/egress_trunk/new,
 * /routing/add_trunk/{type}, /routing/trunks/edit/{id}/{type}) and trunk template new and edit
 * (/template/{ingress|egress}_trunk_template/...): every tab, checked with the contract's schemas.
 */
export default function TrunkEditPage() {
  // A new route (another trunk, or new after edit) starts a fresh form.
  const l = useLocation();
  return <TrunkEdit key={l.pathname + l.search} />;
}

function TrunkEdit() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { flash } = useFeedback();
  const { pathname } = useLocation();
  const params = useParams();
  const [sp] = useSearchParams();
  const template = pathname.startsWith('/template/');
  const id = params.id ? Number(params.id) : null;
  const templateId = Number(sp.get('template')) || null;
  const presetCarrier = Number(params.carrierId ?? sp.get('carrier_id')) || null;
  const urlDirection: Direction =
    pathname.includes('egress') || params.type === 'egress' ? 'egress' : 'ingress';
  const tplEndpoints =
    urlDirection === 'egress' ? api.trunks.egressTrunkTemplate : api.trunks.ingressTrunkTemplate;

  const lk = useApi(api.trunks.lookups, {}, { callOptions: { errorMode: 'inline' } });
  const existing = useApi(
    template ? tplEndpoints.get : api.trunks.trunk.get,
    { params: { id: id ?? 0 } },
    { enabled: id !== null },
  );
  const fromTemplate = useApi(
    tplEndpoints.get,
    { params: { id: templateId ?? 0 } },
    { enabled: templateId !== null && !template },
  );
  const row = existing.data as Values | undefined;
  const direction: Direction = (row?.direction as Direction | undefined) ?? urlDirection;

  const [form] = Form.useForm();
  const [tab, setTab] = useState('basic');
  const [busy, setBusy] = useState(false);
  const authType = (Form.useWatch('auth_type', form) as string | undefined) ?? 'host';
  const inactive = !template && row?.is_active === false;

  const initial = useMemo<Values | null>(() => {
    if (id !== null)
      return row
        ? {
            ...row,
            ...(row.registration ? { registration: { ...(row.registration as Values), password: '' } } : {}),
          }
        : null;
    if (templateId !== null && !fromTemplate.data) return null;
    return {
      ...newTrunk(direction, presetCarrier),
      ...(fromTemplate.data ? api.trunks.trunkFromTemplate(fromTemplate.data) : {}),
    };
  }, [id, row, templateId, fromTemplate.data, direction, presetCarrier]);

  useEffect(() => {
    if (initial) form.setFieldsValue(initial);
  }, [initial, form]);

  const listPath = template ? `/template/${direction}_trunk_template` : `/routing/trunks/${direction}`;
  const schema = template
    ? id
      ? tplEndpoints.updateBody
      : tplEndpoints.create.body!
    : id
      ? api.trunks.trunk.updateBody
      : api.trunks.trunk.create.body!;
  const labelOf = (path: (string | number)[]) =>
    String([...path].reverse().find((p) => typeof p === 'string') ?? '');

  const save = async () => {
    const all = { ...cleanValues(form.getFieldsValue(true) as Values), direction };
    const omit = id ? ['is_active', 'direction'] : [];
    const body = pick(
      all,
      keysOf(schema).filter((k) => !omit.includes(k)),
    );
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      const fields = issuesToFields(parsed.error.issues, labelOf);
      form.setFields(fields);
      if (fields[0]) setTab(tabOf(fields[0].name));
      return;
    }
    setBusy(true);
    try {
      if (template) {
        if (id)
          await call(
            tplEndpoints.update,
            { params: { id }, body: parsed.data as never },
            { errorMode: 'inline' },
          );
        else await call(tplEndpoints.create, { body: parsed.data as never }, { errorMode: 'inline' });
      } else if (id)
        await call(
          api.trunks.trunk.update,
          { params: { id }, body: parsed.data as never },
          { errorMode: 'inline' },
        );
      else await call(api.trunks.trunk.create, { body: parsed.data as never }, { errorMode: 'inline' });
      flash(t(id ? 'common.modifiedSuccessfully' : 'common.createdSuccessfully'));
      navigate(listPath);
    } catch (e) {
      if (e instanceof ApiError && e.errors) {
        const fields = Object.entries(e.errors).map(([k, msg]) => ({ name: pathOf(k), errors: [msg] }));
        form.setFields(fields);
        if (fields[0]) setTab(tabOf(fields[0].name));
      }
    } finally {
      setBusy(false);
    }
  };

  const activate = async () => {
    if (!id) return;
    await call(api.trunks.trunk.activate!, { params: { id } }, { errorMode: 'inline' });
    flash(t('common.activatedSuccessfully'));
    await existing.refetch();
  };

  if (lk.isLoading || !initial) return <Spinner />;
  const title = template
    ? id
      ? 'trunks.editTemplate'
      : 'trunks.newTemplate'
    : id
      ? 'trunks.editTrunk'
      : direction === 'egress'
        ? 'trunks.newEgress'
        : 'trunks.newIngress';
  return (
    <Card
      title={
        <h1 style={{ fontSize: 20, margin: 0 }}>
          {t(title)}
          {typeof row?.name === 'string' && !template ? ` — ${row.name}` : ''}{' '}
          <small style={{ color: '#888', fontWeight: 400 }}>({t(`trunks.directions.${direction}`)})</small>
        </h1>
      }
    >
      {inactive && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          message={t('trunks.inactiveNotice')}
          action={
            <Button size="small" onClick={() => void activate()} data-testid="activate-trunk">
              {t('trunks.activateNow')}
            </Button>
          }
          data-testid="trunk-inactive"
        />
      )}
      <Form
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={() => void save()}
        disabled={inactive}
        data-testid={template ? 'form-trunk-template' : 'form-trunk'}
      >
        <TrunkTabs
          direction={direction}
          lookups={lk.data}
          template={template}
          trunkId={template ? null : id}
          tab={tab}
          onTab={setTab}
          authType={authType}
        />
        <Space style={{ marginTop: 16 }}>
          <Button type="primary" htmlType="submit" loading={busy} data-testid="form-save">
            {t('common.save')}
          </Button>
          <Button disabled={false} onClick={() => navigate(listPath)}>
            {t('common.cancel')}
          </Button>
        </Space>
      </Form>
    </Card>
  );
}
