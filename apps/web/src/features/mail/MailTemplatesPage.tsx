import { api } from '@tandem/contract';
import type { z } from 'zod';
import { crudListResource } from '../../components/resource/crudResource';
import { ResourceList } from '../../components/resource/ResourceList';
import { i18next } from '../../i18n';
import './i18n';

type Row = z.infer<typeof api.mail.mailTemplateRow>;

const resource = crudListResource<Row>(api.mail.mailTemplate, {
  key: 'mail-templates',
  title: 'mail.templates',
  rowKey: 'id',
  route: '/configuration/mail_template',
  nameOf: (r) => `${r.event} / ${r.language}`,
  columns: [
    { key: 'event', title: 'mail.event', sortable: true, render: (r, t) => t(`mail.events.${r.event}`) },
    {
      key: 'language',
      title: 'mail.language',
      sortable: true,
      render: (r, t) => t(`mail.languages.${r.language}`),
    },
    {
      key: 'sender_name',
      title: 'mail.fromSender',
      render: (r, t) => r.sender_name ?? t('mail.defaultSender'),
    },
    { key: 'cc', title: 'mail.cc', render: (r) => r.cc.join(', '), csv: (r) => r.cc.join('; ') },
    { key: 'subject', title: 'mail.subject' },
    {
      key: 'updated_at',
      title: 'mail.updated',
      sortable: true,
      render: (r) => r.updated_at.replace('T', ' ').slice(0, 16),
    },
    { key: 'updated_by', title: 'mail.updatedBy' },
  ],
  filters: [
    {
      name: 'event',
      title: 'mail.event',
      kind: 'select',
      options: api.mail.MAIL_EVENTS.map((e) => ({ value: e, label: i18next.t(`mail.events.${e}`) })),
    },
    {
      name: 'language',
      title: 'mail.language',
      kind: 'select',
      options: ['en', 'ch', 'de'].map((l) => ({ value: l, label: i18next.t(`mail.languages.${l}`) })),
    },
  ],
  defaultSort: { by: 'event', dir: 'asc' },
});

/** Configuration > Mail Template: one template per event and language. */
export default function MailTemplatesPage() {
  return <ResourceList resource={resource} />;
}
