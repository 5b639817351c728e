import { api } from '@tandem/contract';
import { Button, Input, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { z } from 'zod';
import { useApi } from '../../api/queries';
import { formatMoneyText, formatNumberText } from '../../lib/money';
import { useListState } from '../rates/useListState';
import './i18n';

type Client = z.output<typeof api.agents.agentClient>;

/** Agent portal > Clients > Client List: the agent's own clients, balances and last 30 days' traffic. */
export default function PortalClientsPage() {
  const { t } = useTranslation();
  const ls = useListState({ orderBy: 'name' });
  const list = useApi(api.agents.portalClients, { query: { ...ls.query, ...ls.filters } as never });
  return (
    <div>
      <div className="page-head">
        <h1>{t('agents.clientList')}</h1>
      </div>
      <Space style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder={t('common.search')}
          defaultValue={ls.filters.search}
          onSearch={(v) => ls.setFilter('search', v)}
          data-testid="filter-search"
        />
      </Space>
      <Table<Client>
        rowKey="client_id"
        size="small"
        data-testid="portal-clients"
        loading={list.isLoading}
        dataSource={list.data?.items ?? []}
        pagination={ls.pagination(list.data?.total ?? 0)}
        onChange={(pg, _f, s) => ls.onTableChange(pg, s)}
        columns={[
          { key: 'name', title: t('agents.carrier'), dataIndex: 'name', sorter: true },
          { key: 'company', title: t('agents.company'), dataIndex: 'company' },
          { key: 'main_email', title: t('agents.mainEmail'), dataIndex: 'main_email' },
          {
            key: 'is_active',
            title: t('agents.status'),
            render: (_, r) => (
              <Tag color={r.is_active ? 'green' : 'default'}>
                {t(r.is_active ? 'agents.statuses.active' : 'agents.statuses.inactive')}
              </Tag>
            ),
          },
          {
            key: 'balance',
            title: t('agents.balance'),
            align: 'right',
            sorter: true,
            render: (_, r) => formatMoneyText(r.balance, { currency: r.currency }),
          },
          {
            key: 'credit_limit',
            title: t('agents.creditLimit'),
            align: 'right',
            render: (_, r) => formatMoneyText(r.credit_limit),
          },
          {
            key: 'revenue_30d',
            title: t('agents.revenue30'),
            align: 'right',
            sorter: true,
            render: (_, r) => formatMoneyText(r.revenue_30d),
          },
          {
            key: 'minutes_30d',
            title: t('agents.minutes30'),
            align: 'right',
            render: (_, r) => formatNumberText(r.minutes_30d, { decimals: 2 }),
          },
          {
            key: 'calls_30d',
            title: t('agents.calls30'),
            align: 'right',
            render: (_, r) => formatNumberText(r.calls_30d),
          },
          {
            key: 'actions',
            title: '',
            render: (_, r) => (
              <Space size={8}>
                <Link to={`/agents/client/edit/${r.client_id}`}>
                  <Button size="small" data-testid={`client-${r.client_id}`}>
                    {t(list.data?.portal_edit ? 'agents.editClient' : 'agents.view')}
                  </Button>
                </Link>
                <Link to={`/agents/client/client_invoice?client_id=${r.client_id}`}>
                  {t('agents.invoices')}
                </Link>
                <Link to={`/agents/client/client_payment/${encodeURIComponent(r.name)}/${r.client_id}`}>
                  {t('agents.payments')}
                </Link>
                <Link to={`/agents/client/client_transaction?client_id=${r.client_id}`}>
                  {t('agents.transactions')}
                </Link>
              </Space>
            ),
          },
        ]}
      />
    </div>
  );
}
