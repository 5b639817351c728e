import { api } from '@tandem/contract';
import { Tag, Tooltip } from 'antd';
import type { z } from 'zod';
import { ResourceList } from '../../components/resource/ResourceList';
import type { ListResource } from '../../components/resource/types';
import { i18next } from '../../i18n';
import './i18n';

type Row = z.infer<typeof api.mail.emailLogRow>;

const resource: ListResource<Row> = {
  key: 'email-log',
  title: 'mail.emailLog',
  list: api.mail.listEmailLog,
  rowKey: 'id',
  csvName: 'email-log',
  defaultSort: { by: 'created_at', dir: 'desc' },
  refetchMs: 10_000,
  columns: [
    {
      key: 'created_at',
      title: 'mail.time',
      sortable: true,
      render: (r) => r.created_at.replace('T', ' ').slice(0, 19),
    },
    { key: 'to_address', title: 'mail.to', sortable: true },
    { key: 'subject', title: 'mail.subject' },
    {
      key: 'kind',
      title: 'mail.kind',
      sortable: true,
      render: (r, t) => (r.event ? t(`mail.events.${r.event}`) : r.kind),
    },
    { key: 'client_name', title: 'mail.carrier' },
    { key: 'from_address', title: 'mail.from' },
    { key: 'sender_name', title: 'mail.sender' },
    {
      key: 'status',
      title: 'mail.status',
      sortable: true,
      render: (r, t) => (
        <Tooltip title={r.error || undefined}>
          <Tag color={r.status === 'sent' ? 'green' : 'red'}>{t(`mail.${r.status}`)}</Tag>
        </Tooltip>
      ),
    },
    { key: 'error', title: 'mail.error' },
  ],
  filters: [
    { name: 'to', title: 'mail.to', kind: 'text' },
    {
      name: 'status',
      title: 'mail.status',
      kind: 'select',
      options: [
        { value: 'sent', label: i18next.t('mail.sent') },
        { value: 'failed', label: i18next.t('mail.failed') },
      ],
    },
    {
      name: 'kind',
      title: 'mail.kind',
      kind: 'select',
      options: [...api.mail.MAIL_EVENTS, 'rate_deck', 'rate_reminder', 'test'].map((k) => ({
        value: k,
        label: k,
      })),
    },
  ],
};

/** Log > Email Log: every mail sent or tried, with its status and error. */
export default function EmailLogPage() {
  return <ResourceList resource={resource} />;
}
