import { api } from '@tandem/contract';
import { Button, Card, Descriptions, Select, Space, Table, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import type { z } from 'zod';
import { useApi, useApiMutation } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { formatMoneyText, formatNumberText, formatPercentText } from '../../lib/money';
import { useListState } from '../rates/useListState';
import './i18n';

type Client = z.output<typeof api.agents.agentClient>;

/**
 * One agent's page (/agent/agent_management/{id}) and Manage Clients
 * (/agent/agent_manage_clients/{name}/{id}): the agent's terms and what it is owed, its clients
 * with balance and last 30 days' traffic, assigning carriers to it and taking them away.
 */
export default function AgentClientsPage() {
  const { t } = useTranslation();
  const { id: idText } = useParams();
  const id = Number(idText);
  const { flash, confirm } = useFeedback();
  const agent = useApi(api.agents.agents.get, { params: { id } });
  const ls = useListState({ orderBy: 'name' });
  const clients = useApi(api.agents.listAgentClients, { params: { id }, query: ls.query as never });
  const lookups = useApi(api.trunks.lookups, {}, { callOptions: { errorMode: 'inline' } });
  const [picked, setPicked] = useState<number[]>([]);
  const refresh = [api.agents.listAgentClients, api.agents.agents.get, api.agents.agents.list];
  const assign = useApiMutation(api.agents.assignClients, refresh);
  const unassign = useApiMutation(api.agents.unassignClients, refresh);
  const mine = useMemo(() => new Set((clients.data?.items ?? []).map((c) => c.client_id)), [clients.data]);
  const options = (lookups.data?.carriers ?? [])
    .filter((c) => !mine.has(c.id))
    .map((c) => ({ value: c.id, label: c.name }));
  const a = agent.data;
  return (
    <div>
      <div className="page-head">
        <h1>
          {t('agents.manageClients')}
          {a ? `: ${a.agent_name}` : ''}
        </h1>
        <Space>
          <Link to={`/agent/agent_management/edit/${id}`}>
            <Button>{t('agents.editAgent')}</Button>
          </Link>
          <Link to={`/agent/commission_report?agent_id=${id}`}>
            <Button>{t('agents.commissionReport')}</Button>
          </Link>
          <Link to={`/agent/commission_history?agent_id=${id}`}>
            <Button>{t('agents.commissionHistory')}</Button>
          </Link>
        </Space>
      </div>
      {a && (
        <Card size="small" style={{ marginBottom: 12 }}>
          <Descriptions size="small" column={3} data-testid="agent-details">
            <Descriptions.Item label={t('agents.status')}>
              {t(`agents.statuses.${a.status}`)}
            </Descriptions.Item>
            <Descriptions.Item label={t('agents.email')}>{a.email}</Descriptions.Item>
            <Descriptions.Item label={t('agents.login')}>{a.name}</Descriptions.Item>
            <Descriptions.Item label={t('agents.commission')}>
              {t('agents.terms', {
                method: t(`agents.methods.${a.commission_method}`),
                percent: formatPercentText(a.commission_percent),
                frequency: t(`agents.frequencies.${a.frequency}`),
              })}
            </Descriptions.Item>
            <Descriptions.Item label={t('agents.since')}>{a.commission_since}</Descriptions.Item>
            <Descriptions.Item label={t('agents.owed')}>
              <span data-testid="agent-owed">{formatMoneyText(a.balance)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('agents.referralKey')}>
              {a.referral_key.slice(0, 10)}…
            </Descriptions.Item>
          </Descriptions>
        </Card>
      )}
      <Space style={{ marginBottom: 12 }} wrap>
        <Select
          mode="multiple"
          showSearch
          optionFilterProp="label"
          placeholder={t('agents.assignPlaceholder')}
          value={picked}
          onChange={setPicked}
          options={options}
          style={{ minWidth: 320 }}
          data-testid="assign-select"
        />
        <Button
          type="primary"
          disabled={!picked.length}
          loading={assign.isPending}
          data-testid="assign-button"
          onClick={() =>
            void assign.mutateAsync({ params: { id }, body: { client_ids: picked } }).then((r) => {
              setPicked([]);
              flash(t('agents.assigned', { count: r.assigned }));
            })
          }
        >
          {t('agents.assign')}
        </Button>
      </Space>
      <Table<Client>
        rowKey="client_id"
        size="small"
        data-testid="agent-clients"
        loading={clients.isLoading}
        dataSource={clients.data?.items ?? []}
        pagination={ls.pagination(clients.data?.total ?? 0)}
        onChange={(pg, _f, s) => ls.onTableChange(pg, s)}
        columns={[
          { key: 'name', title: t('agents.carrier'), dataIndex: 'name', sorter: true },
          { key: 'company', title: t('agents.company'), dataIndex: 'company' },
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
            key: 'actions',
            title: '',
            render: (_, r) => (
              <Button
                size="small"
                danger
                data-testid={`unassign-${r.client_id}`}
                onClick={() =>
                  void confirm({ title: t('agents.unassignConfirm', { name: r.name }), danger: true }).then(
                    (yes) => yes && unassign.mutate({ params: { id }, body: { client_ids: [r.client_id] } }),
                  )
                }
              >
                {t('agents.unassign')}
              </Button>
            ),
          },
        ]}
      />
    </div>
  );
}
