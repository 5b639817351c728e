import { z } from 'zod';
import { adminOnly } from '../access';
import { emailList, idParams, instantFilter, listQuery, paged, portNumber, singleEmail } from '../common';
import { crudEndpoints, entityName, requiredText } from '../crud';
import { endpoint } from '../endpoint';
import { coercedInt4, int4 } from '../input-rules';
import { LANGUAGES } from '../i18n';

/**
 * Mail senders (Configuration > Mail Sender), mail templates (Configuration > Mail Template) and the
 * e-mail log (Log > Email Log): issue 12 part 3, docs/mail.md.
 */
export const FUNC = {
  sender: '/configuration/email_sender',
  template: '/configuration/mail_template',
  log: '/log/email_log',
} as const;
const TAG = 'mail';

// ------------------------------------------------------------------------------------------------
// Events, their tags, and rendering
// ------------------------------------------------------------------------------------------------

/** Every mail Tandem sends from a template, with the {tags} its subject and content may use. */
export const MAIL_TAGS = {
  password_reset: ['name', 'user', 'link', 'program'],
  low_balance: [
    'carrier_name',
    'company_name',
    'balance',
    'available',
    'threshold',
    'currency',
    'time',
    'operating_company',
  ],
  zero_balance: [
    'carrier_name',
    'company_name',
    'balance',
    'available',
    'currency',
    'time',
    'operating_company',
  ],
  payment_received: [
    'carrier_name',
    'company_name',
    'amount',
    'balance',
    'currency',
    'method',
    'transaction_id',
    'time',
    'operating_company',
  ],
  daily_balance: [
    'carrier_name',
    'company_name',
    'date',
    'balance',
    'available',
    'currency',
    'operating_company',
  ],
  daily_usage: [
    'carrier_name',
    'company_name',
    'date',
    'calls',
    'usage',
    'balance',
    'currency',
    'operating_company',
  ],
  invoice_sent: [
    'carrier_name',
    'company_name',
    'invoice_number',
    'period',
    'amount',
    'currency',
    'due_date',
    'link',
    'operating_company',
  ],
} as const;
export type MailEvent = keyof typeof MAIL_TAGS;
export const MAIL_EVENTS = Object.keys(MAIL_TAGS) as MailEvent[];
export type MailValues<E extends MailEvent = MailEvent> = Record<(typeof MAIL_TAGS)[E][number], string>;
/** The carrier notifications (carriers' notify_* switches) that are mailed from a template. */
export const NOTIFICATION_EVENTS = [
  'low_balance',
  'zero_balance',
  'payment_received',
  'daily_balance',
  'daily_usage',
] as const;

/** English event names (the web app translates them; the server's log messages use these). */
export const MAIL_EVENT_LABELS: Record<MailEvent, string> = {
  password_reset: 'Password reset',
  low_balance: 'Low balance',
  zero_balance: 'Zero balance',
  payment_received: 'Payment received',
  daily_balance: 'Daily balance',
  daily_usage: 'Daily usage',
  invoice_sent: 'Invoice',
};

/**
 * Replaces the {tag} placeholders of a template text with the event's values. Values are inserted as
 * plain text and never re-scanned (a value holding "{link}" stays as it is); unknown tags stay as
 * written. `subject`: line breaks become spaces, so a value can never add a mail header.
 */
export function renderMail(
  event: MailEvent,
  text: string,
  values: Partial<Record<string, string>>,
  subject = false,
): string {
  const tags = MAIL_TAGS[event] as readonly string[];
  const out = text.replace(/\{(\w+)\}/g, (m, k: string) => (tags.includes(k) ? (values[k] ?? '') : m));
  return subject ? out.replace(/[\r\n]+/g, ' ').trim() : out;
}

