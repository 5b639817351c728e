import { api, type VendorInvoiceRow } from '@tandem/contract';
import { Button, Input, Select, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { useApi } from '../../api/queries';
import { useListState } from '../rates/useListState';
import { CarrierSelect, money } from './shared';
import './i18n';

const fx = api.financeExtras;

export const VendorStatusTag = ({ status }: { status: VendorInvoiceRow['status'] }) => {
  const { t } = useTranslation();
  const color = { received: 'blue', disputed: 'red', accepted: 'green', resolved: 'gold' }[status];
  return (
    <Tag color={color} data-testid="vendor-status">
      {t(`finx.vendorStatuses.${status}`)}
    </Tag>
  );
};

/** A signed difference, red when the vendor bills more than the CDRs say, green when less. */
export const Difference = ({ v, currency, testId }: { v: string; currency?: string; testId?: string }) => {
  const n = v.replace(/[0.]/g, '') === '' ? 0 : v.startsWith('-') ? -1 : 1;
  return (
    <span style={{ color: n > 0 ? '#cf1322' : n < 0 ? '#389e0d' : undefined }} data-testid={testId}>
      {n > 0 ? '+' : ''}
      {money(v, 2, currency)}
    </span>
  );
};

/**
 * Finance > Vendor Invoice: the invoices received from vendors, each with Tandem's own cost of the
 * vendor for the same period and the difference (vendor − Tandem), and its dispute state.
 */
export default function VendorInvoicesPage() {
  const { t } = useTranslation();
  const nav = useNavigate();
  const ls = useListState({ orderBy: 'vendor_invoice_id' });
  const f = ls.filters;
  const list = useApi(fx.listVendorInvoices, { query: { ...ls.query, ...f } as never });
  return (
    <div>
      <div className="page-head">
        <h1>{t('finx.vendorInvoices')}</h1>
        <Button
          type="primary"
          onClick={() => nav('/finance/vendor_invoice/new')}
          data-testid="new-vendor-invoice"
        >
          {t('finx.newVendorInvoice')}
        </Button>
      </div>
      <Space wrap style={{ marginBottom: 12 }}>
        <CarrierSelect
          value={f.client_id ? Number(f.client_id) : undefined}
          onChange={(v) => ls.setFilter('client_id', v === undefined ? null : String(v))}
          testId="filter-carrier"
        />
        <Input.Search
          allowClear
          placeholder={t('finx.invoiceNumber')}
          defaultValue={f.invoice_number}
          onSearch={(v) => ls.setFilter('invoice_number', v)}
          style={{ width: 220 }}
        />
        <Select
          allowClear
          placeholder={t('common.status')}
          value={f.status}
          onChange={(v?: string) => ls.setFilter('status', v ?? null)}
          style={{ width: 150 }}
          data-testid="filter-status"
          options={fx.VENDOR_INVOICE_STATUSES.map((s) => ({
            value: s,
            label: t(`finx.vendorStatuses.${s}`),
          }))}
        />
      </Space>
      {list.data && (
        <div style={{ marginBottom: 8 }} data-testid="vendor-totals">
          {t('finx.vendorAmount')}: <b>{money(list.data.totals.amount)}</b> · {t('finx.ourAmount')}:{' '}
          <b>{money(list.data.totals.our_amount)}</b> · {t('finx.difference')}:{' '}
          <b>
            <Difference v={list.data.totals.difference} />
          </b>
        </div>
      )}
      <Table<VendorInvoiceRow>
        rowKey="vendor_invoice_id"
        size="small"
        scroll={{ x: 'max-content' }}
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        data-testid="vendor-invoices"
        onRow={(r) =>
          ({ 'data-testid': `vendor-invoice-${r.invoice_number}` }) as React.HTMLAttributes<HTMLElement>
        }
        onChange={(pg, _f, s) => ls.onTableChange(pg, s)}
        pagination={ls.pagination(list.data?.total ?? 0)}
        columns={[
          {
            key: 'invoice_number',
            title: t('finx.invoiceNumber'),
            sorter: true,
            render: (_, r) => (
              <Link to={`/finance/vendor_invoice/${r.vendor_invoice_id}`} data-testid="open">
                {r.invoice_number}
              </Link>
            ),
          },
          { key: 'client_name', title: t('finx.vendor'), dataIndex: 'client_name', sorter: true },
          { key: 'invoice_date', title: t('finx.invoiceDate'), dataIndex: 'invoice_date', sorter: true },
          {
            key: 'period_from',
            title: `${t('finx.periodFrom')} – ${t('finx.periodTo')}`,
            sorter: true,
            render: (_, r) => `${r.period_from} – ${r.period_to}`,
          },
          {
            key: 'amount',
            title: t('finx.vendorAmount'),
            align: 'right',
            sorter: true,
            render: (_, r) => money(r.amount, 2, r.currency),
          },
          {
            key: 'our_amount',
            title: t('finx.ourAmount'),
            align: 'right',
            render: (_, r) => money(r.our_amount, 2, r.currency),
          },
          {
            key: 'difference',
            title: t('finx.difference'),
            align: 'right',
            render: (_, r) => <Difference v={r.difference} currency={r.currency} testId="difference" />,
          },
          {
            key: 'minutes',
            title: `${t('finx.vendorMinutes')} / ${t('finx.ourMinutes')}`,
            align: 'right',
            render: (_, r) => `${r.minutes ?? '–'} / ${r.our_minutes}`,
          },
          {
            key: 'status',
            title: t('common.status'),
            render: (_, r) => <VendorStatusTag status={r.status} />,
          },
        ]}
      />
    </div>
  );
}
