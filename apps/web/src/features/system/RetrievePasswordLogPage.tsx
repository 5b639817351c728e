import { api } from '@tandem/contract';
import { Tag } from 'antd';
import type { z } from 'zod';
import { ResourceList } from '../../components/resource/ResourceList';
import type { ListResource } from '../../components/resource/types';

type Row = z.infer<typeof api.log.retrievePasswordRow>;
const COLORS = { email_sent: 'blue', modify_failure: 'red', modified_successfully: 'green' } as const;

/**
 * Log > Retrieve Password Log: every "forgot password" request for a known user (the reset mail sent,
 * or not sent when mail failed) and every password changed with such a link, with the caller's IP.
 * Requests for unknown names are not here (the sign-in history has them, as failed attempts).
 */
const resource: ListResource<Row> = {
  key: 'retrieve-password-log',
  title: 'system.retrievePasswordLog',
  list: api.log.listRetrievePasswordLog,
  rowKey: 'id',
  csvName: 'retrieve-password-log',
  defaultSort: { by: 'created_at', dir: 'desc' },
  columns: [
    {
      key: 'created_at',
      title: 'system.time',
      sortable: true,
      render: (r) => r.created_at.replace('T', ' ').slice(0, 19),
    },
    { key: 'name', title: 'users.name', sortable: true },
    { key: 'email', title: 'system.emailAddress' },
    {
      key: 'status',
      title: 'system.resetStatus',
      sortable: true,
      render: (r, t) => <Tag color={COLORS[r.status]}>{t(`system.resetStatuses.${r.status}`)}</Tag>,
    },
    { key: 'ip', title: 'system.ip' },
  ],
  filters: [
    { name: 'name', title: 'system.userOrEmail', kind: 'text' },
    {
      name: 'status',
      title: 'system.resetStatus',
      kind: 'select',
      options: api.log.RETRIEVE_PASSWORD_STATUSES.map((s) => ({
        value: s,
        label: `system.resetStatuses.${s}`,
      })),
    },
  ],
};

export default function RetrievePasswordLogPage() {
  return <ResourceList resource={resource} />;
}
