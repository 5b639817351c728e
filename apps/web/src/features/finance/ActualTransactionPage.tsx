import { api, type LedgerRow } from '@tandem/contract';
import { DatePicker, Descriptions, Input, Select, Space, Table } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { useApi } from '../../api/queries';
import { formatMoneyText } from '../../lib/money';
import { useSession } from '../../app/session';
import { useListState } from '../rates/useListState';
import { when } from '../routing/shared';
import { useRerateLookups } from '../rerate/ReratePage';
import './i18n';
import '../did/extras-i18n';

/** Origination's screens over DID carriers only (/origination/...), Finance's over every carrier. */
export const useOrigination = () => useLocation().pathname.startsWith('/origination/');

/**
 * Finance > Actual Transaction (and the portal's Billing > Transaction): the ledger, every change
 * of a carrier's balance with the balance before and after, filtered by carrier, type, side,
 * reference and time, with the totals of the whole filter. A client sees only its own carrier
 * (the server enforces it); the carrier filter is for admins. Origination > Actual Transaction is
 * this page over the DID clients and vendors (its own call, the server restricts it; `?id=` names
 * the carrier as the spec's link does).
 */
export default function ActualTransactionPage() {
  const { t } = useTranslation();
  const admin = useSession().session?.user.user_type === 'admin';
  const origination = useOrigination();
  const ls = useListState({ orderBy: 'ledger_id' });
  const { id, ...f } = ls.filters;
  if (origination && id && !f.client_id) f.client_id = id;
  const sorted = new URLSearchParams(window.location.hash.split('?')[1] ?? '').has('order_by');
  const query = { ...ls.query, ...f, order_by: sorted ? ls.query.order_by : undefined };
  delete (query as Record<string, unknown>).id;
  const endpoint = origination ? api.didExtras.listTransactions : api.finance.listTransactions;
  const list = useApi(endpoint as typeof api.finance.listTransactions, { query: query as never });
  const range = [f.time_from ? dayjs(f.time_from) : null, f.time_to ? dayjs(f.time_to) : null] as const;
  return (
    <div>
      <div className="page-head">
        <h1>
          {t(origination ? 'didx.transactions' : admin ? 'finance.actualTransaction' : 'finance.transaction')}
        </h1>
      </div>
      <Space wrap style={{ marginBottom: 12 }}>
        {admin && (
          <CarrierFilter
            value={f.client_id}
            didOnly={origination}
            onChange={(v) => ls.setFilters({ client_id: v, id: null })}
          />
        )}
        <Select
          allowClear
          placeholder={t('finance.kind')}
          value={f.kind}
          onChange={(v?: string) => ls.setFilter('kind', v ?? null)}
          style={{ width: 170 }}
          data-testid="filter-kind"
          options={api.finance.LEDGER_KINDS.map((k) => ({ value: k, label: t(`finance.kinds.${k}`) }))}
        />
        <Select
          allowClear
          placeholder={t('finance.side')}
          value={f.side}
          onChange={(v?: string) => ls.setFilter('side', v ?? null)}
          style={{ width: 140 }}
          data-testid="filter-side"
          options={api.finance.LEDGER_SIDES.map((k) => ({ value: k, label: t(`finance.sides.${k}`) }))}
        />
        <Input.Search
          allowClear
          placeholder={t('finance.ref')}
          defaultValue={f.ref}
          onSearch={(v) => ls.setFilter('ref', v)}
          style={{ width: 220 }}
          data-testid="filter-ref"
        />
        <DatePicker.RangePicker
          showTime
          allowEmpty={[true, true]}
          value={range as never}
          onChange={(v) =>
            ls.setFilters({
              time_from: v?.[0] ? v[0].toISOString() : null,
              time_to: v?.[1] ? v[1].toISOString() : null,
            })
          }
          data-testid="filter-time"
        />
      </Space>
      {list.data && (
        <Descriptions size="small" column={4} title={t('finance.totals')} data-testid="ledger-totals">
          <Descriptions.Item label={t('finance.rows')}>{list.data.total}</Descriptions.Item>
          <Descriptions.Item label={t('finance.total')}>
            <span data-testid="ledger-total">{ledgerMoney(list.data.totals.amount)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('finance.credit')}>
            {ledgerMoney(list.data.totals.credit)}
          </Descriptions.Item>
          <Descriptions.Item label={t('finance.debit')}>
            {ledgerMoney(list.data.totals.debit)}
          </Descriptions.Item>
        </Descriptions>
      )}
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
          { key: 'created_at', title: t('finance.time'), render: (_, r) => when(r.created_at), sorter: true },
          ...(admin
            ? [{ key: 'client_name', title: t('finance.carrier'), dataIndex: 'client_name', sorter: true }]
            : []),
          {
            key: 'kind',
            title: t('finance.kind'),
            render: (_, r) => t(`finance.kinds.${r.kind}`),
            sorter: true,
          },
          {
            key: 'side',
            title: t('finance.side'),
            render: (_, r) => (r.side ? t(`finance.sides.${r.side}`) : ''),
          },
          { key: 'ref', title: t('finance.ref'), dataIndex: 'ref' },
          {
            key: 'amount',
            title: t('finance.amount'),
            align: 'right',
            sorter: true,
            render: (_, r) => ledgerMoney(r.amount),
          },
          {
            key: 'balance_before',
            title: t('finance.before'),
            align: 'right',
            render: (_, r) => ledgerMoney(r.balance_before),
          },
          {
            key: 'balance_after',
            title: t('finance.after'),
            align: 'right',
            render: (_, r) => ledgerMoney(r.balance_after),
          },
          { key: 'cdr_count', title: t('finance.cdrCount'), dataIndex: 'cdr_count', align: 'right' },
          { key: 'note', title: t('finance.note'), dataIndex: 'note' },
          { key: 'created_by', title: t('finance.by'), dataIndex: 'created_by' },
        ]}
      />
    </div>
  );
}

/** Ledger amounts are exact to 6 places: shown so, grouped and in the language's separators. */
const ledgerMoney = (v: string) => formatMoneyText(v, { decimals: 6 });

function CarrierFilter({
  value,
  didOnly,
  onChange,
}: {
  value?: string;
  didOnly: boolean;
  onChange: (v: string | null) => void;
}) {
  const { t } = useTranslation();
  const lk = useRerateLookups();
  const options = didOnly
    ? lk.didCarriers
    : [...lk.customers, ...lk.vendors].sort((a, b) => a.label.localeCompare(b.label));
  return (
    <Select
      allowClear
      showSearch
      optionFilterProp="label"
      placeholder={t('finance.carrier')}
      value={value ? Number(value) : undefined}
      onChange={(v?: number) => onChange(v === undefined ? null : String(v))}
      style={{ width: 220 }}
      data-testid="filter-carrier"
      options={options}
    />
  );
}
