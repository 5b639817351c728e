import { api, type RerateRun } from '@tandem/contract';
import {
  Button,
  Card,
  Checkbox,
  DatePicker,
  Form,
  Input,
  Progress,
  Radio,
  Select,
  Space,
  Table,
  Tag,
} from 'antd';
import type dayjs from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { useApi, useApiMutation } from '../../api/queries';
import { useListState } from '../rates/useListState';
import { checked, submitting, when } from '../routing/shared';
import './i18n';

export const STATE_COLOR: Record<RerateRun['state'], string> = {
  previewing: 'blue',
  previewed: 'gold',
  applying: 'blue',
  applied: 'green',
  failed: 'red',
};
export const busy = (r: RerateRun) => r.state === 'previewing' || r.state === 'applying';
export const percent = (r: RerateRun) => (r.matched ? Math.floor((100 * r.processed) / r.matched) : 100);

const LABELS: Record<string, string> = {
  start_time: 'rerate.timeRange',
  end_time: 'rerate.timeRange',
  code: 'rerate.code',
  ingress_rate_table_id: 'rerate.ingressTable',
  egress_rate_table_id: 'rerate.egressTable',
};

/** The carriers, trunks and rate tables the form's selects offer (trunk lookups). */
export function useRerateLookups() {
  const lk = useApi(api.trunks.lookups, {}, { callOptions: { errorMode: 'inline' } });
  return useMemo(() => {
    const carriers = lk.data?.carriers ?? [];
    const names = new Map(carriers.map((c) => [c.id, c.name]));
    const opt = (id: number, name: string) => ({ value: id, label: name });
    const trunks = (dir: 'ingress' | 'egress') =>
      (lk.data?.trunks ?? [])
        .filter((t) => t.direction === dir)
        .map((t) => opt(t.id, `${t.name} (${names.get(t.carrier_id) ?? '#' + t.carrier_id})`));
    return {
      customers: carriers.filter((c) => c.client_type === 'client').map((c) => opt(c.id, c.name)),
      vendors: carriers.filter((c) => c.client_type === 'vendor').map((c) => opt(c.id, c.name)),
      /** DID clients and vendors (the origination screens' carrier choices), by name. */
      didCarriers: carriers.filter((c) => c.did).map((c) => opt(c.id, c.name)),
      ingress: trunks('ingress'),
      egress: trunks('egress'),
      tables: (lk.data?.rate_tables ?? []).map((t) => opt(t.id, t.name)),
      carrierName: (id: number) => names.get(id) ?? `#${id}`,
    };
  }, [lk.data]);
}

/**
 * Tools > Rerate: the form of a new rerate (time range, carriers, trunks, number prefix, unpriced
 * only, and the rates: those in force at each call's start, or a named rate table for a side),
 * which starts a preview and opens it; below, every run with its state and progress.
 */
