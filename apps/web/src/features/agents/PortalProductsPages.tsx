import { api } from '@tandem/contract';
import { Input, Space, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router-dom';
import type { z } from 'zod';
import { useApi } from '../../api/queries';
import { useListState } from '../rates/useListState';
import { when } from '../routing/shared';
import './i18n';

type Product = z.output<typeof api.carriers.productRow>;
type RateRow = api.rates.RateRow;

/** The client portal's pages (their paths, spec 02) or the agent portal's. */
function usePortal() {
  const client = useLocation().pathname.startsWith('/clients/');
  return {
    client,
    products: client ? '/clients/management/products' : '/agents/management/products',
    ratesOf: (p: Product) =>
      client
        ? `/clients/termination/view_rates/${p.id}`
        : `/agents/management/products/view_rates/${encodeURIComponent(p.rate_table_name ?? '')}/${p.rate_table_id}`,
  };
}

/**
 * Products: in the agent portal the products the agent may sell (public, or assigned to it); in the
 * client portal those the carrier may buy (public, or assigned to its carrier). The server scopes
 * both lists and the rates behind them.
 */
export function PortalProductsPage() {
  const { t } = useTranslation();
  const portal = usePortal();
  const ls = useListState({ orderBy: 'name' });
  const list = useApi(api.carriers.product.list, {
    query: {
      page: ls.query.page,
      per_page: ls.query.per_page,
      order_by: ls.query.order_by,
      order_dir: ls.query.order_dir,
      ...(ls.filters.name ? { name: ls.filters.name } : {}),
    } as never,
  });
  return (
    <div>
      <div className="page-head">
        <h1>{t('agents.products')}</h1>
      </div>
      <Space style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder={t('common.search')}
          defaultValue={ls.filters.name}
          onSearch={(v) => ls.setFilter('name', v)}
          data-testid="filter-name"
        />
      </Space>
      <Table<Product>
        rowKey="id"
        size="small"
        data-testid="products"
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        pagination={ls.pagination(list.data?.total ?? 0)}
        onChange={(pg, _f, s) => ls.onTableChange(pg, s)}
        onRow={(r) => ({ 'data-testid': `product-${r.name}` }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { key: 'name', title: t('agents.product'), dataIndex: 'name', sorter: true },
          { key: 'tech_prefix', title: t('agents.techPrefix'), dataIndex: 'tech_prefix' },
          { key: 'description', title: t('agents.description'), dataIndex: 'description' },
          {
            key: 'scope',
            title: t('agents.scope'),
            render: (_, r) => t(`agents.scopes.${r.scope}`),
          },
          {
            key: 'rates',
            title: '',
            render: (_, r) =>
              r.rate_table_name && (
                <Link to={portal.ratesOf(r)} data-testid="view-rates">
                  {t('agents.viewRates')}
                </Link>
              ),
          },
        ]}
      />
    </div>
  );
}

/**
 * Products > View Rates: the rates of a product's rate table (only of a product the caller may see).
 * The agent portal's address names the rate table; the client portal's the product (spec 02:
 * `view_rates/{product_id}`), whose table is read from the caller's own product list.
 */
export function PortalRatesPage() {
  const { t } = useTranslation();
  const params = useParams();
  const portal = usePortal();
  const product = useApi(
    api.carriers.product.get,
    { params: { id: Number(params.product_id) } },
    { enabled: portal.client },
  );
  const id = portal.client ? (product.data?.rate_table_id ?? 0) : Number(params.rate_table_id);
  const ls = useListState({ orderBy: 'code' });
  const f = ls.filters;
  const list = useApi(
    api.agents.portalRates,
    {
      params: { id },
      query: {
        page: ls.query.page,
        per_page: ls.query.per_page,
        order_by: ls.query.order_by,
        order_dir: ls.query.order_dir,
        ...(f.code ? { code: f.code } : {}),
        ...(f.country ? { country: f.country } : {}),
        state: 'current',
      } as never,
    },
    { enabled: id > 0 },
  );
  return (
    <div>
      <div className="page-head">
        <h1>
          {t('agents.viewRates')}:{' '}
          {portal.client ? (product.data?.name ?? '') : (list.data?.name ?? params.rate_table_name)}
        </h1>
        <Link to={portal.products}>{t('agents.products')}</Link>
      </div>
      <Space style={{ marginBottom: 12 }} wrap>
        <Input.Search
          allowClear
          placeholder={t('agents.code')}
          defaultValue={f.code}
          onSearch={(v) => ls.setFilter('code', v)}
          data-testid="filter-code"
        />
        <Input.Search
          allowClear
          placeholder={t('agents.country')}
          defaultValue={f.country}
          onSearch={(v) => ls.setFilter('country', v)}
          data-testid="filter-country"
        />
      </Space>
      <Table<RateRow>
        rowKey="rate_id"
        size="small"
        data-testid="rates"
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        pagination={ls.pagination(list.data?.total ?? 0)}
        onChange={(pg, _f, s) => ls.onTableChange(pg, s)}
        columns={[
          { key: 'code', title: t('agents.code'), dataIndex: 'code', sorter: true },
          { key: 'code_name', title: t('agents.codeName'), dataIndex: 'code_name', sorter: true },
          { key: 'country', title: t('agents.country'), dataIndex: 'country', sorter: true },
          { key: 'rate', title: t('agents.rate'), dataIndex: 'rate', align: 'right', sorter: true },
          {
            key: 'billing',
            title: t('agents.increment'),
            render: (_, r) => `${r.min_time}/${r.interval}`,
          },
          { key: 'effective_date', title: t('agents.effective'), render: (_, r) => when(r.effective_date) },
        ]}
      />
    </div>
  );
}
