import { api, type InvoiceRow, type LedgerRow, type PaymentRow } from '@tandem/contract';
import { Button, Input, Select, Space, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { formatMoneyText } from '../../lib/money';
import { money, openInvoiceFile, PayStatusTag } from '../billing/shared';
import { useListState } from '../rates/useListState';
import { when } from '../routing/shared';
import '../billing/i18n';
import '../finance/i18n';
import './i18n';

/**
 * The agent portal's Clients menu beyond the client list (spec 01 agent portal): the invoices,
 * payments and balance transactions of the agent's clients. The lists are the Finance calls; the
 * server keeps an agent to its own clients whatever client it filters by (docs/agents.md).
 */

/** One of the agent's clients (its client list), or all of them. */
export function ClientFilter({ value, onChange }: { value?: string; onChange: (v: string | null) => void }) {
  const { t } = useTranslation();
  const clients = useApi(api.agents.portalClients, {
    query: { page: 0, per_page: 1000, order_by: 'name', order_dir: 'asc' },
  });
  return (
    <Select
      allowClear
      showSearch
      optionFilterProp="label"
      placeholder={t('agents.allClients')}
      value={value ? Number(value) : undefined}
      onChange={(v?: number) => onChange(v === undefined ? null : String(v))}
      style={{ width: 240 }}
      data-testid="filter-client"
      options={(clients.data?.items ?? []).map((c) => ({ value: c.client_id, label: c.name }))}
    />
  );
}

/** The client fixed by the path (`.../{client_name}/{client_id}`), else the filter in the URL. */
function useClient(ls: ReturnType<typeof useListState>) {
  const params = useParams();
  const fixed = params.client_id ? String(Number(params.client_id)) : undefined;
  return { fixed, name: params.client_name, id: fixed ?? ls.filters.client_id };
}

/** Clients > Client Invoice: the customer invoices of the agent's clients, with PDF and CDRs. */
export function PortalInvoicesPage() {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const ls = useListState({ orderBy: 'invoice_id' });
  const f = ls.filters;
  const client = useClient(ls);
  const list = useApi(api.billing.listInvoices, {
    query: {
      page: ls.query.page,
      per_page: ls.query.per_page,
      ...(f.pay_status ? { pay_status: f.pay_status } : {}),
      ...(f.invoice_number ? { invoice_number: f.invoice_number } : {}),
      ...(client.id ? { client_id: client.id } : {}),
    } as never,
  });
  const file = async (id: number, what: 'pdf' | 'cdr') => {
    const err = await openInvoiceFile(id, what);
    if (err) flash(err, 'error');
  };
  return (
    <div>
      <div className="page-head">
        <h1>{t('agents.clientInvoice')}</h1>
      </div>
      <Space wrap style={{ marginBottom: 12 }}>
        <ClientFilter value={client.id} onChange={(v) => ls.setFilter('client_id', v)} />
        <Input.Search
          allowClear
          placeholder={t('billing.invoiceNumber')}
          defaultValue={f.invoice_number}
          onSearch={(v) => ls.setFilter('invoice_number', v)}
          style={{ width: 200 }}
          data-testid="filter-number"
        />
        <Select
          allowClear
          placeholder={t('billing.payStatus')}
          value={f.pay_status}
          onChange={(v?: string) => ls.setFilter('pay_status', v ?? null)}
          style={{ width: 170 }}
          data-testid="filter-pay-status"
          options={api.billing.PAY_STATUSES.map((s) => ({ value: s, label: t(`billing.payStatuses.${s}`) }))}
        />
        {list.data && (
          <span data-testid="invoice-totals">
            {t('billing.total')}: <b>{money(list.data.totals.amount)}</b> · {t('billing.due')}:{' '}
            <b>{money(list.data.totals.due)}</b>
          </span>
        )}
      </Space>
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
          { key: 'invoice_number', title: t('billing.invoiceNumber'), dataIndex: 'invoice_number' },
          { key: 'client_name', title: t('agents.carrier'), dataIndex: 'client_name' },
          { key: 'invoice_date', title: t('billing.invoiceDate'), dataIndex: 'invoice_date' },
          {
            key: 'period',
            title: t('billing.period'),
            render: (_, r) => `${r.period_from} – ${r.period_to}`,
          },
          {
            key: 'amount',
            title: t('billing.total'),
            align: 'right',
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
          { key: 'due_date', title: t('billing.dueDate'), dataIndex: 'due_date' },
          {
            key: 'state',
            title: t('common.status'),
            render: (_, r) =>
              r.status === 'voided' ? t('billing.statuses.voided') : <PayStatusTag status={r.pay_status} />,
          },
          {
            key: 'actions',
            title: '',
            render: (_, r) => (
              <Space size={4}>
                <Button size="small" onClick={() => void file(r.invoice_id, 'pdf')} data-testid="pdf">
                  {t('billing.pdf')}
                </Button>
                <Button size="small" onClick={() => void file(r.invoice_id, 'cdr')}>
                  {t('billing.cdr')}
                </Button>
                <Link
                  to={`/agents/client/client_payment/${encodeURIComponent(r.client_name)}/${r.client_id}`}
                >
                  {t('billing.payments')}
                </Link>
              </Space>
            ),
          },
        ]}
      />
    </div>
  );
}

