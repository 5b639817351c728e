import { allows, api } from '@tandem/contract';
import { formatMoney, parseMoney } from '@tandem/domain';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { sortedRows } from '../../db/paging';
import { actorOf } from '../../http/context';
import { forbidden } from '../../http/errors';
import { implement, type Handler } from '../../http/register';
import { carrierScope } from '../../http/tenancy';
import type { Services } from '../../services';
import { checkBalances, regenerateBalances } from '../cdr/ledger';
import { didCarrierCondition, didCarrierIds } from '../did/carriers';

const ORDER = {
  ledger_id: 'l.ledger_id',
  created_at: 'l.created_at',
  client_name: 'c.name',
  kind: 'l.kind',
  amount: 'l.amount',
} as const;

const m6 = (v: string) => formatMoney(parseMoney(v), 6);

/** Which carriers a screen covers: every one (Finance) or the DID clients and vendors (Origination). */
type Carriers = 'all' | 'did';

/**
 * Finance > Actual Transaction (the ledger, every change of a carrier's balance with before and
 * after; a client user sees only its own carrier, as the portal's Billing > Transaction) and
 * Finance > Regenerate Balance (stored balances against their ledger sums; set right with a
 * 'regenerate' ledger row). Origination > Actual Transaction and Regenerate Balance are the same
 * calls over the DID carriers only, with their own permissions (docs/did.md).
 */
export function registerFinance(app: FastifyInstance, s: Services): void {
  const transactions =
    (carriers: Carriers): Handler<typeof api.finance.listTransactions> =>
    async (ctx) => {
      const q = ctx.query;
      const actor = actorOf(ctx);
      // Tenancy: a client's own carrier, an agent's clients, whatever client_id it sends.
      let qb = s.db
        .selectFrom('ledger as l')
        .innerJoin('carriers as c', 'c.client_id', 'l.client_id')
        .where(carrierScope(actor, 'l.client_id', q.client_id));
      if (carriers === 'did') qb = qb.where(didCarrierCondition('l.client_id'));
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
      const rows = await sortedRows(
        qb.select([
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
        ]),
        q,
        ORDER,
        'l.ledger_id',
      );
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
    };
  implement(app, s, api.finance.listTransactions, transactions('all'));
  implement(app, s, api.didExtras.listTransactions, transactions('did'));

  /**
   * The carriers a balance call covers: those asked (none: every one), cut to the DID carriers on
   * the origination screens; null when that leaves none (nothing to check or set).
   */
  const carriersOf = async (carriers: Carriers, asked: readonly number[]): Promise<number[] | null> => {
    if (carriers === 'all') return [...asked];
    const did = await didCarrierIds(s.db);
    const ids = asked.length ? did.filter((id) => asked.includes(id)) : did;
    return ids.length ? ids : null;
  };

  const balances =
    (carriers: Carriers): Handler<typeof api.finance.checkBalances> =>
    async (ctx) => {
      const q = ctx.query;
      const ids = await carriersOf(carriers, q.client_id ? [q.client_id] : []);
      if (ids === null) return { items: [], total: 0 };
      let rows = await checkBalances(s.db, { clientIds: ids.length ? ids : undefined });
      if (q.mismatched_only) rows = rows.filter((r) => parseMoney(r.difference) !== 0n);
      const page = rows.slice(q.page * q.per_page, (q.page + 1) * q.per_page);
      return { items: page.map(({ last_ledger_id: _, ...r }) => r), total: rows.length };
    };
  implement(app, s, api.finance.checkBalances, balances('all'));
  implement(app, s, api.didExtras.checkBalances, balances('did'));

  const regenerate =
    (carriers: Carriers): Handler<typeof api.finance.regenerate> =>
    async (ctx) => {
      const actor = actorOf(ctx);
      // Setting balances is the finance right "reset balance" (spec 02 section 6, docs/billing.md).
      if (!allows(actor.grants, api.billing.FUNC.resetBalance, 'read')) throw forbidden();
      const ids = await carriersOf(carriers, ctx.body.client_ids);
      if (ids === null) return { regenerated: [] };
      const fixed = await regenerateBalances(s.db, ids, actor.user.name);
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
    };
  implement(app, s, api.finance.regenerate, regenerate('all'));
  implement(app, s, api.didExtras.regenerate, regenerate('did'));
}
