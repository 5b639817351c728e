import { lazy } from 'react';
import type { RouteDef } from '../../app/routes';

const senders = lazy(() => import('./MailSendersPage'));
const senderEdit = lazy(() => import('./MailSenderEditPage'));
const templates = lazy(() => import('./MailTemplatesPage'));
const templateEdit = lazy(() => import('./MailTemplateEditPage'));
const emailLog = lazy(() => import('./EmailLogPage'));

/** Configuration > Mail Sender and Mail Template, Log > Email Log (docs/mail.md). */
export const mailRoutes: RouteDef[] = [
  { path: '/configuration/email_sender', title: 'mail.senders', page: senders },
  { path: '/configuration/email_sender/new', title: 'mail.newSender', page: senderEdit },
  { path: '/configuration/email_sender/edit/:id', title: 'mail.editSender', page: senderEdit },
  { path: '/configuration/mail_template', title: 'mail.templates', page: templates },
  { path: '/configuration/mail_template/new', title: 'mail.newTemplate', page: templateEdit },
  { path: '/configuration/mail_template/edit/:id', title: 'mail.editTemplate', page: templateEdit },
  { path: '/log/email_log', title: 'mail.emailLog', page: emailLog },
];
