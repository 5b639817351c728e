import { api } from '@tandem/contract';
import { Space, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { z } from 'zod';
import { useApi } from '../../api/queries';
import { ActiveTag, ResourceList } from '../../components/resource/ResourceList';
import type { ListResource } from '../../components/resource/types';
import { shownInstant } from './i18n';

type Row = z.output<typeof api.rateReports.clientRateSummaryRow>;
type Option = { value: string; label: string };

const resourceOf = (options: {
  carriers: Option[];
  trunks: Option[];
  tables: Option[];
}): ListResource<Row> => ({
  key: 'client-rate-summary',
  title: 'rateReports.clientRateSummary',
  list: api.rateReports.clientRateSummary,
  rowKey: 'key',
  csvName: 'client-rate-summary',
  defaultSort: { by: 'carrier_name', dir: 'asc' },
  columns: [
    { key: 'carrier_name', title: 'rateReports.client', sortable: true },
    {
      key: 'trunk_name',
      title: 'rateReports.trunk',
      sortable: true,
      render: (r, t) => (
        <Space size={4}>
          <Link to={`/routing/trunks/edit/${r.trunk_id}/ingress`}>{r.trunk_name}</Link>
          {!r.trunk_is_active && <ActiveTag active={false} t={t} />}
        </Space>
      ),
      csv: (r) => r.trunk_name,
    },
    {
      key: 'trunk_is_active',
      title: 'rateReports.trunkState',
      csv: (r) => (r.trunk_is_active ? 1 : 0),
      render: (r, t) => <ActiveTag active={r.trunk_is_active} t={t} />,
    },
    { key: 'tech_prefix', title: 'rateReports.techPrefix', sortable: true },
    { key: 'product_name', title: 'rateReports.product' },
    {
      key: 'rate_table_name',
      title: 'rateReports.rateTable',
      sortable: true,
      render: (r, t) =>
        r.rate_table_id === null ? (
          <Tag color="red">{t('rateReports.noRateTable')}</Tag>
        ) : (
          <Link
            to={`/routing/rate_table/editing_rates/${r.rate_table_id}`}
            data-testid={`summary-table-${r.key}`}
          >
            {r.rate_table_name}
          </Link>
        ),
    },
    { key: 'currency', title: 'rateReports.currency' },
    { key: 'rate_count', title: 'rateReports.rateCount' },
    { key: 'current_codes', title: 'rateReports.currentCodes' },
    {
      key: 'last_effective_date',
      title: 'rateReports.lastEffective',
      render: (r) => shownInstant(r.last_effective_date),
    },
    {
      key: 'pending',
      title: 'rateReports.pending',
      render: (r, t) =>
        r.rate_table_id !== null && r.pending_increases + r.pending_decreases + r.pending_new > 0 ? (
          <Link to={`/routing/rate_table/editing_rates/${r.rate_table_id}?state=future`}>
            <Space size={2} data-testid={`pending-${r.key}`}>
              <Tooltip title={t('rateReports.pendingIncreases')}>
                <Tag color="red">↑ {r.pending_increases}</Tag>
              </Tooltip>
              <Tooltip title={t('rateReports.pendingDecreases')}>
                <Tag color="green">↓ {r.pending_decreases}</Tag>
              </Tooltip>
              <Tooltip title={t('rateReports.pendingNew')}>
                <Tag color="blue">+ {r.pending_new}</Tag>
              </Tooltip>
            </Space>
          </Link>
        ) : (
          '—'
        ),
      csv: (r) => `+${r.pending_increases} -${r.pending_decreases} new ${r.pending_new}`,
    },
    {
      key: 'next_change_date',
      title: 'rateReports.nextChange',
      render: (r) => shownInstant(r.next_change_date),
    },
    {
      key: 'updated_at',
      title: 'rateReports.updated',
      sortable: true,
      render: (r) => shownInstant(r.updated_at),
    },
  ],
  filters: [
    { name: 'carrier_id', title: 'rateReports.client', kind: 'select', options: options.carriers },
    { name: 'trunk_id', title: 'rateReports.trunk', kind: 'select', options: options.trunks },
    { name: 'rate_table_id', title: 'rateReports.rateTable', kind: 'select', options: options.tables },
    { name: 'is_active', title: 'rateReports.trunkState', kind: 'boolean' },
  ],
});

/** Termination > Client Rate Summary: each client's ingress trunks with the rate tables they price with. */
export default function ClientRateSummaryPage() {
  useTranslation();
  const all = { page: 0, per_page: 9999, order_by: 'name', order_dir: 'asc' } as const;
  const carriers = useApi(api.carriers.carrier.list, { query: { ...all, client_type: 'client' } });
  const trunks = useApi(api.trunks.trunk.list, { query: { ...all, direction: 'ingress' } });
  const tables = useApi(api.rates.rateTable.list, { query: all });
  const opt = <T,>(items: T[] | undefined, id: (x: T) => number, name: (x: T) => string): Option[] =>
    (items ?? []).map((x) => ({ value: String(id(x)), label: name(x) }));
  return (
    <ResourceList
      resource={resourceOf({
        carriers: opt(
          carriers.data?.items,
          (c) => c.client_id,
          (c) => c.name,
        ),
        trunks: opt(
          trunks.data?.items,
          (c) => c.trunk_id,
          (c) => c.name,
        ),
        tables: opt(
          tables.data?.items,
          (c) => c.rate_table_id,
          (c) => c.name,
        ),
      })}
    />
  );
}
