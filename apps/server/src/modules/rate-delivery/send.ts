import { api, isLanguage, message, type Language } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { actorOf, type Actor } from '../../http/context';
import { invalidField, notFound, ruleBroken } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { hashToken, newToken } from '../auth/tokens';
import { JobQueue } from '../rates/import/start';
import { rateTableInfo, shownInstant } from '../rates/rate-query';
import { RATE_FILE_MIME, rateFileStream } from '../rates/rate-tools';

const { renderRateMail } = api.rateDelivery;

/** Sends and reminders run one after another in the background (a send may mail hundreds of carriers). */
const queues = new WeakMap<Services, JobQueue>();
export function deliveryQueue(s: Services): JobQueue {
  let q = queues.get(s);
  if (!q) queues.set(s, (q = new JobQueue()));
  return q;
}

/** Carriers using a rate table: one of their trunks rates with it, directly or through a product row. */
const usesTable = (tableId: number) =>
  sql<boolean>`exists (select 1 from trunks t where t.carrier_id = c.client_id and (t.rate_table_id = ${tableId}
    or exists (select 1 from trunk_routing_rows w where w.trunk_id = t.trunk_id and w.rate_table_id = ${tableId})))`;

/** The address a carrier gets rate decks at: its rates e-mail, else its main e-mail. */
const rateEmailOf = sql<string>`coalesce(nullif(c.rates_email, ''), c.main_email)`;

/** The public link of a download token: the base domain URL of the system settings, else PUBLIC_URL. */
async function downloadLink(s: Services, token: string): Promise<string> {
  const origin = (await s.settings.system()).base_url || s.config.publicUrl;
  return `${origin.replace(/\/$/, '')}/#/download/rate/${token}`;
}

/** 'YYYY-MM-DD HH:mm UTC', how mails state instants. */
const mailInstant = (d: Date) => `${shownInstant(d).slice(0, 16)} UTC`;

interface Recipient {
  client_id: number | null;
  carrier_name: string;
  company: string;
  email: string;
}

/** The recipients of a send: the chosen carriers at their rates e-mail, then the extra addresses (no address twice). */
async function recipientsOf(db: Db, body: { client_ids: number[]; emails: string[] }): Promise<Recipient[]> {
  const out: Recipient[] = [];
  const seen = new Set<string>();
  if (body.client_ids.length) {
    const rows = await db
      .selectFrom('carriers as c')
      .select(['c.client_id', 'c.name', 'c.company'])
      .select(rateEmailOf.as('email'))
      .where('c.client_id', 'in', body.client_ids)
      .orderBy('c.name')
      .execute();
    const found = new Set(rows.map((r) => r.client_id));
    const missing = body.client_ids.find((id) => !found.has(id));
    if (missing !== undefined) throw invalidField('client_ids', 'invalidValue', ['client_ids']);
    for (const r of rows) {
      if (!r.email) throw invalidField('client_ids', 'carrierHasNoRateEmail', [r.name]);
      const key = r.email.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ client_id: r.client_id, carrier_name: r.name, company: r.company, email: r.email });
    }
  }
  for (const e of body.emails) {
    if (seen.has(e)) continue;
    seen.add(e);
    out.push({ client_id: null, carrier_name: '', company: '', email: e });
  }
  return out;
}

