import { api } from '@tandem/contract';
import { Table } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useApi } from '../../api/queries';
import { RATE_COLUMN_LABEL } from './columns';
import './i18n';
import { useListState } from './useListState';

type Row = z.infer<typeof api.rates.massEditLogRow>;

/** Log > Rate Mass Edit Log: who changed which rates of which table, how, and how many rows. */
export default function RateMassEditLogPage() {
  const { t } = useTranslation();
  const ls = useListState({ orderBy: 'created_at' });
  const query = {
    ...ls.query,
    order_dir: ls.query.order_by === 'created_at' && !ls.filters.order_dir ? 'desc' : ls.query.order_dir,
  };
  const list = useApi(api.rates.listMassEditLog, { query: query as never });
  const describe = (actions: Record<string, unknown>) =>
    Object.entries(actions)
      .map(([c, a]) => {
        const x = a as { action: string; value?: string };
        return `${t(RATE_COLUMN_LABEL[c as api.rates.RateColumn] ?? c)}: ${t(`rates.massEditActions.${x.action}`)} ${x.value ?? ''}`.trim();
      })
      .join('; ');
  const filterText = (f: Record<string, unknown>) =>
    Object.entries(f)
      .filter(([, v]) => v !== undefined && v !== '')
      .map(([k, v]) => `${k}=${Array.isArray(v) ? v.length : String(v as string)}`)
      .join(', ') || t('common.all');
  return (
    <div>
      <div className="page-head">
        <h1>{t('rates.massEditLog')}</h1>
      </div>
      <Table<Row>
        rowKey="id"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        data-testid="list-rate-mass-edit-log"
        onRow={(r) => ({ 'data-testid': `mass-edit-${r.id}` }) as React.HTMLAttributes<HTMLElement>}
        onChange={(pg, _f, s) => ls.onTableChange(pg, s)}
        pagination={ls.pagination(list.data?.total ?? 0)}
        columns={[
          {
            key: 'created_at',
            title: t('rates.created'),
            sorter: true,
            sortOrder: ls.sortOrder('created_at'),
            render: (_, r) => r.created_at.replace('T', ' ').slice(0, 19),
          },
          { key: 'rate_table_name', title: t('rates.rateTable'), dataIndex: 'rate_table_name', sorter: true },
          { key: 'user_name', title: t('rates.user'), dataIndex: 'user_name' },
          { key: 'filter', title: t('common.filter'), render: (_, r) => filterText(r.filter) },
          { key: 'actions', title: t('rates.actions'), render: (_, r) => describe(r.actions) },
          {
            key: 'affected_rows',
            title: t('rates.affected'),
            dataIndex: 'affected_rows',
            align: 'right',
            sorter: true,
          },
        ]}
      />
    </div>
  );
}
