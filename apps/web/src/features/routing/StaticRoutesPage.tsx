import { ApartmentOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { z } from 'zod';
import { crudListResource } from '../../components/resource/crudResource';
import { ResourceList } from '../../components/resource/ResourceList';
import { when } from './shared';
import './i18n';

type Row = z.infer<typeof api.routing.staticRouteRow>;

const base = crudListResource<Row>(api.routing.staticRoute, {
  key: 'static-routes',
  title: 'routing.staticRoutes',
  rowKey: 'static_route_id',
  route: '/routing/static_routing',
  nameOf: (r) => r.name,
  columns: [
    {
      key: 'name',
      title: 'routing.name',
      sortable: true,
      render: (r) => (
        <Link to={`/routing/static_routing/${r.static_route_id}`} data-testid={`static-${r.static_route_id}`}>
          {r.name}
        </Link>
      ),
    },
    {
      key: 'defined_by',
      title: 'routing.definedBy',
      sortable: true,
      render: (r, t) => t(`routing.definedByValues.${r.defined_by}`),
    },
    { key: 'route_by', title: 'routing.routeBy', render: (r) => r.route_by.toUpperCase() },
    { key: 'prefix_count', title: 'routing.prefixCount', sortable: true },
    {
      key: 'usage_count',
      title: 'routing.usage',
      sortable: true,
      render: (r) => (
        <Link to={`/routing/routing_plan/list_by_static/${r.static_route_id}`}>{r.usage_count}</Link>
      ),
    },
    { key: 'updated_at', title: 'routing.updatedAt', sortable: true, render: (r) => when(r.updated_at) },
  ],
  filters: [{ name: 'name', title: 'common.search', kind: 'text' }],
});
const resource = { ...base, editPath: (r: Row) => `/routing/static_routing/${r.static_route_id}` };

/** Routing > Static Routing (also by_egress/:egressId: the static routes an egress trunk is in). */
export default function StaticRoutesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { egressId } = useParams();
  const res = egressId
    ? { ...resource, title: 'routing.staticByEgress', fixedQuery: { trunk_id: Number(egressId) } }
    : resource;
  return (
    <ResourceList
      resource={res}
      extraActions={(r) => (
        <Tooltip title={t('routing.plansUsing')}>
          <Button
            size="small"
            type="text"
            icon={<ApartmentOutlined />}
            aria-label={t('routing.plansUsing')}
            data-testid={`plans-of-${r.static_route_id}`}
            onClick={() => navigate(`/routing/routing_plan/list_by_static/${r.static_route_id}`)}
          />
        </Tooltip>
      )}
    />
  );
}
