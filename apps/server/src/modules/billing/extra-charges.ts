import { chargesDue, formatMoney, localDate, occurrenceDate, parseMoney, type Micros } from '@tandem/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { invalidField, notFound, ruleBroken } from '../../http/errors';
import type { Services } from '../../services';
import { moveBalances } from '../cdr/ledger';

/**
 * Extra charges (docs/billing.md "Extra charges"): one-off or recurring (daily, weekly, monthly)
 * charges on a carrier. Every occurrence is charged once: an `extra_charge_runs` row (primary key
 * charge + occurrence) and one ledger row 'extra_charge' with ref `extra_charge:<id>:<date>`,
 * written with the carrier locked in one transaction that also advances the charge's count, so a
 * retried or concurrent run (two processes, the hourly job and a manual invoice) charges nothing
 * twice. A customer charge lowers the carrier's balance (it owes it, on its invoice), a vendor
 * charge raises it (we owe it, on the vendor statement). Cancelling an occurrence writes the
 * reversing row (`…:cancel`); the occurrence stays, marked canceled.
 */

export const EXTRA_CHARGE_JOB = 'billing.extra_charges';
const m6 = (v: Micros) => formatMoney(v, 6);
const refOf = (id: number, date: string) => `extra_charge:${id}:${date}`;
const signed = (side: 'customer' | 'vendor', amount: Micros) => (side === 'customer' ? -amount : amount);

export interface ExtraChargeInput {
  client_id: number;
  side: 'customer' | 'vendor';
  name: string;
  amount: string;
  frequency: 'once' | 'daily' | 'weekly' | 'monthly';
  start_date?: string;
  end_date?: string | null;
  note?: string;
  idempotency_key?: string | null;
  created_by: string;
}

/**
 * Creates an extra charge in the caller's transaction and charges what is already due. The same
 * idempotency key for the same carrier answers the first charge with `created: false`.
 */
export async function createExtraCharge(
  trx: Db,
  input: ExtraChargeInput,
  now = new Date(),
): Promise<{ extra_charge_id: number; created: boolean; charged: number; balance: string }> {
  const amount = parseMoney(input.amount);
  if (amount <= 0n) throw invalidField('amount', 'invalidValue', ['amount']);
  // The carrier first, locked: two creations with one key queue up, and the charge row's foreign
  // key cannot deadlock with moveBalances (see recordPayment).
  const carrier = await trx
    .selectFrom('carriers')
    .select(['client_id', 'time_zone', 'balance'])
    .where('client_id', '=', input.client_id)
    .forUpdate()
    .executeTakeFirst();
  if (!carrier) throw notFound();
  if (input.idempotency_key) {
    const earlier = await trx
      .selectFrom('extra_charges')
      .select('extra_charge_id')
      .where('client_id', '=', input.client_id)
      .where('idempotency_key', '=', input.idempotency_key)
      .executeTakeFirst();
    if (earlier)
      return {
        extra_charge_id: earlier.extra_charge_id,
        created: false,
        charged: 0,
        balance: m6(parseMoney(carrier.balance)),
      };
  }
  const start = input.start_date ?? localDate(now.getTime(), carrier.time_zone);
  if (input.end_date && input.end_date < start)
    throw invalidField('end_date', 'periodEndBeforeStart', ['end_date']);
  const { extra_charge_id } = await trx
    .insertInto('extra_charges')
    .values({
      client_id: input.client_id,
      side: input.side,
      name: input.name,
      amount: m6(amount),
      frequency: input.frequency,
      start_date: start,
      end_date: input.frequency === 'once' ? null : (input.end_date ?? null),
      note: input.note ?? '',
      idempotency_key: input.idempotency_key || null,
      created_by: input.created_by,
    })
    .returning('extra_charge_id')
    .executeTakeFirstOrThrow();
  const r = await chargeDue(trx, extra_charge_id, input.created_by, now);
  return {
    extra_charge_id,
    created: true,
    charged: r.charged,
    balance: r.balance ?? m6(parseMoney(carrier.balance)),
  };
}

