import { int4, coercedInt4 } from '../input-rules';
import { z } from 'zod';
import { adminOnly, PUBLIC } from '../access';
import { emailList, idParams, instantFilter, listQuery, paged, singleEmail } from '../common';
import { crudEndpoints, entityName } from '../crud';
import { endpoint } from '../endpoint';
import { instant, parseInstant } from './rates';

/**
 * Sending rate decks (issue: rate e-mail templates, send_rate, rate delivery log, public download):
 * rate e-mail templates, sending a rate table to carriers as a background job, one delivery row per
 * recipient (sent succeed / sent failed / downloaded / reminder), reminders, and the public
 * /download/rate/{token} link.
 */
export const FUNC = {
  template: '/template/rate_email_template',
  rateTable: '/routing/rate_table',
  log: '/log/rate_delivery_log',
} as const;
const TAG = 'rate delivery';

export const DOWNLOAD_METHODS = ['attachment', 'link'] as const;
export type DownloadMethod = (typeof DOWNLOAD_METHODS)[number];
export const FILE_FORMATS = ['csv', 'xlsx'] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];
/** queued: waiting for the background job to send it; then sent (succeed or failed), downloaded, reminder. */
export const DELIVERY_STATUSES = ['queued', 'sent_succeed', 'sent_failed', 'downloaded', 'reminder'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export const SEND_STATUSES = ['running', 'finished', 'failed'] as const;

// ------------------------------------------------------------------------------------------------
// Tags of a rate e-mail (subject and content), rendered by the server for each recipient
// ------------------------------------------------------------------------------------------------

/** The tags a rate e-mail template may use; each is replaced for every recipient. */
export const RATE_MAIL_TAGS = [
  'carrier_name',
  'company_name',
  'rate_table_name',
  'effective_date',
  'send_date',
  'file_name',
  'file_format',
  'download_link',
  'download_deadline',
  'operating_company',
] as const;
export type RateMailTag = (typeof RATE_MAIL_TAGS)[number];
export type RateMailValues = Record<RateMailTag, string>;

/**
 * Replaces the {tag} placeholders of a template text. Unknown tags stay as written (a carrier sees
 * what the author typed, not an empty gap); values are inserted as plain text (mail is text/plain).
 */
export function renderRateMail(template: string, values: RateMailValues): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) =>
    (RATE_MAIL_TAGS as readonly string[]).includes(k) ? values[k as RateMailTag] : m,
  );
}

