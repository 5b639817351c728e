import { api } from '@tandem/contract';
import { Tag } from 'antd';
import { useSearchParams } from 'react-router-dom';
import type { z } from 'zod';
import { ResourceList } from '../../components/resource/ResourceList';
import type { ListResource } from '../../components/resource/types';
import { BackgroundExportButton } from '../jobs/BackgroundExportButton';

type Row = z.infer<typeof api.log.signinHistoryRow>;
const COLORS = { success: 'green', failed: 'orange', forbidden: 'red' } as const;

const resource: ListResource<Row> = {
  key: 'signin-history',
  title: 'system.signinHistory',
  list: api.log.listSigninHistory,
  rowKey: 'id',
  csvName: 'user-signin-history',
  defaultSort: { by: 'created_at', dir: 'desc' },
  columns: [
    {
      key: 'created_at',
      title: 'system.time',
      sortable: true,
      render: (r) => r.created_at.replace('T', ' ').slice(0, 19),
    },
    { key: 'name', title: 'users.name', sortable: true },
    { key: 'ip', title: 'system.ip', sortable: true },
    {
      key: 'result',
      title: 'system.result',
      sortable: true,
      render: (r, t) => <Tag color={COLORS[r.result]}>{t(`system.results.${r.result}`)}</Tag>,
    },
    { key: 'reason', title: 'system.reason' },
  ],
  filters: [
    { name: 'name', title: 'common.search', kind: 'text' },
    {
      name: 'result',
      title: 'system.result',
      kind: 'select',
      options: [
        { value: 'success', label: 'system.results.success' },
        { value: 'failed', label: 'system.results.failed' },
        { value: 'forbidden', label: 'system.results.forbidden' },
      ],
    },
  ],
};

export default function SigninHistoryPage() {
  const [sp] = useSearchParams();
  // The background export takes the list's filter as it stands.
  const filter = Object.fromEntries(['name', 'result'].flatMap((k) => (sp.get(k) ? [[k, sp.get(k)]] : [])));
  return (
    <ResourceList
      resource={resource}
      toolbar={<BackgroundExportButton kind="signin_history" filter={filter} />}
    />
  );
}
