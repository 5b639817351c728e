import { api } from '@tandem/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { crudListResource } from '../../components/resource/crudResource';
import { ResourceList } from '../../components/resource/ResourceList';
import './i18n';

type Row = z.output<typeof api.carriers.productRow>;
const resourceOf = (t: (k: string) => string) =>
  crudListResource<Row>(api.carriers.product, {
    key: 'products',
    title: 'carriers.products',
    rowKey: 'id',
    route: '/termination/products',
    nameOf: (r) => r.name,
    defaultSort: { by: 'name', dir: 'asc' },
    columns: [
      {
        key: 'name',
        title: 'configuration.name',
        sortable: true,
        render: (r) => <span data-testid={`product-${r.name}`}>{r.name}</span>,
      },
      { key: 'tech_prefix', title: 'carriers.techPrefix', sortable: true },
      { key: 'routing_plan_name', title: 'carriers.routingPlan' },
      { key: 'rate_table_name', title: 'carriers.rateTable' },
      {
        key: 'scope',
        title: 'carriers.scope',
        sortable: true,
        render: (r, t) => (
          <Tag color={r.scope === 'public' ? 'blue' : 'purple'}>{t(`carriers.scopes.${r.scope}`)}</Tag>
        ),
        csv: (r) => r.scope,
      },
      { key: 'trunk_count', title: 'carriers.trunks', sortable: true },
      { key: 'description', title: 'carriers.description' },
    ],
    filters: [
      { name: 'name', title: 'common.search', kind: 'text' },
      {
        name: 'scope',
        title: 'carriers.scope',
        kind: 'select',
        options: ['public', 'private'].map((v) => ({ value: v, label: t(`carriers.scopes.${v}`) })),
      },
    ],
  });

/** Termination > Products. */
export default function ProductsPage() {
  const { t } = useTranslation();
  return <ResourceList resource={resourceOf(t)} />;
}
