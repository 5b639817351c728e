import { api } from '@tandem/contract';
import { Typography } from 'antd';
import type { z } from 'zod';
import { ResourceList } from '../../components/resource/ResourceList';
import type { ListResource } from '../../components/resource/types';

type Row = z.infer<typeof api.log.modificationRow>;
const short = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v));

const resource: ListResource<Row> = {
  key: 'modification-log',
  title: 'Modification Log',
  list: api.log.listModificationLog,
  rowKey: 'id',
  csvName: 'modification-log',
  defaultSort: { by: 'created_at', dir: 'desc' },
  columns: [
    {
      key: 'created_at',
      title: 'system.time',
      sortable: true,
      render: (r) => r.created_at.replace('T', ' ').slice(0, 19),
    },
    { key: 'user_name', title: 'users.name', sortable: true },
    { key: 'entity', title: 'Entity', sortable: true, render: (r) => `${r.entity} #${r.entity_id}` },
    { key: 'action', title: 'common.actions' },
    {
      key: 'before',
      title: 'Before',
      csv: (r) => short(r.before),
      render: (r) => (
        <Typography.Text code ellipsis style={{ maxWidth: 280 }}>
          {short(r.before)}
        </Typography.Text>
      ),
    },
    {
      key: 'after',
      title: 'After',
      csv: (r) => short(r.after),
      render: (r) => (
        <Typography.Text code ellipsis style={{ maxWidth: 280 }}>
          {short(r.after)}
        </Typography.Text>
      ),
    },
  ],
  filters: [
    {
      name: 'entity',
      title: 'Entity',
      kind: 'select',
      options: ['user', 'role', 'ticket', 'carrier', 'agent', 'system_setting', 'login_content', 'file'].map(
        (v) => ({ value: v, label: v }),
      ),
    },
  ],
};

export default function ModificationLogPage() {
  return <ResourceList resource={resource} />;
}
