import { api } from '@tandem/contract';
import type { z } from 'zod';
import { Button, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { crudListResource } from '../../components/resource/crudResource';
import { ResourceList } from '../../components/resource/ResourceList';
import { formatMoneyText, formatPercentText } from '../../lib/money';
import './i18n';

type AgentRow = z.output<typeof api.agents.agentRow>;

const resource = crudListResource<AgentRow>(api.agents.agents, {
  key: 'agents',
  title: 'agents.agents',
  rowKey: 'agent_id',
  route: '/agent/agent_management',
  nameOf: (r) => r.agent_name,
  columns: [
    {
      key: 'agent_name',
      title: 'agents.agentName',
      sortable: true,
      render: (r) => <Link to={`/agent/agent_management/${r.agent_id}`}>{r.agent_name}</Link>,
    },
    {
      key: 'status',
      title: 'agents.status',
      sortable: true,
      render: (r, t) => (
        <Tag color={r.status === 'active' ? 'green' : 'default'}>{t(`agents.statuses.${r.status}`)}</Tag>
      ),
    },
    { key: 'email', title: 'agents.email', sortable: true },
    { key: 'name', title: 'agents.login' },
    {
      key: 'commission_method',
      title: 'agents.method',
      render: (r, t) => t(`agents.methods.${r.commission_method}`),
    },
    {
      key: 'commission_percent',
      title: 'agents.percent',
      sortable: true,
      render: (r) => formatPercentText(r.commission_percent),
    },
    {
      key: 'frequency',
      title: 'agents.frequency',
      sortable: true,
      render: (r, t) => t(`agents.frequencies.${r.frequency}`),
    },
    { key: 'clients', title: 'agents.clients', sortable: true },
    { key: 'balance', title: 'agents.owed', sortable: true, render: (r) => formatMoneyText(r.balance) },
  ],
  filters: [{ name: 'search', title: 'common.search', kind: 'text' }],
});

/** Agent > Agent Management: the agents, with their terms, clients and what they are owed. */
export default function AgentsPage() {
  const { t } = useTranslation();
  return (
    <ResourceList
      resource={resource}
      extraActions={(r) => (
        <Link to={`/agent/agent_manage_clients/${encodeURIComponent(r.agent_name)}/${r.agent_id}`}>
          <Button size="small" data-testid={`manage-clients-${r.agent_id}`}>
            {t('agents.manageClients')}
          </Button>
        </Link>
      )}
    />
  );
}
