import { api, type InvoiceRow } from '@tandem/contract';
import { Button, Input, Select, Space, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useApi, useApiMutation } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { useSession } from '../../app/session';
import { useListState } from '../rates/useListState';
import { useOrigination } from '../finance/ActualTransactionPage';
import { CarrierSelect, money, openInvoiceFile, PayStatusTag } from './shared';
import './i18n';
import '../did/extras-i18n';

/**
 * Finance > Invoice (also Carrier Invoice History for one carrier, and the portal's Billing >
 * Invoices, by paid status): the invoices with their totals, what is left to pay and their state;
 * per invoice the PDF, CDRs, payment list, credit note, debit note, send, public link, void or
 * reverse and delete (a voided one, with the finance permission). A client sees only its own.
 * Origination > DID Invoice is this list over the DID clients and vendors (its own calls and
 * permission: the list, new and the PDF; the other actions are Finance's).
 */
export default function InvoicesPage() {
  const { t } = useTranslation();
  const { flash, confirm } = useFeedback();
  const nav = useNavigate();
  const params = useParams();
  const admin = useSession().session?.user.user_type === 'admin';
  const origination = useOrigination();
  const ls = useListState({ orderBy: 'invoice_id' });
  const f = ls.filters;
  const fixedClient = params.client_id ? Number(params.client_id) : undefined;
  const paidStatus = params.paid_status as string | undefined;
  const sorted = new URLSearchParams(window.location.hash.split('?')[1] ?? '').has('order_by');
  const query = {
    ...ls.query,
    ...f,
    order_by: sorted ? ls.query.order_by : undefined,
    ...(fixedClient ? { client_id: fixedClient } : {}),
    ...(paidStatus && paidStatus !== 'all' ? { pay_status: paidStatus } : {}),
  };
  const endpoint = origination ? api.didExtras.listInvoices : api.billing.listInvoices;
  const list = useApi(endpoint as typeof api.billing.listInvoices, { query: query as never });
  const inv = [api.billing.listInvoices, api.billing.getInvoice];
  const voidIt = useApiMutation(api.billing.voidInvoice, inv);
  const reverse = useApiMutation(api.billing.reverseInvoice, inv);
  const remove = useApiMutation(api.billing.deleteInvoice, inv);
  const send = useApiMutation(api.billing.sendInvoice, [api.billing.listInvoiceLog]);
  const link = useApiMutation(api.billing.invoiceLink);
  const title = fixedClient
    ? `${t('billing.invoiceHistory')}: ${params.client_name ?? ''}`
    : t(origination ? 'didx.invoices' : 'billing.invoices');

  const file = async (id: number, what: 'pdf' | 'cdr') => {
    const err = await openInvoiceFile(id, what, origination);
    if (err) flash(err, 'error');
  };
  const act = async (r: InvoiceRow, what: 'void' | 'reverse' | 'delete') => {
    const ok = await confirm({
      title: t(
        `billing.${what === 'void' ? 'voidConfirm' : what === 'reverse' ? 'reverseConfirm' : 'deleteConfirm'}`,
      ),
      danger: what !== 'reverse',
    });
    if (!ok) return;
    const m = what === 'void' ? voidIt : what === 'reverse' ? reverse : remove;
    await m.mutateAsync({ params: { id: r.invoice_id } });
    flash(t('billing.done'));
  };

  return (
    <div>
      <div className="page-head">
        <h1>{title}</h1>
        {admin && (
          <Button
            type="primary"
            onClick={() => nav(origination ? '/origination/did_invoice/new' : '/finance/invoice/new')}
            data-testid="new-invoice"
          >
            {t('billing.newInvoice')}
          </Button>
        )}
      </div>
      <Space wrap style={{ marginBottom: 12 }}>
        {admin && !fixedClient && (
          <CarrierSelect
            didOnly={origination}
            value={f.client_id ? Number(f.client_id) : undefined}
            onChange={(v) => ls.setFilter('client_id', v === undefined ? null : String(v))}
            testId="filter-carrier"
          />
        )}
        <Input.Search
          allowClear
          placeholder={t('billing.invoiceNumber')}
          defaultValue={f.invoice_number}
          onSearch={(v) => ls.setFilter('invoice_number', v)}
          style={{ width: 200 }}
          data-testid="filter-number"
        />
        {!paidStatus && (
          <Select
            allowClear
            placeholder={t('billing.payStatus')}
            value={f.pay_status}
            onChange={(v?: string) => ls.setFilter('pay_status', v ?? null)}
            style={{ width: 170 }}
            data-testid="filter-pay-status"
            options={api.billing.PAY_STATUSES.map((s) => ({
              value: s,
              label: t(`billing.payStatuses.${s}`),
            }))}
          />
        )}
        <Select
          allowClear
          placeholder={t('common.status')}
          value={f.status}
          onChange={(v?: string) => ls.setFilter('status', v ?? null)}
          style={{ width: 140 }}
          data-testid="filter-status"
          options={(['normal', 'voided'] as const).map((s) => ({
            value: s,
            label: t(`billing.statuses.${s}`),
          }))}
        />
        {admin && (
          <Select
            allowClear
            placeholder={t('billing.side')}
            value={f.side}
            onChange={(v?: string) => ls.setFilter('side', v ?? null)}
            style={{ width: 170 }}
            options={api.billing.INVOICE_SIDES.map((s) => ({ value: s, label: t(`billing.sides.${s}`) }))}
          />
        )}
      </Space>
      {list.data && (
        <div style={{ marginBottom: 8 }} data-testid="invoice-totals">
          {t('billing.total')}: <b>{money(list.data.totals.amount)}</b> · {t('billing.due')}:{' '}
          <b>{money(list.data.totals.due)}</b>
        </div>
      )}
      <Table<InvoiceRow>
        rowKey="invoice_id"
        size="small"
        scroll={{ x: 'max-content' }}
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        data-testid="invoices"
        onRow={(r) => ({ 'data-testid': `invoice-${r.invoice_number}` }) as React.HTMLAttributes<HTMLElement>}
        onChange={(pg, _f, s) => ls.onTableChange(pg, s)}
        pagination={ls.pagination(list.data?.total ?? 0)}
        columns={[
          {
            key: 'invoice_number',
            title: t('billing.invoiceNumber'),
            dataIndex: 'invoice_number',
            sorter: true,
          },
          ...(admin
            ? [{ key: 'client_name', title: t('billing.carrier'), dataIndex: 'client_name', sorter: true }]
            : []),
          { key: 'invoice_date', title: t('billing.invoiceDate'), dataIndex: 'invoice_date', sorter: true },
          {
            key: 'period',
            title: t('billing.period'),
            render: (_, r) => `${r.period_from} – ${r.period_to}`,
          },
          {
            key: 'amount',
            title: t('billing.total'),
            align: 'right',
            sorter: true,
            render: (_, r) => money(r.amount, r.decimal_places, r.currency),
          },
          {
            key: 'paid',
            title: t('billing.paid'),
            align: 'right',
            render: (_, r) => money(r.paid_amount, r.decimal_places),
          },
          {
            key: 'due',
            title: t('billing.due'),
            align: 'right',
            render: (_, r) => <span data-testid="due">{money(r.due, r.decimal_places)}</span>,
          },
          { key: 'due_date', title: t('billing.dueDate'), dataIndex: 'due_date', sorter: true },
          {
            key: 'state',
            title: t('common.status'),
            render: (_, r) => (
              <span data-testid="state">
                {r.status === 'voided' ? (
                  t('billing.statuses.voided')
                ) : (
                  <PayStatusTag status={r.pay_status} />
                )}
              </span>
            ),
          },
          ...(admin
            ? [
                {
                  key: 'origin',
                  title: t('billing.origin'),
                  render: (_: unknown, r: InvoiceRow) => t(`billing.origins.${r.origin}`),
                },
              ]
            : []),
          {
            key: 'actions',
            title: '',
            // kept in view at the right edge; the actions wrap within it instead of running off screen
            fixed: 'right',
            width: admin ? 280 : 130,
            render: (_, r) => (
              <Space size={4} wrap>
                <Button size="small" onClick={() => void file(r.invoice_id, 'pdf')} data-testid="pdf">
                  {t('billing.pdf')}
                </Button>
                {!origination && (
                  <Button size="small" onClick={() => void file(r.invoice_id, 'cdr')}>
                    {t('billing.cdr')}
                  </Button>
                )}
                {admin && !origination && (
                  <>
                    <Link to={`/finance/invoice/payment_list/${r.invoice_id}`} data-testid="payments">
                      {t('billing.payments')}
                    </Link>
                    {r.status === 'normal' && (
                      <>
                        <Link to={`/finance/invoice/credit_note/${r.invoice_id}`} data-testid="credit-note">
                          {t('billing.creditNote')}
                        </Link>
                        <Link to={`/finance/invoice/debit_note/${r.client_id}/${r.invoice_number}`}>
                          {t('billing.debitNote')}
                        </Link>
                        <Button
                          size="small"
                          data-testid="send"
                          onClick={async () => {
                            const s = await send.mutateAsync({ params: { id: r.invoice_id }, body: {} });
                            flash(s.sent ? t('billing.sent') : s.error, s.sent ? 'info' : 'error');
                          }}
                        >
                          {t('billing.send')}
                        </Button>
                        <Button
                          size="small"
                          onClick={async () => {
                            const l = await link.mutateAsync({ params: { id: r.invoice_id } });
                            await navigator.clipboard?.writeText(l.url).catch(() => undefined);
                            flash(
                              `${l.url} — ${l.expires_at ? t('billing.linkCopied', { until: l.expires_at.slice(0, 10) }) : t('billing.linkNoExpiry')}`,
                            );
                          }}
                        >
                          {t('billing.link')}
                        </Button>
                        <Button size="small" danger onClick={() => void act(r, 'void')} data-testid="void">
                          {t('billing.void')}
                        </Button>
                      </>
                    )}
                    {r.status === 'voided' && (
                      <>
                        <Button size="small" onClick={() => void act(r, 'reverse')} data-testid="reverse">
                          {t('billing.reverse')}
                        </Button>
                        <Button
                          size="small"
                          danger
                          onClick={() => void act(r, 'delete')}
                          data-testid="delete"
                        >
                          {t('common.delete')}
                        </Button>
                      </>
                    )}
                  </>
                )}
              </Space>
            ),
          },
        ]}
      />
    </div>
  );
}
