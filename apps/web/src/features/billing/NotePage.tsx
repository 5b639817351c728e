import { api } from '@tandem/contract';
import { Button, Descriptions, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { useApi, useApiMutation } from '../../api/queries';
import { useRetryKey } from '../../api/retry-key';
import { useFeedback } from '../../app/feedback';
import { money } from './shared';
import './i18n';

/**
 * Finance > Invoice > Credit note (/finance/invoice/credit_note/{id}) and Debit note
 * (/finance/invoice/debit_note/{client_id}/{invoice_number}): an amount in the carrier's favour or
 * against it, on the invoice; one ledger row moves its balance.
 */
export default function NotePage({ kind }: { kind: 'credit' | 'debit' }) {
  const { t } = useTranslation();
  const nav = useNavigate();
  const { flash } = useFeedback();
  const p = useParams();
  const byNumber = useApi(
    api.billing.listInvoices,
    { query: { client_id: Number(p.client_id), invoice_number: p.invoice_number, per_page: 1 } as never },
    { enabled: kind === 'debit' },
  );
  const id = kind === 'credit' ? Number(p.id) : byNumber.data?.items[0]?.invoice_id;
  const inv = useApi(api.billing.getInvoice, { params: { id: id ?? 0 } }, { enabled: !!id });
  const create = useApiMutation(api.billing.createNote, [
    api.billing.listInvoices,
    api.billing.getInvoice,
    api.billing.listNotes,
  ]);
  const retry = useRetryKey();
  const d = inv.data;
  return (
    <div style={{ maxWidth: 560 }}>
      <div className="page-head">
        <h1>{t(kind === 'credit' ? 'billing.creditNote' : 'billing.debitNote')}</h1>
      </div>
      {d && (
        <Descriptions size="small" column={1} bordered style={{ marginBottom: 16 }}>
          <Descriptions.Item label={t('billing.invoiceNumber')}>{d.invoice_number}</Descriptions.Item>
          <Descriptions.Item label={t('billing.carrier')}>{d.client_name}</Descriptions.Item>
          <Descriptions.Item label={t('billing.total')}>
            {money(d.amount, d.decimal_places, d.currency)}
          </Descriptions.Item>
          <Descriptions.Item label={t('billing.due')}>
            {money(d.due, d.decimal_places, d.currency)}
          </Descriptions.Item>
        </Descriptions>
      )}
      <Form<{ amount: string; note: string }>
        layout="vertical"
        initialValues={{ amount: '', note: '' }}
        onFinish={async (v) => {
          if (!d) return;
          await create.mutateAsync({
            body: {
              client_id: d.client_id,
              kind,
              invoice_id: d.invoice_id,
              amount: v.amount,
              note: v.note,
              idempotency_key: retry.key(),
            },
          });
          retry.renew();
          flash(t('billing.noteCreated'));
          nav(`/finance/invoice/payment_list/${d.invoice_id}`);
        }}
      >
        <Form.Item
          name="amount"
          label={t('billing.amount')}
          rules={[{ required: true, message: t('billing.amount') }]}
        >
          <Input data-testid="note-amount" inputMode="decimal" />
        </Form.Item>
        <Form.Item name="note" label={t('billing.note')}>
          <Input.TextArea rows={2} maxLength={500} data-testid="note-text" />
        </Form.Item>
        <Button
          type="primary"
          htmlType="submit"
          disabled={!d}
          loading={create.isPending}
          data-testid="note-save"
        >
          {t('common.save')}
        </Button>
      </Form>
    </div>
  );
}

export function CreditNotePage() {
  return <NotePage kind="credit" />;
}
export function DebitNotePage() {
  return <NotePage kind="debit" />;
}