/** Clients > Client Payment (also `.../{client_name}/{client_id}` for one client): payments received. */
export function PortalPaymentsPage() {
  const { t } = useTranslation();
  const ls = useListState({ orderBy: 'payment_id' });
  const client = useClient(ls);
  const list = useApi(api.billing.listPayments, {
    query: {
      page: ls.query.page,
      per_page: ls.query.per_page,
      ...(client.id ? { client_id: client.id } : {}),
    } as never,
  });
  return (
    <div>
      <div className="page-head">
        <h1>
          {t('agents.clientPayment')}
          {client.fixed && client.name ? `: ${client.name}` : ''}
        </h1>
      </div>
      <Space wrap style={{ marginBottom: 12 }}>
        {client.fixed ? (
          <Link to="/agents/client/client_payment">{t('agents.allClients')}</Link>
        ) : (
          <ClientFilter value={client.id} onChange={(v) => ls.setFilter('client_id', v)} />
        )}
        {list.data && (
          <span data-testid="payment-totals">
            {t('billing.total')}: <b>{money(list.data.totals.amount)}</b>
          </span>
        )}
      </Space>
      <Table<PaymentRow>
        rowKey="payment_id"
        size="small"
        scroll={{ x: 'max-content' }}
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        data-testid="payments"
        onRow={(r) => ({ 'data-testid': `payment-${r.payment_id}` }) as React.HTMLAttributes<HTMLElement>}
        onChange={(pg, _f, s) => ls.onTableChange(pg, s)}
        pagination={ls.pagination(list.data?.total ?? 0)}
        columns={[
          { key: 'paid_at', title: t('billing.paidAt'), render: (_, r) => when(r.paid_at) },
          { key: 'client_name', title: t('agents.carrier'), dataIndex: 'client_name' },
          { key: 'amount', title: t('billing.amount'), align: 'right', render: (_, r) => money(r.amount) },
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
          {
            key: 'status',
            title: t('common.status'),
            render: (_, r) => t(`billing.paymentStatuses.${r.status}`),
          },
        ]}
      />
    </div>
  );
}

/** Clients > Client Transaction: every change of the agent's clients' balances (the ledger). */
export function PortalTransactionsPage() {
  const { t } = useTranslation();
  const ls = useListState({ orderBy: 'ledger_id' });
  const f = ls.filters;
  const client = useClient(ls);
  const list = useApi(api.finance.listTransactions, {
    query: {
      page: ls.query.page,
      per_page: ls.query.per_page,
      ...(f.kind ? { kind: f.kind } : {}),
      ...(client.id ? { client_id: client.id } : {}),
    } as never,
  });
  const six = (v: string) => formatMoneyText(v, { decimals: 6 });
  return (
    <div>
      <div className="page-head">
        <h1>{t('agents.clientTransaction')}</h1>
      </div>
      <Space wrap style={{ marginBottom: 12 }}>
        <ClientFilter value={client.id} onChange={(v) => ls.setFilter('client_id', v)} />
        <Select
          allowClear
          placeholder={t('finance.kind')}
          value={f.kind}
          onChange={(v?: string) => ls.setFilter('kind', v ?? null)}
          style={{ width: 170 }}
          data-testid="filter-kind"
          options={api.finance.LEDGER_KINDS.map((k) => ({ value: k, label: t(`finance.kinds.${k}`) }))}
        />
        {list.data && (
          <span data-testid="ledger-totals">
            {t('finance.total')}: <b data-testid="ledger-total">{six(list.data.totals.amount)}</b>
          </span>
        )}
      </Space>
      <Table<LedgerRow>
        rowKey="ledger_id"
        size="small"
        scroll={{ x: 'max-content' }}
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        data-testid="ledger"
        onRow={(r) => ({ 'data-testid': `ledger-${r.ledger_id}` }) as React.HTMLAttributes<HTMLElement>}
        onChange={(pg, _f, s) => ls.onTableChange(pg, s)}
        pagination={ls.pagination(list.data?.total ?? 0)}
        columns={[
          { key: 'created_at', title: t('finance.time'), render: (_, r) => when(r.created_at) },
          { key: 'client_name', title: t('agents.carrier'), dataIndex: 'client_name' },
          { key: 'kind', title: t('finance.kind'), render: (_, r) => t(`finance.kinds.${r.kind}`) },
          { key: 'ref', title: t('finance.ref'), dataIndex: 'ref' },
          { key: 'amount', title: t('finance.amount'), align: 'right', render: (_, r) => six(r.amount) },
          {
            key: 'balance_after',
            title: t('finance.after'),
            align: 'right',
            render: (_, r) => six(r.balance_after),
          },
          { key: 'note', title: t('finance.note'), dataIndex: 'note' },
        ]}
      />
    </div>
  );
}
