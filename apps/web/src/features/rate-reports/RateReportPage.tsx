import { DownloadOutlined } from '@ant-design/icons';
import { api, ROWS_PER_PAGE } from '@tandem/contract';
import { Alert, Button, Checkbox, Form, Input, Select, Table, Tooltip, type TableProps } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import type { z } from 'zod';
import { call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { downloadText, toCsv } from '../../lib/csv-export';
import { shownInstant } from './i18n';

type Row = z.output<typeof api.rateReports.rateReportRow>;
type Column = z.output<typeof api.rateReports.rateReportColumn>;
const FIELDS = ['codes', 'code_name', 'country', 'at', 'currency', 'side', 'include_inactive'] as const;

/**
 * Termination > Rate Report: for chosen codes, code names or countries and an instant, what each
 * client pays and each vendor charges (the engine's longest-prefix rate), side by side with min and
 * max. The query is kept in the URL, so a report can be shared as a link.
 */
export default function RateReportPage() {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const [sp, setSp] = useSearchParams();
  const [form] = Form.useForm();
  const page = Math.max(0, Number(sp.get('page') ?? 0) || 0);
  const perPage = (ROWS_PER_PAGE as readonly number[]).includes(Number(sp.get('per_page')))
    ? Number(sp.get('per_page'))
    : 50;
  const filters = useMemo(
    () => Object.fromEntries(FIELDS.flatMap((k) => (sp.get(k) ? [[k, sp.get(k)!]] : []))),
    [sp],
  );
  const query = {
    ...filters,
    page,
    per_page: perPage,
    order_dir: (sp.get('order_dir') ?? 'asc') as 'asc' | 'desc',
  };
  const report = useApi(api.rateReports.rateReport, { query }, { callOptions: { errorMode: 'inline' } });

  const update = (patch: Record<string, string | null>) => {
    const next = new URLSearchParams(sp);
    for (const [k, v] of Object.entries(patch)) {
      if (v === null || v === '') next.delete(k);
      else next.set(k, v);
    }
    setSp(next, { replace: true });
  };
  const run = (v: Record<string, string | boolean | undefined>) =>
    update({
      ...Object.fromEntries(
        FIELDS.map((k) => [k, v[k] === true ? 'true' : typeof v[k] === 'string' ? v[k] : null]),
      ),
      page: null,
    });

  const head = (c: Column) => `${c.carrier_name} / ${c.rate_table_name}`;
  const exportCsv = async () => {
    const all = await call(
      api.rateReports.rateReport,
      { query: { ...query, page: 0, per_page: 100000 } },
      { errorMode: 'inline' },
    );
    downloadText(
      'rate-report.csv',
      toCsv(
        [
          t('rateReports.code'),
          t('rateReports.codeName'),
          t('rateReports.country'),
          ...all.columns.map((c) => `${t(`rateReports.sides.${c.side}`)}: ${head(c)}`),
          t('rateReports.clientMin'),
          t('rateReports.clientMax'),
          t('rateReports.vendorMin'),
          t('rateReports.vendorMax'),
        ],
        all.items.map((r) => [
          r.code,
          r.code_name,
          r.country,
          ...r.rates.map((c) => c?.rate ?? ''),
          r.client_min ?? '',
          r.client_max ?? '',
          r.vendor_min ?? '',
          r.vendor_max ?? '',
        ]),
      ),
    );
    flash(t('common.exportedSuccessfully'));
  };

  const data = report.data;
  const rateCell = (i: number) => (_: unknown, r: Row) => {
    const c = r.rates[i];
    if (!c) return '—';
    return (
      <Tooltip title={t('rateReports.matchedBy', { code: c.code, date: shownInstant(c.effective_date) })}>
        <span data-testid={`cell-${r.code}-${i}`}>{c.rate}</span>
      </Tooltip>
    );
  };
  const side = (s: 'client' | 'vendor') =>
    (data?.columns ?? []).flatMap((c, i) =>
      c.side === s
        ? [
            {
              key: `c${i}`,
              title: (
                <Tooltip title={c.trunk_names.join(', ')}>
                  <Link
                    to={`/routing/rate_table/editing_rates/${c.rate_table_id}`}
                    data-testid={`column-${i}`}
                  >
                    {head(c)}
                  </Link>
                </Tooltip>
              ),
              render: rateCell(i),
            },
          ]
        : [],
    );
  const extreme = (k: 'client_min' | 'client_max' | 'vendor_min' | 'vendor_max') => ({
    key: k,
    title: t(
      `rateReports.${k === 'client_min' ? 'clientMin' : k === 'client_max' ? 'clientMax' : k === 'vendor_min' ? 'vendorMin' : 'vendorMax'}`,
    ),
    render: (_: unknown, r: Row) => <strong data-testid={`${k}-${r.code}`}>{r[k] ?? '—'}</strong>,
  });
  const clients = side('client');
  const vendors = side('vendor');
  const columns: TableProps<Row>['columns'] = [
    {
      key: 'code',
      dataIndex: 'code',
      title: t('rateReports.code'),
      fixed: 'left',
      sorter: true,
      sortOrder: query.order_dir === 'desc' ? 'descend' : 'ascend',
    },
    { key: 'code_name', dataIndex: 'code_name', title: t('rateReports.codeName') },
    { key: 'country', dataIndex: 'country', title: t('rateReports.country') },
    ...(clients.length
      ? [
          {
            key: 'clients',
            title: t('rateReports.sides.client'),
            children: [...clients, extreme('client_min'), extreme('client_max')],
          },
        ]
      : []),
    ...(vendors.length
      ? [
          {
            key: 'vendors',
            title: t('rateReports.sides.vendor'),
            children: [...vendors, extreme('vendor_min'), extreme('vendor_max')],
          },
        ]
      : []),
  ];

  return (
    <div>
      <div className="page-head">
        <h1>{t('rateReports.rateReport')}</h1>
        <Button icon={<DownloadOutlined />} onClick={() => void exportCsv()} data-testid="export-csv">
          {t('common.exportCsv')}
        </Button>
      </div>
      <Form
        form={form}
        layout="inline"
        initialValues={{ ...filters, include_inactive: filters.include_inactive === 'true' }}
        onFinish={run}
        style={{ marginBottom: 12, rowGap: 8 }}
        data-testid="report-form"
      >
        <Form.Item name="codes" label={t('rateReports.codes')}>
          <Input
            placeholder={t('rateReports.codesHint')}
            style={{ width: 220 }}
            data-testid="report-codes"
            allowClear
          />
        </Form.Item>
        <Form.Item name="code_name" label={t('rateReports.codeName')}>
          <Input style={{ width: 140 }} data-testid="report-code-name" allowClear />
        </Form.Item>
        <Form.Item name="country" label={t('rateReports.country')}>
          <Input style={{ width: 140 }} data-testid="report-country" allowClear />
        </Form.Item>
        <Form.Item name="at" label={t('rateReports.at')}>
          <Input placeholder="YYYY-MM-DD HH:mm" style={{ width: 160 }} data-testid="report-at" allowClear />
        </Form.Item>
        <Form.Item name="currency" label={t('rateReports.currency')}>
          <Input placeholder="USD" style={{ width: 80 }} data-testid="report-currency" allowClear />
        </Form.Item>
        <Form.Item name="side" label={t('rateReports.side')}>
          <Select
            allowClear
            style={{ width: 130 }}
            placeholder={t('common.all')}
            options={(['client', 'vendor'] as const).map((s) => ({
              value: s,
              label: t(`rateReports.sides.${s}`),
            }))}
            data-testid="report-side"
          />
        </Form.Item>
        <Form.Item name="include_inactive" valuePropName="checked">
          <Checkbox data-testid="report-inactive">{t('rateReports.includeInactive')}</Checkbox>
        </Form.Item>
        <Button type="primary" htmlType="submit" data-testid="report-run">
          {t('rateReports.run')}
        </Button>
      </Form>
      {data && data.columns.length === 0 && (
        <Alert
          type="info"
          showIcon
          message={t('rateReports.noColumns', { currency: data.currency })}
          style={{ marginBottom: 12 }}
        />
      )}
      <Table<Row>
        rowKey="code"
        size="small"
        bordered
        scroll={{ x: 'max-content' }}
        loading={report.isLoading}
        dataSource={data?.items ?? []}
        columns={columns}
        data-testid="rate-report"
        onChange={(pg, _f, sorter) => {
          const s = Array.isArray(sorter) ? sorter[0] : sorter;
          update({
            page: String((pg.current ?? 1) - 1),
            per_page: String(pg.pageSize ?? perPage),
            order_dir: s?.order === 'descend' ? 'desc' : null,
          });
        }}
        pagination={{
          current: page + 1,
          pageSize: perPage,
          total: data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: ROWS_PER_PAGE.map(String),
          showTotal: (n) => <span data-testid="list-total">{t('common.total', { count: n })}</span>,
        }}
      />
    </div>
  );
}