/** Records a send and its recipients (queued) in one transaction and queues the job. */
export async function startSend(
  s: Services,
  actor: Actor,
  lang: Language,
  tableId: number,
  body: api.rateDelivery.SendRateOptions,
): Promise<{ send_id: number; recipients: number }> {
  const { sendId, recipients } = await s.db.transaction().execute(async (trx) => {
    const table = await rateTableInfo(trx, tableId);
    const template = await trx
      .selectFrom('rate_email_templates')
      .selectAll()
      .where('id', '=', body.template_id)
      .executeTakeFirst();
    if (!template) throw invalidField('template_id', 'invalidValue', ['template_id']);
    const deadline = new Date(body.download_deadline);
    if (deadline.getTime() <= Date.now()) throw invalidField('download_deadline', 'deadlineInFuture');
    const recipients = await recipientsOf(trx, body);
    const send = await trx
      .insertInto('rate_sends')
      .values({
        rate_table_id: table.rate_table_id,
        rate_table_name: table.name,
        template_id: template.id,
        template_name: template.name,
        download_method: template.download_method,
        from_email: template.from_email,
        cc: template.cc,
        subject: template.subject,
        content: template.content,
        file_format: body.file_format ?? template.file_format,
        effective_from: body.effective_from ? new Date(body.effective_from) : null,
        language: lang,
        download_deadline: deadline,
        total: recipients.length,
        user_id: actor.user.user_id,
        user_name: actor.user.name,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('rate_deliveries')
      .values(recipients.map((r) => ({ ...r, send_id: send.id })))
      .execute();
    await s.audit.record(trx, actor, 'rate_table', table.rate_table_id, 'send_rate', null, {
      send_id: send.id,
      template: template.name,
      file_format: body.file_format ?? template.file_format,
      effective_from: body.effective_from ?? null,
      download_deadline: deadline.toISOString(),
      recipients: recipients.map((r) => r.email),
    });
    return { sendId: send.id, recipients: recipients.length };
  });
  void deliveryQueue(s).add(() => runSend(s, sendId));
  return { send_id: sendId, recipients };
}

/**
 * Sends a rate table to every approved carrier whose trunks use it (at its rates e-mail, else its
 * main e-mail), as "apply to rate table" of rate generation does after new rates went in. Carriers
 * without any address are left out. Null when no carrier uses the table.
 */
export async function sendToTableUsers(
  s: Services,
  actor: Actor,
  lang: Language,
  tableId: number,
  opts: { template_id: number; download_deadline: string },
): Promise<{ send_id: number; recipients: number } | null> {
  const users = await s.db
    .selectFrom('carriers as c')
    .select('c.client_id')
    .where('c.registration_status', '=', 'approved')
    .where(usesTable(tableId))
    .where(rateEmailOf, '<>', '')
    .execute();
  if (!users.length) return null;
  return startSend(s, actor, lang, tableId, {
    template_id: opts.template_id,
    client_ids: users.map((u) => u.client_id),
    emails: [],
    effective_from: null,
    download_deadline: opts.download_deadline,
  });
}

async function streamToBuffer(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks);
}

type SendRecord = Awaited<ReturnType<typeof loadSend>>;
async function loadSend(db: Db, id: number) {
  return db.selectFrom('rate_sends').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Builds the rate file once (kept with the send), so every recipient and every download gets the same deck. */
async function buildFile(s: Services, send: SendRecord): Promise<void> {
  if (send.rate_table_id === null) throw new Error('The rate table was deleted before the send ran');
  const t = await rateTableInfo(s.db, send.rate_table_id);
  // Every rate not yet ended; with an effective date, only those effective from then on.
  const parts = [sql`(r.end_date IS NULL OR r.end_date > now())`];
  if (send.effective_from) parts.push(sql`r.effective_date >= ${send.effective_from}`);
  const extra = sql<boolean>`(${sql.join(parts, sql` AND `)})`;
  const data = await streamToBuffer(rateFileStream(s.db, t, {}, send.file_format, extra));
  const count = await s.db
    .selectFrom('rates as r')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('r.rate_table_id', '=', t.rate_table_id)
    .where(extra)
    .executeTakeFirstOrThrow();
  const stamp = send.created_at.toISOString().slice(0, 10);
  const fileName = `${t.name.replace(/[^\w.-]+/g, '_')}_${stamp}.${send.file_format}`;
  await s.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('rate_send_files')
      .values({ send_id: send.id, mime: RATE_FILE_MIME[send.file_format], size_bytes: data.length, data })
      .execute();
    await trx
      .updateTable('rate_sends')
      .set({ file_name: fileName, rate_rows: Number(count.n) })
      .where('id', '=', send.id)
      .execute();
  });
}

interface DeliveryTarget {
  id: number;
  carrier_name: string;
  company: string;
  email: string;
}

