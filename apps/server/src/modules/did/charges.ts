import {
  assignmentCharge,
  didChargeRef,
  formatMoney,
  localDay,
  parseMoney,
  periodStartMs,
  didMonthsDue,
  releaseRefund,
  zoneOffsetMinutes,
  type Micros,
} from '@tandem/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { Services } from '../../services';
import { moveBalances, type BalanceChange, type BalanceMoved } from '../cdr/ledger';

/**
 * DID charges (docs/did.md "Recurring charges"): every charge is a did_charges row and a ledger row
 * ('did_charge') with the same reference, written in the caller's transaction. The did_charges
 * insert claims the reference (ON CONFLICT DO NOTHING); only what it claimed moves a balance, and
 * moveBalances skips a reference the ledger already has: a period is charged once whatever
 * restarts, retries or top-ups happen.
 *
 * References (unique per carrier and side; domain didChargeRef): an assignment is named by the
 * instant it began (ms), so each assignment of a DID pays its own days, never those of another:
 *   client  did-setup:<did>:<assigned ms>               setup fee of one assignment
 *           did-monthly:<did>:<assigned ms>:<YYYY-MM>   the month's price (prorated in the assignment month)
 *           did-refund:<did>:<assigned ms>:<YYYY-MM>    the days after the release
 *           did-channels:<YYYY-MM>             channels × per-channel price
 *   vendor  did-vendor-import:<task>           setup fees and prorated month of an import
 *           did-vendor-monthly:<YYYY-MM>       the month's price of every DID in stock from the vendor
 */
export interface DidCharge {
  carrier_id: number;
  side: 'customer' | 'vendor';
  kind: 'setup' | 'monthly' | 'refund' | 'channels';
  did_id: number | null;
  number: string;
  period: string;
  /** Positive: what the client pays (its balance goes down) or what the vendor is owed (its balance goes up). */
  amount: Micros;
  ref: string;
  note: string;
}

const m6 = (v: Micros) => formatMoney(v, 6);

/** Writes the charges not written before and moves the balances; returns the new balances. */
export async function applyCharges(
  trx: Db,
  charges: readonly DidCharge[],
  by: string,
): Promise<{ applied: DidCharge[]; balances: BalanceMoved[] }> {
  const wanted = charges.filter((c) => c.amount !== 0n);
  if (wanted.length === 0) return { applied: [], balances: [] };
  const claimed = await sql<{ carrier_id: number; side: string; ref: string }>`
    INSERT INTO did_charges (carrier_id, side, kind, did_id, number, period, amount, ref)
    SELECT * FROM unnest(${wanted.map((c) => c.carrier_id)}::int4[], ${wanted.map((c) => c.side)}::text[],
      ${wanted.map((c) => c.kind)}::text[], ${wanted.map((c) => c.did_id)}::int4[], ${wanted.map((c) => c.number)}::text[],
      ${wanted.map((c) => c.period)}::text[], ${wanted.map((c) => m6(c.amount))}::numeric[], ${wanted.map((c) => c.ref)}::text[])
    ON CONFLICT (carrier_id, side, ref) DO NOTHING RETURNING carrier_id, side, ref`.execute(trx);
  const got = new Set(claimed.rows.map((r) => `${r.carrier_id}\u0000${r.side}\u0000${r.ref}`));
  const applied = wanted.filter((c) => got.has(`${c.carrier_id}\u0000${c.side}\u0000${c.ref}`));
  const changes: BalanceChange[] = applied.map((c) => ({
    client_id: c.carrier_id,
    kind: 'did_charge',
    side: c.side,
    ref: c.ref,
    // A client's charge lowers its balance, a refund raises it; a vendor's charge is owed to it.
    amount: c.side === 'customer' ? (c.kind === 'refund' ? c.amount : -c.amount) : c.amount,
    note: c.note,
    created_by: by,
  }));
  const balances = await moveBalances(trx, changes);
  return { applied, balances };
}

