import { allows, api } from '@tandem/contract';
import { formatMoney, parseMoney, statementTotals } from '@tandem/domain';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { iso, sortedRows } from '../../db/paging';
import { actorOf, type Actor } from '../../http/context';
import { forbidden, notFound } from '../../http/errors';
import { implement } from '../../http/register';
import { carrierScope } from '../../http/tenancy';
import type { Services } from '../../services';
import { cancelNote, cancelPayment, recordNote, recordPayment } from './payments';

const { FUNC } = api.billing;
const m6 = (v: string | bigint) => formatMoney(typeof v === 'bigint' ? v : parseMoney(v), 6);

/** Tenancy: an admin's filter as sent, a portal user's own carrier whatever it sends. */
export const scopeOf = (actor: Actor, sent: number | undefined): number | undefined =>
  actor.type === 'admin' ? sent : (actor.clientId ?? -1);

/** Payments, credit and debit notes, statements and the mutual balance (docs/billing.md). */
export function registerPaymentRoutes(app: FastifyInstance, s: Services): void {
  implement(app, s, api.billing.listPayments, async (ctx) => {
    const q = ctx.query;
    const actor = actorOf(ctx);
    let qb = s.db
      .selectFrom('payments as p')
      .innerJoin('carriers as c', 'c.client_id', 'p.client_id')
      .where(carrierScope(actor, 'p.client_id', q.client_id));
    // A client sees what it paid, not what we paid it.
    const direction = actor.type === 'admin' ? q.direction : 'received';
    if (direction) qb = qb.where('p.direction', '=', direction);
    if (q.status) qb = qb.where('p.status', '=', q.status);
    if (q.time_from) qb = qb.where('p.paid_at', '>=', new Date(q.time_from));
    if (q.time_to) qb = qb.where('p.paid_at', '<', new Date(q.time_to));
    if (q.invoice_id)
      qb = qb.where('p.payment_id', 'in', (sub) =>
        sub
          .selectFrom('payment_allocations')
          .select('payment_id')
          .where('invoice_id', '=', q.invoice_id as number),
      );
    const totals = await qb
      .select([
        sql<string>`count(*)::text`.as('n'),
        sql<string>`coalesce(sum(p.amount) FILTER (WHERE p.status = 'completed'), 0)::text`.as('amount'),
        sql<string>`coalesce(sum(p.fee) FILTER (WHERE p.status = 'completed'), 0)::text`.as('fee'),
      ])
      .executeTakeFirstOrThrow();
    const ORDER = {
      payment_id: 'p.payment_id',
      paid_at: 'p.paid_at',
      amount: 'p.amount',
      client_name: 'c.name',
    } as const;
    const rows = await sortedRows(
      qb.selectAll('p').select('c.name as client_name'),
      q,
      ORDER,
      'p.payment_id',
    );
    const allocs = rows.length
      ? await s.db
          .selectFrom('payment_allocations as a')
          .innerJoin('invoices as i', 'i.invoice_id', 'a.invoice_id')
          .select(['a.payment_id', 'a.invoice_id', 'i.invoice_number', 'a.amount'])
          .where(
            'a.payment_id',
            'in',
            rows.map((r) => r.payment_id),
          )
          .orderBy('a.invoice_id')
          .execute()
      : [];
    return {
      items: rows.map((r) => ({
        payment_id: r.payment_id,
        client_id: r.client_id,
        client_name: r.client_name,
        direction: r.direction,
        amount: m6(r.amount),
        fee: m6(r.fee),
        paid_at: iso(r.paid_at) as string,
        method: r.method,
        transaction_id: r.transaction_id,
        note: r.note,
        status: r.status,
        created_at: iso(r.created_at) as string,
        created_by: r.created_by,
        canceled_at: iso(r.canceled_at),
        canceled_by: r.canceled_by,
        cancel_note: r.cancel_note,
        allocations: allocs
          .filter((a) => a.payment_id === r.payment_id)
          .map((a) => ({ invoice_id: a.invoice_id, invoice_number: a.invoice_number, amount: m6(a.amount) })),
      })),
      total: Number(totals.n),
      totals: { amount: m6(totals.amount), fee: m6(totals.fee) },
    };
  });

  implement(app, s, api.billing.createPayment, async (ctx) => {
    const actor = actorOf(ctx);
    const b = ctx.body;
    return s.db.transaction().execute(async (trx) => {
      const r = await recordPayment(trx, { ...b, created_by: actor.user.name });
      if (r.created) await s.audit.record(trx, actor, 'payment', r.payment_id, 'create', null, b);
      return r;
    });
  });

  implement(app, s, api.billing.cancelPayment, async (ctx) => {
    const actor = actorOf(ctx);
    if (!allows(actor.grants, FUNC.deletePayment, 'read')) throw forbidden();
    return s.db.transaction().execute(async (trx) => {
      const r = await cancelPayment(trx, ctx.params.id, actor.user.name, ctx.body.note);
      await s.audit.record(
        trx,
        actor,
        'payment',
        ctx.params.id,
        'cancel',
        { status: 'completed' },
        {
          status: 'canceled',
          note: ctx.body.note,
        },
      );
      return { balance: r.balance };
    });
  });

  implement(app, s, api.billing.listNotes, async (ctx) => {
    const q = ctx.query;
    const clientId = scopeOf(actorOf(ctx), q.client_id);
    let qb = s.db
      .selectFrom('billing_notes as n')
      .innerJoin('carriers as c', 'c.client_id', 'n.client_id')
      .leftJoin('invoices as i', 'i.invoice_id', 'n.invoice_id');
    if (clientId !== undefined) qb = qb.where('n.client_id', '=', clientId);
    if (q.invoice_id) qb = qb.where('n.invoice_id', '=', q.invoice_id);
    if (q.kind) qb = qb.where('n.kind', '=', q.kind);
    const { n } = await qb.select(sql<string>`count(*)::text`.as('n')).executeTakeFirstOrThrow();
    const rows = await qb
      .selectAll('n')
      .select(['c.name as client_name', 'i.invoice_number'])
      .orderBy('n.note_id', 'desc')
      .limit(q.per_page)
      .offset(q.page * q.per_page)
      .execute();
    return {
      items: rows.map((r) => ({
        note_id: r.note_id,
        client_id: r.client_id,
        client_name: r.client_name,
        kind: r.kind,
        invoice_id: r.invoice_id,
        invoice_number: r.invoice_number,
        amount: m6(r.amount),
        note: r.note,
        status: r.status,
        created_at: iso(r.created_at) as string,
        created_by: r.created_by,
        canceled_at: iso(r.canceled_at),
        canceled_by: r.canceled_by,
      })),
      total: Number(n),
    };
  });

  implement(app, s, api.billing.createNote, async (ctx) => {
    const actor = actorOf(ctx);
    return s.db.transaction().execute(async (trx) => {
      const r = await recordNote(trx, { ...ctx.body, created_by: actor.user.name });
      if (r.created) await s.audit.record(trx, actor, 'billing_note', r.note_id, 'create', null, ctx.body);
      return r;
    });
  });

  implement(app, s, api.billing.cancelNote, async (ctx) => {
    const actor = actorOf(ctx);
    if (!allows(actor.grants, FUNC.deleteNote, 'read')) throw forbidden();
    await s.db.transaction().execute(async (trx) => {
      await cancelNote(trx, ctx.params.id, actor.user.name);
      await s.audit.record(
        trx,
        actor,
        'billing_note',
        ctx.params.id,
        'cancel',
        { status: 'normal' },
        { status: 'canceled' },
      );
    });
    return null;
  });

  implement(app, s, api.billing.statement, async (ctx) => {
    const actor = actorOf(ctx);
    const clientId = scopeOf(actor, ctx.params.id) as number;
    const carrier = await s.db
      .selectFrom('carriers')
      .select(['client_id', 'name', 'currency', 'client_type'])
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    if (!carrier) throw notFound();
    const from = ctx.query.time_from ? new Date(ctx.query.time_from) : new Date(0);
    const to = ctx.query.time_to ? new Date(ctx.query.time_to) : new Date(Date.UTC(2200, 0, 1));
    const [fig] = await mutualFigures(s, from, to, [clientId]);
    const rows = await s.db
      .selectFrom('ledger')
      .select(['ledger_id', 'created_at', 'kind', 'side', 'ref', 'amount', 'balance_after', 'note'])
      .where('client_id', '=', clientId)
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .orderBy('ledger_id')
      .limit(ctx.query.per_page)
      .offset(ctx.query.page * ctx.query.per_page)
      .execute();
    const f = fig ?? emptyFigures(clientId, carrier.name);
    return {
      client_id: clientId,
      name: carrier.name,
      currency: carrier.currency,
      opening: f.opening,
      closing: f.closing,
      figures: figuresOf(f),
      net_owed_by_carrier: f.net_owed_by_carrier,
      items: rows.map((r) => ({
        ledger_id: Number(r.ledger_id),
        created_at: iso(r.created_at) as string,
        kind: r.kind,
        side: r.side,
        ref: r.ref,
        amount: m6(r.amount),
        balance_after: m6(r.balance_after),
        note: r.note,
      })),
      total: f.rows,
    };
  });

  implement(app, s, api.billing.overallMutual, async (ctx) => {
    const q = ctx.query;
    const from = q.time_from ? new Date(q.time_from) : new Date(0);
    const to = q.time_to ? new Date(q.time_to) : new Date(Date.UTC(2200, 0, 1));
    const all = await mutualFigures(s, from, to, q.client_id ? [q.client_id] : undefined);
    const page = all.slice(q.page * q.per_page, (q.page + 1) * q.per_page);
    return {
      items: page.map((f) => ({
        client_id: f.client_id,
        name: f.name,
        opening: f.opening,
        closing: f.closing,
        net_owed_by_carrier: f.net_owed_by_carrier,
        ...figuresOf(f),
      })),
      total: all.length,
    };
  });
}

