import { api } from '@tandem/contract';
import { formatMoney, parseMoney } from '@tandem/domain';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { actorOf } from '../../http/context';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { checkBalances, regenerateBalances } from '../cdr/ledger';

const ORDER = {
  ledger_id: 'l.ledger_id',
  created_at: 'l.created_at',
  client_name: 'c.name',
  kind: 'l.kind',
  amount: 'l.amount',
} as const;

const m6 = (v: string) => formatMoney(parseMoney(v), 6);

/**
 * Finance > Actual Transaction (the ledger, every change of a carrier's balance with before and
 * after; a client user sees only its own carrier, as the portal's Billing > Transaction) and
 * Finance > Regenerate Balance (stored balances against their ledger sums; set right with a
 * 'regenerate' ledger row).
 */
export function registerFinance(app: FastifyInstance, s: Services): void {
  implement(app, s, api.finance.listTransactions, async (ctx) => {
    const q = ctx.query;
    const actor = actorOf(ctx);
    // Tenancy: a portal user's own carrier, whatever client_id it sends.
    const clientId = actor.type === 'admin' ? q.client_id : (actor.clientId ?? -1);
    let qb = s.db.selectFrom('ledger as l').innerJoin('carriers as c', 'c.client_id', 'l.client_id');
    if (clientId !== undefined) qb = qb.where('l.client_id', '=', clientId);
    if (q.kind) qb = qb.where('l.kind', '=', q.kind);
    if (q.side) qb = qb.where('l.side', '=', q.side);
    if (q.ref) qb = qb.where('l.ref', 'like', q.ref.replace(/[\\%_]/g, (c) => '\\' + c) + '%');
    if (q.time_from) qb = qb.where('l.created_at', '>=', new Date(q.time_from));
    if (q.time_to) qb = qb.where('l.created_at', '<', new Date(q.time_to));
    const totals = await qb
      .select([
        sql<string>`count(*)::text`.as('n'),
        sql<string>`coalesce(sum(l.amount), 0)::text`.as('amount'),
        sql<string>`coalesce(sum(l.amount) FILTER (WHERE l.amount > 0), 0)::text`.as('credit'),
        sql<string>`coalesce(sum(l.amount) FILTER (WHERE l.amount < 0), 0)::text`.as('debit'),
      ])
      .executeTakeFirstOrThrow();
    const orderBy = ORDER[(q.order_by ?? 'ledger_id') as keyof typeof ORDER] ?? ORDER.ledger_id;
    const dir = q.order_by ? q.order_dir : 'desc';
    const rows = await qb
      .select([
        'l.ledger_id',
        'l.client_id',
        'c.name as client_name',
        'l.created_at',
        'l.kind',
        'l.side',
        'l.ref',
        'l.amount',
        'l.balance_before',
        'l.balance_after',
        'l.cdr_count',
        'l.note',
        'l.created_by',
      ])
      .orderBy(orderBy, dir)
      .orderBy('l.ledger_id', dir)
      .limit(q.per_page)
      .offset(q.page * q.per_page)
      .execute();
    return {
      items: rows.map((r) => ({
        ...r,
        ledger_id: Number(r.ledger_id),
        created_at: new Date(r.created_at).toISOString(),
        amount: m6(r.amount),
        balance_before: m6(r.balance_before),
        balance_after: m6(r.balance_after),
      })),
      total: Number(totals.n),
      totals: { amount: m6(totals.amount), credit: m6(totals.credit), debit: m6(totals.debit) },
    };
  });

  implement(app, s, api.finance.checkBalances, async (ctx) => {
    const q = ctx.query;
    let rows = await checkBalances(s.db, { clientIds: q.client_id ? [q.client_id] : undefined });
    if (q.mismatched_only) rows = rows.filter((r) => parseMoney(r.difference) !== 0n);
    const page = rows.slice(q.page * q.per_page, (q.page + 1) * q.per_page);
    return { items: page.map(({ last_ledger_id: _, ...r }) => r), total: rows.length };
  });

  implement(app, s, api.finance.regenerate, async (ctx) => {
    const actor = actorOf(ctx);
    const fixed = await regenerateBalances(s.db, ctx.body.client_ids, actor.user.name);
    if (fixed.length)
      await s.audit.record(
        s.db,
        actor,
        'balance',
        fixed.map((f) => f.client_id).join(','),
        'regenerate',
        fixed,
        null,
      );
    return { regenerated: fixed.map(({ last_ledger_id: _, ...r }) => r) };
  });
}
