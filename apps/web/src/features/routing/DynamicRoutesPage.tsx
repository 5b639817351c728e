import { DashboardOutlined, OrderedListOutlined, SlidersOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { z } from 'zod';
import { crudListResource } from '../../components/resource/crudResource';
import { ResourceList } from '../../components/resource/ResourceList';
import { when } from './shared';
import './i18n';

type Row = z.infer<typeof api.routing.dynamicRouteRow>;

const resource = crudListResource<Row>(api.routing.dynamicRoute, {
  key: 'dynamic-routes',
  title: 'routing.dynamicRoutes',
  rowKey: 'dynamic_route_id',
  route: '/routing/dynamic_routing',
  nameOf: (r) => r.name,
  columns: [
    {
      key: 'name',
      title: 'routing.name',
      sortable: true,
      render: (r) => (
        <Link
          to={`/routing/dynamic_routing/${r.dynamic_route_id}/trunk_priority`}
          data-testid={`dynamic-${r.dynamic_route_id}`}
        >
          {r.name}
        </Link>
      ),
    },
    { key: 'rule', title: 'routing.rule', sortable: true, render: (r, t) => t(`routing.rules.${r.rule}`) },
    {
      key: 'time_profile_name',
      title: 'routing.timeProfile',
      render: (r, t) => r.time_profile_name ?? t('routing.allTime'),
    },
    {
      key: 'qos_cycle_minutes',
      title: 'routing.qosCycle',
      render: (r, t) => t('routing.minutes', { count: r.qos_cycle_minutes }),
    },
    { key: 'trunk_count', title: 'routing.egressTrunks', sortable: true },
    { key: 'usage_count', title: 'routing.usage', sortable: true },
    { key: 'updated_at', title: 'routing.updatedAt', sortable: true, render: (r) => when(r.updated_at) },
  ],
  filters: [
    { name: 'name', title: 'common.search', kind: 'text' },
    {
      name: 'rule',
      title: 'routing.rule',
      kind: 'select',
      options: api.routing.DYNAMIC_RULES.map((v) => ({ value: v, label: v.toUpperCase().replace('_', ' ') })),
    },
  ],
});

/** Routing > Dynamic Routing (also by_egress/:egressId: the dynamic routes an egress trunk is in). */
export default function DynamicRoutesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { egressId } = useParams();
  const res = egressId
    ? { ...resource, title: 'routing.dynamicByEgress', fixedQuery: { trunk_id: Number(egressId) } }
    : resource;
  const action = (icon: React.ReactNode, label: string, to: string, testId: string) => (
    <Tooltip title={t(label)}>
      <Button
        size="small"
        type="text"
        icon={icon}
        aria-label={t(label)}
        data-testid={testId}
        onClick={() => navigate(to)}
      />
    </Tooltip>
  );
  return (
    <ResourceList
      resource={res}
      extraActions={(r) => (
        <>
          {action(
            <OrderedListOutlined />,
            'routing.trunkPriority',
            `/routing/dynamic_routing/${r.dynamic_route_id}/trunk_priority`,
            `priority-${r.dynamic_route_id}`,
          )}
          {action(
            <DashboardOutlined />,
            'routing.qosParameters',
            `/routing/dynamic_routing/${r.dynamic_route_id}/qos_parameters`,
            `qos-${r.dynamic_route_id}`,
          )}
          {action(
            <SlidersOutlined />,
            'routing.override',
            `/routing/dynamic_routing/override/${r.dynamic_route_id}`,
            `override-${r.dynamic_route_id}`,
          )}
        </>
      )}
    />
  );
}