interface Figures {
  client_id: number;
  name: string;
  opening: string;
  closing: string;
  net_owed_by_carrier: string;
  rows: number;
  byKind: Record<string, bigint>;
}

const emptyFigures = (client_id: number, name: string): Figures => ({
  client_id,
  name,
  opening: m6(0n),
  closing: m6(0n),
  net_owed_by_carrier: m6(0n),
  rows: 0,
  byKind: {},
});

/** The mutual figures of a statement, named by what moved the balance. */
function figuresOf(f: Figures) {
  const k = (key: string) => f.byKind[key] ?? 0n;
  const known = [
    'usage:customer',
    'usage:vendor',
    'rerate:customer',
    'rerate:vendor',
    'payment:received',
    'payment:sent',
    'credit_note:',
    'debit_note:',
  ];
  const other = Object.entries(f.byKind)
    .filter(([key]) => !known.includes(key))
    .reduce((a, [, v]) => a + v, 0n);
  return {
    customer_usage: m6(k('usage:customer') + k('rerate:customer')),
    vendor_usage: m6(k('usage:vendor') + k('rerate:vendor')),
    payments_received: m6(k('payment:received')),
    payments_sent: m6(k('payment:sent')),
    credit_notes: m6(k('credit_note:')),
    debit_notes: m6(k('debit_note:')),
    other: m6(other),
  };
}

