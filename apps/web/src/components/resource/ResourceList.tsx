import {
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  PlusOutlined,
  PoweroffOutlined,
} from '@ant-design/icons';
import { ROWS_PER_PAGE, type Paged } from '@tandem/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Input, Select, Space, Table, Tag, Tooltip, type TableProps } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { call } from '../../api/client';
import { useFeedback } from '../../app/feedback';
import { downloadText, toCsv } from '../../lib/csv-export';
import type { ListResource } from './types';

const RESERVED = ['page', 'per_page', 'order_by', 'order_dir'];

/**
 * The generic list page of a resource: server pagination (10/20/30/50/100 rows), sorting and
 * filters kept in the URL, CSV export of every row that matches, delete with a confirm that shows
 * counts, activate and deactivate.
 */
export function ResourceList<Row extends object>({
  resource,
  extraActions,
  toolbar,
}: {
  resource: ListResource<Row>;
  extraActions?: (row: Row) => React.ReactNode;
  toolbar?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { confirm, flash } = useFeedback();
  const [sp, setSp] = useSearchParams();

  const page = Math.max(0, Number(sp.get('page') ?? 0) || 0);
  const perPage = (ROWS_PER_PAGE as readonly number[]).includes(Number(sp.get('per_page')))
    ? Number(sp.get('per_page'))
    : 20;
  const orderBy = sp.get('order_by') ?? resource.defaultSort?.by;
  const orderDir = (sp.get('order_dir') as 'asc' | 'desc' | null) ?? resource.defaultSort?.dir ?? 'asc';
  const filters = useMemo(
    () => Object.fromEntries([...sp.entries()].filter(([k]) => !RESERVED.includes(k))),
    [sp],
  );
  const query = {
    ...filters,
    ...resource.fixedQuery,
    page,
    per_page: perPage,
    order_by: orderBy,
    order_dir: orderDir,
  };

  const list = useQuery({
    queryKey: [resource.list.method, resource.list.path, { query }],
    queryFn: () => call(resource.list, { query } as never) as Promise<Paged<Row>>,
    refetchInterval: resource.refetchMs,
  });

  const update = (patch: Record<string, string | null>) => {
    const next = new URLSearchParams(sp);
    for (const [k, v] of Object.entries(patch)) {
      if (v === null || v === '') next.delete(k);
      else next.set(k, v);
    }
    setSp(next, { replace: true });
  };
  const refresh = async () => {
    await qc.invalidateQueries({ queryKey: [resource.list.method, resource.list.path] });
    for (const e of resource.invalidates ?? []) await qc.invalidateQueries({ queryKey: [e.method, e.path] });
  };

  const act = async (ok: boolean | Promise<boolean>, run: () => Promise<unknown>, done: string) => {
    if (!(await ok)) return;
    await run();
    flash(t(done));
    await refresh();
  };

  /** Delete with a confirmation that shows counts: what uses the row (refused while in use) or what goes. */
  const remove = async (row: Row, id: number) => {
    const r = resource.remove!;
    const name = r.name(row);
    if (r.usage) {
      const usage = (await call(r.usage, { params: { id } } as never, { errorMode: 'inline' })) as {
        items: { what: string; count: number }[];
        total: number;
      };
      const used = usage.items.filter((u) => u.count > 0);
      if (used.length) {
        await confirm({
          title: t('common.inUseTitle', { name }),
          content: (
            <ul data-testid="delete-counts">
              {used.map((u) => (
                <li key={u.what}>
                  {u.count} {u.what}
                </li>
              ))}
            </ul>
          ),
        });
        return;
      }
    }
    await act(
      confirm({
        title: t('common.deleteConfirm', { name }),
        content: (
          <span data-testid="delete-counts">{t('common.deleteCounts', { count: r.counts?.(row) ?? 1 })}</span>
        ),
        danger: true,
      }),
      () => call(r.endpoint, { params: { id } } as never, { errorMode: 'inline' }),
      'common.deletedSuccessfully',
    );
  };

  const exportCsv = async () => {
    const all = (await call(resource.list, { query: { ...query, page: 0, per_page: 100000 } } as never, {
      errorMode: 'inline',
    })) as Paged<Row>;
    const cols = resource.columns;
    const rows = all.items.map((r) =>
      cols.map((c) => (c.csv ? c.csv(r) : (r as Record<string, unknown>)[c.key])),
    );
    downloadText(
      `${resource.csvName}.csv`,
      toCsv(
        cols.map((c) => t(c.title)),
        rows,
      ),
    );
  };

  const columns: TableProps<Row>['columns'] = [
    ...resource.columns.map((c) => ({
      key: c.key,
      dataIndex: c.key,
      title: t(c.title),
      width: c.width,
      sorter: c.sortable,
      sortOrder:
        c.sortable && orderBy === c.key
          ? orderDir === 'desc'
            ? ('descend' as const)
            : ('ascend' as const)
          : null,
      render: c.render ? (_: unknown, row: Row) => c.render!(row, t) : undefined,
    })),
  ];
  const hasActions = resource.editPath || resource.remove || resource.activation || extraActions;
  if (hasActions) {
    columns.push({
      key: '_actions',
      title: t('common.actions'),
      width: 150,
      render: (_: unknown, row: Row) => {
        const name = resource.activation?.name(row) ?? resource.remove?.name(row) ?? '';
        const active = resource.activation?.isActive(row);
        const id = (row as Record<string, unknown>)[resource.rowKey] as number;
        return (
          <Space size={2}>
            {resource.editPath && (
              <Tooltip title={t('common.edit')}>
                <Button
                  size="small"
                  type="text"
                  icon={<EditOutlined />}
                  onClick={() => navigate(resource.editPath!(row))}
                  data-testid={`edit-${id}`}
                  aria-label={t('common.edit')}
                />
              </Tooltip>
            )}
            {resource.activation && (
              <Tooltip title={active ? t('common.deactivate') : t('common.activate')}>
                <Button
                  size="small"
                  type="text"
                  icon={<PoweroffOutlined style={{ color: active ? '#389e0d' : '#999' }} />}
                  data-testid={`${active ? 'deactivate' : 'activate'}-${id}`}
                  aria-label={active ? t('common.deactivate') : t('common.activate')}
                  onClick={() =>
                    void act(
                      confirm({
                        title: active
                          ? t('common.deactivateConfirm', { name })
                          : t('common.activateConfirm', { name }),
                      }),
                      () =>
                        call(
                          active ? resource.activation!.deactivate : resource.activation!.activate,
                          { params: { id } } as never,
                          { errorMode: 'inline' },
                        ),
                      active ? 'common.deactivatedSuccessfully' : 'common.activatedSuccessfully',
                    )
                  }
                />
              </Tooltip>
            )}
            {resource.remove && (
              <Tooltip title={t('common.delete')}>
                <Button
                  size="small"
                  type="text"
                  danger
                  disabled={resource.remove.disabled?.(row)}
                  icon={<DeleteOutlined />}
                  data-testid={`delete-${id}`}
                  aria-label={t('common.delete')}
                  onClick={() => void remove(row, id)}
                />
              </Tooltip>
            )}
            {extraActions?.(row)}
          </Space>
        );
      },
    });
  }

  return (
    <div>
      <div className="page-head">
        <h1>{t(resource.title)}</h1>
        <Space wrap>
          {toolbar}
          <Button icon={<DownloadOutlined />} onClick={() => void exportCsv()} data-testid="export-csv">
            {t('common.exportCsv')}
          </Button>
          {resource.newPath && (
            <Link to={resource.newPath}>
              <Button type="primary" icon={<PlusOutlined />} data-testid="new-button">
                {t('common.new')}
              </Button>
            </Link>
          )}
        </Space>
      </div>
      {resource.filters && resource.filters.length > 0 && (
        <Space wrap style={{ marginBottom: 12 }} data-testid="filters">
          {resource.filters.map((f) =>
            f.kind === 'text' ? (
              <Input.Search
                key={f.name}
                allowClear
                placeholder={t(f.title)}
                defaultValue={filters[f.name]}
                onSearch={(v) => update({ [f.name]: v, page: null })}
                style={{ width: 220 }}
                data-testid={`filter-${f.name}`}
              />
            ) : (
              <Select
                key={f.name}
                allowClear
                placeholder={t(f.title)}
                value={filters[f.name]}
                onChange={(v?: string) => update({ [f.name]: v ?? null, page: null })}
                style={{ minWidth: 160 }}
                options={
                  f.kind === 'boolean'
                    ? [
                        { value: 'true', label: t('common.active') },
                        { value: 'false', label: t('common.inactive') },
                      ]
                    : f.options?.map((o) => ({ ...o, label: t(o.label) }))
                }
                data-testid={`filter-${f.name}`}
              />
            ),
          )}
        </Space>
      )}
      <Table<Row>
        rowKey={resource.rowKey}
        size="middle"
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        columns={columns}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              data-testid="list-empty"
              description={
                Object.keys(filters).length
                  ? t('common.emptyFiltered', { what: t(resource.title) })
                  : resource.newPath
                    ? t('common.emptyList', { what: t(resource.title) })
                    : t('common.emptyNone', { what: t(resource.title) })
              }
            >
              {resource.newPath && !Object.keys(filters).length && (
                <Link to={resource.newPath}>
                  <Button type="primary" icon={<PlusOutlined />} data-testid="empty-new">
                    {t('common.new')}
                  </Button>
                </Link>
              )}
            </Empty>
          ),
        }}
        data-testid={`list-${resource.key}`}
        onChange={(pg, _f, sorter) => {
          const s = Array.isArray(sorter) ? sorter[0] : sorter;
          update({
            page: String((pg.current ?? 1) - 1),
            per_page: String(pg.pageSize ?? perPage),
            order_by: s?.order ? String(s.columnKey) : null,
            order_dir: s?.order ? (s.order === 'descend' ? 'desc' : 'asc') : null,
          });
        }}
        pagination={{
          current: page + 1,
          pageSize: perPage,
          total: list.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: ROWS_PER_PAGE.map(String),
          showTotal: (n) => <span data-testid="list-total">{t('common.total', { count: n })}</span>,
        }}
      />
    </div>
  );
}

export const ActiveTag = ({ active, t }: { active: boolean; t: (k: string) => string }) => (
  <Tag color={active ? 'green' : 'default'}>{active ? t('common.active') : t('common.inactive')}</Tag>
);