/** The {tags} of a text that are not rate e-mail tags (the template form warns about them). */
export function unknownRateMailTags(text: string): string[] {
  const found = [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  return [...new Set(found.filter((k) => !(RATE_MAIL_TAGS as readonly string[]).includes(k)))];
}

/** The content a new template starts with. */
export const DEFAULT_RATE_MAIL_SUBJECT = 'Rate deck {rate_table_name} effective {effective_date}';
export const DEFAULT_RATE_MAIL_CONTENT = [
  'Dear {carrier_name},',
  '',
  'please find our rate deck {rate_table_name}, effective {effective_date}.',
  '',
  'Download: {download_link}',
  'The link is valid until {download_deadline}.',
  '',
  'Best regards,',
  '{operating_company}',
].join('\n');

// ------------------------------------------------------------------------------------------------
// Rate e-mail templates
// ------------------------------------------------------------------------------------------------

export const rateEmailTemplateFields = z.object({
  name: entityName(),
  download_method: z.enum(DOWNLOAD_METHODS).default('link'),
  /** The sender address ("From e-mail must be selected"). */
  from_email: z.string().trim().min(1, { message: 'fromEmailRequired' }).pipe(singleEmail),
  cc: emailList(20).default([]),
  subject: z.string().trim().min(1, { message: 'required' }).max(200).default(DEFAULT_RATE_MAIL_SUBJECT),
  content: z.string().trim().min(1, { message: 'required' }).max(20000).default(DEFAULT_RATE_MAIL_CONTENT),
  file_format: z.enum(FILE_FORMATS).default('csv'),
});
export const rateEmailTemplateRow = rateEmailTemplateFields.extend({
  id: z.number(),
  usage_count: z.number(),
  updated_at: z.string(),
  updated_by: z.string(),
});
export type RateEmailTemplateRow = z.infer<typeof rateEmailTemplateRow>;
export const rateEmailTemplate = crudEndpoints({
  base: '/rate/email_template',
  tag: TAG,
  func: FUNC.template,
  name: 'rate email template',
  row: rateEmailTemplateRow,
  create: rateEmailTemplateFields.strict(),
  filters: { name: z.string().max(100).optional() },
});

// ------------------------------------------------------------------------------------------------
// Sending a rate table
// ------------------------------------------------------------------------------------------------

/** A carrier the send page offers: those whose trunks use the rate table are preselected. */
export const sendCandidate = z.object({
  client_id: z.number(),
  name: z.string(),
  company: z.string(),
  /** The rates e-mail of the carrier's contact data, else its main e-mail ('' when neither). */
  email: z.string(),
  uses_rate_table: z.boolean(),
  is_active: z.boolean(),
});
export const listSendCandidates = endpoint({
  method: 'GET',
  path: '/rate/rate_table/:id/send_candidates',
  summary: 'Carriers a rate table can be sent to (those whose trunks use it first, preselected)',
  tag: TAG,
  access: adminOnly(FUNC.rateTable, 'read'),
  params: idParams,
  payload: z.object({ items: z.array(sendCandidate) }),
});

/** The download deadline must be later than the current date (checked again by the server at send time). */
export const futureInstant = instant.refine((v) => (parseInstant(v)?.getTime() ?? 0) > Date.now(), {
  message: 'deadlineInFuture',
});

export const sendRateBody = z
  .object({
    template_id: int4().positive(),
    client_ids: z.array(int4().positive()).max(1000).default([]),
    emails: emailList(100).default([]),
    /** Default: the template's format. */
    file_format: z.enum(FILE_FORMATS).optional(),
    /** Only rates effective on or after this instant (default: every rate not yet ended). */
    effective_from: instant.nullable().default(null),
    download_deadline: futureInstant,
  })
  .strict()
  .refine((b) => b.client_ids.length + b.emails.length > 0, {
    message: 'selectRecipients',
    path: ['client_ids'],
  });
export type SendRateBody = z.input<typeof sendRateBody>;
export type SendRateOptions = z.output<typeof sendRateBody>;

export const sendRate = endpoint({
  method: 'POST',
  path: '/rate/rate_table/:id/send',
  summary: 'Send the rate table to carriers or addresses with a rate e-mail template (background job)',
  tag: TAG,
  access: adminOnly(FUNC.rateTable, 'write'),
  params: idParams,
  body: sendRateBody,
  payload: z.object({ send_id: z.number(), recipients: z.number() }),
});

export const rateSendRow = z.object({
  id: z.number(),
  rate_table_id: z.number().nullable(),
  rate_table_name: z.string(),
  template_name: z.string(),
  download_method: z.enum(DOWNLOAD_METHODS),
  file_format: z.enum(FILE_FORMATS),
  file_name: z.string(),
  rate_rows: z.number(),
  effective_from: z.string().nullable(),
  download_deadline: z.string(),
  status: z.enum(SEND_STATUSES),
  total: z.number(),
  succeeded: z.number(),
  failed: z.number(),
  message: z.string(),
  user_name: z.string(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type RateSendRow = z.infer<typeof rateSendRow>;
export const getRateSend = endpoint({
  method: 'GET',
  path: '/rate/rate_send/:id',
  summary: 'One rate send: progress and counts',
  tag: TAG,
  access: adminOnly(FUNC.rateTable, 'read'),
  params: idParams,
  payload: rateSendRow,
});

export const remindBody = z
  .object({
    send_id: int4().positive().optional(),
    delivery_ids: z.array(int4().positive()).max(1000).optional(),
  })
  .strict()
  .refine((b) => b.send_id !== undefined || (b.delivery_ids?.length ?? 0) > 0, {
    message: 'selectRecipients',
    path: ['delivery_ids'],
  });
export const remind = endpoint({
  method: 'POST',
  path: '/rate/delivery/remind',
  summary: 'Send a reminder to the recipients of a send (or the chosen deliveries) who have not downloaded',
  tag: TAG,
  access: adminOnly(FUNC.rateTable, 'write'),
  body: remindBody,
  payload: z.object({ reminded: z.number() }),
});

// ------------------------------------------------------------------------------------------------
// The rate delivery log
// ------------------------------------------------------------------------------------------------

export const deliveryRow = z.object({
  id: z.number(),
  send_id: z.number(),
  rate_table_id: z.number().nullable(),
  rate_table_name: z.string(),
  client_id: z.number().nullable(),
  carrier_name: z.string(),
  email: z.string(),
  template_name: z.string(),
  download_method: z.enum(DOWNLOAD_METHODS),
  file_name: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  error: z.string(),
  sent_at: z.string().nullable(),
  download_deadline: z.string(),
  downloaded_at: z.string().nullable(),
  download_ip: z.string(),
  download_count: z.number(),
  reminder_count: z.number(),
  reminded_at: z.string().nullable(),
  user_name: z.string(),
  created_at: z.string(),
});
export type DeliveryRow = z.infer<typeof deliveryRow>;
const deliveryFilters = {
  time_from: instantFilter.optional(),
  time_to: instantFilter.optional(),
  client_id: coercedInt4().positive().optional(),
  send_id: coercedInt4().positive().optional(),
  status: z.enum(DELIVERY_STATUSES).optional(),
  email: z.string().trim().max(254).optional(),
};
export const listDeliveryLog = endpoint({
  method: 'GET',
  path: '/log/rate_delivery',
  summary: 'Rate delivery log: one row per recipient of each rate send',
  tag: TAG,
  access: adminOnly(FUNC.log, 'read'),
  query: listQuery.extend({
    ...deliveryFilters,
    rate_table_id: coercedInt4().positive().optional(),
  }),
  payload: paged(deliveryRow),
});
export const listSendRateLog = endpoint({
  method: 'GET',
  path: '/rate/rate_table/:id/send_log',
  summary: 'The rate delivery log of one rate table (Routing > Rate Table > send rate log)',
  tag: TAG,
  access: adminOnly(FUNC.rateTable, 'read'),
  params: idParams,
  query: listQuery.extend(deliveryFilters),
  payload: paged(deliveryRow),
});

// ------------------------------------------------------------------------------------------------
// The public download link
// ------------------------------------------------------------------------------------------------

const tokenParams = z.object({ token: z.string().trim().max(200) });
export const downloadInfo = endpoint({
  method: 'GET',
  path: '/rate/download/:token/info',
  summary: 'What a rate download link offers (public: the link is the credential)',
  tag: TAG,
  access: PUBLIC,
  params: tokenParams,
  payload: z.object({
    rate_table_name: z.string(),
    carrier_name: z.string(),
    file_name: z.string(),
    file_format: z.enum(FILE_FORMATS),
    size_bytes: z.number(),
    download_deadline: z.string(),
    downloaded_at: z.string().nullable(),
    operating_company: z.string(),
  }),
});
export const downloadFile = endpoint({
  method: 'GET',
  path: '/rate/download/:token',
  summary: 'Download the rate file of a link (public; records the download with time and IP)',
  tag: TAG,
  access: PUBLIC,
  params: tokenParams,
  raw: true,
  payload: z.null(),
});
