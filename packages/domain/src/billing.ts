import { roundMoney, divideRoundHalfUp, type Micros } from './money';

/**
 * Invoice arithmetic and billing periods (docs/billing.md).
 *
 * Rounding rule of an invoice (one rule, one place):
 *  1. The usage of the period is summed exactly (micro-units, the CDRs' own 6 places), plus the
 *     extra charges dated in the period (exact as entered).
 *  2. subtotal = that sum rounded ONCE, half up (half away from zero), to the invoice's decimal places.
 *  3. tax = subtotal × tax percent / 100, rounded once, half up, to the same places.
 *  4. total = subtotal + tax (exact at those places: nothing left to round).
 *  The summary lines (per destination, trunk, day) are each the exact sum of their CDRs rounded the
 *  same way for display; the subtotal is never the sum of rounded lines, so printed lines may differ
 *  from the subtotal by at most half a unit of the last place per line (the PDF says so).
 *  Payments, credit and debit notes are exact amounts (6 places) as entered; what is left to pay is
 *  total + debit notes − payments − credit notes, never below zero for the state.
 */

export interface InvoiceAmounts {
  readonly subtotal: Micros;
  readonly tax: Micros;
  readonly total: Micros;
}

/** Percent as micro-units of a percent: "7.5" percent is 7_500_000n. */
export function invoiceAmounts(usageExact: Micros, taxPercent: Micros, decimals: number): InvoiceAmounts {
  const subtotal = roundMoney(usageExact, decimals);
  // subtotal (micros) × percent (micros) / (100 × 1e6) -> micros, then to the invoice's places.
  const taxExact = divideRoundHalfUp(subtotal * taxPercent, 100_000_000n);
  const tax = roundMoney(taxExact, decimals);
  return { subtotal, tax, total: subtotal + tax };
}

export type PayStatus = 'unpaid' | 'partially_paid' | 'paid';

export interface InvoiceBalance {
  /** total + debited − paid − credited: what is still owed (may be < 0 when overpaid). */
  readonly due: Micros;
  readonly payStatus: PayStatus;
}

/** What is left of an invoice and its state from its total, debit notes, payments and credit notes. */
export function invoiceBalance(
  total: Micros,
  debited: Micros,
  paid: Micros,
  credited: Micros,
): InvoiceBalance {
  const due = total + debited - paid - credited;
  const settled = paid + credited;
  const payStatus: PayStatus = due <= 0n ? 'paid' : settled > 0n ? 'partially_paid' : 'unpaid';
  return { due, payStatus };
}

/**
 * A statement over a period: the ledger's rows between two instants. closing = opening + Σ amounts,
 * split into what moved it (usage, payments, notes...). Exact: no rounding.
 */
export interface StatementTotals {
  readonly opening: Micros;
  readonly closing: Micros;
  readonly byKind: Readonly<Record<string, Micros>>;
}
export function statementTotals(
  opening: Micros,
  rows: readonly { readonly kind: string; readonly amount: Micros }[],
): StatementTotals {
  const byKind: Record<string, Micros> = {};
  let closing = opening;
  for (const r of rows) {
    byKind[r.kind] = (byKind[r.kind] ?? 0n) + r.amount;
    closing += r.amount;
  }
  return { opening, closing, byKind };
}

// ---------------------------------------------------------------------------------------------
// Billing periods

export const INVOICING_CYCLES = ['daily', 'weekly', 'monthly', 'yearly'] as const;
export type InvoicingCycle = (typeof INVOICING_CYCLES)[number];

