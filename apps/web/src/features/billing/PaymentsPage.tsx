import { api } from '@tandem/contract';
import { Space, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { useApi } from '../../api/queries';
import { useSession } from '../../app/session';
import { useListState } from '../rates/useListState';
import { PaymentForm } from './PaymentForm';
import { PaymentsTable } from './PaymentsTable';
import { CarrierSelect, money } from './shared';
import './i18n';

/**
 * Finance > Payment (tabs received, sent, new payment; /finance/payment/{type}) and the portal's
 * Billing > Payment (the client's own received payments).
 */
export default function PaymentsPage() {
  const { t } = useTranslation();
  const nav = useNavigate();
  const admin = useSession().session?.user.user_type === 'admin';
  const tab = useParams().paymentType ?? 'received';
  const ls = useListState({ orderBy: 'payment_id' });
  const f = ls.filters;
  const list = useApi(
    api.billing.listPayments,
    {
      query: {
        page: ls.query.page,
        per_page: ls.query.per_page,
        ...(admin ? { direction: tab === 'sent' ? 'sent' : 'received' } : {}),
        ...(f.client_id ? { client_id: f.client_id } : {}),
      } as never,
    },
    { enabled: tab !== 'new' },
  );
  const table = (
    <>
      <Space style={{ marginBottom: 12 }} wrap>
        {admin && (
          <CarrierSelect
            value={f.client_id ? Number(f.client_id) : undefined}
            onChange={(v) => ls.setFilter('client_id', v === undefined ? null : String(v))}
            testId="filter-carrier"
          />
        )}
        {list.data && (
          <span data-testid="payment-totals">
            {t('billing.total')}: <b>{money(list.data.totals.amount)}</b> · {t('billing.fee')}:{' '}
            {money(list.data.totals.fee)}
          </span>
        )}
      </Space>
      <PaymentsTable
        rows={list.data?.items ?? []}
        loading={list.isLoading}
        admin={admin}
        pagination={ls.pagination(list.data?.total ?? 0)}
        onChange={(pg) => ls.onTableChange(pg as never, [])}
      />
    </>
  );
  if (!admin)
    return (
      <div>
        <div className="page-head">
          <h1>{t('billing.payments')}</h1>
        </div>
        {table}
      </div>
    );
  return (
    <div>
      <div className="page-head">
        <h1>{t('billing.payments')}</h1>
      </div>
      <Tabs
        activeKey={tab}
        onChange={(k) => nav(`/finance/payment/${k}`)}
        items={[
          { key: 'received', label: t('billing.received'), children: tab === 'received' && table },
          { key: 'sent', label: t('billing.sentTab'), children: tab === 'sent' && table },
          {
            key: 'new',
            label: t('billing.newPayment'),
            children: tab === 'new' && <PaymentForm onDone={() => nav('/finance/payment/received')} />,
          },
        ]}
      />
    </div>
  );
}