export interface RuleMoney {
  monthly_price: string;
  setup_fee: string;
  per_channel: string;
}

/**
 * Setup fee and the rest of the month at an assignment (the assignment day counts, unless `dayPaid`:
 * the same client released the number earlier that local day and paid the day then).
 */
export function assignmentCharges(
  d: { did_id: number; number: string; client_id: number },
  rule: RuleMoney | null,
  atMs: number,
  zone: string,
  dayPaid = false,
): DidCharge[] {
  if (rule === null) return [];
  const offset = zoneOffsetMinutes(zone);
  const month = assignmentCharge(parseMoney(rule.monthly_price), atMs, offset, dayPaid);
  return [
    {
      carrier_id: d.client_id,
      side: 'customer',
      kind: 'setup',
      did_id: d.did_id,
      number: d.number,
      period: month.period,
      amount: parseMoney(rule.setup_fee),
      ref: didChargeRef('setup', d.did_id, atMs),
      note: `Setup fee of DID ${d.number}`,
    },
    {
      carrier_id: d.client_id,
      side: 'customer',
      kind: 'monthly',
      did_id: d.did_id,
      number: d.number,
      period: month.period,
      amount: month.amount,
      ref: didChargeRef('monthly', d.did_id, atMs, month.period),
      note: `DID ${d.number} ${month.period}: ${month.days} of ${localDay(atMs, offset).daysInMonth} days`,
    },
  ];
}

/** The DID of a release, as release() has it locked: who held it since when, at which rule. */
export interface Released {
  did_id: number;
  number: string;
  client_id: number;
  assigned_at: Date;
}

/** The monthly price of every month after the assignment month up to `nowMs` (each once, by its ref). */
export function monthsDueCharges(
  d: Released,
  monthly: Micros,
  nowMs: number,
  offset: number,
  note = '',
): DidCharge[] {
  const assignedMs = d.assigned_at.getTime();
  return didMonthsDue(assignedMs, nowMs, offset).map((period) => ({
    carrier_id: d.client_id,
    side: 'customer',
    kind: 'monthly',
    did_id: d.did_id,
    number: d.number,
    period,
    amount: monthly,
    ref: didChargeRef('monthly', d.did_id, assignedMs, period),
    note: `DID ${d.number} ${period}${note}`,
  }));
}

/**
 * The charges of a release at `atMs`: first every month the assignment still owes up to the
 * release's month (a release before the charge job's run of a new month still pays the days it
 * held the number: never free), then the refund of the days after the release day, at most what
 * the release's month was charged for this assignment (`paid`: that month's charge found in
 * did_charges, or the one just added here).
 */
export function releaseCharges(
  d: Released,
  rule: RuleMoney | null,
  atMs: number,
  zone: string,
  paid: Micros | undefined,
): DidCharge[] {
  if (rule === null) return [];
  const offset = zoneOffsetMinutes(zone);
  const monthly = parseMoney(rule.monthly_price);
  const owed = monthsDueCharges(d, monthly, atMs, offset, ' (charged at the release)');
  const back = releaseRefund(monthly, atMs, offset);
  const charged = paid ?? owed.find((c) => c.period === back.period)?.amount ?? 0n;
  const amount = back.amount < charged ? back.amount : charged;
  return [
    ...owed,
    {
      carrier_id: d.client_id,
      side: 'customer',
      kind: 'refund',
      did_id: d.did_id,
      number: d.number,
      period: back.period,
      amount,
      ref: didChargeRef('refund', d.did_id, d.assigned_at.getTime(), back.period),
      note: `DID ${d.number} released: ${back.days} days of ${back.period} back`,
    },
  ];
}