/** A period [start, end) as UTC instants (ms). */
export interface BillingPeriod {
  readonly start: number;
  readonly end: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * THE parser of a carrier or user time zone (a fixed offset: '+0530', '-1200', '+00:00'): minutes
 * east of UTC, or null when the text is not such an offset (or beyond ±14:00). Every reader of a
 * zone goes through it (billing periods, DID charge months, the routing snapshot's time profiles).
 */
export function parseTzOffset(tz: string | null | undefined): number | null {
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec((tz ?? '').trim());
  if (!m) return null;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  if (minutes > 14 * 60 || Number(m[3]) >= 60) return null;
  return m[1] === '-' ? -minutes : minutes;
}

/** '+0530' / '-1200' / '+00:00' -> minutes east of UTC; anything else is refused (RangeError). */
export function tzOffsetMinutes(tz: string): number {
  const minutes = parseTzOffset(tz);
  if (minutes === null) throw new RangeError(`time zone must look like +HHMM (at most ±14:00), got ${tz}`);
  return minutes;
}

/** A stored zone, leniently: minutes east of UTC, 0 (UTC) when it is empty or unreadable. */
export function zoneOffsetMinutes(zone: string | null | undefined): number {
  return parseTzOffset(zone) ?? 0;
}

/** Local wall-clock fields of a UTC instant in a fixed-offset zone (the zone has no daylight saving). */
function local(ms: number, offsetMin: number): Date {
  return new Date(ms + offsetMin * 60_000);
}
/** The UTC instant of a local wall-clock time (fields as UTC fields of a Date). */
function fromLocal(y: number, mo: number, d: number, offsetMin: number): number {
  return Date.UTC(y, mo, d) - offsetMin * 60_000;
}

/**
 * The period of `cycle` containing the instant, cut at local midnight of the carrier's zone:
 * daily from 00:00, weekly from Monday 00:00, monthly from the 1st, yearly from 1 January.
 */
export function periodContaining(ms: number, cycle: InvoicingCycle, tz: string): BillingPeriod {
  const off = tzOffsetMinutes(tz);
  const l = local(ms, off);
  const y = l.getUTCFullYear();
  const mo = l.getUTCMonth();
  const d = l.getUTCDate();
  switch (cycle) {
    case 'daily':
      return { start: fromLocal(y, mo, d, off), end: fromLocal(y, mo, d + 1, off) };
    case 'weekly': {
      const sinceMonday = (l.getUTCDay() + 6) % 7;
      return {
        start: fromLocal(y, mo, d - sinceMonday, off),
        end: fromLocal(y, mo, d - sinceMonday + 7, off),
      };
    }
    case 'monthly':
      return { start: fromLocal(y, mo, 1, off), end: fromLocal(y, mo + 1, 1, off) };
    case 'yearly':
      return { start: fromLocal(y, 0, 1, off), end: fromLocal(y + 1, 0, 1, off) };
  }
}

/** The period right after `p` (its end is the next one's start). */
export function nextPeriod(p: BillingPeriod, cycle: InvoicingCycle, tz: string): BillingPeriod {
  return periodContaining(p.end, cycle, tz);
}

/**
 * The periods an automatic invoicing owes: every whole period from the one containing `from` (or,
 * after a run, the one starting at `lastEnd`) whose end plus `generateAtHour` hours is at or before
 * `now`, oldest first, at most `limit` (a long outage catches up over several runs). Each period is
 * invoiced once: callers key invoices by (carrier, period start).
 */
export function periodsDue(opts: {
  cycle: InvoicingCycle;
  tz: string;
  from: number;
  lastEnd: number | null;
  now: number;
  generateAtHour?: number;
  limit?: number;
}): BillingPeriod[] {
  const { cycle, tz, now } = opts;
  const delay = (opts.generateAtHour ?? 0) * HOUR;
  const limit = opts.limit ?? 24;
  let p =
    opts.lastEnd !== null && opts.lastEnd >= opts.from
      ? periodContaining(opts.lastEnd, cycle, tz)
      : periodContaining(opts.from, cycle, tz);
  const out: BillingPeriod[] = [];
  while (p.end + delay <= now && out.length < limit) {
    out.push(p);
    p = nextPeriod(p, cycle, tz);
  }
  return out;
}

/** Due date: the invoice date plus the payment term's grace days. */
export function dueDateOf(invoiceDateMs: number, graceDays: number): number {
  return invoiceDateMs + Math.max(0, graceDays) * DAY;
}

/** The local calendar date (YYYY-MM-DD) of an instant in a zone: how the invoice prints a period. */
export function localDate(ms: number, tz: string): string {
  return local(ms, tzOffsetMinutes(tz)).toISOString().slice(0, 10);
}

/** The UTC instant of local midnight starting a local date (YYYY-MM-DD) in a zone. */
export function localMidnight(date: string, tz: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) throw new RangeError(`date must be YYYY-MM-DD, got ${date}`);
  return fromLocal(Number(m[1]), Number(m[2]) - 1, Number(m[3]), tzOffsetMinutes(tz));
}
