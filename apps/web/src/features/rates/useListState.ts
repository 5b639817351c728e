import { ROWS_PER_PAGE } from '@tandem/contract';
import type { TablePaginationConfig } from 'antd';
import type { SorterResult } from 'antd/es/table/interface';
import { createElement, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';

const RESERVED = ['page', 'per_page', 'order_by', 'order_dir'];

/**
 * Paging, sorting and filters of a hand-written list page, kept in the URL like the generic list
 * page does (back and reload keep them).
 */
export function useListState(defaults: { orderBy: string; perPage?: number }) {
  const { t } = useTranslation();
  const [sp, setSp] = useSearchParams();
  const page = Math.max(0, Number(sp.get('page') ?? 0) || 0);
  const perPage = (ROWS_PER_PAGE as readonly number[]).includes(Number(sp.get('per_page')))
    ? Number(sp.get('per_page'))
    : (defaults.perPage ?? 20);
  const orderBy = sp.get('order_by') ?? defaults.orderBy;
  const orderDir = sp.get('order_dir') === 'desc' ? 'desc' : 'asc';
  const filters = useMemo(
    () => Object.fromEntries([...sp.entries()].filter(([k]) => !RESERVED.includes(k))),
    [sp],
  );

  const update = (patch: Record<string, string | null>) => {
    const next = new URLSearchParams(sp);
    for (const [k, v] of Object.entries(patch)) {
      if (v === null || v === '') next.delete(k);
      else next.set(k, v);
    }
    setSp(next, { replace: true });
  };
  const setFilter = (name: string, value: string | null) => update({ [name]: value, page: null });
  /** Several filters at once (e.g. both ends of a time range). */
  const setFilters = (patch: Record<string, string | null>) => update({ ...patch, page: null });
  const onTableChange = <R>(pg: TablePaginationConfig, sorter: SorterResult<R> | SorterResult<R>[]) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    update({
      page: String((pg.current ?? 1) - 1),
      per_page: String(pg.pageSize ?? perPage),
      order_by: s?.order ? String(s.columnKey) : null,
      order_dir: s?.order ? (s.order === 'descend' ? 'desc' : 'asc') : null,
    });
  };
  const sortOrder = (key: string) =>
    orderBy === key ? (orderDir === 'desc' ? ('descend' as const) : ('ascend' as const)) : null;
  const query = { ...filters, page, per_page: perPage, order_by: orderBy, order_dir: orderDir };
  /** The table's pagination: server paging at the URL's page and size, with the total shown. */
  const pagination = (total: number): TablePaginationConfig => ({
    current: page + 1,
    pageSize: perPage,
    total,
    showSizeChanger: true,
    pageSizeOptions: ROWS_PER_PAGE.map(String),
    showTotal: (n) => createElement('span', { 'data-testid': 'list-total' }, t('common.total', { count: n })),
  });
  return {
    query,
    filters,
    page,
    perPage,
    setFilter,
    setFilters,
    onTableChange,
    sortOrder,
    pagination,
  };
}
