import { api } from '@tandem/contract';
import { DatePicker, Space, Table } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useApi } from '../../api/queries';
import { useListState } from '../rates/useListState';
import { money } from './shared';
import './i18n';

/** Finance > Overall Mutual Balance: per carrier over a period, what it owes us and we owe it, and the net. */
export default function OverallMutualPage() {
  const { t } = useTranslation();
  const ls = useListState({ orderBy: 'name', perPage: 50 });
  const f = ls.filters;
  const list = useApi(api.billing.overallMutual, {
    query: {
      page: ls.query.page,
      per_page: ls.query.per_page,
      ...(f.time_from ? { time_from: f.time_from } : {}),
      ...(f.time_to ? { time_to: f.time_to } : {}),
    } as never,
  });
  const m = (v: string) => money(v);
  return (
    <div>
      <div className="page-head">
        <h1>{t('billing.overallMutual')}</h1>
      </div>
      <Space style={{ marginBottom: 12 }}>
        <DatePicker.RangePicker
          allowEmpty={[true, true]}
          value={[f.time_from ? dayjs(f.time_from) : null, f.time_to ? dayjs(f.time_to) : null] as never}
          onChange={(v) =>
            ls.setFilters({
              time_from: v?.[0] ? v[0].startOf('day').toISOString() : null,
              time_to: v?.[1] ? v[1].add(1, 'day').startOf('day').toISOString() : null,
            })
          }
        />
      </Space>
      <Table
        rowKey="client_id"
        size="small"
        scroll={{ x: 'max-content' }}
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        data-testid="overall-mutual"
        onChange={(pg) => ls.onTableChange(pg, [])}
        pagination={ls.pagination(list.data?.total ?? 0)}
        columns={[
          {
            key: 'name',
            title: t('billing.carrier'),
            render: (_, r) => (
              <Link to={`/finance/mutual_transaction?client_id=${r.client_id}`}>{r.name}</Link>
            ),
          },
          { key: 'opening', title: t('billing.opening'), align: 'right', render: (_, r) => m(r.opening) },
          {
            key: 'cu',
            title: t('billing.customerUsage'),
            align: 'right',
            render: (_, r) => m(r.customer_usage),
          },
          { key: 'vu', title: t('billing.vendorUsage'), align: 'right', render: (_, r) => m(r.vendor_usage) },
          {
            key: 'pr',
            title: t('billing.paymentsReceived'),
            align: 'right',
            render: (_, r) => m(r.payments_received),
          },
          {
            key: 'ps',
            title: t('billing.paymentsSent'),
            align: 'right',
            render: (_, r) => m(r.payments_sent),
          },
          { key: 'cn', title: t('billing.creditNotes'), align: 'right', render: (_, r) => m(r.credit_notes) },
          { key: 'dn', title: t('billing.debitNotes'), align: 'right', render: (_, r) => m(r.debit_notes) },
          { key: 'closing', title: t('billing.closing'), align: 'right', render: (_, r) => m(r.closing) },
          {
            key: 'net',
            title: t('billing.netOwed'),
            align: 'right',
            render: (_, r) => m(r.net_owed_by_carrier),
          },
        ]}
      />
    </div>
  );
}