/**
 * Per carrier: the balance at `from` (the ledger's sum before it), the ledger's sums in [from, to)
 * by kind and side (payments split by the sign of the row: received raise a balance, sent lower
 * it), and the balance at `to`. One query over the ledger, exact.
 */
async function mutualFigures(s: Services, from: Date, to: Date, clientIds?: number[]): Promise<Figures[]> {
  // One carrier's statement reads only its ledger rows (index ledger_client_time), not every carrier's.
  const only = clientIds ? sql`client_id = ANY(${clientIds}::int4[])` : sql`true`;
  const rows = await sql<{
    client_id: number;
    name: string;
    key: string;
    opening: string;
    amount: string;
    n: string;
  }>`
    WITH opening AS (
      SELECT client_id, sum(amount) AS total FROM ledger WHERE created_at < ${from} AND ${only}
      GROUP BY client_id
    ), moves AS (
      SELECT client_id,
        CASE WHEN kind = 'payment' THEN 'payment:' || CASE WHEN ref LIKE '%:cancel' THEN
               (CASE WHEN amount < 0 THEN 'received' ELSE 'sent' END)
             ELSE (CASE WHEN amount >= 0 THEN 'received' ELSE 'sent' END) END
          ELSE kind || ':' || side END AS key,
        sum(amount) AS amount, count(*) AS n
      FROM ledger WHERE created_at >= ${from} AND created_at < ${to} AND ${only} GROUP BY 1, 2
    )
    SELECT c.client_id, c.name, coalesce(m.key, '') AS key, coalesce(o.total, 0)::text AS opening,
      coalesce(m.amount, 0)::text AS amount, coalesce(m.n, 0)::text AS n
    FROM carriers c
    LEFT JOIN opening o ON o.client_id = c.client_id
    LEFT JOIN moves m ON m.client_id = c.client_id
    WHERE ${clientIds ? sql`c.client_id = ANY(${clientIds}::int4[])` : sql`true`}
    ORDER BY c.name, c.client_id`.execute(s.db);
  const out = new Map<number, Figures & { moves: { kind: string; amount: bigint }[]; open: bigint }>();
  for (const r of rows.rows) {
    let f = out.get(r.client_id);
    if (!f) {
      f = { ...emptyFigures(r.client_id, r.name), moves: [], open: parseMoney(r.opening) };
      out.set(r.client_id, f);
    }
    if (r.key) {
      f.moves.push({ kind: r.key, amount: parseMoney(r.amount) });
      f.rows += Number(r.n);
    }
  }
  return [...out.values()].map((f) => {
    const t = statementTotals(f.open, f.moves);
    return {
      client_id: f.client_id,
      name: f.name,
      opening: m6(t.opening),
      closing: m6(t.closing),
      net_owed_by_carrier: m6(-t.closing),
      rows: f.rows,
      byKind: { ...t.byKind },
    };
  });
}
