import { allows, api, type ResetRow } from '@tandem/contract';
import { formatMoney, parseMoney } from '@tandem/domain';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { newestFirst } from '../../db/paging';
import { actorOf } from '../../http/context';
import { forbidden, invalidField, notFound, ruleBroken } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { moveBalances } from '../cdr/ledger';

/** The job that applies a reset at its time. */
export const RESET_JOB = 'balance.reset';
/** Furthest ahead a reset may be scheduled. */
const MAX_AHEAD_MS = 366 * 86_400_000;

const m6 = (v: string | null) => (v === null ? null : formatMoney(parseMoney(v), 6));
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/**
 * Finance's "reset balance" (Log > Reset Balance Log, docs/billing.md): set a carrier's balance to a
 * value, now or at a chosen time. A reset is a row (pending) and a durable job due at its time
 * (docs/jobs.md: it survives a restart and runs once when several processes share the database).
 * The job, in one transaction: the pending row locked, the carrier's balance locked and read, one
 * 'reset' ledger row of the difference written through moveBalances (ref `reset-<id>`: a retry or a
 * second process finds it and moves nothing), the row marked finished with the balance before and
 * the amount. A pending reset can be cancelled; a finished one is history (a new reset, or a ledger
 * adjustment, corrects it). Routing sees the new balance through the balance poll (within 0.5 s).
 */
export function registerBalanceResets(app: FastifyInstance, s: Services): void {
  s.jobs.define<{ resetId: number }>(RESET_JOB, async ({ resetId }) => applyReset(s.db, resetId), {
    maxAttempts: 5,
    backoffMs: 5_000,
  });

  implement(app, s, api.finance.listResets, async (ctx) => {
    const q = ctx.query;
    let qb = resetRows(s.db);
    if (q.client_id) qb = qb.where('r.client_id', '=', q.client_id);
    if (q.state) qb = qb.where('r.state', '=', q.state);
    const total = await qb
      .clearSelect()
      .select((e) => e.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    const rows = await qb
      .orderBy('r.reset_id', newestFirst(q).order_dir)
      .limit(q.per_page)
      .offset(q.page * q.per_page)
      .execute();
    return { items: rows.map(toRow), total: Number(total.n) };
  });

  implement(app, s, api.finance.createReset, async (ctx) => {
    const actor = actorOf(ctx);
    // Setting a balance is the finance right "reset balance" (spec 02 section 6), as regenerate.
    if (!allows(actor.grants, api.billing.FUNC.resetBalance, 'read')) throw forbidden();
    const b = ctx.body;
    const now = Date.now();
    const runAt = b.run_at ? Math.max(Date.parse(b.run_at), now) : now;
    if (runAt - now > MAX_AHEAD_MS) throw invalidField('run_at', 'resetTooFar', ['run_at']);
    const carrier = await s.db
      .selectFrom('carriers')
      .select('client_id')
      .where('client_id', '=', b.client_id)
      .executeTakeFirst();
    if (!carrier) throw invalidField('client_id', 'referenceMissing', ['client_id']);
    const id = await s.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('balance_resets')
        .values({
          client_id: b.client_id,
          balance: formatMoney(parseMoney(b.balance), 6),
          run_at: new Date(runAt),
          note: b.note,
          created_by: actor.user.name,
        })
        .returning('reset_id')
        .executeTakeFirstOrThrow();
      // The job exists only if the reset does (same transaction); its key makes it one per reset.
      await s.jobs.enqueue(
        RESET_JOB,
        { resetId: row.reset_id },
        { db: trx, runAt: new Date(runAt), key: `reset-${row.reset_id}`, user: actor.user },
      );
      await s.audit.record(trx, actor, 'balance_reset', row.reset_id, 'create', null, {
        client_id: b.client_id,
        balance: b.balance,
        run_at: new Date(runAt).toISOString(),
      });
      return row.reset_id;
    });
    s.jobs.runner.wake();
    return (await readReset(s.db, id))!;
  });

  implement(app, s, api.finance.cancelReset, async (ctx) => {
    const actor = actorOf(ctx);
    if (!allows(actor.grants, api.billing.FUNC.resetBalance, 'read')) throw forbidden();
    await s.db.transaction().execute(async (trx) => {
      const r = await trx
        .selectFrom('balance_resets')
        .select('state')
        .where('reset_id', '=', ctx.params.id)
        .forUpdate()
        .executeTakeFirst();
      if (!r) throw notFound();
      if (r.state !== 'pending') throw ruleBroken('resetNotPending');
      await trx
        .updateTable('balance_resets')
        .set({ state: 'cancelled', cancelled_by: actor.user.name, finished_at: new Date() })
        .where('reset_id', '=', ctx.params.id)
        .execute();
      await s.audit.record(
        trx,
        actor,
        'balance_reset',
        ctx.params.id,
        'cancel',
        { state: 'pending' },
        { state: 'cancelled' },
      );
    });
    return (await readReset(s.db, ctx.params.id))!;
  });
}

