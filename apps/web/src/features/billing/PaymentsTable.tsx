import { api, type PaymentRow } from '@tandem/contract';
import { Button, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { when } from '../routing/shared';
import { money } from './shared';
import './i18n';

/** Payments with their allocations; admins may cancel one (a reversing ledger row). */
export function PaymentsTable({
  rows,
  total,
  loading,
  admin,
  pagination,
  onChange,
}: {
  rows: PaymentRow[];
  total?: number;
  loading?: boolean;
  admin: boolean;
  pagination?: false | object;
  onChange?: (pg: { current?: number; pageSize?: number }) => void;
}) {
  const { t } = useTranslation();
  const { flash, confirm } = useFeedback();
  const cancel = useApiMutation(api.billing.cancelPayment, [
    api.billing.listPayments,
    api.billing.listInvoices,
    api.billing.getInvoice,
  ]);
  return (
    <Table<PaymentRow>
      rowKey="payment_id"
      size="small"
      scroll={{ x: 'max-content' }}
      loading={loading}
      dataSource={rows}
      data-testid="payments"
      onRow={(r) => ({ 'data-testid': `payment-${r.payment_id}` }) as React.HTMLAttributes<HTMLElement>}
      pagination={pagination ?? (total !== undefined ? { total } : false)}
      onChange={(pg) => onChange?.(pg)}
      columns={[
        { key: 'paid_at', title: t('billing.paidAt'), render: (_, r) => when(r.paid_at) },
        ...(admin ? [{ key: 'client_name', title: t('billing.carrier'), dataIndex: 'client_name' }] : []),
        {
          key: 'direction',
          title: t('billing.direction'),
          render: (_, r) => t(`billing.directions.${r.direction}`),
        },
        { key: 'amount', title: t('billing.amount'), align: 'right', render: (_, r) => money(r.amount) },
        { key: 'fee', title: t('billing.fee'), align: 'right', render: (_, r) => money(r.fee) },
        {
          key: 'method',
          title: t('billing.method'),
          render: (_, r) => t(`billing.methods.${r.method}`, r.method),
        },
        { key: 'transaction_id', title: t('billing.transactionId'), dataIndex: 'transaction_id' },
        {
          key: 'allocations',
          title: t('billing.allocation'),
          render: (_, r) => r.allocations.map((a) => `${a.invoice_number} (${money(a.amount)})`).join(', '),
        },
        { key: 'note', title: t('billing.note'), dataIndex: 'note' },
        {
          key: 'status',
          title: t('common.status'),
          render: (_, r) => t(`billing.paymentStatuses.${r.status}`),
        },
        ...(admin
          ? [
              { key: 'created_by', title: t('billing.by'), dataIndex: 'created_by' },
              {
                key: 'actions',
                title: '',
                render: (_: unknown, r: PaymentRow) =>
                  r.status === 'completed' && (
                    <Button
                      size="small"
                      danger
                      data-testid="cancel-payment"
                      onClick={async () => {
                        if (!(await confirm({ title: t('billing.cancelConfirm'), danger: true }))) return;
                        await cancel.mutateAsync({ params: { id: r.payment_id }, body: { note: '' } });
                        flash(t('billing.done'));
                      }}
                    >
                      {t('billing.cancelPayment')}
                    </Button>
                  ),
              },
            ]
          : []),
      ]}
    />
  );
}