/** Mails one recipient (a new download token for the link method) and answers the error ('' when sent). */
async function mailOne(s: Services, send: SendRecord, d: DeliveryTarget, reminder: boolean): Promise<string> {
  const lang: Language = isLanguage(send.language) ? send.language : 'en';
  const file = await s.db
    .selectFrom('rate_send_files')
    .selectAll()
    .where('send_id', '=', send.id)
    .executeTakeFirstOrThrow();
  let link = message('rateFileAttached', lang, [send.file_name]);
  if (send.download_method === 'link') {
    const token = newToken();
    await s.db
      .insertInto('rate_delivery_tokens')
      .values({ token_hash: hashToken(token), delivery_id: d.id })
      .execute();
    link = await downloadLink(s, token);
  }
  const values: api.rateDelivery.RateMailValues = {
    carrier_name: d.carrier_name || d.email,
    company_name: d.company || d.carrier_name || d.email,
    rate_table_name: send.rate_table_name,
    effective_date: (send.effective_from ?? send.created_at).toISOString().slice(0, 10),
    send_date: send.created_at.toISOString().slice(0, 10),
    file_name: send.file_name,
    file_format: send.file_format.toUpperCase(),
    download_link: link,
    download_deadline: mailInstant(send.download_deadline),
    operating_company: (await s.settings.system()).operating_company,
  };
  const subject = renderRateMail(send.subject, values).replace(/[\r\n]+/g, ' ');
  return s.mailer.deliver({
    to: d.email,
    from: send.from_email,
    cc: send.cc,
    subject: reminder ? message('rateReminderSubject', lang, [subject]) : subject,
    text: renderRateMail(send.content, values),
    kind: reminder ? 'rate_reminder' : 'rate_deck',
    attachments:
      send.download_method === 'attachment'
        ? [{ filename: send.file_name, content: Buffer.from(file.data), contentType: file.mime }]
        : [],
  });
}

/** The background job of a send: the file, then one mail per queued recipient, then the counts. */
export async function runSend(s: Services, sendId: number): Promise<void> {
  try {
    await buildFile(s, await loadSend(s.db, sendId));
    const send = await loadSend(s.db, sendId);
    const queued = await s.db
      .selectFrom('rate_deliveries')
      .select(['id', 'carrier_name', 'company', 'email'])
      .where('send_id', '=', sendId)
      .where('status', '=', 'queued')
      .orderBy('id')
      .execute();
    for (const d of queued) {
      const target = { ...d, id: Number(d.id) };
      const error = await mailOne(s, send, target, false).catch((e: unknown) =>
        e instanceof Error ? e.message : String(e),
      );
      await s.db
        .updateTable('rate_deliveries')
        .set({ status: error ? 'sent_failed' : 'sent_succeed', error, sent_at: new Date() })
        .where('id', '=', target.id)
        .execute();
    }
    await finishSend(s.db, sendId, 'finished', '');
  } catch (e) {
    const text = e instanceof Error ? e.message : String(e);
    s.log.error({ err: e, sendId }, 'rate send failed');
    await s.db
      .updateTable('rate_deliveries')
      .set({ status: 'sent_failed', error: text, sent_at: new Date() })
      .where('send_id', '=', sendId)
      .where('status', '=', 'queued')
      .execute();
    await finishSend(s.db, sendId, 'failed', text);
  }
}

async function finishSend(
  db: Db,
  sendId: number,
  status: 'finished' | 'failed',
  text: string,
): Promise<void> {
  await db
    .updateTable('rate_sends')
    .set({ status, message: text, finished_at: new Date() })
    .where('id', '=', sendId)
    .execute();
  await recount(db, sendId);
}

/** The succeeded and failed counts of a send, from its deliveries. */
async function recount(db: Db, sendId: number): Promise<void> {
  await db
    .updateTable('rate_sends')
    .set({
      succeeded: sql<number>`(select count(*)::int from rate_deliveries d where d.send_id = ${sendId} and d.status <> 'sent_failed' and d.status <> 'queued')`,
      failed: sql<number>`(select count(*)::int from rate_deliveries d where d.send_id = ${sendId} and d.status = 'sent_failed')`,
    })
    .where('id', '=', sendId)
    .execute();
}

/** The reminder job: mails again those not downloaded; their state becomes reminder (or sent failed). */
async function runReminders(s: Services, ids: number[]): Promise<void> {
  const rows = await s.db
    .selectFrom('rate_deliveries')
    .select(['id', 'send_id', 'carrier_name', 'company', 'email'])
    .where('id', 'in', ids)
    .orderBy('id')
    .execute();
  const sends = new Map<number, SendRecord>();
  for (const d of rows) {
    const send = sends.get(d.send_id) ?? (await loadSend(s.db, d.send_id));
    sends.set(d.send_id, send);
    const error = await mailOne(s, send, { ...d, id: Number(d.id) }, true).catch((e: unknown) =>
      e instanceof Error ? e.message : String(e),
    );
    await s.db
      .updateTable('rate_deliveries')
      .set(
        error
          ? { status: 'sent_failed', error }
          : {
              status: 'reminder',
              error: '',
              reminded_at: new Date(),
              reminder_count: sql<number>`reminder_count + 1`,
            },
      )
      .where('id', '=', Number(d.id))
      .execute();
  }
  for (const id of sends.keys()) await recount(s.db, id);
}

