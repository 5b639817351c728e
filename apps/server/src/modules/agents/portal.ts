import { api, type ListQuery } from '@tandem/contract';
import {
  commissionOf,
  formatMoney,
  parseMoney,
  commissionPeriodContaining,
  DAY_MS,
  type CommissionFrequency,
  type CommissionMethod,
} from '@tandem/domain';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { likeContains } from '../../db/paging';
import { actorOf } from '../../http/context';
import { notFound, ruleBroken } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { productVisible } from '../carriers/products';
import { ratePage } from '../rates/rate-rows';
import { foldSummaries } from '../stats/summaries';

const m6 = (v: string) => formatMoney(parseMoney(v), 6);
const minutes = (seconds: string | number) => (Number(seconds) / 60).toFixed(2);

/** The start of the UTC day `days` days before today's. */
const daysAgo = (days: number) => new Date((Math.floor(Date.now() / DAY_MS) - days) * DAY_MS);

const CLIENT_ORDER = {
  name: 'c.name',
  client_id: 'c.client_id',
  balance: 'c.balance',
  revenue_30d: 'revenue_30d',
};

/**
 * An agent's clients with balance and the last 30 days' traffic as customer (daily summaries):
 * Agent Management > Manage Clients and the agent portal's client list. The agent id is the
 * caller's tenancy key, never a parameter a portal user chooses.
 */
export async function clientsQuery(
  db: Db,
  agentId: number,
  q: ListQuery & { search?: string },
  only?: number,
) {
  const since = daysAgo(29);
  await foldSummaries(db); // every CDR committed before the question counts
  let qb = db
    .selectFrom('carriers as c')
    .leftJoin(
      db
        .selectFrom('cdr_summaries_daily')
        .select([
          'ingress_client_id',
          sql<string>`sum(revenue)::text`.as('revenue'),
          sql<string>`sum(ingress_billed_time)::text`.as('billed'),
          sql<string>`sum(attempts)::text`.as('calls'),
        ])
        .where('bucket', '>=', since)
        .groupBy('ingress_client_id')
        .as('t'),
      't.ingress_client_id',
      'c.client_id',
    )
    .where('c.agent_id', '=', agentId);
  if (q.search) qb = qb.where('c.name', 'ilike', likeContains(q.search));
  if (only !== undefined) qb = qb.where('c.client_id', '=', only);
  const total = await qb.select(sql<string>`count(*)::text`.as('n')).executeTakeFirstOrThrow();
  const col = CLIENT_ORDER[(q.order_by ?? 'name') as keyof typeof CLIENT_ORDER] ?? 'c.name';
  const rows = await qb
    .select([
      'c.client_id',
      'c.name',
      'c.company',
      'c.is_active',
      'c.mode',
      'c.balance',
      'c.credit_limit',
      'c.currency',
      'c.main_email',
      'c.registration_status',
      sql<string>`coalesce(t.revenue, '0')`.as('revenue_30d'),
      sql<string>`coalesce(t.billed, '0')`.as('billed'),
      sql<string>`coalesce(t.calls, '0')`.as('calls'),
    ])
    .orderBy(sql.ref(col), q.order_dir)
    .orderBy('c.client_id')
    .limit(q.per_page)
    .offset(q.page * q.per_page)
    .execute();
  return {
    items: rows.map(({ billed, calls, ...r }) => ({
      ...r,
      balance: m6(r.balance),
      credit_limit: m6(r.credit_limit),
      revenue_30d: m6(r.revenue_30d),
      minutes_30d: minutes(billed),
      calls_30d: Number(calls),
    })),
    total: Number(total.n),
  };
}

