import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { pageOf } from '../../db/paging';
import { actorOf } from '../../http/context';
import { notFound } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';

const dateOnly = (d: Date) => d.toISOString().slice(0, 10);

export function registerHome(app: FastifyInstance, s: Services): void {
  // Tenancy: every client call is keyed by the caller's own carrier, never by an id it sends.
  implement(app, s, api.home.getClientHome, async (ctx) => {
    const actor = actorOf(ctx);
    const c = await s.db
      .selectFrom('carriers')
      .select(['client_id', 'name', 'balance', 'currency', 'credit_limit', 'mode', 'unlimited_credit'])
      .select(sql<string>`(allowed_credit + test_credit)::text`.as('allowed_credit'))
      // The admission rule of @tandem/domain (creditAllows), as the carrier page shows it.
      .select(
        sql<string>`(balance + case when mode = 'prepaid' then allowed_credit + test_credit else credit_limit end)::text`.as(
          'available',
        ),
      )
      .where('client_id', '=', actor.clientId ?? -1)
      .executeTakeFirst();
    if (!c) throw notFound();
    const u = actor.user;
    return {
      ...c,
      is_show_daily_usage: u.is_show_daily_usage,
      is_daily_balance_notification: u.is_daily_balance_notification,
      zero_balance_notice: u.zero_balance_notice,
    };
  });

  implement(app, s, api.home.listClientMessages, async (ctx) => {
    let qb = s.db
      .selectFrom('client_messages')
      .select(['id', 'type', 'subject', 'content', 'created_at', 'is_read'])
      .where('client_id', '=', actorOf(ctx).clientId ?? -1);
    if (ctx.query.type) qb = qb.where('type', '=', ctx.query.type);
    const page = await pageOf(
      qb,
      { ...ctx.query, order_dir: 'desc' },
      { created_at: 'created_at' },
      'created_at',
      'id',
    );
    return {
      items: page.items.map((r) => ({ ...r, created_at: r.created_at.toISOString() })),
      total: page.total,
    };
  });

  implement(app, s, api.home.listClientAlerts, async (ctx) => {
    const qb = s.db
      .selectFrom('client_alerts')
      .select(['id', 'level', 'content', 'created_at', 'status'])
      .where('client_id', '=', actorOf(ctx).clientId ?? -1);
    const page = await pageOf(
      qb,
      { ...ctx.query, order_dir: 'desc' },
      { created_at: 'created_at' },
      'created_at',
      'id',
    );
    return {
      items: page.items.map((r) => ({ ...r, created_at: r.created_at.toISOString() })),
      total: page.total,
    };
  });

  implement(app, s, api.home.listClientInvoices, async (ctx) => {
    let qb = s.db
      .selectFrom('invoices')
      .select([
        'invoice_id',
        'invoice_number',
        'invoice_date',
        'period_start',
        'period_end',
        'amount',
        'paid_amount',
        'due_date',
        'currency',
        'status',
        sql<boolean>`(pay_status = 'paid' OR paid_amount >= amount)`.as('paid'),
      ])
      .where('client_id', '=', actorOf(ctx).clientId ?? -1)
      .where('status', '=', 'normal');
    if (ctx.query.paid === true) qb = qb.where(sql<boolean>`(pay_status = 'paid' OR paid_amount >= amount)`);
    if (ctx.query.paid === false)
      qb = qb.where(sql<boolean>`NOT (pay_status = 'paid' OR paid_amount >= amount)`);
    const page = await pageOf(
      qb,
      ctx.query,
      { invoice_date: 'invoice_date', due_date: 'due_date', amount: 'amount' },
      'due_date',
      'invoice_id',
    );
    return {
      items: page.items.map((r) => ({
        ...r,
        invoice_date: dateOnly(r.invoice_date),
        due_date: dateOnly(r.due_date),
        period_start: r.period_start.toISOString(),
        period_end: r.period_end.toISOString(),
        paid: Boolean(r.paid),
      })),
      total: page.total,
    };
  });

  implement(app, s, api.home.agentClientBalances, async (ctx) => {
    const items = await s.db
      .selectFrom('carriers')
      .select(['client_id', 'name', 'balance', 'currency', 'is_active', 'credit_limit'])
      .where('agent_id', '=', actorOf(ctx).agentId ?? -1)
      .orderBy('name')
      .execute();
    return { items, total: items.length };
  });

  implement(app, s, api.home.adminHome, async () => {
    const today = new Date();
    today.setUTCHours(0, 0, 0, 0);
    const r = await s.db
      .selectNoFrom([
        sql<number>`(select count(*) from users)`.as('users'),
        sql<number>`(select count(*) from carriers where client_type = 'client')`.as('clients'),
        sql<number>`(select count(*) from carriers where client_type = 'vendor')`.as('vendors'),
        sql<number>`(select count(*) from agents)`.as('agents'),
        sql<number>`(select count(*) from tickets where ticket_status = 'waiting')`.as('waiting_tickets'),
        sql<number>`(select count(*) from signin_history where result = 'success' and created_at >= ${today})`.as(
          'signins_today',
        ),
        sql<number>`(select count(*) from signin_history where result <> 'success' and created_at >= ${today})`.as(
          'failed_signins_today',
        ),
        sql<string>`(select coalesce(sum(balance), 0)::text from carriers where client_type = 'client')`.as(
          'total_balance',
        ),
      ])
      .executeTakeFirstOrThrow();
    return {
      users: Number(r.users),
      clients: Number(r.clients),
      vendors: Number(r.vendors),
      agents: Number(r.agents),
      waiting_tickets: Number(r.waiting_tickets),
      signins_today: Number(r.signins_today),
      failed_signins_today: Number(r.failed_signins_today),
      total_balance: r.total_balance,
    };
  });
}
