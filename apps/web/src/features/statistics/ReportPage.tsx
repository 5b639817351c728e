import { api, type GroupBy, type ReportColumn, type ReportName } from '@tandem/contract';
import { Button, Card, DatePicker, Form, Input, Radio, Select, Space, Table, type TableProps } from 'antd';
import dayjs from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Line,
  LineChart,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { z } from 'zod';
import { useApi } from '../../api/queries';
import { useSignedIn } from '../../app/session';
import { Dropdown } from '../../components/Dropdown';
import { BackgroundExportButton } from '../jobs/BackgroundExportButton';
import { figureColumns, groupLabel } from './columns';
import './dashboard/i18n';
import { inZone } from './i18n';
import { CoverageNote } from './parts';
import { ReportMailButtons } from './ReportMail';
import './reports-i18n';

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
/** The carrier and trunk filters of an admin's report: one multi-select of each. */
const CARRIER_FILTERS = [
  { name: 'customer_ids', label: 'stats.customers', type: 'client', testId: 'report-customers' },
  { name: 'vendor_ids', label: 'stats.vendors', type: 'vendor', testId: 'report-vendors' },
] as const;
const TRUNK_FILTERS = [
  {
    name: 'ingress_trunk_ids',
    label: 'stats.ingressTrunks',
    direction: 'ingress',
    testId: 'report-ingress-trunks',
  },
  {
    name: 'egress_trunk_ids',
    label: 'stats.egressTrunks',
    direction: 'egress',
    testId: 'report-egress-trunks',
  },
] as const;
const COLORS = ['#1677ff', '#52c41a', '#fa8c16', '#eb2f96', '#722ed1', '#13c2c2', '#faad14', '#a0d911'];

/**
 * Every report screen of Statistics and the portal reports, from its declaration in the contract
 * (api.reports.REPORTS): range in the user's time zone, the report's group-by choices, filters,
 * sortable columns, totals row, its chart, Excel (XLSX) export, send by e-mail and a saved
 * schedule. The query is kept in the URL, so a report can be shared as a link. Cost, profit and
 * margin only for roles allowed to see them (the server leaves them out otherwise).
 */