/**
 * Applies a pending reset (the job's work; exported for the tests). Once: the row is locked and must
 * still be pending, and the ledger row's (carrier, 'reset', ref) is unique, so a second run, here or
 * in another process, changes nothing. Returns whether it moved the balance.
 */
export async function applyReset(db: Db, resetId: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .selectFrom('balance_resets')
      .selectAll()
      .where('reset_id', '=', resetId)
      .forUpdate()
      .executeTakeFirst();
    if (!r || r.state !== 'pending') return false;
    // The carrier's row locked first (moveBalances locks it again in the same transaction).
    const c = await sql<{ balance: string }>`
      SELECT balance::text AS balance FROM carriers WHERE client_id = ${r.client_id} FOR UPDATE`.execute(trx);
    const before = c.rows[0] ? parseMoney(c.rows[0].balance) : null;
    if (before === null) return false; // the carrier was deleted (the reset row goes with it)
    const target = parseMoney(r.balance);
    const amount = target - before;
    await moveBalances(trx, [
      {
        client_id: r.client_id,
        kind: 'reset',
        ref: `reset-${resetId}`,
        amount,
        note: `Balance reset #${resetId} to ${formatMoney(target, 6)}${r.note ? `: ${r.note}` : ''}`,
        created_by: r.created_by,
      },
    ]);
    await trx
      .updateTable('balance_resets')
      .set({
        state: 'finished',
        balance_before: formatMoney(before, 6),
        amount: formatMoney(amount, 6),
        finished_at: new Date(),
      })
      .where('reset_id', '=', resetId)
      .execute();
    return true;
  });
}

async function readReset(db: Db, id: number): Promise<ResetRow | null> {
  const r = await resetRows(db).where('r.reset_id', '=', id).executeTakeFirst();
  return r ? toRow(r) : null;
}

/** The resets with their carrier's name: the list and the answer of a write read them alike. */
function resetRows(db: Db) {
  return db
    .selectFrom('balance_resets as r')
    .innerJoin('carriers as c', 'c.client_id', 'r.client_id')
    .selectAll('r')
    .select('c.name as client_name');
}

function toRow(r: {
  reset_id: number;
  client_id: number;
  client_name: string;
  balance: string;
  run_at: Date;
  state: ResetRow['state'];
  note: string;
  created_by: string;
  created_at: Date;
  balance_before: string | null;
  amount: string | null;
  finished_at: Date | null;
  cancelled_by: string | null;
}): ResetRow {
  return {
    reset_id: r.reset_id,
    client_id: r.client_id,
    client_name: r.client_name,
    balance: m6(r.balance)!,
    run_at: iso(r.run_at)!,
    state: r.state,
    note: r.note,
    created_by: r.created_by,
    created_at: iso(r.created_at)!,
    balance_before: m6(r.balance_before),
    amount: m6(r.amount),
    finished_at: iso(r.finished_at),
    cancelled_by: r.cancelled_by,
  };
}
