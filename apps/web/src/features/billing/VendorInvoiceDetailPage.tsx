import { api, type VendorComparison } from '@tandem/contract';
import { Button, Card, Descriptions, Form, Input, Popover, Space, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { urlOf } from '../../api/client';
import { useApi, useApiMutation } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { UploadWidget } from '../../components/UploadWidget';
import { i18next } from '../../i18n';
import { getToken } from '../../lib/storage';
import { money } from './shared';
import { Difference, VendorStatusTag } from './VendorInvoicesPage';
import './i18n';

const fx = api.financeExtras;
type Line = VendorComparison['by_day'][number];

/**
 * One vendor invoice against Tandem's figures of its period: totals (amount, minutes, calls, the
 * difference and its percent), per destination and per day where the vendor gave lines (else
 * Tandem's days), the vendor's PDF, and the dispute: Dispute (amount and reason), Accept (the
 * vendor's amount) or Resolve (the amount agreed); a settlement adjusts what the vendor is owed once.
 */
export default function VendorInvoiceDetailPage() {
  const { t } = useTranslation();
  const { flash, confirm } = useFeedback();
  const nav = useNavigate();
  const id = Number(useParams().id);
  const inv = useApi(fx.getVendorInvoice, { params: { id } });
  const refresh = [fx.getVendorInvoice, fx.listVendorInvoices, api.finance.listTransactions];
  const dispute = useApiMutation(fx.disputeVendorInvoice, refresh);
  const settle = useApiMutation(fx.settleVendorInvoice, refresh);
  const compare = useApiMutation(fx.compareVendorInvoice, refresh);
  const remove = useApiMutation(fx.deleteVendorInvoice, [fx.listVendorInvoices]);
  const [open, setOpen] = useState<'dispute' | 'resolve' | null>(null);
  const [disputeForm] = Form.useForm<{ amount: string; note: string }>();
  const [resolveForm] = Form.useForm<{ agreed_amount: string; note: string }>();
  const r = inv.data;
  if (!r) return null;
  const c = r.comparison;
  const settled = r.status === 'accepted' || r.status === 'resolved';

  const openPdf = async () => {
    const res = await fetch(urlOf(fx.vendorInvoicePdf, { params: { id } }), {
      headers: { 'X-Auth-Token': getToken() ?? '', 'X-Lang': i18next.language },
    });
    if (!res.ok) return flash(res.statusText, 'error');
    window.open(URL.createObjectURL(await res.blob()), '_blank');
  };

  const lineColumns = (keyTitle: string) => [
    { key: 'key', title: keyTitle, dataIndex: 'key' },
    { key: 'our_calls', title: t('finx.ourCalls'), dataIndex: 'our_calls', align: 'right' as const },
    { key: 'our_minutes', title: t('finx.ourMinutes'), dataIndex: 'our_minutes', align: 'right' as const },
    {
      key: 'their_minutes',
      title: t('finx.vendorMinutes'),
      align: 'right' as const,
      render: (_: unknown, l: Line) => l.their_minutes ?? '–',
    },
    {
      key: 'our_amount',
      title: t('finx.ourAmount'),
      align: 'right' as const,
      render: (_: unknown, l: Line) => money(l.our_amount, 2),
    },
    {
      key: 'their_amount',
      title: t('finx.vendorAmount'),
      align: 'right' as const,
      render: (_: unknown, l: Line) =>
        l.their_amount === null ? t('finx.notBilled') : money(l.their_amount, 2),
    },
    {
      key: 'amount_difference',
      title: t('finx.difference'),
      align: 'right' as const,
      render: (_: unknown, l: Line) => <Difference v={l.amount_difference} testId="line-difference" />,
    },
  ];

  return (
    <div>
      <div className="page-head">
        <h1>
          {t('finx.vendorInvoice')} {r.invoice_number} · {r.client_name}
        </h1>
        <Link to="/finance/vendor_invoice">{t('finx.back')}</Link>
      </div>
      <Card style={{ marginBottom: 16 }}>
        <Descriptions size="small" column={3} bordered>
          <Descriptions.Item label={t('common.status')}>
            <VendorStatusTag status={r.status} />
          </Descriptions.Item>
          <Descriptions.Item label={t('finx.invoiceDate')}>{r.invoice_date}</Descriptions.Item>
          <Descriptions.Item label={`${t('finx.periodFrom')} – ${t('finx.periodTo')}`}>
            {r.period_from} – {r.period_to} (GMT {r.time_zone})
          </Descriptions.Item>
          <Descriptions.Item label={t('finx.vendorAmount')}>
            <span data-testid="vi-vendor-amount">{money(c.their_amount, 2, r.currency)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('finx.ourAmount')}>
            <span data-testid="vi-our-amount">{money(c.our_amount, 2, r.currency)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('finx.difference')}>
            <Difference v={c.amount_difference} currency={r.currency} testId="vi-difference" />
            {c.amount_difference_percent !== null && ` (${c.amount_difference_percent} %)`}
          </Descriptions.Item>
          <Descriptions.Item label={t('finx.vendorMinutes')}>{c.their_minutes ?? '–'}</Descriptions.Item>
          <Descriptions.Item label={t('finx.ourMinutes')}>
            <span data-testid="vi-our-minutes">{c.our_minutes}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('finx.minutesDifference')}>
            <span data-testid="vi-minutes-difference">{c.minutes_difference ?? '–'}</span>
          </Descriptions.Item>
          {r.disputed_amount !== null && (
            <Descriptions.Item label={t('finx.disputedAmount')}>
              {money(r.disputed_amount, 2, r.currency)} · {r.dispute_note}
            </Descriptions.Item>
          )}
          {settled && (
            <Descriptions.Item label={t('finx.agreedAmount')}>
              {money(r.agreed_amount, 2, r.currency)} · {t('finx.adjustment')}:{' '}
              <span data-testid="vi-adjustment">{money(r.adjustment, 2, r.currency)}</span> ·{' '}
              {t('finx.settled', { by: r.settled_by ?? '' })}
            </Descriptions.Item>
          )}
        </Descriptions>
        <Space wrap style={{ marginTop: 12 }}>
          {!settled && r.status !== 'disputed' && (
            <Popover
              open={open === 'dispute'}
              onOpenChange={(o) => setOpen(o ? 'dispute' : null)}
              trigger="click"
              content={
                <Form
                  form={disputeForm}
                  layout="vertical"
                  initialValues={{ amount: '', note: '' }}
                  onFinish={(v) =>
                    void (async () => {
                      await dispute.mutateAsync({
                        params: { id },
                        body: { note: v.note, ...(v.amount.trim() ? { amount: v.amount.trim() } : {}) },
                      });
                      setOpen(null);
                      flash(t('finx.done'));
                    })()
                  }
                >
                  <Form.Item name="amount" label={t('finx.disputedAmount')}>
                    <Input
                      placeholder={c.amount_difference}
                      inputMode="decimal"
                      data-testid="dispute-amount"
                    />
                  </Form.Item>
                  <Form.Item
                    name="note"
                    label={t('finx.disputeNote')}
                    rules={[{ required: true, message: t('finx.required') }]}
                  >
                    <Input.TextArea rows={3} data-testid="dispute-note" />
                  </Form.Item>
                  <Button
                    type="primary"
                    danger
                    htmlType="submit"
                    data-testid="dispute-save"
                    loading={dispute.isPending}
                  >
                    {t('finx.dispute')}
                  </Button>
                </Form>
              }
            >
              <Button danger data-testid="dispute">
                {t('finx.dispute')}
              </Button>
            </Popover>
          )}
          {!settled && (
            <Button
              type="primary"
              data-testid="accept"
              onClick={() =>
                void (async () => {
                  if (!(await confirm({ title: t('finx.acceptConfirm') }))) return;
                  await settle.mutateAsync({ params: { id }, body: { note: '' } });
                  flash(t('finx.done'));
                })()
              }
            >
              {t('finx.accept')}
            </Button>
          )}
          {r.status === 'disputed' && (
            <Popover
              open={open === 'resolve'}
              onOpenChange={(o) => setOpen(o ? 'resolve' : null)}
              trigger="click"
              content={
                <Form
                  form={resolveForm}
                  layout="vertical"
                  initialValues={{ agreed_amount: '', note: '' }}
                  onFinish={(v) =>
                    void (async () => {
                      await settle.mutateAsync({
                        params: { id },
                        body: { agreed_amount: v.agreed_amount.trim(), note: v.note },
                      });
                      setOpen(null);
                      flash(t('finx.done'));
                    })()
                  }
                >
                  <Form.Item
                    name="agreed_amount"
                    label={t('finx.agreedAmount')}
                    rules={[{ required: true, message: t('finx.required') }]}
                  >
                    <Input inputMode="decimal" data-testid="agreed-amount" />
                  </Form.Item>
                  <Form.Item name="note" label={t('finx.note')}>
                    <Input.TextArea rows={2} />
                  </Form.Item>
                  <Button
                    type="primary"
                    htmlType="submit"
                    data-testid="resolve-save"
                    loading={settle.isPending}
                  >
                    {t('finx.resolve')}
                  </Button>
                </Form>
              }
            >
              <Button data-testid="resolve">{t('finx.resolve')}</Button>
            </Popover>
          )}
          {!settled && (
            <Button
              data-testid="compare-again"
              loading={compare.isPending}
              onClick={() => void compare.mutateAsync({ params: { id } }).then(() => flash(t('finx.done')))}
            >
              {t('finx.compareAgain')}
            </Button>
          )}
          {r.has_pdf && (
            <Button data-testid="vi-pdf" onClick={() => void openPdf()}>
              {t('finx.pdf')}
            </Button>
          )}
          {!settled && (
            <Button
              danger
              data-testid="vi-delete"
              onClick={() =>
                void (async () => {
                  if (!(await confirm({ title: t('finx.deleteConfirm'), danger: true }))) return;
                  await remove.mutateAsync({ params: { id } });
                  flash(t('finx.done'));
                  nav('/finance/vendor_invoice');
                })()
              }
            >
              {t('common.delete')}
            </Button>
          )}
        </Space>
      </Card>
      {!settled && (
        <Card title={t('finx.uploadPdf')} size="small" style={{ marginBottom: 16, maxWidth: 520 }}>
          <UploadWidget
            url={fx.uploadVendorInvoicePdf.path.replace(':id', String(id))}
            accept={['pdf']}
            maxFiles={1}
            maxFileSizeMb={fx.VENDOR_PDF_MAX_MB}
            autoProcess
            thumbnails={false}
            label={t('finx.dropPdf')}
            testId="vi-upload"
            onSuccess={() => void inv.refetch()}
          />
        </Card>
      )}
      {c.by_destination.length > 0 && (
        <Card title={t('finx.byDestination')} size="small" style={{ marginBottom: 16 }}>
          <Table<Line>
            rowKey="key"
            size="small"
            pagination={false}
            dataSource={c.by_destination}
            data-testid="vi-by-destination"
            onRow={(l) => ({ 'data-testid': `vi-line-${l.key}` }) as React.HTMLAttributes<HTMLElement>}
            columns={lineColumns(t('finx.destination'))}
          />
        </Card>
      )}
      {c.by_day.length > 0 ? (
        <Card title={t('finx.byDay')} size="small">
          <Table<Line>
            rowKey="key"
            size="small"
            pagination={false}
            dataSource={c.by_day}
            data-testid="vi-by-day"
            columns={lineColumns(t('finx.day'))}
          />
        </Card>
      ) : (
        c.by_destination.length === 0 && (
          <Card title={t('finx.byDay')} size="small">
            <p>{t('finx.noLines')}</p>
            <Table
              rowKey="key"
              size="small"
              pagination={false}
              dataSource={r.our_days}
              data-testid="vi-our-days"
              columns={[
                { key: 'key', title: t('finx.day'), dataIndex: 'key' },
                { key: 'calls', title: t('finx.ourCalls'), dataIndex: 'calls', align: 'right' },
                { key: 'minutes', title: t('finx.ourMinutes'), dataIndex: 'minutes', align: 'right' },
                {
                  key: 'amount',
                  title: t('finx.ourAmount'),
                  align: 'right',
                  render: (_, d) => money(d.amount, 2, r.currency),
                },
              ]}
            />
          </Card>
        )
      )}
    </div>
  );
}