export function ReportPage({ name }: { name: ReportName }) {
  const def = api.reports.REPORTS[name];
  const { t } = useTranslation();
  const { system, user } = useSignedIn();
  const tz = system.timezone;
  const isAdmin = user.user_type === 'admin';
  const vendor = user.client?.client_type === 'vendor';
  const [sp, setSp] = useSearchParams();
  const [form] = Form.useForm();
  const options = useApi(api.stats.getMyReportOptions, {}, { staleTime: 60_000 }).data;
  const grouping = options?.report_grouping ?? true;
  const today = inZone(new Date().toISOString(), tz).slice(0, 10);
  const q = useMemo(() => {
    const o: Record<string, string> & { from: string; to: string } = {
      from: `${today} 00:00`,
      to: dayjs(today).add(1, 'day').format('YYYY-MM-DD') + ' 00:00',
      group_by: def.defaults.join(','),
    };
    for (const k of FIELDS) if (sp.has(k)) o[k] = sp.get(k)!;
    return o;
  }, [sp, today, def]);
  const groups = (q.group_by ? q.group_by.split(',') : []) as GroupBy[];
  const endpoint = api.reports.calls[name].get;
  const report = useApi(endpoint, { query: { ...q, tz } }, { callOptions: { errorMode: 'inline' } });
  const data = report.data;
  /** The query as the API and files take it (lists as arrays). */
  const query = useMemo(() => {
    const o: Record<string, unknown> = { ...q, tz };
    for (const k of ['group_by', 'customer_ids', 'vendor_ids', 'ingress_trunk_ids', 'egress_trunk_ids'])
      o[k] = q[k] ? (k === 'group_by' ? q[k].split(',') : ids(q[k])) : [];
    return o;
  }, [q, tz]);

  const run = (v: Record<string, unknown>) => {
    const range = v.range as [dayjs.Dayjs, dayjs.Dayjs] | undefined;
    const list = (x: unknown) => (Array.isArray(x) && x.length ? x.join(',') : null);
    const next: Record<string, string | null> = {
      from: range?.[0]?.format(FMT) ?? null,
      to: range?.[1]?.format(FMT) ?? null,
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
    out.set('group_by', list(v.group_by) ?? '');
    setSp(out, { replace: true });
  };

  const costVisible = data?.coverage.cost_visible ?? false;
  const totals = data?.totals;
  /** The figure columns of this answer, built once (not per row or chart point). */
  const cols = useMemo(() => (totals ? figureColumns(totals, vendor) : null), [totals, vendor]);
  const shown = def.columns.filter((c) => costVisible || !api.reports.COST_COLUMNS.includes(c));
  const columns: TableProps<Row>['columns'] = [
    ...groups.map((g) => ({
      key: g,
      title: t(`stats.groups.${g}`),
      render: (_: unknown, r: Row) => groupLabel(r, [g], t('stats.unknown')),
      sorter: (a: Row, b: Row) =>
        groupLabel(a, [g], '').localeCompare(groupLabel(b, [g], ''), undefined, { numeric: true }),
    })),
    ...(cols
      ? shown.map((c) => {
          const s = cols[c];
          return {
            key: c,
            title: t(s.title),
            align: 'right' as const,
            render: (_: unknown, r: Figures) => s.show(r),
            sorter: (a: Row, b: Row) => (s.value(a) ?? -Infinity) - (s.value(b) ?? -Infinity),
          };
        })
      : []),
  ];
  const chartFigures = (def.chart?.figures ?? []).filter(
    (c) => costVisible || !api.reports.COST_COLUMNS.includes(c),
  );
  const chartRows =
    (def.chart?.kind === 'line' ? data?.rows : data?.rows.slice(0, def.chart?.kind === 'pie' ? 10 : 30)) ??
    [];
  const chart = cols
    ? chartRows.map((r) => {
        const point: Record<string, string | number | null> = {
          name: groups.length ? groupLabel(r, groups, t('stats.unknown')) : t('stats.total'),
        };
        for (const c of chartFigures) point[c] = cols[c].value(r);
        return point;
      })
    : [];
  const allowed = isAdmin
    ? def.groups
    : def.groups.filter((g) =>
        api.stats.PORTAL_GROUP_BY[
          user.user_type === 'agent' ? 'agent' : (user.client?.client_type ?? 'client')
        ].includes(g),
      );

  const figureTitle = (c: ReportColumn) => (cols ? t(cols[c].title) : c);
  const chartView = () => {
    if (!def.chart || chart.length === 0) return null;
    if (def.chart.kind === 'pie')
      return (
        <PieChart>
          <Tooltip />
          <Legend />
          <Pie
            data={chart}
            dataKey={chartFigures[0] ?? 'attempts'}
            nameKey="name"
            outerRadius={100}
            isAnimationActive={false}
            label
          >
            {chart.map((_, i) => (
              <Cell key={i} fill={COLORS[i % COLORS.length]} />
            ))}
          </Pie>
        </PieChart>
      );
    if (def.chart.kind === 'line')
      return (
        <LineChart data={chart} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="name" minTickGap={16} />
          <YAxis />
          <Tooltip />
          <Legend />
          {chartFigures.map((c, i) => (
            <Line
              key={c}
              type="monotone"
              dataKey={c}
              name={figureTitle(c)}
              stroke={COLORS[i % COLORS.length]}
              dot={false}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      );
    return (
      <BarChart data={chart} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="name" minTickGap={8} />
        <YAxis />
        <Tooltip />
        <Legend />
        {chartFigures.map((c, i) => (
          <Bar
            key={c}
            dataKey={c}
            name={figureTitle(c)}
            fill={COLORS[i % COLORS.length]}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    );
  };

  return (
    <div>
      <div className="page-head">
        <h1>{t(def.title)}</h1>
        <Space>
          <BackgroundExportButton kind={`report.${name}`} filter={query} format="xlsx" />
          <ReportMailButtons
            name={name}
            title={t(def.title)}
            query={query}
            email={api.reports.calls[name].email}
            schedule={api.reports.calls[name].schedule}
          />
        </Space>
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
              disabled={!grouping}
              title={grouping ? undefined : t('dash.groupingOff')}
              style={{ minWidth: 220 }}
              data-testid="report-group-by"
              options={allowed.map((g) => ({ value: g, label: t(`stats.groups.${g}`) }))}
            />
          </Form.Item>
          {isAdmin &&
            CARRIER_FILTERS.map((f) => (
              <Form.Item key={f.name} name={f.name} label={t(f.label)}>
                <Dropdown
                  multiple
                  endpoint={api.carriers.carrier.list}
                  query={{ client_type: f.type }}
                  valueField="client_id"
                  labelField="name"
                  kind="carrier"
                  style={{ minWidth: 180 }}
                  testId={f.testId}
                />
              </Form.Item>
            ))}
          {isAdmin &&
            TRUNK_FILTERS.map((f) => (
              <Form.Item key={f.name} name={f.name} label={t(f.label)}>
                <Dropdown
                  multiple
                  endpoint={api.trunks.trunk.list}
                  query={{ direction: f.direction }}
                  valueField="trunk_id"
                  labelField="name"
                  style={{ minWidth: 180 }}
                  testId={f.testId}
                />
              </Form.Item>
            ))}
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
      {data && totals && (
        <>
          <CoverageNote coverage={data.coverage} tz={tz} />
          {def.chart && chart.length > 0 && (
            <Card size="small" title={t('stats.chartOf')} style={{ marginBottom: 12 }}>
              <div
                data-testid="report-chart"
                data-kind={def.chart.kind}
                data-points={chart.length}
                style={{ width: '100%', height: def.chart.kind === 'pie' ? 300 : 260 }}
              >
                <ResponsiveContainer>{chartView()!}</ResponsiveContainer>
              </div>
            </Card>
          )}
          <Table
            size="small"
            rowKey={(r) => groupLabel(r, groups, '') || 'total'}
            dataSource={groups.length ? data.rows : []}
            columns={columns}
            pagination={{ pageSize: 100, showSizeChanger: false, hideOnSinglePage: true }}
            scroll={{ x: 'max-content' }}
            data-testid="report-table"
            // without a group-by the totals are the report: no empty body above them
            className={groups.length ? undefined : 'report-totals-only'}
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
                              totals,
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