/** What a vendor charges for numbers just added: setup fees and the rest of the month, one ledger row. */
export function importCharges(
  vendorId: number,
  taskId: number,
  rule: RuleMoney | null,
  count: number,
  atMs: number,
  zone: string,
): DidCharge[] {
  if (rule === null || count === 0) return [];
  const month = assignmentCharge(parseMoney(rule.monthly_price), atMs, zoneOffsetMinutes(zone));
  const amount = (parseMoney(rule.setup_fee) + month.amount) * BigInt(count);
  return [
    {
      carrier_id: vendorId,
      side: 'vendor',
      kind: 'setup',
      did_id: null,
      number: '',
      period: month.period,
      amount,
      ref: `did-vendor-import:${taskId}`,
      note: `${count} DIDs added: setup fees and ${month.days} days of ${month.period}`,
    },
  ];
}

export interface ChargeRunResult {
  charged: number;
  amount: string;
  suspended: number;
  released: number;
  /** Suspensions lifted (the client has credit again). */
  resumed: number;
}

/**
 * The charge job's body, safe to run any number of times: for each DID client, the months its DIDs
 * owe (each once), its channels for the current month; for each DID vendor, the current month of its
 * stock; then prepaid clients without credit have their DIDs suspended, and released once suspended
 * longer than the client's grace days (with a notice each time). One transaction per carrier.
 */
