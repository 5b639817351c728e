import { api } from '@tandem/contract';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { crudFormResource } from '../../components/resource/crudResource';
import { ResourceForm } from '../../components/resource/ResourceForm';
import './i18n';

/** Agent > Agent Management > New / Edit: the agent, its commission terms and its portal login. */
export default function AgentEditPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const opt = <K extends string>(list: readonly K[], prefix: string) =>
    list.map((v) => ({ value: v, label: t(`${prefix}.${v}`) }));
  const resource = crudFormResource(api.agents.agents, {
    key: 'agent',
    titleNew: 'agents.newAgent',
    titleEdit: 'agents.editAgent',
    listPath: '/agent/agent_management',
    initial: {
      agent_name: '',
      status: 'active',
      email: '',
      commission_method: 'profit',
      commission_percent: '0',
      frequency: 'monthly',
      portal_edit: false,
      own_invoice_setting: false,
      commission_since: '',
      name: '',
    },
    // The password is never read back: empty on edit keeps it.
    fromRow: (r) => ({
      agent_name: r.agent_name,
      status: r.status,
      email: r.email,
      commission_method: r.commission_method,
      commission_percent: String(Number(r.commission_percent)),
      frequency: r.frequency,
      portal_edit: r.portal_edit,
      own_invoice_setting: r.own_invoice_setting,
      commission_since: r.commission_since,
      name: r.name ?? undefined,
    }),
    tabs: [
      {
        key: 'general',
        title: 'agents.general',
        fields: [
          { name: 'agent_name', label: 'agents.agentName', kind: 'text', required: true },
          { name: 'email', label: 'agents.email', kind: 'email', required: true },
          {
            name: 'status',
            label: 'agents.status',
            kind: 'select',
            options: opt(['active', 'inactive'] as const, 'agents.statuses'),
          },
          { name: 'portal_edit', label: 'agents.portalEdit', kind: 'switch' },
          { name: 'own_invoice_setting', label: 'agents.ownInvoice', kind: 'switch' },
        ],
      },
      {
        key: 'commission',
        title: 'agents.commission',
        fields: [
          {
            name: 'commission_method',
            label: 'agents.method',
            kind: 'select',
            options: opt(api.agents.COMMISSION_METHODS, 'agents.methods'),
          },
          { name: 'commission_percent', label: 'agents.percent', kind: 'text', required: true },
          {
            name: 'frequency',
            label: 'agents.frequency',
            kind: 'select',
            options: opt(api.agents.COMMISSION_FREQUENCIES, 'agents.frequencies'),
          },
          { name: 'commission_since', label: 'agents.since', kind: 'text', help: 'agents.sinceHelp' },
        ],
      },
      {
        key: 'credentials',
        title: 'agents.credentials',
        fields: [
          { name: 'name', label: 'agents.login', kind: 'text', required: true },
          {
            name: 'passwd',
            label: 'agents.password',
            kind: 'password',
            required: !id,
            help: id ? 'agents.passwordHelp' : undefined,
          },
        ],
      },
    ],
  });
  return <ResourceForm resource={resource} id={id ? Number(id) : null} />;
}