/**
 * Charges the occurrences of one charge that are due by the carrier's local date, in the caller's
 * transaction: carrier, then charge locked; each occurrence claimed (ON CONFLICT DO NOTHING) and its
 * ledger row written; the count advanced. Returns how many it charged and the balance after.
 */
export async function chargeDue(
  trx: Db,
  chargeId: number,
  by: string,
  now = new Date(),
): Promise<{ charged: number; balance: string | null }> {
  const head = await trx
    .selectFrom('extra_charges')
    .select('client_id')
    .where('extra_charge_id', '=', chargeId)
    .executeTakeFirst();
  if (!head) throw notFound();
  const carrier = await trx
    .selectFrom('carriers')
    .select(['time_zone'])
    .where('client_id', '=', head.client_id)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const c = await trx
    .selectFrom('extra_charges')
    .select([
      'extra_charge_id',
      'client_id',
      'side',
      'name',
      'amount',
      'frequency',
      'status',
      'charged_count',
      sql<string>`start_date::text`.as('start'),
      sql<string | null>`end_date::text`.as('end'),
    ])
    .where('extra_charge_id', '=', chargeId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (c.status !== 'active') return { charged: 0, balance: null };
  const due = chargesDue({
    frequency: c.frequency,
    start: c.start,
    end: c.end,
    from: c.charged_count,
    today: localDate(now.getTime(), carrier.time_zone),
  });
  const amount = parseMoney(c.amount);
  let balance: string | null = null;
  let charged = 0;
  if (due.length) {
    const claimed = await sql<{ occurrence: number; charge_date: string }>`
      INSERT INTO extra_charge_runs (extra_charge_id, occurrence, charge_date, client_id, side, amount)
      SELECT ${chargeId}, n, d, ${c.client_id}, ${c.side}, ${m6(amount)}::numeric
      FROM unnest(${due.map((d) => d.n)}::int4[], ${due.map((d) => d.date)}::date[]) AS v(n, d)
      ON CONFLICT (extra_charge_id, occurrence) DO NOTHING
      RETURNING occurrence, charge_date::text AS charge_date`.execute(trx);
    const moved = await moveBalances(
      trx,
      claimed.rows.map((r) => ({
        client_id: c.client_id,
        kind: 'extra_charge' as const,
        side: c.side,
        ref: refOf(chargeId, r.charge_date),
        amount: signed(c.side, amount),
        note: `${c.name} (${r.charge_date})`,
        created_by: by,
      })),
    );
    charged = claimed.rows.length;
    if (moved[0]) balance = m6(moved[0].balance);
  }
  const next = due.length ? (due.at(-1) as { n: number }).n + 1 : c.charged_count;
  const nextDate = occurrenceDate(c.frequency, c.start, next);
  const finished = nextDate === null || (c.end !== null && nextDate > c.end);
  if (due.length || finished)
    await trx
      .updateTable('extra_charges')
      .set({
        charged_count: next,
        ...(due.length ? { last_charged_date: (due.at(-1) as { date: string }).date } : {}),
        ...(finished ? { status: 'finished' as const } : {}),
      })
      .where('extra_charge_id', '=', chargeId)
      .execute();
  return { charged, balance };
}

/**
 * Charges every active charge's due occurrences (the hourly job, and the automatic invoicing before
 * it invoices), each charge in its own transaction; `clientIds` limits it to those carriers.
 */
export async function chargeAllDue(
  s: Services,
  opts: { now?: Date; by?: string; clientIds?: readonly number[]; signal?: AbortSignal } = {},
): Promise<{ charged: number; failed: number }> {
  const now = opts.now ?? new Date();
  // Local dates run at most 14 hours ahead of UTC: a start up to tomorrow (UTC) may be due.
  const horizon = new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);
  let qb = s.db
    .selectFrom('extra_charges')
    .select('extra_charge_id')
    .where('status', '=', 'active')
    .where(sql<boolean>`start_date <= ${horizon}::date`);
  if (opts.clientIds) {
    if (opts.clientIds.length === 0) return { charged: 0, failed: 0 };
    qb = qb.where('client_id', 'in', [...opts.clientIds]);
  }
  const ids = await qb.orderBy('extra_charge_id').execute();
  let charged = 0;
  let failed = 0;
  for (const { extra_charge_id } of ids) {
    opts.signal?.throwIfAborted();
    try {
      const r = await s.db
        .transaction()
        .execute((trx) => chargeDue(trx, extra_charge_id, opts.by ?? 'extra charges', now));
      charged += r.charged;
    } catch (e) {
      failed++;
      s.log.warn({ err: e, extra_charge_id }, 'extra charge not charged');
    }
  }
  return { charged, failed };
}

