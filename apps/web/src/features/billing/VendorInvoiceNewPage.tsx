import { api } from '@tandem/contract';
import { Button, DatePicker, Form, Input } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../../api/client';
import { useApiMutation } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { CarrierSelect } from './shared';
import { parseVendorLines } from './vendor-lines';
import './i18n';

interface Values {
  client_id?: number;
  invoice_number: string;
  invoice_date?: Dayjs;
  range?: [Dayjs, Dayjs];
  amount: string;
  minutes: string;
  lines: string;
  note: string;
}

/**
 * Finance > Vendor Invoice > Record: the vendor's invoice as received (number, date, period of the
 * vendor's local dates, total, minutes and optional lines per destination or day); the server
 * compares it with the CDRs of the period at once, and the detail page shows the difference.
 */
export default function VendorInvoiceNewPage() {
  const { t } = useTranslation();
  const nav = useNavigate();
  const { flash } = useFeedback();
  const [form] = Form.useForm<Values>();
  const create = useApiMutation(api.financeExtras.createVendorInvoice, [
    api.financeExtras.listVendorInvoices,
  ]);
  const day = (d?: Dayjs) => d?.format('YYYY-MM-DD') ?? '';
  const submit = async (v: Values) => {
    const parsed = parseVendorLines(v.lines);
    if ('badLine' in parsed) {
      form.setFields([{ name: 'lines', errors: [t('finx.linesInvalid', { n: parsed.badLine })] }]);
      return;
    }
    try {
      const r = await create.mutateAsync({
        body: {
          client_id: v.client_id as number,
          invoice_number: v.invoice_number.trim(),
          invoice_date: day(v.invoice_date),
          period_from: day(v.range?.[0]),
          period_to: day(v.range?.[1]),
          amount: v.amount.trim(),
          minutes: v.minutes.trim() || null,
          lines: parsed.lines,
          note: v.note,
        },
      });
      flash(t('finx.done'));
      nav(`/finance/vendor_invoice/${r.vendor_invoice_id}`);
    } catch (e) {
      // Field errors of the server next to their fields (a duplicate number, a wrong currency...).
      if (e instanceof ApiError && e.errors)
        form.setFields(
          Object.entries(e.errors)
            .filter(([k]) => ['invoice_number', 'amount', 'minutes', 'client_id'].includes(k))
            .map(([name, msg]) => ({ name: name as keyof Values, errors: [msg] })),
        );
    }
  };
  const required = [{ required: true, message: t('finx.required') }];
  return (
    <div style={{ maxWidth: 640 }}>
      <div className="page-head">
        <h1>{t('finx.newVendorInvoice')}</h1>
      </div>
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ invoice_number: '', amount: '', minutes: '', lines: '', note: '' }}
        onFinish={(v) => void submit(v)}
        data-testid="vendor-invoice-form"
      >
        <Form.Item
          name="client_id"
          label={t('finx.vendor')}
          rules={[{ required: true, message: t('finx.selectCarrier') }]}
        >
          <CarrierSelect
            onChange={(v) => form.setFieldValue('client_id', v)}
            testId="vi-vendor"
            width={320}
          />
        </Form.Item>
        <Form.Item name="invoice_number" label={t('finx.invoiceNumber')} rules={required}>
          <Input data-testid="vi-number" maxLength={100} />
        </Form.Item>
        <Form.Item name="invoice_date" label={t('finx.invoiceDate')} rules={required}>
          <DatePicker data-testid="vi-date" />
        </Form.Item>
        <Form.Item name="range" label={`${t('finx.periodFrom')} – ${t('finx.periodTo')}`} rules={required}>
          <DatePicker.RangePicker data-testid="vi-period" />
        </Form.Item>
        <Form.Item name="amount" label={t('finx.vendorAmount')} rules={required}>
          <Input inputMode="decimal" data-testid="vi-amount" style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="minutes" label={t('finx.vendorMinutes')}>
          <Input inputMode="decimal" data-testid="vi-minutes" style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="lines" label={t('finx.lines')} extra={t('finx.linesHelp')}>
          <Input.TextArea rows={5} data-testid="vi-lines" />
        </Form.Item>
        <Form.Item name="note" label={t('finx.note')}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={create.isPending} data-testid="vi-save">
          {t('common.save')}
        </Button>
      </Form>
    </div>
  );
}
