import { api } from '@tandem/contract';
import { Button, DatePicker, Form, Input, Select, Switch } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useApiMutation } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { useOrigination } from '../finance/ActualTransactionPage';
import { CarrierSelect } from './shared';
import './i18n';
import '../did/extras-i18n';

interface Values {
  client_id?: number;
  side: 'customer' | 'vendor';
  range?: [Dayjs, Dayjs];
  include_tax: boolean;
  attach_cdr: boolean;
  include_summary: boolean;
  note: string;
}

/**
 * Finance > Invoice > New: an invoice for a carrier and a period of its local dates (both included).
 * The server sums the period's CDRs, rounds by the invoice setting and refuses an overlap.
 * Origination > DID Invoice > New: the same for a DID client or vendor (its own call), with the
 * period's DID calls and recurring DID charges.
 */
export default function InvoiceNewPage() {
  const { t } = useTranslation();
  const nav = useNavigate();
  const { flash } = useFeedback();
  const origination = useOrigination();
  const [form] = Form.useForm<Values>();
  const endpoint = origination ? api.didExtras.createInvoice : api.billing.createInvoice;
  const create = useApiMutation(endpoint as typeof api.billing.createInvoice, [
    api.billing.listInvoices,
    api.didExtras.listInvoices,
  ]);
  const submit = async (v: Values) => {
    const r = await create.mutateAsync({
      body: {
        client_id: v.client_id as number,
        side: v.side,
        date_from: v.range?.[0].format('YYYY-MM-DD') ?? '',
        date_to: v.range?.[1].format('YYYY-MM-DD') ?? '',
        include_tax: v.include_tax,
        attach_cdr: v.attach_cdr,
        include_summary: v.include_summary,
        note: v.note,
      },
    });
    flash(`${t('billing.created')}: ${r.invoice_number}`);
    nav(origination ? '/origination/did_invoice' : '/finance/invoice');
  };
  return (
    <div style={{ maxWidth: 560 }}>
      <div className="page-head">
        <h1>{t(origination ? 'didx.newInvoice' : 'billing.newInvoice')}</h1>
      </div>
      {origination && (
        <p className="muted" data-testid="did-invoice-hint">
          {t('didx.invoiceHint')}
        </p>
      )}
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{
          side: 'customer',
          include_tax: false,
          attach_cdr: false,
          include_summary: true,
          note: '',
        }}
        onFinish={(v) => void submit(v)}
      >
        <Form.Item
          name="client_id"
          label={t('billing.carrier')}
          rules={[{ required: true, message: t('billing.selectCarrier') }]}
        >
          <CarrierSelect
            didOnly={origination}
            onChange={(v) => form.setFieldValue('client_id', v)}
            testId="invoice-carrier"
            width={320}
          />
        </Form.Item>
        <Form.Item name="side" label={t('billing.side')}>
          <Select
            data-testid="invoice-side"
            options={api.billing.INVOICE_SIDES.map((s) => ({ value: s, label: t(`billing.sides.${s}`) }))}
          />
        </Form.Item>
        <Form.Item
          name="range"
          label={t('billing.period')}
          rules={[{ required: true, message: t('billing.period') }]}
        >
          <DatePicker.RangePicker data-testid="invoice-period" />
        </Form.Item>
        <Form.Item name="include_tax" label={t('billing.includeTax')} valuePropName="checked">
          <Switch data-testid="invoice-tax" />
        </Form.Item>
        <Form.Item name="attach_cdr" label={t('billing.attachCdr')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="include_summary" label={t('billing.includeSummary')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="note" label={t('billing.note')}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={create.isPending} data-testid="invoice-create">
          {t('billing.create')}
        </Button>
      </Form>
    </div>
  );
}