/** The agent portal: dashboard, clients, one client and its edit (spec 01 agent portal). */
export function registerAgentPortal(app: FastifyInstance, s: Services): void {
  const agentOf = async (ctx: Parameters<typeof actorOf>[0]) => {
    const id = actorOf(ctx).agentId ?? -1;
    const a = await s.db.selectFrom('agents').selectAll().where('agent_id', '=', id).executeTakeFirst();
    if (!a) throw notFound();
    return a;
  };

  implement(app, s, api.agents.dashboard, async (ctx) => {
    const a = await agentOf(ctx);
    const now = new Date();
    const p = commissionPeriodContaining(a.frequency as CommissionFrequency, now);
    const since = new Date(a.commission_since);
    const start = since > p.start ? since : p.start;
    const clientIds = sql`(SELECT client_id FROM carriers WHERE agent_id = ${a.agent_id})`;
    await foldSummaries(s.db);
    const counts = await sql<{ n: string; active: string; balance: string }>`
      SELECT count(*)::text AS n, count(*) FILTER (WHERE is_active)::text AS active,
        coalesce(sum(balance), 0)::text AS balance
      FROM carriers WHERE agent_id = ${a.agent_id}`.execute(s.db);
    const period = await sql<{ revenue: string; cost: string; calls: string; billed: string }>`
      SELECT coalesce(sum(revenue), 0)::text AS revenue, coalesce(sum(cost), 0)::text AS cost,
        coalesce(sum(attempts), 0)::text AS calls, coalesce(sum(ingress_billed_time), 0)::text AS billed
      FROM cdr_summaries_hourly
      WHERE ingress_client_id IN ${clientIds} AND bucket >= ${start} AND bucket < ${p.end}`.execute(s.db);
    const daily = await sql<{ day: Date; revenue: string; calls: string; billed: string }>`
      SELECT bucket AS day, sum(revenue)::text AS revenue, sum(attempts)::text AS calls,
        sum(ingress_billed_time)::text AS billed
      FROM cdr_summaries_daily
      WHERE ingress_client_id IN ${clientIds} AND bucket >= ${daysAgo(29)}
      GROUP BY 1 ORDER BY 1`.execute(s.db);
    const c = counts.rows[0]!;
    const t = period.rows[0]!;
    const byDay = new Map(daily.rows.map((d) => [new Date(d.day).toISOString().slice(0, 10), d]));
    const commission = commissionOf(
      { method: a.commission_method as CommissionMethod, percent: parseMoney(a.commission_percent) },
      { revenue: parseMoney(t.revenue), cost: parseMoney(t.cost) },
    );
    return {
      agent_name: a.agent_name,
      frequency: a.frequency,
      method: a.commission_method,
      percent: a.commission_percent,
      clients: Number(c.n),
      active_clients: Number(c.active),
      clients_balance: m6(c.balance),
      owed: m6(a.balance),
      period: {
        start: start.toISOString(),
        end: p.end.toISOString(),
        revenue: m6(t.revenue),
        cost: m6(t.cost),
        calls: Number(t.calls),
        minutes: minutes(t.billed),
        commission: formatMoney(commission.amount, 6),
      },
      daily: Array.from({ length: 30 }, (_, i) => {
        const day = daysAgo(29 - i)
          .toISOString()
          .slice(0, 10);
        const d = byDay.get(day);
        return {
          day,
          revenue: m6(d?.revenue ?? '0'),
          calls: Number(d?.calls ?? 0),
          minutes: minutes(d?.billed ?? 0),
        };
      }),
    };
  });

  implement(app, s, api.agents.portalClients, async (ctx) => {
    const a = await agentOf(ctx);
    return { ...(await clientsQuery(s.db, a.agent_id, ctx.query)), portal_edit: a.portal_edit };
  });

  implement(app, s, api.agents.portalClient, async (ctx) => {
    const a = await agentOf(ctx);
    const row = (
      await clientsQuery(s.db, a.agent_id, { page: 0, per_page: 1, order_dir: 'asc' }, ctx.params.id)
    ).items[0];
    const extra = await s.db
      .selectFrom('carriers')
      .select(['noc_email', 'billing_email', 'rates_email', 'address'])
      .where('client_id', '=', ctx.params.id)
      .where('agent_id', '=', a.agent_id)
      .executeTakeFirst();
    if (!row || !extra) throw notFound();
    return { ...row, ...extra, portal_edit: a.portal_edit };
  });

  implement(app, s, api.agents.portalUpdateClient, async (ctx) => {
    const a = await agentOf(ctx);
    await s.db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('carriers')
        .selectAll()
        .where('client_id', '=', ctx.params.id)
        .where('agent_id', '=', a.agent_id)
        .forUpdate()
        .executeTakeFirst();
      // Tenancy first: another agent's or nobody's carrier is "not found", whatever the permission.
      if (!before) throw notFound();
      if (!a.portal_edit) throw ruleBroken('agentPortalEditDenied');
      const body = ctx.body;
      if (!Object.keys(body).length) return;
      await trx
        .updateTable('carriers')
        .set({ ...body, updated_at: new Date() })
        .where('client_id', '=', ctx.params.id)
        .execute();
      const changed = Object.fromEntries(Object.keys(body).map((k) => [k, before[k as keyof typeof before]]));
      await s.audit.record(trx, actorOf(ctx), 'carrier', ctx.params.id, 'update', changed, body);
    });
    return null;
  });

  implement(app, s, api.agents.portalRates, async (ctx) => {
    const actor = actorOf(ctx);
    // Tenancy: only the rate table of a product the agent may sell (public or assigned to it).
    const table = await s.db
      .selectFrom('products as p')
      .innerJoin('rate_tables as rt', 'rt.rate_table_id', 'p.rate_table_id')
      .select('rt.name')
      .where('p.rate_table_id', '=', ctx.params.id)
      .where(productVisible(actor))
      .executeTakeFirst();
    if (!table) throw notFound();
    return { ...(await ratePage(s.db, ctx.params.id, ctx.query)), name: table.name };
  });
}
