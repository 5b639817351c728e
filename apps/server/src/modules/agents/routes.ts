import { api } from '@tandem/contract';
import { formatMoney, parseMoney } from '@tandem/domain';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { likeContains, sortedRows } from '../../db/paging';
import { implementCrud } from '../../http/crud';
import { actorOf, type Actor } from '../../http/context';
import { duplicate, invalidField, notFound } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { newReferralKey } from '../signup/routes';
import { nameTaken } from '../users/repository';
import { computeAgentCommission, moveAgentBalance } from './commission';
import { clientsQuery, registerAgentPortal } from './portal';

const m6 = (v: string) => formatMoney(parseMoney(v), 6);
const todayUtc = () => new Date().toISOString().slice(0, 10);

/** Agents seen by this caller: an agent user only itself, whatever id it sends. */
const agentScope = (actor: Actor, wanted: number | undefined): number | undefined =>
  actor.type === 'agent' ? (actor.agentId ?? -1) : wanted;

/**
 * Agent area (docs/agents.md): agents on the generic CRUD with their portal user, their clients,
 * the commission report and history (agent ledger), payouts, the commission job, and the agent
 * portal (portal.ts).
 */
export function registerAgents(app: FastifyInstance, s: Services): void {
  implementCrud(app, s, api.agents.agents, {
    table: 'agents',
    id: 'agent_id',
    entity: 'agent',
    label: 'Agent',
    select: (db) =>
      db
        .selectFrom('agents as a')
        .select([
          'a.agent_id',
          'a.agent_name',
          'a.status',
          'a.email',
          'a.commission_method',
          'a.commission_percent',
          'a.frequency',
          'a.referral_key',
          'a.portal_edit',
          'a.own_invoice_setting',
          'a.balance',
          'a.created_at',
          sql<string>`to_char(a.commission_since, 'YYYY-MM-DD')`.as('commission_since'),
          sql<number>`(select count(*)::int from carriers c where c.agent_id = a.agent_id)`.as('clients'),
          sql<
            string | null
          >`(select u.name from users u where u.agent_id = a.agent_id order by u.user_id limit 1)`.as('name'),
        ]),
    selectId: 'a.agent_id',
    sortable: {
      agent_id: 'a.agent_id',
      agent_name: 'a.agent_name',
      status: 'a.status',
      email: 'a.email',
      commission_percent: 'a.commission_percent',
      frequency: 'a.frequency',
      balance: 'a.balance',
      clients: 'clients',
      created_at: 'a.created_at',
    },
    defaultSort: 'agent_name',
    filter: (qb, q) => {
      let r = qb;
      if (q.search)
        r = r.where((eb) =>
          eb.or([
            eb(sql.ref('a.agent_name'), 'ilike', likeContains(q.search!)),
            eb(sql.ref('a.email'), 'ilike', likeContains(q.search!)),
          ]),
        );
      if (q.status) r = r.where(sql.ref('a.status'), '=', q.status);
      return r;
    },
    unique: [{ column: 'agent_name', field: 'agent_name' }],
    toColumns: (b, before) => {
      const { name: _n, passwd: _p, ...rest } = b;
      return before
        ? { ...rest, updated_at: new Date() }
        : {
            ...rest,
            commission_since: rest.commission_since ?? todayUtc(),
            referral_key: newReferralKey(),
            updated_at: new Date(),
          };
    },
    validate: async (trx, body, before) => {
      if (typeof body.name !== 'string') return;
      const user = before
        ? await trx
            .selectFrom('users')
            .select('user_id')
            .where('agent_id', '=', before.agent_id as number)
            .orderBy('user_id')
            .executeTakeFirst()
        : undefined;
      if (await nameTaken(trx, body.name, user?.user_id)) throw duplicate('name', 'User', body.name);
      if (before && !user && typeof body.passwd !== 'string')
        throw invalidField('passwd', 'required', ['passwd']);
    },
    children: async (trx, id, body, creating) => {
      const name = body.name as string | undefined;
      const passwd = body.passwd as string | undefined;
      const email = body.email as string | undefined;
      const user = creating
        ? undefined
        : await trx
            .selectFrom('users')
            .select('user_id')
            .where('agent_id', '=', id)
            .orderBy('user_id')
            .executeTakeFirst();
      if (!user) {
        if (!name || !passwd) return;
        const a = await trx
          .selectFrom('agents')
          .select('email')
          .where('agent_id', '=', id)
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('users')
          .values({
            name,
            password_hash: await s.auth.hash(passwd),
            email: a.email,
            user_type: 'agent',
            agent_id: id,
            updated_at: new Date(),
          })
          .execute();
        return;
      }
      const set: Record<string, unknown> = {};
      if (name) set.name = name;
      if (email) set.email = email;
      if (passwd) set.password_hash = await s.auth.hash(passwd);
      if (Object.keys(set).length)
        await trx
          .updateTable('users')
          .set({ ...set, updated_at: new Date() })
          .where('user_id', '=', user.user_id)
          .execute();
      // A new password or a deactivated agent ends the agent's sessions.
      if (passwd || body.status === 'inactive')
        await trx
          .deleteFrom('sessions')
          .where('user_id', 'in', trx.selectFrom('users').select('user_id').where('agent_id', '=', id))
          .execute();
    },
    usage: async (db, id) => {
      const one = async (q: Promise<{ n: number } | undefined>) => Number((await q)?.n ?? 0);
      return [
        {
          what: 'client(s)',
          count: await one(
            db
              .selectFrom('carriers')
              .select(sql<number>`count(*)::int`.as('n'))
              .where('agent_id', '=', id)
              .executeTakeFirst(),
          ),
        },
        {
          what: 'commission transaction(s)',
          count: await one(
            db
              .selectFrom('agent_ledger')
              .select(sql<number>`count(*)::int`.as('n'))
              .where('agent_id', '=', id)
              .executeTakeFirst(),
          ),
        },
      ];
    },
    toRow: (r) => ({
      ...r,
      balance: m6(r.balance as string),
      created_at: new Date(r.created_at as Date).toISOString(),
    }),
  });

  const loadAgent = async (db: Db, id: number) => {
    const a = await db.selectFrom('agents').selectAll().where('agent_id', '=', id).executeTakeFirst();
    if (!a) throw notFound();
    return a;
  };

  implement(app, s, api.agents.listAgentClients, async (ctx) => {
    await loadAgent(s.db, ctx.params.id);
    return clientsQuery(s.db, ctx.params.id, ctx.query);
  });

  implement(app, s, api.agents.assignClients, async (ctx) => {
    const ids = [...new Set(ctx.body.client_ids)];
    const n = await s.db.transaction().execute(async (trx) => {
      const agent = await loadAgent(trx, ctx.params.id);
      const rows = await trx
        .selectFrom('carriers')
        .select(['client_id', 'name', 'agent_id'])
        .where('client_id', 'in', ids)
        .forUpdate()
        .execute();
      if (rows.length !== ids.length) throw invalidField('client_ids', 'referenceMissing', ['client_ids']);
      const moving = rows.filter((r) => r.agent_id !== agent.agent_id);
      if (!moving.length) return 0;
      await trx
        .updateTable('carriers')
        .set({ agent_id: agent.agent_id, updated_at: new Date() })
        .where(
          'client_id',
          'in',
          moving.map((r) => r.client_id),
        )
        .execute();
      for (const r of moving)
        await s.audit.record(
          trx,
          actorOf(ctx),
          'carrier',
          r.client_id,
          'assign agent',
          { agent_id: r.agent_id },
          { agent_id: agent.agent_id },
        );
      return moving.length;
    });
    return { assigned: n };
  });

  implement(app, s, api.agents.unassignClients, async (ctx) => {
    const ids = [...new Set(ctx.body.client_ids)];
    const n = await s.db.transaction().execute(async (trx) => {
      await loadAgent(trx, ctx.params.id);
      const rows = await trx
        .updateTable('carriers')
        .set({ agent_id: null, updated_at: new Date() })
        .where('client_id', 'in', ids)
        .where('agent_id', '=', ctx.params.id)
        .returning('client_id')
        .execute();
      for (const r of rows)
        await s.audit.record(
          trx,
          actorOf(ctx),
          'carrier',
          r.client_id,
          'unassign agent',
          { agent_id: ctx.params.id },
          { agent_id: null },
        );
      return rows.length;
    });
    return { unassigned: n };
  });

  implement(app, s, api.agents.renewReferralKey, async (ctx) => {
    const key = newReferralKey();
    await s.db.transaction().execute(async (trx) => {
      const before = await loadAgent(trx, ctx.params.id);
      await trx
        .updateTable('agents')
        .set({ referral_key: key, updated_at: new Date() })
        .where('agent_id', '=', ctx.params.id)
        .execute();
      await s.audit.record(
        trx,
        actorOf(ctx),
        'agent',
        ctx.params.id,
        'renew referral key',
        { referral_key: before.referral_key },
        { referral_key: key },
      );
    });
    return { referral_key: key };
  });

  // ---- commission ------------------------------------------------------------------------------

  const PERIOD_ORDER = {
    period_start: 'p.period_start',
    agent_name: 'a.agent_name',
    amount: 'p.amount',
    revenue: 'p.revenue',
  } as const;

  implement(app, s, api.agents.commissionReport, async (ctx) => {
    const q = ctx.query;
    const agentId = agentScope(actorOf(ctx), q.agent_id);
    let qb = s.db
      .selectFrom('agent_commission_periods as p')
      .innerJoin('agents as a', 'a.agent_id', 'p.agent_id');
    if (agentId !== undefined) qb = qb.where('p.agent_id', '=', agentId);
    if (q.from) qb = qb.where('p.period_start', '>=', new Date(q.from));
    if (q.to) qb = qb.where('p.period_start', '<', new Date(q.to));
    const totals = await qb
      .select([
        sql<string>`count(*)::text`.as('n'),
        sql<string>`coalesce(sum(p.revenue), 0)::text`.as('revenue'),
        sql<string>`coalesce(sum(p.cost), 0)::text`.as('cost'),
        sql<string>`coalesce(sum(p.base), 0)::text`.as('base'),
        sql<string>`coalesce(sum(p.amount), 0)::text`.as('amount'),
      ])
      .executeTakeFirstOrThrow();
    const orderBy =
      PERIOD_ORDER[(q.order_by ?? 'period_start') as keyof typeof PERIOD_ORDER] ?? 'p.period_start';
    const dir = q.order_by ? q.order_dir : 'desc';
    const rows = await qb
      .select([
        'p.agent_id',
        'a.agent_name',
        'p.period_start',
        'p.period_end',
        'p.frequency',
        'p.method',
        'p.percent',
        'p.clients',
        'p.revenue',
        'p.cost',
        'p.base',
        'p.amount',
        'p.accrued',
        'p.revision',
        'p.computed_at',
      ])
      .orderBy(orderBy, dir)
      .orderBy('p.agent_id')
      .limit(q.per_page)
      .offset(q.page * q.per_page)
      .execute();
    return {
      items: rows.map((r) => ({
        ...r,
        period_start: new Date(r.period_start).toISOString(),
        period_end: new Date(r.period_end).toISOString(),
        computed_at: new Date(r.computed_at).toISOString(),
        revenue: m6(r.revenue),
        cost: m6(r.cost),
        base: m6(r.base),
        amount: m6(r.amount),
        accrued: m6(r.accrued),
      })),
      total: Number(totals.n),
      totals: {
        revenue: m6(totals.revenue),
        cost: m6(totals.cost),
        base: m6(totals.base),
        amount: m6(totals.amount),
      },
    };
  });

  implement(app, s, api.agents.commissionPeriodClients, async (ctx) => {
    const actor = actorOf(ctx);
    if (actor.type === 'agent' && actor.agentId !== ctx.params.agent_id) throw notFound();
    const rows = await s.db
      .selectFrom('agent_commission_clients as k')
      .innerJoin('carriers as c', 'c.client_id', 'k.client_id')
      .select(['k.client_id', 'c.name', 'k.revenue', 'k.cost'])
      .where('k.agent_id', '=', ctx.params.agent_id)
      .where('k.period_start', '=', new Date(`${ctx.params.period_start}T00:00:00Z`))
      .orderBy('c.name')
      .execute();
    return { items: rows.map((r) => ({ ...r, revenue: m6(r.revenue), cost: m6(r.cost) })) };
  });

  const LEDGER_ORDER = {
    ledger_id: 'l.ledger_id',
    created_at: 'l.created_at',
    agent_name: 'a.agent_name',
    kind: 'l.kind',
    amount: 'l.amount',
  } as const;

  implement(app, s, api.agents.commissionHistory, async (ctx) => {
    const q = ctx.query;
    const agentId = agentScope(actorOf(ctx), q.agent_id);
    let qb = s.db.selectFrom('agent_ledger as l').innerJoin('agents as a', 'a.agent_id', 'l.agent_id');
    if (agentId !== undefined) qb = qb.where('l.agent_id', '=', agentId);
    if (q.kind) qb = qb.where('l.kind', '=', q.kind);
    if (q.from) qb = qb.where('l.created_at', '>=', new Date(q.from));
    if (q.to) qb = qb.where('l.created_at', '<', new Date(q.to));
    const totals = await qb
      .select([
        sql<string>`count(*)::text`.as('n'),
        sql<string>`coalesce(sum(l.amount) FILTER (WHERE l.kind = 'commission'), 0)::text`.as('commission'),
        sql<string>`coalesce(sum(l.amount) FILTER (WHERE l.kind = 'payout'), 0)::text`.as('payout'),
        sql<string>`coalesce(sum(l.amount) FILTER (WHERE l.kind = 'adjustment'), 0)::text`.as('adjustment'),
        sql<string>`coalesce(sum(l.amount), 0)::text`.as('net'),
      ])
      .executeTakeFirstOrThrow();
    let owedQ = s.db.selectFrom('agents').select(sql<string>`coalesce(sum(balance), 0)::text`.as('owed'));
    if (agentId !== undefined) owedQ = owedQ.where('agent_id', '=', agentId);
    const owed = await owedQ.executeTakeFirstOrThrow();
    const rows = await sortedRows(
      qb.select([
        'l.ledger_id',
        'l.agent_id',
        'a.agent_name',
        'l.created_at',
        'l.kind',
        'l.ref',
        'l.period_start',
        'l.amount',
        'l.balance_before',
        'l.balance_after',
        'l.note',
        'l.created_by',
      ]),
      q,
      LEDGER_ORDER,
      'l.ledger_id',
    );
    return {
      items: rows.map((r) => ({
        ...r,
        ledger_id: Number(r.ledger_id),
        created_at: new Date(r.created_at).toISOString(),
        period_start: r.period_start ? new Date(r.period_start).toISOString() : null,
        amount: m6(r.amount),
        balance_before: m6(r.balance_before),
        balance_after: m6(r.balance_after),
      })),
      total: Number(totals.n),
      totals: {
        commission: m6(totals.commission),
        payout: m6(totals.payout),
        adjustment: m6(totals.adjustment),
        net: m6(totals.net),
      },
      owed: m6(owed.owed),
    };
  });

  implement(app, s, api.agents.createPayout, async (ctx) => {
    const b = ctx.body;
    const actor = actorOf(ctx);
    const amount = parseMoney(b.amount);
    return s.db.transaction().execute(async (trx) => {
      const agent = await trx
        .selectFrom('agents')
        .select(['agent_id', sql<string>`balance::text`.as('balance')])
        .where('agent_id', '=', b.agent_id)
        .forUpdate()
        .executeTakeFirst();
      if (!agent) throw invalidField('agent_id', 'referenceMissing', ['agent_id']);
      if (b.request_key) {
        const seen = await trx
          .selectFrom('agent_payouts')
          .select('payout_id')
          .where('agent_id', '=', b.agent_id)
          .where('request_key', '=', b.request_key)
          .executeTakeFirst();
        if (seen) {
          const l = await trx
            .selectFrom('agent_ledger')
            .select('ledger_id')
            .where('agent_id', '=', b.agent_id)
            .where('kind', '=', 'payout')
            .where('ref', '=', `payout:${seen.payout_id}`)
            .executeTakeFirstOrThrow();
          return {
            payout_id: seen.payout_id,
            ledger_id: Number(l.ledger_id),
            balance: m6(agent.balance),
            created: false,
          };
        }
      }
      const owed = parseMoney(agent.balance);
      if (amount > owed) throw invalidField('amount', 'payoutExceedsOwed', [formatMoney(owed, 2)]);
      const payout = await trx
        .insertInto('agent_payouts')
        .values({
          agent_id: b.agent_id,
          amount: formatMoney(amount, 6),
          paid_on: b.paid_on,
          method: b.method,
          reference: b.reference,
          note: b.note,
          request_key: b.request_key ?? null,
          created_by: actor.user.name,
        })
        .returning('payout_id')
        .executeTakeFirstOrThrow();
      const moved = await moveAgentBalance(trx, {
        agent_id: b.agent_id,
        kind: 'payout',
        ref: `payout:${payout.payout_id}`,
        amount: -amount,
        note: [b.paid_on, b.method, b.reference, b.note].filter(Boolean).join(' · '),
        created_by: actor.user.name,
      });
      await s.audit.record(trx, actor, 'agent_payout', payout.payout_id, 'create', null, b);
      return {
        payout_id: payout.payout_id,
        ledger_id: moved.ledger_id,
        balance: formatMoney(moved.balance, 6),
        created: true,
      };
    });
  });

  s.jobs.define<{ agentId?: number }>('agents.commission', async (payload, ctx) => {
    const now = new Date();
    let q = s.db.selectFrom('agents').select('agent_id').orderBy('agent_id');
    if (payload.agentId) q = q.where('agent_id', '=', payload.agentId);
    const ids = (await q.execute()).map((a) => a.agent_id);
    const runs = [];
    for (const [i, id] of ids.entries()) {
      ctx.signal.throwIfAborted();
      runs.push(await computeAgentCommission(s.db, id, now));
      ctx.progress({ done: i + 1, total: ids.length, message: `agent ${id}` });
    }
    return {
      agents: runs.length,
      created: runs.reduce((n, r) => n + r.created, 0),
      corrected: runs.reduce((n, r) => n + r.corrected, 0),
    };
  });
  s.jobs.every('agents.commission', { hourly: 10 });

  implement(app, s, api.agents.calculateCommission, async (ctx) => {
    if (ctx.body.agent_id)
      await loadAgent(s.db, ctx.body.agent_id).catch(() => {
        throw invalidField('agent_id', 'referenceMissing', ['agent_id']);
      });
    const actor = actorOf(ctx);
    const job = await s.jobs.enqueue(
      'agents.commission',
      { agentId: ctx.body.agent_id },
      { user: { user_id: actor.user.user_id, name: actor.user.name } },
    );
    return { job_id: job.id };
  });

  registerAgentPortal(app, s);
}
