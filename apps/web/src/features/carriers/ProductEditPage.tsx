import { api } from '@tandem/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { useApi } from '../../api/queries';
import { crudFormResource } from '../../components/resource/crudResource';
import { ResourceForm } from '../../components/resource/ResourceForm';
import { Spinner } from '../../components/Spinner';
import '../configuration/i18n';
import './i18n';

/** Termination > Products new and edit: plan, rate table, tech prefix, scope with carrier and agent assignment. */
export default function ProductEditPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const lk = useApi(api.trunks.lookups, {}, { callOptions: { errorMode: 'inline' } });
  const resource = useMemo(() => {
    const o = (items: { id: number; name: string }[] | undefined) =>
      (items ?? []).map((i) => ({ value: i.id, label: i.name }));
    return crudFormResource(api.carriers.product, {
      key: 'product',
      titleNew: 'carriers.newProduct',
      titleEdit: 'carriers.editProduct',
      listPath: '/termination/products',
      initial: {
        name: '',
        tech_prefix: '',
        description: '',
        scope: 'public',
        carrier_ids: [],
        agent_ids: [],
      },
      tabs: [
        {
          key: 'basic',
          title: 'carriers.tabs.basic',
          fields: [
            { name: 'name', label: 'configuration.name', kind: 'text', required: true },
            {
              name: 'routing_plan_id',
              label: 'carriers.routingPlan',
              kind: 'select',
              required: true,
              options: o(lk.data?.routing_plans),
            },
            {
              name: 'rate_table_id',
              label: 'carriers.rateTable',
              kind: 'select',
              required: true,
              options: o(lk.data?.rate_tables),
            },
            { name: 'tech_prefix', label: 'carriers.techPrefix', kind: 'text' },
            { name: 'description', label: 'carriers.description', kind: 'textarea' },
            {
              name: 'scope',
              label: 'carriers.scope',
              kind: 'select',
              options: ['public', 'private'].map((v) => ({ value: v, label: t(`carriers.scopes.${v}`) })),
            },
            {
              name: 'carrier_ids',
              label: 'carriers.carriers',
              kind: 'multiselect',
              options: o(lk.data?.carriers.filter((c) => c.client_type === 'client')),
            },
            { name: 'agent_ids', label: 'carriers.agents', kind: 'multiselect', options: o(lk.data?.agents) },
          ],
        },
      ],
    });
  }, [t, lk.data]);
  if (lk.isLoading) return <Spinner />;
  return <ResourceForm resource={resource} id={id ? Number(id) : null} />;
}
