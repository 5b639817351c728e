import { CopyOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { Button, Tabs, Tag } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { useApi } from '../../api/queries';
import { crudListResource } from '../../components/resource/crudResource';
import { ActiveTag, ResourceList } from '../../components/resource/ResourceList';
import './i18n';

type Row = api.trunks.TrunkRow;

/**
 * Routing > Trunks: /routing/trunks, /routing/trunks/{type}, /routing/trunks/{type}/{group_id}/list,
 * /routing/trunks/group_id/{ei_type}/{group_id}, /routing/trunks/rate_table[/{type}]/{rate_table_id},
 * /routing/trunks/ingress_by_routing_plan/{routing_plan_id}.
 */
export default function TrunksPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const p = useParams();
  const type =
    (p.type ?? p.eiType) === 'egress'
      ? 'egress'
      : (p.type ?? p.eiType) === 'ingress' || p.planId
        ? 'ingress'
        : undefined;
  const lk = useApi(api.trunks.lookups, {}, { callOptions: { errorMode: 'inline', quiet: true } });
  const resource = useMemo(() => {
    const fixed: Record<string, unknown> = {
      ...(type ? { direction: type } : {}),
      ...(p.groupId ? { group_id: p.groupId } : {}),
      ...(p.rateTableId ? { rate_table_id: p.rateTableId } : {}),
      ...(p.planId ? { routing_plan_id: p.planId } : {}),
    };
    const base = crudListResource<Row>(api.trunks.trunk, {
      key: `trunks-${type ?? 'all'}`,
      title:
        type === 'egress'
          ? 'trunks.egressTrunks'
          : type === 'ingress'
            ? 'trunks.ingressTrunks'
            : 'trunks.trunks',
      rowKey: 'trunk_id',
      route: '/routing/trunks',
      nameOf: (r) => r.name,
      isActive: (r) => r.is_active,
      defaultSort: { by: 'name', dir: 'asc' },
      fixedQuery: fixed,
      columns: [
        {
          key: 'name',
          title: 'trunks.name',
          sortable: true,
          render: (r) => (
            <Link to={`/routing/trunks/edit/${r.trunk_id}/${r.direction}`} data-testid={`trunk-${r.name}`}>
              {r.name}
            </Link>
          ),
        },
        {
          key: 'carrier_name',
          title: 'trunks.carrier',
          sortable: true,
          render: (r) => <Link to={`/termination/clients/edit/${r.carrier_id}/basic`}>{r.carrier_name}</Link>,
        },
        {
          key: 'direction',
          title: 'trunks.type',
          sortable: true,
          render: (r, tt) => (
            <Tag color={r.direction === 'ingress' ? 'blue' : 'purple'}>
              {tt(`trunks.directions.${r.direction}`)}
            </Tag>
          ),
          csv: (r) => r.direction,
        },
        {
          key: 'hosts',
          title: 'trunks.hostsCount',
          render: (r) =>
            r.hosts
              .map(
                (h) =>
                  `${h.host}${h.port ? ':' + h.port : ''}${h.host_type === 'ip' && h.netmask !== 32 ? '/' + h.netmask : ''}`,
              )
              .join(', '),
          csv: (r) => r.hosts.map((h) => h.host).join(' '),
        },
        { key: 'tech_prefix', title: 'trunks.techPrefix' },
        { key: 'call_limit', title: 'trunks.callLimit' },
        {
          key: 'group_names',
          title: 'trunks.groups',
          render: (r) => r.group_names.join(', '),
          csv: (r) => r.group_names.join(' '),
        },
        {
          key: 'is_active',
          title: 'common.status',
          sortable: true,
          render: (r, tt) => <ActiveTag active={r.is_active} t={tt} />,
          csv: (r) => (r.is_active ? 'active' : 'inactive'),
        },
      ],
      filters: [
        { name: 'name', title: 'common.search', kind: 'text' },
        { name: 'host', title: 'trunks.host', kind: 'text' },
        {
          name: 'carrier_id',
          title: 'trunks.carrier',
          kind: 'select',
          options: (lk.data?.carriers ?? []).map((c) => ({ value: String(c.id), label: c.name })),
        },
        { name: 'is_active', title: 'common.status', kind: 'boolean' },
      ],
    });
    return {
      ...base,
      newPath: `/routing/trunks/${type ?? 'ingress'}/new`,
      editPath: (r: Row) => `/routing/trunks/edit/${r.trunk_id}/${r.direction}`,
    };
  }, [type, p.groupId, p.rateTableId, p.planId, lk.data]);
  const tabbed = !p.groupId && !p.rateTableId && !p.planId;
  return (
    <>
      {tabbed && (
        <Tabs
          activeKey={type ?? 'all'}
          onChange={(k) => navigate(k === 'all' ? '/routing/trunks' : `/routing/trunks/${k}`)}
          items={[
            { key: 'all', label: t('trunks.trunks') },
            { key: 'ingress', label: t('trunks.ingressTrunks') },
            { key: 'egress', label: t('trunks.egressTrunks') },
          ]}
        />
      )}
      <ResourceList
        key={pathname}
        resource={resource}
        toolbar={
          <Link to={`/routing/trunks/${type ?? 'ingress'}/new_template`}>
            <Button icon={<CopyOutlined />} data-testid="new-from-template">
              {t('trunks.fromTemplate')}
            </Button>
          </Link>
        }
      />
    </>
  );
}
