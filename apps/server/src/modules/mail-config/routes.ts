import { api, type MessageKey } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { implementCrud } from '../../http/crud';
import { actorOf } from '../../http/context';
import { duplicate, invalidField, notFound } from '../../http/errors';
import { implement } from '../../http/register';
import { likeContains, pageOf, withinTime, withIsoTimes } from '../../db/paging';
import type { Services } from '../../services';
import { registerNotifications } from '../notifications/service';

const { mail } = api;

/**
 * Configuration > Mail Sender (SMTP servers, password sealed with the server secret, test connection
 * and test send, one default sender), Configuration > Mail Template (one per event and language) and
 * Log > Email Log (docs/mail.md).
 */
export function registerMailConfig(app: FastifyInstance, s: Services): void {
  registerNotifications(s);
  implementCrud(app, s, mail.mailSender, {
    table: 'mail_senders',
    id: 'id',
    entity: 'mail_sender',
    label: 'Mail Sender',
    select: (db) =>
      db
        .selectFrom('mail_senders as m')
        .select([
          'm.id',
          'm.name',
          'm.server',
          'm.port',
          'm.username',
          'm.security',
          'm.address',
          'm.is_default',
          'm.status',
          'm.status_error',
          'm.checked_at',
          'm.updated_at',
          'm.updated_by',
        ])
        .select(sql<boolean>`m.password_enc <> ''`.as('has_password'))
        .select(
          sql<number>`(select count(*)::int from mail_templates t where t.sender_id = m.id)`.as(
            'usage_count',
          ),
        ),
    selectId: 'm.id',
    sortable: { name: 'm.name', id: 'm.id', server: 'm.server', address: 'm.address', status: 'm.status' },
    defaultSort: 'name',
    filter: (qb, q) => (q.name ? qb.where(sql.ref('m.name'), 'ilike', likeContains(q.name)) : qb),
    unique: [{ column: 'name', field: 'name' }],
    validate: async (trx, body, before, ctx) => {
      // The password is sealed here (toColumns is synchronous); empty or missing keeps the stored one.
      const password = body.password as string | undefined;
      delete body.password;
      if (password) body.password_enc = await s.secrets.seal(password);
      body.updated_by = actorOf(ctx).user.name;
      if (body.is_default === true) {
        let q = trx.updateTable('mail_senders').set({ is_default: false }).where('is_default', '=', true);
        if (before) q = q.where('id', '!=', Number(before.id));
        await q.execute();
      }
    },
    // A changed server or login is unverified until tested again.
    toColumns: (b, before) => ({
      ...b,
      ...(before && ['server', 'port', 'username', 'password_enc', 'security'].some((k) => k in b)
        ? { status: 'disconnected', status_error: '', checked_at: null }
        : {}),
      updated_at: new Date(),
    }),
    usage: async (db, id) => {
      const r = await db
        .selectFrom('mail_templates')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('sender_id', '=', id)
        .executeTakeFirstOrThrow();
      return [{ what: 'mail template(s)', count: Number(r.n) }];
    },
    inUseKey: 'senderInUse' satisfies MessageKey,
  });

  implement(app, s, mail.testSender, async (ctx) => {
    const row = await s.db
      .selectFrom('mail_senders')
      .select('id')
      .where('id', '=', ctx.params.id)
      .executeTakeFirst();
    if (!row) throw notFound();
    const error = await s.mailer.verify(row.id);
    const status = error ? ('disconnected' as const) : ('connected' as const);
    await s.db
      .updateTable('mail_senders')
      .set({ status, status_error: error, checked_at: new Date() })
      .where('id', '=', row.id)
      .execute();
    return { status, error };
  });

  implement(app, s, mail.testSend, async (ctx) => {
    const row = await s.db
      .selectFrom('mail_senders')
      .select(['id', 'name'])
      .where('id', '=', ctx.params.id)
      .executeTakeFirst();
    if (!row) throw notFound();
    const error = await s.mailer.deliver({
      to: ctx.body.to,
      subject: `Test mail from ${row.name}`,
      text: `This is a test mail sent through the mail sender "${row.name}" by ${actorOf(ctx).user.name}.`,
      senderId: row.id,
      kind: 'test',
    });
    await s.db
      .updateTable('mail_senders')
      .set({ status: error ? 'disconnected' : 'connected', status_error: error, checked_at: new Date() })
      .where('id', '=', row.id)
      .execute();
    return { sent: !error, error };
  });

  implementCrud(app, s, mail.mailTemplate, {
    table: 'mail_templates',
    id: 'id',
    entity: 'mail_template',
    label: 'Mail Template',
    select: (db) =>
      db
        .selectFrom('mail_templates as t')
        .leftJoin('mail_senders as m', 'm.id', 't.sender_id')
        .select([
          't.id',
          't.event',
          't.language',
          't.sender_id',
          't.cc',
          't.subject',
          't.content',
          't.updated_at',
          't.updated_by',
          'm.name as sender_name',
        ]),
    selectId: 't.id',
    sortable: { event: 't.event', language: 't.language', id: 't.id', updated_at: 't.updated_at' },
    defaultSort: 'event',
    filter: (qb, q) => {
      let r = qb;
      if (q.event) r = r.where(sql.ref('t.event'), '=', q.event);
      if (q.language) r = r.where(sql.ref('t.language'), '=', q.language);
      return r;
    },
    references: [{ field: 'sender_id', table: 'mail_senders' }],
    validate: async (trx, body, before, ctx) => {
      const merged = { ...(before ?? {}), ...body } as {
        event: api.mail.MailEvent;
        language: 'en' | 'ch' | 'de';
        subject: string;
        content: string;
        id?: number;
      };
      let q = trx
        .selectFrom('mail_templates')
        .select('id')
        .where('event', '=', merged.event)
        .where('language', '=', merged.language);
      if (before) q = q.where('id', '!=', Number(before.id));
      if (await q.executeTakeFirst())
        throw duplicate('event', 'Mail template', `${merged.event} / ${merged.language}`);
      for (const field of ['subject', 'content'] as const) {
        const bad = mail.unknownMailTags(merged.event, merged[field] ?? '')[0];
        if (bad) throw invalidField(field, 'unknownMailTag', [`{${bad}}`]);
      }
      body.updated_by = actorOf(ctx).user.name;
    },
    toColumns: (b) => ({ ...b, updated_at: new Date() }),
  });

  const LOG_ORDER = {
    id: 'e.id',
    created_at: 'e.created_at',
    to_address: 'e.to_address',
    status: 'e.status',
    kind: 'e.kind',
  };
  implement(app, s, mail.listEmailLog, async (ctx) => {
    const q = ctx.query;
    let qb = s.db
      .selectFrom('email_log as e')
      .leftJoin('carriers as c', 'c.client_id', 'e.client_id')
      .leftJoin('mail_senders as m', 'm.id', 'e.sender_id')
      .select([
        'e.id',
        'e.created_at',
        'e.to_address',
        'e.cc',
        'e.from_address',
        'e.subject',
        'e.kind',
        'e.event',
        'e.status',
        'e.error',
        'e.client_id',
        'c.name as client_name',
        'm.name as sender_name',
      ]);
    if (q.status) qb = qb.where('e.status', '=', q.status);
    if (q.kind) qb = qb.where('e.kind', '=', q.kind);
    if (q.to) qb = qb.where('e.to_address', 'ilike', likeContains(q.to));
    if (q.client_id) qb = qb.where('e.client_id', '=', q.client_id);
    qb = withinTime(qb, 'e.created_at', q.time_from, q.time_to);
    const page = await pageOf(qb, q.order_by ? q : { ...q, order_dir: 'desc' }, LOG_ORDER, 'id', 'e.id');
    return { items: page.items.map((r) => withIsoTimes(r)), total: page.total };
  });
}
