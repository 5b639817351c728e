import { OrderedListOutlined, TeamOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { z } from 'zod';
import { crudListResource } from '../../components/resource/crudResource';
import { ResourceList } from '../../components/resource/ResourceList';
import { when } from './shared';
import './i18n';

type Row = z.infer<typeof api.routing.routingPlanRow>;

const base = crudListResource<Row>(api.routing.routingPlan, {
  key: 'routing-plans',
  title: 'routing.plans',
  rowKey: 'route_plan_id',
  route: '/routing/routing_plan',
  nameOf: (r) => r.name,
  columns: [
    {
      key: 'name',
      title: 'routing.name',
      sortable: true,
      render: (r) => (
        <Link to={`/routing/routing_plan/details/${r.route_plan_id}`} data-testid={`plan-${r.route_plan_id}`}>
          {r.name}
        </Link>
      ),
    },
    { key: 'prefix_count', title: 'routing.prefixCount', sortable: true },
    {
      key: 'usage_count',
      title: 'routing.usage',
      sortable: true,
      render: (r) => (
        <Link to={`/routing/routing_plan/usage_details/${r.route_plan_id}`}>{r.usage_count}</Link>
      ),
    },
    { key: 'updated_at', title: 'routing.updatedAt', sortable: true, render: (r) => when(r.updated_at) },
    { key: 'updated_by', title: 'routing.updatedBy' },
  ],
  filters: [{ name: 'name', title: 'common.search', kind: 'text' }],
});
const resource = { ...base, editPath: (r: Row) => `/routing/routing_plan/details/${r.route_plan_id}` };

/** Routing > Routing Plan (also /routing/routing_plan/list_by_static/:id: the plans using a static route). */
export default function PlansPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id } = useParams();
  const res = id
    ? { ...resource, title: 'routing.plansByStatic', fixedQuery: { static_route_id: Number(id) } }
    : resource;
  return (
    <ResourceList
      resource={res}
      extraActions={(r) => (
        <>
          <Tooltip title={t('routing.prefixes')}>
            <Button
              size="small"
              type="text"
              icon={<OrderedListOutlined />}
              aria-label={t('routing.prefixes')}
              data-testid={`prefixes-${r.route_plan_id}`}
              onClick={() => navigate(`/routing/routing_plan/details/${r.route_plan_id}`)}
            />
          </Tooltip>
          <Tooltip title={t('routing.usageDetails')}>
            <Button
              size="small"
              type="text"
              icon={<TeamOutlined />}
              aria-label={t('routing.usageDetails')}
              data-testid={`usage-${r.route_plan_id}`}
              onClick={() => navigate(`/routing/routing_plan/usage_details/${r.route_plan_id}`)}
            />
          </Tooltip>
        </>
      )}
    />
  );
}
