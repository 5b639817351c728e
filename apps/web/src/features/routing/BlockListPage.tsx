import { api } from '@tandem/contract';
import { Tag } from 'antd';
import type { z } from 'zod';
import { crudListResource } from '../../components/resource/crudResource';
import { ResourceList } from '../../components/resource/ResourceList';
import { when } from './shared';
import './i18n';

type Row = z.infer<typeof api.routing.blockListRow>;

const resource = crudListResource<Row>(api.routing.blockList, {
  key: 'block-list',
  title: 'routing.blockList',
  rowKey: 'id',
  route: '/routing/block_list',
  nameOf: (r) => `${r.field.toUpperCase()} ${r.number}`,
  columns: [
    {
      key: 'field',
      title: 'routing.blockField',
      sortable: true,
      render: (r) => <Tag color={r.field === 'ani' ? 'gold' : 'cyan'}>{r.field.toUpperCase()}</Tag>,
    },
    { key: 'number', title: 'routing.number', sortable: true, render: (r) => <code>{r.number}</code> },
    {
      key: 'match',
      title: 'routing.match',
      sortable: true,
      render: (r, t) => t(`routing.matches.${r.match}`),
    },
    {
      key: 'trunk_name',
      title: 'routing.scope',
      sortable: true,
      csv: (r) => r.trunk_name ?? 'global',
      render: (r, t) =>
        r.trunk_name ? (
          `${r.trunk_name} (${t(`routing.directions.${r.trunk_direction ?? 'ingress'}`)})`
        ) : (
          <Tag>{t('routing.global')}</Tag>
        ),
    },
    { key: 'note', title: 'routing.note' },
    { key: 'created_at', title: 'routing.createdAt', sortable: true, render: (r) => when(r.created_at) },
  ],
  filters: [
    { name: 'number', title: 'routing.number', kind: 'text' },
    {
      name: 'field',
      title: 'routing.blockField',
      kind: 'select',
      options: [
        { value: 'ani', label: 'ANI' },
        { value: 'dnis', label: 'DNIS' },
      ],
    },
    {
      name: 'scope',
      title: 'routing.scope',
      kind: 'select',
      options: [
        { value: 'global', label: 'routing.global' },
        { value: 'trunk', label: 'routing.onTrunk' },
      ],
    },
  ],
  defaultSort: { by: 'number', dir: 'asc' },
});

/** Routing > Block List: ANI or DNIS, exact or prefix, global or on one trunk. */
export default function BlockListPage() {
  return <ResourceList resource={resource} />;
}
