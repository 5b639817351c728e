import { api, type GroupBy } from '@tandem/contract';
import { Button, Card, DatePicker, Form, Input, Radio, Select, Space, Table, type TableProps } from 'antd';
import dayjs from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { z } from 'zod';
import { useApi } from '../../api/queries';
import { useSignedIn } from '../../app/session';
import { Dropdown } from '../../components/Dropdown';
import { inZone, minutesOf, moneyShown, ratioShown } from './i18n';
import { CoverageNote } from './parts';

type Row = z.output<typeof api.stats.summaryRow>;
type Figures = z.output<typeof api.stats.figures>;
const FIELDS = [
  'from',
  'to',
  'group_by',
  'customer_ids',
  'vendor_ids',
  'ingress_trunk_ids',
  'egress_trunk_ids',
  'country',
  'code',
  'duration',
] as const;
const FMT = 'YYYY-MM-DD HH:mm';
const ids = (v: string | null) => (v ? v.split(',').map(Number) : []);

/** The label of a row's group values ("Customer A / UK"). */
function groupLabel(r: Row, groups: readonly GroupBy[], none: string): string {
  return groups
    .map((g) => {
      switch (g) {
        case 'customer':
          return r.customer ?? none;
        case 'vendor':
          return r.vendor ?? none;
        case 'ingress_trunk':
          return r.ingress_trunk ?? none;
        case 'egress_trunk':
          return r.egress_trunk ?? none;
        case 'country':
          return r.country || none;
        case 'code':
          return r.code || none;
        case 'release_cause':
          return String(r.release_cause);
        case 'day':
          return r.day ?? '';
        case 'hour':
          return r.hour ?? '';
      }
    })
    .join(' / ');
}

/**
 * Statistics > Summary Report: traffic of a range in the user's time zone, grouped as chosen, with
 * filters, sortable figures, a totals row and a chart; from the traffic summaries. The query is
 * kept in the URL, so a report can be shared as a link. Cost and profit only for roles allowed to
 * see them (the server leaves them out otherwise).
 */
