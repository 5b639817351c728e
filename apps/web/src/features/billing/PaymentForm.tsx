import { api } from '@tandem/contract';
import { Button, Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRetryKey } from '../../api/retry-key';
import { useApiMutation } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { CarrierSelect } from './shared';
import './i18n';

interface Values {
  client_id?: number;
  direction: 'received' | 'sent';
  amount: string;
  fee: string;
  method: string;
  transaction_id: string;
  note: string;
  allocate: string;
}

/**
 * A new payment: one ledger row for the carrier, optionally paying an invoice (the invoice's page
 * fixes the carrier and the invoice). A retry of the same form sends the same key: recorded once.
 */
export function PaymentForm({
  clientId,
  invoiceId,
  direction,
  onDone,
}: {
  clientId?: number;
  invoiceId?: number;
  direction?: 'received' | 'sent';
  onDone?: () => void;
}) {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const [form] = Form.useForm<Values>();
  const create = useApiMutation(api.billing.createPayment, [
    api.billing.listPayments,
    api.billing.listInvoices,
    api.billing.getInvoice,
  ]);
  const retry = useRetryKey();
  const submit = async (v: Values) => {
    const amount = v.amount.trim();
    const allocate = invoiceId ? v.allocate.trim() || amount : '';
    await create.mutateAsync({
      body: {
        client_id: clientId ?? (v.client_id as number),
        direction: direction ?? v.direction,
        amount,
        fee: v.fee.trim() || '0',
        method: v.method as never,
        transaction_id: v.transaction_id,
        note: v.note,
        idempotency_key: retry.key(),
        allocations: invoiceId && allocate !== '0' ? [{ invoice_id: invoiceId, amount: allocate }] : [],
      },
    });
    retry.renew();
    flash(t('billing.recorded'));
    form.resetFields();
    onDone?.();
  };
  return (
    <Form<Values>
      form={form}
      layout="inline"
      style={{ rowGap: 8, marginBottom: 16 }}
      initialValues={{
        direction: direction ?? 'received',
        amount: '',
        fee: '',
        method: 'bank',
        transaction_id: '',
        note: '',
        allocate: '',
      }}
      onFinish={(v) => void submit(v)}
      data-testid="payment-form"
    >
      {!clientId && (
        <Form.Item name="client_id" rules={[{ required: true, message: t('billing.selectCarrier') }]}>
          <CarrierSelect onChange={(v) => form.setFieldValue('client_id', v)} testId="payment-carrier" />
        </Form.Item>
      )}
      {!direction && (
        <Form.Item name="direction">
          <Select
            style={{ width: 190 }}
            data-testid="payment-direction"
            options={api.billing.PAYMENT_DIRECTIONS.map((d) => ({
              value: d,
              label: t(`billing.directions.${d}`),
            }))}
          />
        </Form.Item>
      )}
      <Form.Item name="amount" rules={[{ required: true, message: t('billing.amount') }]}>
        <Input
          placeholder={t('billing.amount')}
          style={{ width: 120 }}
          data-testid="payment-amount"
          inputMode="decimal"
        />
      </Form.Item>
      {invoiceId && (
        <Form.Item name="allocate">
          <Input
            placeholder={t('billing.allocateTo')}
            style={{ width: 130 }}
            data-testid="payment-allocate"
            inputMode="decimal"
          />
        </Form.Item>
      )}
      <Form.Item name="fee">
        <Input placeholder={t('billing.fee')} style={{ width: 90 }} inputMode="decimal" />
      </Form.Item>
      <Form.Item name="method">
        <Select
          style={{ width: 140 }}
          options={api.billing.PAYMENT_METHODS.map((m) => ({ value: m, label: t(`billing.methods.${m}`) }))}
        />
      </Form.Item>
      <Form.Item name="transaction_id">
        <Input placeholder={t('billing.transactionId')} style={{ width: 150 }} />
      </Form.Item>
      <Form.Item name="note">
        <Input placeholder={t('billing.note')} style={{ width: 180 }} />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={create.isPending} data-testid="payment-save">
        {t('billing.newPayment')}
      </Button>
    </Form>
  );
}