export async function runDidCharges(
  s: Services,
  nowMs: number,
  release: (trx: Db, didIds: number[], by: string, note: string) => Promise<number>,
  signal?: AbortSignal,
): Promise<ChargeRunResult> {
  const db = s.db;
  let charged = 0;
  let total = 0n;
  let suspended = 0;
  let released = 0;
  let resumed = 0;
  const clients = await db
    .selectFrom('did_clients as d')
    .innerJoin('carriers as c', 'c.client_id', 'd.carrier_id')
    .leftJoin('did_billing_rules as r', 'r.id', 'd.billing_rule_id')
    .select(['d.carrier_id', 'd.channels', 'd.grace_days', 'c.time_zone', 'c.name'])
    .select(sql<string | null>`r.per_channel::text`.as('per_channel'))
    .orderBy('d.carrier_id')
    .execute();
  for (const c of clients) {
    signal?.throwIfAborted();
    const offset = zoneOffsetMinutes(c.time_zone);
    const current = localDay(nowMs, offset).period;
    const applied = await db.transaction().execute(async (trx) => {
      const dids = await trx
        .selectFrom('dids as d')
        .leftJoin('did_billing_rules as r', 'r.id', 'd.client_billing_rule_id')
        .select(['d.did_id', 'd.number', 'd.assigned_at'])
        .select(sql<string | null>`r.monthly_price::text`.as('monthly_price'))
        .where('d.client_id', '=', c.carrier_id)
        .where('d.state', '=', 'assigned')
        .execute();
      const charges: DidCharge[] = [];
      for (const d of dids) {
        if (d.monthly_price === null || d.assigned_at === null) continue;
        charges.push(
          ...monthsDueCharges(
            { ...d, client_id: c.carrier_id, assigned_at: new Date(d.assigned_at) },
            parseMoney(d.monthly_price),
            nowMs,
            offset,
          ),
        );
      }
      if (c.channels > 0 && c.per_channel !== null)
        charges.push({
          carrier_id: c.carrier_id,
          side: 'customer',
          kind: 'channels',
          did_id: null,
          number: '',
          period: current,
          amount: parseMoney(c.per_channel) * BigInt(c.channels),
          ref: `did-channels:${current}`,
          note: `${c.channels} channels ${current}`,
        });
      return (await applyCharges(trx, charges, 'system')).applied;
    });
    charged += applied.length;
    for (const a of applied) total += a.amount;

    // Prepaid without credit: suspend, then release after the grace days; credit again: resume.
    const r = await db.transaction().execute(async (trx) => {
      const carrier = await trx
        .selectFrom('carriers')
        .select(['mode', 'unlimited_credit'])
        .select(sql<boolean>`balance + allowed_credit + test_credit > 0`.as('has_credit'))
        .where('client_id', '=', c.carrier_id)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const broke = carrier.mode === 'prepaid' && !carrier.unlimited_credit && !carrier.has_credit;
      if (!broke) {
        const lifted = await trx
          .updateTable('dids')
          .set({ suspended_at: null, updated_at: new Date(nowMs) })
          .where('client_id', '=', c.carrier_id)
          .where('suspended_at', 'is not', null)
          .executeTakeFirst();
        return { suspended: 0, released: 0, resumed: Number(lifted.numUpdatedRows) };
      }
      const fresh = await trx
        .updateTable('dids')
        .set({ suspended_at: new Date(nowMs), updated_at: new Date(nowMs) })
        .where('client_id', '=', c.carrier_id)
        .where('state', '=', 'assigned')
        .where('suspended_at', 'is', null)
        .returning(['did_id', 'number'])
        .execute();
      if (fresh.length) {
        await trx
          .insertInto('did_history')
          .values(
            fresh.map((d) => ({
              did_id: d.did_id,
              action: 'suspended',
              state: 'assigned' as const,
              client_id: c.carrier_id,
              note: 'No credit left for the DID charges',
              user_name: 'system',
              at: new Date(nowMs),
            })),
          )
          .execute();
        await trx
          .insertInto('client_alerts')
          .values({
            client_id: c.carrier_id,
            level: 'warning',
            content: `${fresh.length} DID(s) suspended for want of credit (${fresh.map((d) => d.number).join(', ')}); they are released after ${c.grace_days} day(s) unless the balance is topped up.`,
          })
          .execute();
      }
      const due = await trx
        .selectFrom('dids')
        .select(['did_id', 'number'])
        .where('client_id', '=', c.carrier_id)
        .where('state', '=', 'assigned')
        .where('suspended_at', '<=', new Date(nowMs - c.grace_days * 86_400_000))
        .execute();
      let gone = 0;
      if (due.length) {
        gone = await release(
          trx,
          due.map((d) => d.did_id),
          'system',
          `Released after ${c.grace_days} day(s) suspended without credit`,
        );
        await trx
          .insertInto('client_alerts')
          .values({
            client_id: c.carrier_id,
            level: 'error',
            content: `${gone} DID(s) released after ${c.grace_days} day(s) without credit (${due.map((d) => d.number).join(', ')}).`,
          })
          .execute();
      }
      return { suspended: fresh.length, released: gone, resumed: 0 };
    });
    suspended += r.suspended;
    released += r.released;
    resumed += r.resumed;
  }

  // Vendors: the current month of every DID in stock since before the month began.
  const vendors = await db
    .selectFrom('did_vendors as v')
    .innerJoin('carriers as c', 'c.client_id', 'v.carrier_id')
    .select(['v.carrier_id', 'c.time_zone'])
    .orderBy('v.carrier_id')
    .execute();
  for (const v of vendors) {
    signal?.throwIfAborted();
    const offset = zoneOffsetMinutes(v.time_zone);
    const period = localDay(nowMs, offset).period;
    const start = new Date(periodStartMs(period, offset));
    const applied = await db.transaction().execute(async (trx) => {
      const sum = await trx
        .selectFrom('dids as d')
        .innerJoin('did_billing_rules as r', 'r.id', 'd.vendor_billing_rule_id')
        .select(sql<string>`coalesce(sum(r.monthly_price), 0)::text`.as('total'))
        .select(sql<number>`count(*)::int`.as('n'))
        .where('d.vendor_id', '=', v.carrier_id)
        .where('d.created_at', '<', start)
        .executeTakeFirstOrThrow();
      return (
        await applyCharges(
          trx,
          [
            {
              carrier_id: v.carrier_id,
              side: 'vendor',
              kind: 'monthly',
              did_id: null,
              number: '',
              period,
              amount: parseMoney(sum.total),
              ref: `did-vendor-monthly:${period}`,
              note: `${sum.n} DIDs ${period}`,
            },
          ],
          'system',
        )
      ).applied;
    });
    charged += applied.length;
    for (const a of applied) total += a.amount;
  }
  return { charged, amount: m6(total), suspended, released, resumed };
}