export const toSendRow = (r: SendRecord): api.rateDelivery.RateSendRow => ({
  id: r.id,
  rate_table_id: r.rate_table_id,
  rate_table_name: r.rate_table_name,
  template_name: r.template_name,
  download_method: r.download_method,
  file_format: r.file_format,
  file_name: r.file_name,
  rate_rows: r.rate_rows,
  effective_from: r.effective_from ? r.effective_from.toISOString() : null,
  download_deadline: r.download_deadline.toISOString(),
  status: r.status,
  total: r.total,
  succeeded: r.succeeded,
  failed: r.failed,
  message: r.message,
  user_name: r.user_name,
  created_at: r.created_at.toISOString(),
  finished_at: r.finished_at ? r.finished_at.toISOString() : null,
});

/** Send rate: the carriers to offer, the send itself (background job), its progress, reminders. */
export function registerRateSend(app: FastifyInstance, s: Services): void {
  app.addHook('onClose', async () => {
    await deliveryQueue(s).idle();
  });
  // A process that stopped during a send leaves it running: what was not mailed failed.
  void s.db
    .transaction()
    .execute(async (trx) => {
      const stale = await trx.selectFrom('rate_sends').select('id').where('status', '=', 'running').execute();
      for (const { id } of stale) {
        await trx
          .updateTable('rate_deliveries')
          .set({ status: 'sent_failed', error: 'The server stopped before this mail was sent' })
          .where('send_id', '=', id)
          .where('status', '=', 'queued')
          .execute();
        await finishSend(trx, id, 'failed', 'The server stopped during the send');
      }
    })
    .catch((e: unknown) => s.log.error({ err: e }, 'could not close interrupted rate sends'));

  implement(app, s, api.rateDelivery.listSendCandidates, async (ctx) => {
    await rateTableInfo(s.db, ctx.params.id);
    const rows = await s.db
      .selectFrom('carriers as c')
      .select(['c.client_id', 'c.name', 'c.company', 'c.is_active'])
      .select(rateEmailOf.as('email'))
      .select(usesTable(ctx.params.id).as('uses_rate_table'))
      .where('c.registration_status', '=', 'approved')
      .execute();
    const items = rows
      .map((r) => ({ ...r, uses_rate_table: Boolean(r.uses_rate_table) }))
      .sort(
        (a, b) =>
          Number(b.uses_rate_table) - Number(a.uses_rate_table) ||
          a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }),
      );
    return { items };
  });

  implement(app, s, api.rateDelivery.sendRate, async (ctx) =>
    startSend(s, actorOf(ctx), ctx.lang, ctx.params.id, ctx.body),
  );

  implement(app, s, api.rateDelivery.getRateSend, async (ctx) => {
    const r = await s.db
      .selectFrom('rate_sends')
      .selectAll()
      .where('id', '=', ctx.params.id)
      .executeTakeFirst();
    if (!r) throw notFound();
    return toSendRow(r);
  });

  implement(app, s, api.rateDelivery.remind, async (ctx) => {
    const { send_id, delivery_ids } = ctx.body;
    const ids = await s.db.transaction().execute(async (trx) => {
      let q = trx
        .selectFrom('rate_deliveries as d')
        .innerJoin('rate_sends as x', 'x.id', 'd.send_id')
        .select(['d.id', 'd.send_id', 'd.status', 'x.status as send_status', 'x.download_deadline']);
      if (send_id !== undefined) q = q.where('d.send_id', '=', send_id);
      if (delivery_ids?.length) q = q.where('d.id', 'in', delivery_ids);
      const rows = await q.execute();
      if (!rows.length) throw notFound();
      if (rows.some((r) => r.send_status === 'running')) throw ruleBroken('sendStillRunning');
      const past = rows.find((r) => r.download_deadline.getTime() <= Date.now());
      if (past) throw ruleBroken('sendDeadlinePassed', [shownInstant(past.download_deadline)]);
      const due = rows
        .filter((r) => r.status !== 'downloaded' && r.status !== 'queued')
        .map((r) => Number(r.id));
      if (due.length) {
        await s.audit.record(trx, actorOf(ctx), 'rate_send', send_id ?? rows[0]!.send_id, 'reminder', null, {
          delivery_ids: due,
        });
      }
      return due;
    });
    if (ids.length) void deliveryQueue(s).add(() => runReminders(s, ids));
    return { reminded: ids.length };
  });
}