export default function ReratePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm();
  const lk = useRerateLookups();
  const ls = useListState({ orderBy: 'run_id' });
  const list = useApi(
    api.rerate.list,
    { query: { ...ls.query, order_by: undefined, order_dir: 'desc' } as never },
    { refetchInterval: (q) => (q.state.data?.items.some(busy) ? 1000 : false) },
  );
  const create = useApiMutation(api.rerate.create, [api.rerate.list]);
  const named = Form.useWatch('rates', form) === 'named';

  const preview = async () => {
    const v = form.getFieldsValue(true) as Record<string, unknown>;
    const range = v.range as [dayjs.Dayjs, dayjs.Dayjs] | undefined;
    const body = {
      start_time: range?.[0]?.toISOString() ?? '',
      end_time: range?.[1]?.toISOString() ?? '',
      customer_ids: (v.customer_ids as number[] | undefined) ?? [],
      vendor_ids: (v.vendor_ids as number[] | undefined) ?? [],
      ingress_trunk_ids: (v.ingress_trunk_ids as number[] | undefined) ?? [],
      egress_trunk_ids: (v.egress_trunk_ids as number[] | undefined) ?? [],
      code: (v.code as string | undefined) ?? '',
      unpriced_only: Boolean(v.unpriced_only),
      ingress_rate_table_id: named ? ((v.ingress_rate_table_id as number | undefined) ?? null) : null,
      egress_rate_table_id: named ? ((v.egress_rate_table_id as number | undefined) ?? null) : null,
    };
    form.setFields([{ name: 'range', errors: [] }]);
    const parsed = checked(api.rerate.rerateFilter, body, form, (f) => t(LABELS[f] ?? f));
    if (!parsed) {
      const timeError = form.getFieldError('start_time')[0] ?? form.getFieldError('end_time')[0];
      if (timeError) form.setFields([{ name: 'range', errors: [timeError] }]);
      return;
    }
    let id = 0;
    const ok = await submitting(form, async () => {
      id = (await create.mutateAsync({ body })).object_id;
    });
    if (ok) navigate(`/tools/rerate/${id}`);
  };

  const multi = (name: string, label: string, options: { value: number; label: string }[]) => (
    <Form.Item name={name} label={t(label)} style={{ minWidth: 260 }}>
      <Select
        mode="multiple"
        allowClear
        optionFilterProp="label"
        placeholder={t('common.all')}
        options={options}
        data-testid={`rerate-${name}`}
      />
    </Form.Item>
  );

  return (
    <div>
      <div className="page-head">
        <h1>{t('rerate.title')}</h1>
      </div>
      <Card title={t('rerate.newRun')} size="small" style={{ marginBottom: 16 }}>
        <Form form={form} layout="vertical" initialValues={{ rates: 'current' }} data-testid="rerate-form">
          <Space wrap align="start">
            <Form.Item name="range" label={t('rerate.timeRange')} required>
              <DatePicker.RangePicker showTime data-testid="rerate-range" />
            </Form.Item>
            {multi('customer_ids', 'rerate.customers', lk.customers)}
            {multi('vendor_ids', 'rerate.vendors', lk.vendors)}
            {multi('ingress_trunk_ids', 'rerate.ingressTrunks', lk.ingress)}
            {multi('egress_trunk_ids', 'rerate.egressTrunks', lk.egress)}
            <Form.Item name="code" label={t('rerate.code')}>
              <Input style={{ width: 140 }} data-testid="rerate-code" />
            </Form.Item>
          </Space>
          <Form.Item name="unpriced_only" valuePropName="checked">
            <Checkbox data-testid="rerate-unpriced">{t('rerate.unpricedOnly')}</Checkbox>
          </Form.Item>
          <Form.Item name="rates" label={t('rerate.rates')}>
            <Radio.Group data-testid="rerate-rates">
              <Radio value="current">{t('rerate.ratesCurrent')}</Radio>
              <Radio value="named">{t('rerate.ratesNamed')}</Radio>
            </Radio.Group>
          </Form.Item>
          {named && (
            <Space wrap>
              {(['ingress_rate_table_id', 'egress_rate_table_id'] as const).map((name) => (
                <Form.Item key={name} name={name} label={t(LABELS[name]!)} style={{ minWidth: 260 }}>
                  <Select
                    allowClear
                    showSearch
                    optionFilterProp="label"
                    placeholder={t('rerate.trunkTable')}
                    options={lk.tables}
                    data-testid={`rerate-${name}`}
                  />
                </Form.Item>
              ))}
            </Space>
          )}
          <Button
            type="primary"
            loading={create.isPending}
            onClick={() => void preview()}
            data-testid="rerate-preview"
          >
            {t('rerate.preview')}
          </Button>
        </Form>
      </Card>
      <h2>{t('rerate.runs')}</h2>
      <Table<RerateRun>
        rowKey="run_id"
        size="small"
        scroll={{ x: 'max-content' }}
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        data-testid="rerate-runs"
        onRow={(r) => ({ 'data-testid': `rerate-run-${r.run_id}` }) as React.HTMLAttributes<HTMLElement>}
        onChange={(pg, _f, s) => ls.onTableChange(pg, s)}
        pagination={ls.pagination(list.data?.total ?? 0)}
        columns={[
          {
            key: 'run_id',
            title: '#',
            render: (_, r) => <Link to={`/tools/rerate/${r.run_id}`}>{r.run_id}</Link>,
          },
          {
            key: 'state',
            title: t('rerate.state'),
            render: (_, r) => <Tag color={STATE_COLOR[r.state]}>{t(`rerate.states.${r.state}`)}</Tag>,
          },
          {
            key: 'progress',
            title: t('rerate.progress'),
            render: (_, r) => <Progress size="small" percent={percent(r)} style={{ width: 120 }} />,
          },
          {
            key: 'range',
            title: t('rerate.timeRange'),
            render: (_, r) => `${when(r.filter.start_time)} – ${when(r.filter.end_time)}`,
          },
          {
            key: 'cdrs',
            title: t('rerate.cdrs'),
            render: (_, r) => (r.result ?? r.preview)?.cdrs ?? r.matched,
          },
          {
            key: 'changed',
            title: t('rerate.changed'),
            render: (_, r) => (r.result ?? r.preview)?.changed ?? '',
          },
          { key: 'created_by', title: t('rerate.createdBy'), dataIndex: 'created_by' },
          { key: 'created_at', title: t('rerate.createdAt'), render: (_, r) => when(r.created_at) },
          { key: 'finished_at', title: t('rerate.finishedAt'), render: (_, r) => when(r.finished_at) },
        ]}
      />
    </div>
  );
}