/** Stops a recurring charge: nothing after today is charged; what was charged stays. */
export async function stopExtraCharge(trx: Db, chargeId: number, by: string): Promise<void> {
  const c = await trx
    .selectFrom('extra_charges')
    .select(['status'])
    .where('extra_charge_id', '=', chargeId)
    .forUpdate()
    .executeTakeFirst();
  if (!c) throw notFound();
  if (c.status !== 'active') throw ruleBroken('extraChargeNotActive');
  await trx
    .updateTable('extra_charges')
    .set({ status: 'stopped', stopped_at: new Date(), stopped_by: by })
    .where('extra_charge_id', '=', chargeId)
    .execute();
}

/** Cancels one charged occurrence: one reversing ledger row; the occurrence stays, canceled. */
export async function cancelChargeRun(
  trx: Db,
  chargeId: number,
  occurrence: number,
  by: string,
): Promise<{ balance: string }> {
  const head = await trx
    .selectFrom('extra_charge_runs')
    .select('client_id')
    .where('extra_charge_id', '=', chargeId)
    .where('occurrence', '=', occurrence)
    .executeTakeFirst();
  if (!head) throw notFound();
  await trx
    .selectFrom('carriers')
    .select('client_id')
    .where('client_id', '=', head.client_id)
    .forUpdate()
    .execute();
  const r = await trx
    .selectFrom('extra_charge_runs as r')
    .innerJoin('extra_charges as c', 'c.extra_charge_id', 'r.extra_charge_id')
    .select([
      'r.client_id',
      'r.side',
      'r.amount',
      'r.status',
      'c.name',
      sql<string>`r.charge_date::text`.as('date'),
    ])
    .where('r.extra_charge_id', '=', chargeId)
    .where('r.occurrence', '=', occurrence)
    .forUpdate('r')
    .executeTakeFirstOrThrow();
  if (r.status === 'canceled') throw ruleBroken('extraChargeCanceled');
  const moved = await moveBalances(trx, [
    {
      client_id: r.client_id,
      kind: 'extra_charge',
      side: r.side,
      ref: `${refOf(chargeId, r.date)}:cancel`,
      amount: -signed(r.side, parseMoney(r.amount)),
      note: `${r.name} (${r.date}) canceled`,
      created_by: by,
    },
  ]);
  await trx
    .updateTable('extra_charge_runs')
    .set({ status: 'canceled', canceled_at: new Date(), canceled_by: by })
    .where('extra_charge_id', '=', chargeId)
    .where('occurrence', '=', occurrence)
    .execute();
  return { balance: m6(moved[0]?.balance ?? 0n) };
}

/** The charges an invoice of a carrier's side shows: occurrences dated in its local dates, not canceled. */
export async function invoiceCharges(
  db: Db,
  clientId: number,
  side: 'customer' | 'vendor',
  fromDate: string,
  toDate: string,
): Promise<{ extra_charge_id: number; occurrence: number; date: string; name: string; amount: string }[]> {
  const rows = await db
    .selectFrom('extra_charge_runs as r')
    .innerJoin('extra_charges as c', 'c.extra_charge_id', 'r.extra_charge_id')
    .select([
      'r.extra_charge_id',
      'r.occurrence',
      sql<string>`r.charge_date::text`.as('date'),
      'c.name',
      'r.amount',
    ])
    .where('r.client_id', '=', clientId)
    .where('r.side', '=', side)
    .where('r.status', '=', 'charged')
    .where(sql<boolean>`r.charge_date BETWEEN ${fromDate}::date AND ${toDate}::date`)
    .orderBy('r.charge_date')
    .orderBy('r.extra_charge_id')
    .execute();
  return rows.map((r) => ({ ...r, amount: m6(parseMoney(r.amount)) }));
}
