import { api } from '@tandem/contract';
import { DatePicker, Descriptions, Space, Table } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../api/queries';
import { useSession } from '../../app/session';
import { useListState } from '../rates/useListState';
import { when } from '../routing/shared';
import { CarrierSelect, money } from './shared';
import './i18n';

/**
 * Finance > Mutual Transaction (one carrier's statement over a period: opening balance, every
 * ledger row, closing balance and what moved it, as client and as vendor) and the portal's Billing >
 * Account Summary (the signed-in client's own; the server keys it by the session).
 */
export default function StatementPage() {
  const { t } = useTranslation();
  const session = useSession().session;
  const admin = session?.user.user_type === 'admin';
  const ls = useListState({ orderBy: 'ledger_id', perPage: 50 });
  const f = ls.filters;
  const id = admin ? Number(f.client_id ?? 0) : (session?.user.client_id ?? 0);
  const st = useApi(
    api.billing.statement,
    {
      params: { id: id || 1 },
      query: {
        page: ls.query.page,
        per_page: ls.query.per_page,
        ...(f.time_from ? { time_from: f.time_from } : {}),
        ...(f.time_to ? { time_to: f.time_to } : {}),
      } as never,
    },
    { enabled: !admin || id > 0 },
  );
  const d = st.data;
  return (
    <div>
      <div className="page-head">
        <h1>{t(admin ? 'billing.statement' : 'billing.accountSummary')}</h1>
      </div>
      <Space wrap style={{ marginBottom: 12 }}>
        {admin && (
          <CarrierSelect
            value={id || undefined}
            onChange={(v) => ls.setFilter('client_id', v === undefined ? null : String(v))}
            testId="statement-carrier"
          />
        )}
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
      {d && (
        <>
          <Descriptions size="small" bordered column={3} style={{ marginBottom: 12 }} data-testid="statement">
            <Descriptions.Item label={t('billing.opening')}>
              {money(d.opening, 2, d.currency)}
            </Descriptions.Item>
            <Descriptions.Item label={t('billing.closing')}>
              <span data-testid="closing">{money(d.closing, 2, d.currency)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('billing.netOwed')}>
              {money(d.net_owed_by_carrier, 2, d.currency)}
            </Descriptions.Item>
            <Descriptions.Item label={t('billing.customerUsage')}>
              {money(d.figures.customer_usage)}
            </Descriptions.Item>
            <Descriptions.Item label={t('billing.vendorUsage')}>
              {money(d.figures.vendor_usage)}
            </Descriptions.Item>
            <Descriptions.Item label={t('billing.paymentsReceived')}>
              {money(d.figures.payments_received)}
            </Descriptions.Item>
            <Descriptions.Item label={t('billing.paymentsSent')}>
              {money(d.figures.payments_sent)}
            </Descriptions.Item>
            <Descriptions.Item label={t('billing.creditNotes')}>
              {money(d.figures.credit_notes)}
            </Descriptions.Item>
            <Descriptions.Item label={t('billing.debitNotes')}>
              {money(d.figures.debit_notes)}
            </Descriptions.Item>
          </Descriptions>
          <Table
            rowKey="ledger_id"
            size="small"
            dataSource={d.items}
            onChange={(pg) => ls.onTableChange(pg, [])}
            pagination={ls.pagination(d.total)}
            columns={[
              { key: 'created_at', title: t('billing.time'), render: (_, r) => when(r.created_at) },
              {
                key: 'kind',
                title: t('billing.kind'),
                render: (_, r) => t(`finance.kinds.${r.kind}`, r.kind),
              },
              { key: 'ref', title: t('billing.ref'), dataIndex: 'ref' },
              {
                key: 'amount',
                title: t('billing.amount'),
                align: 'right',
                render: (_, r) => money(r.amount, 6),
              },
              {
                key: 'after',
                title: t('billing.balanceAfter'),
                align: 'right',
                render: (_, r) => money(r.balance_after, 6),
              },
              { key: 'note', title: t('billing.note'), dataIndex: 'note' },
            ]}
          />
        </>
      )}
    </div>
  );
}
