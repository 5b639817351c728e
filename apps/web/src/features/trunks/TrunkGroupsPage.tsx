import { api } from '@tandem/contract';
import { Tabs, Tag } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { z } from 'zod';
import { crudListResource } from '../../components/resource/crudResource';
import { ResourceList } from '../../components/resource/ResourceList';
import './i18n';

type Row = z.output<typeof api.trunks.trunkGroupRow>;

/** Configuration > Trunk Group (/configuration/trunk_group[/{tab}]): ingress groups shown as inbound, egress as outbound. */
export default function TrunkGroupsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { tab: tp } = useParams();
  const tab = tp === 'egress' ? 'egress' : tp === 'ingress' ? 'ingress' : 'all';
  const resource = useMemo(() => {
    const base = crudListResource<Row>(api.trunks.trunkGroup, {
      key: 'trunk-groups',
      title: 'trunks.trunkGroups',
      rowKey: 'group_id',
      route: '/configuration/trunk_group',
      nameOf: (r) => r.group_name,
      defaultSort: { by: 'group_name', dir: 'asc' },
      fixedQuery: tab === 'all' ? {} : { trunk_type: tab },
      columns: [
        {
          key: 'group_name',
          title: 'trunks.groupName',
          sortable: true,
          render: (r) => <span data-testid={`group-${r.group_name}`}>{r.group_name}</span>,
        },
        {
          key: 'trunk_type',
          title: 'trunks.type',
          sortable: true,
          render: (r, tt) => <Tag>{tt(`trunks.groupTypes.${r.trunk_type}`)}</Tag>,
          csv: (r) => r.trunk_type,
        },
        {
          key: 'trunk_count',
          title: 'trunks.members',
          sortable: true,
          render: (r) => (
            <Link to={`/routing/trunks/${r.trunk_type}/${r.group_id}/list`}>{r.trunk_count}</Link>
          ),
        },
        {
          key: 'trunk_names',
          title: 'trunks.trunks',
          render: (r) => r.trunk_names.join(', '),
          csv: (r) => r.trunk_names.join(' '),
        },
      ],
      filters: [{ name: 'group_name', title: 'common.search', kind: 'text' }],
    });
    return {
      ...base,
      newPath: `/configuration/trunk_group/new/${tab === 'egress' ? 'egress' : 'ingress'}`,
      editPath: (r: Row) => `/configuration/trunk_group/edit/${r.trunk_type}/${r.group_id}`,
    };
  }, [tab]);
  return (
    <>
      <Tabs
        activeKey={tab}
        onChange={(k) =>
          navigate(k === 'all' ? '/configuration/trunk_group' : `/configuration/trunk_group/${k}`)
        }
        items={[
          { key: 'all', label: t('trunks.trunkGroups') },
          { key: 'ingress', label: t('trunks.groupTypes.ingress') },
          { key: 'egress', label: t('trunks.groupTypes.egress') },
        ]}
      />
      <ResourceList key={tab} resource={resource} />
    </>
  );
}
