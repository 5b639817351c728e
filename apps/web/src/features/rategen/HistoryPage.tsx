import { api } from '@tandem/contract';
import { Button, Select, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useApi } from '../../api/queries';
import { useListState } from '../rates/useListState';
import { when } from '../routing/shared';
import './i18n';

type Row = api.rateGeneration.HistoryRow;
export const STATUS_COLOR: Record<string, string> = { Initial: 'blue', Finished: 'green', Failed: 'red' };

/** Tools > Rate Generation > History: every run with its status; refreshes while a run is going. */
export default function HistoryPage() {
  const { t } = useTranslation();
  const ls = useListState({ orderBy: 'start_time' });
  const query = {
    ...ls.query,
    order_dir: ls.filters.order_dir ?? (ls.query.order_by === 'start_time' ? 'desc' : ls.query.order_dir),
  };
  const list = useApi(
    api.rateGeneration.listHistory,
    { query: query as never },
    {
      refetchInterval: (q) => (q.state.data?.items.some((r) => r.status === 'Initial') ? 1000 : false),
    },
  );
  return (
    <div>
      <div className="page-head">
        <h1>{t('rategen.history')}</h1>
        <Link to="/tools/rate_generation">
          <Button data-testid="open-templates">{t('rategen.title')}</Button>
        </Link>
      </div>
      <Space style={{ marginBottom: 12 }}>
        <Select
          allowClear
          placeholder={t('rategen.status')}
          value={ls.filters.status}
          onChange={(v?: string) => ls.setFilter('status', v ?? null)}
          style={{ width: 180 }}
          data-testid="filter-status"
          options={api.rateGeneration.GENERATION_STATUS.map((s) => ({
            value: s,
            label: t(`rategen.statuses.${s}`),
          }))}
        />
      </Space>
      <Table<Row>
        rowKey="id"
        size="small"
        scroll={{ x: 'max-content' }}
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        data-testid="list-rate-generation-history"
        onRow={(r) => ({ 'data-testid': `history-${r.id}` }) as React.HTMLAttributes<HTMLElement>}
        onChange={(pg, _f, s) => ls.onTableChange(pg, s)}
        pagination={ls.pagination(list.data?.total ?? 0)}
        columns={[
          { key: 'id', title: '#', dataIndex: 'id', sorter: true, sortOrder: ls.sortOrder('id') },
          { key: 'template_name', title: t('rategen.template'), dataIndex: 'template_name', sorter: true },
          {
            key: 'status',
            title: t('rategen.status'),
            render: (_, r) => (
              <Tag color={STATUS_COLOR[r.status]} data-testid={`history-status-${r.id}`}>
                {t(`rategen.statuses.${r.status}`)}
              </Tag>
            ),
          },
          { key: 'created_by', title: t('rategen.createdBy'), dataIndex: 'created_by' },
          {
            key: 'start_time',
            title: t('rategen.startTime'),
            sorter: true,
            sortOrder: ls.sortOrder('start_time'),
            render: (_, r) => when(r.start_time),
          },
          {
            key: 'finish_time',
            title: t('rategen.finishTime'),
            render: (_, r) => when(r.finish_time) || '—',
          },
          { key: 'rate_date', title: t('rategen.rateDate'), render: (_, r) => when(r.rate_date) },
          { key: 'rate_count', title: t('rategen.rateCount'), dataIndex: 'rate_count', align: 'right' },
          {
            key: 'applied',
            title: t('rategen.applied'),
            render: (_, r) => (
              <Tag color={r.applied ? 'green' : undefined} data-testid={`history-applied-${r.id}`}>
                {t(r.applied ? 'rategen.yes' : 'rategen.no')}
              </Tag>
            ),
          },
          {
            key: 'rate_table_name',
            title: t('rategen.rateTable'),
            render: (_, r) =>
              r.rate_table_id ? (
                <Link
                  to={`/tools/rate_generation/view_rate_result/${r.rate_table_id}?rate_generation_id=${r.id}`}
                >
                  {r.rate_table_name}
                </Link>
              ) : (
                '—'
              ),
          },
          { key: 'message', title: t('rategen.message'), dataIndex: 'message' },
          {
            key: 'actions',
            title: '',
            render: (_, r) =>
              r.status === 'Finished' ? (
                <Space>
                  <Link
                    to={`/tools/rate_generation/history_detail/${r.id}`}
                    data-testid={`history-view-${r.id}`}
                  >
                    {t('rategen.viewRates')}
                  </Link>
                  <Link
                    to={`/tools/rate_generation/history/analysis?rate_generation_id=${r.id}${r.rate_table_id ? `&rate_table_id=${r.rate_table_id}` : ''}`}
                    data-testid={`history-analyse-${r.id}`}
                  >
                    {t('rategen.analyse')}
                  </Link>
                  {r.rate_count > 0 && (
                    <Link
                      to={`/tools/rate_generation/apply_to_rate_table/${r.id}`}
                      data-testid={`history-apply-${r.id}`}
                    >
                      {t('rategen.apply')}
                    </Link>
                  )}
                </Space>
              ) : null,
          },
        ]}
      />
    </div>
  );
}