/** The {tags} of a text its event does not know (refused when saving a template). */
export function unknownMailTags(event: MailEvent, text: string): string[] {
  const tags = MAIL_TAGS[event] as readonly string[];
  const found = [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return [...new Set(found.filter((k) => !tags.includes(k)))];
}

/** Example values for the template preview. */
export const SAMPLE_VALUES: Record<string, string> = {
  name: 'Anna',
  user: 'anna',
  link: 'https://portal.example.com/#/auth/reset/abc123',
  program: 'Tandem',
  carrier_name: 'Acme Telecom',
  company_name: 'Acme Telecom Ltd',
  balance: '18.40',
  available: '18.40',
  threshold: '50.00',
  currency: 'USD',
  time: '2026-11-27 10:15 UTC',
  operating_company: 'Tandem Carrier Services',
  amount: '100.00',
  method: 'Card',
  transaction_id: 'txn_0001',
  date: '2026-11-26',
  calls: '1,234',
  usage: '56.78',
  invoice_number: 'INV-2026-0042',
  period: '2026-10-01 – 2026-10-31',
  due_date: '2026-11-15',
};

// ------------------------------------------------------------------------------------------------
// Mail senders
// ------------------------------------------------------------------------------------------------

export const SECURITY = ['ssl', 'tls', 'none'] as const;
export const mailSenderFields = z.object({
  name: entityName(),
  server: requiredText(253).regex(/^[A-Za-z0-9.-]+$/, { message: 'invalidValue' }),
  port: portNumber.default(587),
  username: z.string().trim().max(254).default(''),
  /** Write only: never answered. On update an empty or missing password keeps the stored one. */
  password: z.string().max(500).optional(),
  security: z.enum(SECURITY).default('tls'),
  /** The From address of the mail sent through it. */
  address: z.string().trim().min(1, { message: 'fromEmailRequired' }).pipe(singleEmail),
  is_default: z.boolean().default(false),
});
export const mailSenderRow = mailSenderFields.omit({ password: true }).extend({
  id: z.number(),
  has_password: z.boolean(),
  status: z.enum(['connected', 'disconnected']),
  status_error: z.string(),
  checked_at: z.string().nullable(),
  usage_count: z.number(),
  updated_at: z.string(),
  updated_by: z.string(),
});
export type MailSenderRow = z.infer<typeof mailSenderRow>;
export const mailSender = crudEndpoints({
  base: '/config/email_sender',
  tag: TAG,
  func: FUNC.sender,
  name: 'mail sender',
  row: mailSenderRow,
  create: mailSenderFields.strict(),
  filters: { name: z.string().max(100).optional() },
});
export const testSender = endpoint({
  method: 'POST',
  path: '/config/email_sender/:id/test',
  summary: 'Test the connection of a mail sender (connected or disconnected, stored on the sender)',
  tag: TAG,
  access: adminOnly(FUNC.sender, 'write'),
  params: idParams,
  payload: z.object({ status: z.enum(['connected', 'disconnected']), error: z.string() }),
});
export const testSend = endpoint({
  method: 'POST',
  path: '/config/email_sender/:id/test_send',
  summary: 'Send a test mail through a mail sender (logged in the e-mail log)',
  tag: TAG,
  access: adminOnly(FUNC.sender, 'write'),
  params: idParams,
  body: z.object({ to: singleEmail }).strict(),
  payload: z.object({ sent: z.boolean(), error: z.string() }),
});

// ------------------------------------------------------------------------------------------------
// Mail templates
// ------------------------------------------------------------------------------------------------

export const mailTemplateFields = z.object({
  event: z.enum(MAIL_EVENTS as [MailEvent, ...MailEvent[]]),
  language: z.enum(LANGUAGES),
  /** The From sender; null: the default sender. */
  sender_id: int4().positive().nullable().default(null),
  cc: emailList(20).default([]),
  subject: requiredText(200),
  content: z.string().trim().min(1, { message: 'required' }).max(20000),
});
export const mailTemplateRow = mailTemplateFields.extend({
  id: z.number(),
  sender_name: z.string().nullable(),
  updated_at: z.string(),
  updated_by: z.string(),
});
export type MailTemplateRow = z.infer<typeof mailTemplateRow>;
export const mailTemplate = crudEndpoints({
  base: '/config/mail_template',
  tag: TAG,
  func: FUNC.template,
  name: 'mail template',
  row: mailTemplateRow,
  create: mailTemplateFields.strict(),
  filters: {
    event: z.enum(MAIL_EVENTS as [MailEvent, ...MailEvent[]]).optional(),
    language: z.enum(LANGUAGES).optional(),
  },
});

// ------------------------------------------------------------------------------------------------
// E-mail log
// ------------------------------------------------------------------------------------------------

export const emailLogRow = z.object({
  id: z.number(),
  created_at: z.string(),
  to_address: z.string(),
  cc: z.string(),
  from_address: z.string(),
  subject: z.string(),
  kind: z.string(),
  event: z.string(),
  status: z.enum(['sent', 'failed']),
  error: z.string(),
  client_id: z.number().nullable(),
  client_name: z.string().nullable(),
  sender_name: z.string().nullable(),
});
export const listEmailLog = endpoint({
  method: 'GET',
  path: '/log/email_log',
  summary: 'Every mail Tandem sent or tried to send, with its status',
  tag: TAG,
  access: adminOnly(FUNC.log, 'read'),
  query: listQuery.extend({
    status: z.enum(['sent', 'failed']).optional(),
    kind: z.string().max(64).optional(),
    to: z.string().max(254).optional(),
    client_id: coercedInt4().positive().optional(),
    time_from: instantFilter.optional(),
    time_to: instantFilter.optional(),
  }),
  payload: paged(emailLogRow),
});
