import { api, type NoteRow } from '@tandem/contract';
import { Button, Descriptions, Space, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { useApi, useApiMutation } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { formatNumberText } from '../../lib/money';
import { when } from '../routing/shared';
import { PaymentForm } from './PaymentForm';
import { PaymentsTable } from './PaymentsTable';
import { money, openInvoiceFile, PayStatusTag } from './shared';
import './i18n';

/**
 * Finance > Invoice > Payment list (/finance/invoice/payment_list/{id}): the invoice's figures, the
 * payments allocated to it, its credit and debit notes, and a payment form paying it.
 */
export default function InvoicePaymentsPage() {
  const { t } = useTranslation();
  const { flash, confirm } = useFeedback();
  const id = Number(useParams().id);
  const inv = useApi(api.billing.getInvoice, { params: { id } });
  const pays = useApi(api.billing.listPayments, { query: { invoice_id: id, per_page: 100 } as never });
  const notes = useApi(api.billing.listNotes, { query: { invoice_id: id, per_page: 100 } as never });
  const cancelNote = useApiMutation(api.billing.cancelNote, [api.billing.listNotes, api.billing.getInvoice]);
  const d = inv.data;
  if (!d) return null;
  const f = (v: string) => money(v, d.decimal_places, d.currency);
  return (
    <div>
      <div className="page-head">
        <h1>
          {t('billing.paymentList')}: {d.invoice_number}
        </h1>
        <Space>
          <Button onClick={() => void openInvoiceFile(id, 'pdf').then((e) => e && flash(e, 'error'))}>
            {t('billing.pdf')}
          </Button>
          {d.status === 'normal' && (
            <Link to={`/finance/invoice/credit_note/${id}`}>{t('billing.creditNote')}</Link>
          )}
          {d.status === 'normal' && (
            <Link to={`/finance/invoice/debit_note/${d.client_id}/${d.invoice_number}`}>
              {t('billing.debitNote')}
            </Link>
          )}
        </Space>
      </div>
      <Descriptions
        size="small"
        bordered
        column={3}
        style={{ marginBottom: 16 }}
        data-testid="invoice-summary"
      >
        <Descriptions.Item label={t('billing.carrier')}>{d.client_name}</Descriptions.Item>
        <Descriptions.Item
          label={t('billing.period')}
        >{`${d.period_from} – ${d.period_to}`}</Descriptions.Item>
        <Descriptions.Item label={t('billing.dueDate')}>{d.due_date}</Descriptions.Item>
        <Descriptions.Item label={t('billing.subtotal')}>{f(d.subtotal)}</Descriptions.Item>
        <Descriptions.Item label={t('billing.tax')}>{f(d.tax)}</Descriptions.Item>
        <Descriptions.Item label={t('billing.total')}>
          <span data-testid="invoice-total">{f(d.amount)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('billing.paid')}>
          <span data-testid="invoice-paid">{f(d.paid_amount)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('billing.credited')}>{f(d.credited)}</Descriptions.Item>
        <Descriptions.Item label={t('billing.debited')}>{f(d.debited)}</Descriptions.Item>
        <Descriptions.Item label={t('billing.due')}>
          <span data-testid="invoice-due">{f(d.due)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('common.status')}>
          <span data-testid="invoice-state">
            {d.status === 'voided' ? t('billing.statuses.voided') : <PayStatusTag status={d.pay_status} />}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t('billing.calls')}>{formatNumberText(d.calls)}</Descriptions.Item>
      </Descriptions>
      {d.status === 'normal' && (
        <PaymentForm
          clientId={d.client_id}
          invoiceId={id}
          direction={d.side === 'customer' ? 'received' : 'sent'}
        />
      )}
      <PaymentsTable rows={pays.data?.items ?? []} loading={pays.isLoading} admin pagination={false} />
      <h3 style={{ marginTop: 16 }}>{t('billing.notes')}</h3>
      <Table<NoteRow>
        rowKey="note_id"
        size="small"
        pagination={false}
        dataSource={notes.data?.items ?? []}
        data-testid="notes"
        columns={[
          { key: 'created_at', title: t('billing.time'), render: (_, r) => when(r.created_at) },
          { key: 'kind', title: t('billing.kind'), render: (_, r) => t(`billing.kinds.${r.kind}`) },
          { key: 'amount', title: t('billing.amount'), align: 'right', render: (_, r) => money(r.amount) },
          { key: 'note', title: t('billing.note'), dataIndex: 'note' },
          {
            key: 'status',
            title: t('common.status'),
            render: (_, r) => t(`billing.statuses.${r.status === 'canceled' ? 'voided' : 'normal'}`),
          },
          { key: 'created_by', title: t('billing.by'), dataIndex: 'created_by' },
          {
            key: 'actions',
            title: '',
            render: (_, r) =>
              r.status === 'normal' && (
                <Button
                  size="small"
                  danger
                  onClick={async () => {
                    if (!(await confirm({ title: t('billing.noteDeleteConfirm'), danger: true }))) return;
                    await cancelNote.mutateAsync({ params: { id: r.note_id } });
                    flash(t('billing.done'));
                  }}
                >
                  {t('common.delete')}
                </Button>
              ),
          },
        ]}
      />
    </div>
  );
}
