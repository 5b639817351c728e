import { api } from '@tandem/contract';
import { Select, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../api/queries';
import './i18n';
import { useListState } from './useListState';

type Task = api.rates.RateImportTask;
const STATUS_COLOR: Record<string, string> = { Finished: 'green', Failed: 'red', 'Insert new rate': 'blue' };

function TaskErrors({ id }: { id: number }) {
  const { t } = useTranslation();
  const errors = useApi(api.rates.listImportErrors, { params: { id }, query: { per_page: 1000 } });
  return (
    <Table
      size="small"
      rowKey="id"
      loading={errors.isLoading}
      dataSource={errors.data?.items ?? []}
      pagination={{ pageSize: 10 }}
      data-testid={`import-errors-${id}`}
      onRow={(r) => ({ 'data-testid': `import-error-${r.line}` }) as React.HTMLAttributes<HTMLElement>}
      columns={[
        { key: 'line', dataIndex: 'line', title: t('rates.line'), width: 80 },
        { key: 'code', dataIndex: 'code', title: t('rates.code'), width: 120 },
        { key: 'field', dataIndex: 'field', title: t('rates.field'), width: 140 },
        { key: 'message', dataIndex: 'message', title: t('rates.message') },
      ]}
    />
  );
}

/** Log > Rate Import Log: every rate import with its outcome, counts and the rows in error. */
export default function RateImportLogPage() {
  const { t } = useTranslation();
  const ls = useListState({ orderBy: 'created_at' });
  const query = {
    ...ls.query,
    order_dir: ls.filters.order_dir ?? (ls.query.order_by === 'created_at' ? 'desc' : ls.query.order_dir),
  };
  const list = useApi(api.rates.listImportLog, { query: query as never });
  const focus = Number(ls.filters.task ?? 0);
  const when = (s: string | null) => (s ? s.replace('T', ' ').slice(0, 19) : '—');
  return (
    <div>
      <div className="page-head">
        <h1>{t('rates.importLog')}</h1>
      </div>
      <Space style={{ marginBottom: 12 }}>
        <Select
          allowClear
          placeholder={t('common.status')}
          value={ls.filters.status}
          onChange={(v?: string) => ls.setFilter('status', v ?? null)}
          style={{ width: 180 }}
          data-testid="filter-status"
          options={Object.values(api.rates.IMPORT_STATUS).map((s) => ({ value: s, label: s }))}
        />
      </Space>
      <Table<Task>
        rowKey="id"
        size="small"
        scroll={{ x: 'max-content' }}
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        data-testid="list-rate-import-log"
        onRow={(r) => ({ 'data-testid': `import-task-${r.id}` }) as React.HTMLAttributes<HTMLElement>}
        expandable={{
          rowExpandable: (r) => r.error_rows > 0,
          defaultExpandedRowKeys: focus ? [focus] : [],
          expandedRowRender: (r) => <TaskErrors id={r.id} />,
        }}
        onChange={(pg, _f, s) => ls.onTableChange(pg, s)}
        pagination={ls.pagination(list.data?.total ?? 0)}
        columns={[
          {
            key: 'created_at',
            title: t('rates.created'),
            sorter: true,
            sortOrder: ls.sortOrder('created_at'),
            render: (_, r) => when(r.created_at),
          },
          {
            key: 'rate_table_name',
            title: t('rates.rateTable'),
            sorter: true,
            render: (_, r) => r.rate_table_name ?? '—',
          },
          { key: 'file_name', title: t('rates.file'), dataIndex: 'file_name' },
          { key: 'user_name', title: t('rates.user'), dataIndex: 'user_name' },
          { key: 'source', title: t('rates.source'), render: (_, r) => t(`rates.sources.${r.source}`) },
          {
            key: 'duplicate_mode',
            title: t('rates.duplicateMode'),
            render: (_, r) => t(`rates.duplicateModes.${r.duplicate_mode}`),
          },
          {
            key: 'status',
            title: t('common.status'),
            render: (_, r) => (
              <Tag color={STATUS_COLOR[r.status]} data-testid={`import-status-${r.id}`}>
                {r.status === 'Insert new rate' ? `${r.status} ${r.progress}%` : r.status}
              </Tag>
            ),
          },
          { key: 'total_rows', title: t('rates.total'), dataIndex: 'total_rows', align: 'right' },
          { key: 'inserted_rows', title: t('rates.inserted'), dataIndex: 'inserted_rows', align: 'right' },
          { key: 'updated_rows', title: t('rates.updatedRows'), dataIndex: 'updated_rows', align: 'right' },
          { key: 'skipped_rows', title: t('rates.skipped'), dataIndex: 'skipped_rows', align: 'right' },
          { key: 'ended_rows', title: t('rates.ended'), dataIndex: 'ended_rows', align: 'right' },
          { key: 'deleted_rows', title: t('rates.deleted'), dataIndex: 'deleted_rows', align: 'right' },
          { key: 'error_rows', title: t('rates.errors'), dataIndex: 'error_rows', align: 'right' },
          {
            key: 'message',
            title: t('rates.message'),
            render: (_, r) => <span data-testid={`import-message-${r.id}`}>{r.message}</span>,
          },
          { key: 'finished_at', title: t('rates.finished'), render: (_, r) => when(r.finished_at) },
        ]}
      />
    </div>
  );
}
