import { api } from '@tandem/contract';
import { Tag, Tooltip } from 'antd';
import { ResourceList } from '../../components/resource/ResourceList';
import type { ListResource } from '../../components/resource/types';
import { i18next } from '../../i18n';
import './i18n';

type Row = api.onlinePayment.OnlinePaymentRow;
const COLORS = { initial: 'blue', failed: 'red', succeed: 'green' } as const;

const resource: ListResource<Row> = {
  key: 'auto-payment-log',
  title: 'onlinePayment.log',
  list: api.onlinePayment.listOnlinePayments,
  rowKey: 'id',
  csvName: 'auto-payment-log',
  defaultSort: { by: 'created_at', dir: 'desc' },
  refetchMs: 10_000,
  columns: [
    {
      key: 'created_at',
      title: 'onlinePayment.time',
      sortable: true,
      render: (r) => r.created_at.replace('T', ' ').slice(0, 19),
    },
    { key: 'client_name', title: 'onlinePayment.carrier', sortable: true },
    {
      key: 'provider',
      title: 'onlinePayment.provider',
      render: (r, t) => t(`onlinePayment.providers.${r.provider}`),
    },
    {
      key: 'amount',
      title: 'onlinePayment.amount',
      sortable: true,
      render: (r) => `${r.amount} ${r.currency}`,
    },
    { key: 'charged', title: 'onlinePayment.charged', render: (r) => `${r.charged} ${r.currency}` },
    { key: 'fee', title: 'onlinePayment.fee' },
    {
      key: 'status',
      title: 'common.status',
      sortable: true,
      render: (r, t) => (
        <Tooltip title={r.error || undefined}>
          <Tag color={COLORS[r.status]} data-testid={`payment-status-${r.id}`}>
            {t(`onlinePayment.statuses.${r.status}`)}
          </Tag>
        </Tooltip>
      ),
    },
    { key: 'transaction_id', title: 'onlinePayment.transaction' },
    { key: 'error', title: 'onlinePayment.error' },
    { key: 'created_by', title: 'onlinePayment.by' },
  ],
  filters: [
    {
      name: 'provider',
      title: 'onlinePayment.provider',
      kind: 'select',
      options: api.onlinePayment.PROVIDERS.map((p) => ({
        value: p,
        label: i18next.t(`onlinePayment.providers.${p}`),
      })),
    },
    {
      name: 'status',
      title: 'common.status',
      kind: 'select',
      options: api.onlinePayment.PAYMENT_STATUSES.map((s) => ({
        value: s,
        label: i18next.t(`onlinePayment.statuses.${s}`),
      })),
    },
  ],
};

/** Log > Auto Payment Log: every online top-up (card and wallet provider) with its state. */
export default function AutoPaymentLogPage() {
  return <ResourceList resource={resource} />;
}