export default function SummaryReportPage() {
  const { t } = useTranslation();
  const { system, user } = useSignedIn();
  const tz = system.timezone;
  const isAdmin = user.user_type === 'admin';
  const [sp, setSp] = useSearchParams();
  const [form] = Form.useForm();
  const today = inZone(new Date().toISOString(), tz).slice(0, 10);
  const q = useMemo(() => {
    const o: Record<string, string> & { from: string; to: string } = {
      from: `${today} 00:00`,
      to: dayjs(today).add(1, 'day').format('YYYY-MM-DD') + ' 00:00',
    };
    for (const k of FIELDS) if (sp.get(k)) o[k] = sp.get(k)!;
    return o;
  }, [sp, today]);
  const groups = (q.group_by ? q.group_by.split(',') : []) as GroupBy[];
  const report = useApi(
    api.stats.getSummaryReport,
    { query: { ...q, tz } },
    { callOptions: { errorMode: 'inline' } },
  );
  const data = report.data;

  const run = (v: Record<string, unknown>) => {
    const range = v.range as [dayjs.Dayjs, dayjs.Dayjs] | undefined;
    const list = (x: unknown) => (Array.isArray(x) && x.length ? x.join(',') : null);
    const next: Record<string, string | null> = {
      from: range?.[0]?.format(FMT) ?? null,
      to: range?.[1]?.format(FMT) ?? null,
      group_by: list(v.group_by),
      customer_ids: list(v.customer_ids),
      vendor_ids: list(v.vendor_ids),
      ingress_trunk_ids: list(v.ingress_trunk_ids),
      egress_trunk_ids: list(v.egress_trunk_ids),
      country: (v.country as string) || null,
      code: (v.code as string) || null,
      duration: v.duration === 'all' ? null : ((v.duration as string) ?? null),
    };
    const out = new URLSearchParams();
    for (const [k, x] of Object.entries(next)) if (x) out.set(k, x);
    setSp(out, { replace: true });
  };

  const costVisible = data?.coverage.cost_visible ?? false;
  const num = (k: keyof Figures, title: string, show: (f: Figures) => string | number) => ({
    key: k,
    title: t(title),
    align: 'right' as const,
    render: (_: unknown, r: Row) => show(r),
    sorter: (a: Row, b: Row) => Number(a[k] ?? -Infinity) - Number(b[k] ?? -Infinity),
  });
  const columns: TableProps<Row>['columns'] = [
    ...groups.map((g) => ({
      key: g,
      title: t(`stats.groups.${g}`),
      render: (_: unknown, r: Row) => groupLabel(r, [g], t('stats.unknown')),
      sorter: (a: Row, b: Row) =>
        groupLabel(a, [g], '').localeCompare(groupLabel(b, [g], ''), undefined, { numeric: true }),
    })),
    num('attempts', 'stats.attempts', (f) => f.attempts),
    num('answered', 'stats.answered', (f) => f.answered),
    num('non_zero', 'stats.nonZero', (f) => f.non_zero),
    num('duration', 'stats.minutes', (f) => minutesOf(f.duration)),
    num('billed_time', 'stats.billedMinutes', (f) => minutesOf(f.billed_time)),
    num('revenue', user.client?.client_type === 'vendor' ? 'stats.earned' : 'stats.revenue', (f) =>
      moneyShown(f.revenue),
    ),
    ...(costVisible
      ? [
          num('cost', 'stats.cost', (f) => moneyShown(f.cost)),
          num('profit', 'stats.profit', (f) => moneyShown(f.profit)),
          num('margin', 'stats.margin', (f) => f.margin ?? '–'),
        ]
      : []),
    num('asr', 'stats.asr', (f) => ratioShown(f.asr)),
    num('acd', 'stats.acd', (f) => ratioShown(f.acd)),
    num('aloc', 'stats.aloc', (f) => ratioShown(f.aloc)),
    num('pdd', 'stats.pdd', (f) => f.pdd ?? '–'),
    num('ner', 'stats.ner', (f) => ratioShown(f.ner)),
    num('short_calls', 'stats.shortCalls', (f) => f.short_calls),
  ];
  const chart = (data?.rows ?? []).slice(0, 30).map((r) => ({
    name: groups.length ? groupLabel(r, groups, t('stats.unknown')) : t('stats.total'),
    attempts: r.attempts,
    minutes: Number(minutesOf(r.duration)),
  }));
  const allowed = isAdmin
    ? api.stats.GROUP_BY
    : api.stats.PORTAL_GROUP_BY[
        user.user_type === 'agent' ? 'agent' : (user.client?.client_type ?? 'client')
      ];

  return (
    <div>
      <div className="page-head">
        <h1>{t('stats.summaryReport')}</h1>
      </div>
      <Card size="small" style={{ marginBottom: 12 }}>
        <Form
          form={form}
          layout="inline"
          onFinish={run}
          initialValues={{
            range: [dayjs(q.from), dayjs(q.to)],
            group_by: groups,
            customer_ids: ids(sp.get('customer_ids')),
            vendor_ids: ids(sp.get('vendor_ids')),
            ingress_trunk_ids: ids(sp.get('ingress_trunk_ids')),
            egress_trunk_ids: ids(sp.get('egress_trunk_ids')),
            country: q.country ?? '',
            code: q.code ?? '',
            duration: q.duration ?? 'all',
          }}
          style={{ rowGap: 8 }}
        >
          <Form.Item name="range" label={`${t('stats.timeRange')} (GMT ${tz})`}>
            <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format={FMT} data-testid="report-range" />
          </Form.Item>
          <Form.Item name="group_by" label={t('stats.groupBy')}>
            <Select
              mode="multiple"
              maxCount={3}
              style={{ minWidth: 220 }}
              data-testid="report-group-by"
              options={allowed.map((g) => ({ value: g, label: t(`stats.groups.${g}`) }))}
            />
          </Form.Item>
          {isAdmin && (
            <>
              <Form.Item name="customer_ids" label={t('stats.customers')}>
                <Dropdown
                  multiple
                  endpoint={api.carriers.carrier.list}
                  query={{ client_type: 'client' }}
                  valueField="client_id"
                  labelField="name"
                  kind="carrier"
                  style={{ minWidth: 180 }}
                  testId="report-customers"
                />
              </Form.Item>
              <Form.Item name="vendor_ids" label={t('stats.vendors')}>
                <Dropdown
                  multiple
                  endpoint={api.carriers.carrier.list}
                  query={{ client_type: 'vendor' }}
                  valueField="client_id"
                  labelField="name"
                  kind="carrier"
                  style={{ minWidth: 180 }}
                  testId="report-vendors"
                />
              </Form.Item>
              <Form.Item name="ingress_trunk_ids" label={t('stats.ingressTrunks')}>
                <Dropdown
                  multiple
                  endpoint={api.trunks.trunk.list}
                  query={{ direction: 'ingress' }}
                  valueField="trunk_id"
                  labelField="name"
                  style={{ minWidth: 180 }}
                  testId="report-ingress-trunks"
                />
              </Form.Item>
              <Form.Item name="egress_trunk_ids" label={t('stats.egressTrunks')}>
                <Dropdown
                  multiple
                  endpoint={api.trunks.trunk.list}
                  query={{ direction: 'egress' }}
                  valueField="trunk_id"
                  labelField="name"
                  style={{ minWidth: 180 }}
                  testId="report-egress-trunks"
                />
              </Form.Item>
            </>
          )}
          <Form.Item name="country" label={t('stats.country')}>
            <Input style={{ width: 140 }} data-testid="report-country" />
          </Form.Item>
          <Form.Item name="code" label={t('stats.code')}>
            <Input style={{ width: 100 }} data-testid="report-code" />
          </Form.Item>
          <Form.Item name="duration" label={t('stats.duration')}>
            <Radio.Group
              optionType="button"
              data-testid="report-duration"
              options={api.stats.DURATION_FILTERS.map((d) => ({
                value: d,
                label: t(`stats.durations.${d}`),
              }))}
            />
          </Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" data-testid="report-run">
              {t('stats.query')}
            </Button>
          </Space>
        </Form>
      </Card>
      {data && (
        <>
          <CoverageNote coverage={data.coverage} tz={tz} />
          {chart.length > 0 && (
            <Card size="small" title={t('stats.chartOf')} style={{ marginBottom: 12 }}>
              <div
                data-testid="report-chart"
                data-points={chart.length}
                style={{ width: '100%', height: 260 }}
              >
                <ResponsiveContainer>
                  <BarChart data={chart} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
                    <CartesianGrid strokeDasharray="3 3" />
                    <XAxis dataKey="name" minTickGap={8} />
                    <YAxis yAxisId="a" allowDecimals={false} />
                    <YAxis yAxisId="m" orientation="right" />
                    <Tooltip />
                    <Legend />
                    <Bar
                      yAxisId="a"
                      dataKey="attempts"
                      name={t('stats.attempts')}
                      fill="#1677ff"
                      isAnimationActive={false}
                    />
                    <Bar
                      yAxisId="m"
                      dataKey="minutes"
                      name={t('stats.minutes')}
                      fill="#52c41a"
                      isAnimationActive={false}
                    />
                  </BarChart>
                </ResponsiveContainer>
              </div>
            </Card>
          )}
          <Table
            size="small"
            rowKey={(r) => groupLabel(r, groups, '') || 'total'}
            dataSource={data.rows}
            columns={columns}
            pagination={{ pageSize: 100, showSizeChanger: false, hideOnSinglePage: true }}
            scroll={{ x: 'max-content' }}
            data-testid="report-table"
            summary={() => (
              <Table.Summary fixed>
                <Table.Summary.Row data-testid="report-totals">
                  {columns.map((c, i) => (
                    <Table.Summary.Cell
                      key={String(c.key)}
                      index={i}
                      align={i < groups.length ? 'left' : 'right'}
                    >
                      {i === 0 && groups.length > 0
                        ? t('stats.total')
                        : i < groups.length
                          ? ''
                          : (c as { render: (v: unknown, r: Figures) => React.ReactNode }).render(
                              null,
                              data.totals,
                            )}
                    </Table.Summary.Cell>
                  ))}
                </Table.Summary.Row>
              </Table.Summary>
            )}
          />
        </>
      )}
    </div>
  );
}
