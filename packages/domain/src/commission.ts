import { divideMoney, MICROS_PER_UNIT, type Micros } from './money';
import { DAY_MS } from './traffic-stats';

/**
 * Agent commissions (spec 02, Agent; docs/agents.md): what an agent earns on the traffic of the
 * clients it brought in, per period of its frequency.
 *
 * - **Periods** are UTC and end-exclusive: daily [00:00, next 00:00), weekly from Monday 00:00 (ISO
 *   weeks), monthly from the 1st 00:00. Periods tile time: every instant is in exactly one.
 * - **Base** of a period: by revenue, the sum of the clients' revenue (what they were charged:
 *   ingress cost + short call charge); by profit, that revenue minus the cost of carrying the calls
 *   (vendor cost). The base is over all the agent's clients of the period together, so one client's
 *   loss offsets another's profit in the same period; a period whose base is zero or negative earns
 *   nothing (no claw-back into the next period).
 * - **Amount** = base × percent / 100, rounded **once**, half up (half away from zero) to
 *   COMMISSION_DECIMALS (2) places, from the exact product: no intermediate rounding, no floats.
 * - **Corrections**: a period is computed again while its traffic may still change (late CDRs, a
 *   rerate); what was accrued before is never edited, the difference (due − accrued) is a new row.
 */

export type CommissionMethod = 'profit' | 'revenue';
export type CommissionFrequency = 'daily' | 'weekly' | 'monthly';
export const COMMISSION_FREQUENCIES: readonly CommissionFrequency[] = ['daily', 'weekly', 'monthly'];

/** Decimal places of a commission amount (currency cents). */
export const COMMISSION_DECIMALS = 2;

export interface CommissionPeriod {
  /** Inclusive, UTC. */
  readonly start: Date;
  /** Exclusive, UTC. */
  readonly end: Date;
}

export interface Traffic {
  readonly revenue: Micros;
  readonly cost: Micros;
}

export interface CommissionTerms {
  readonly method: CommissionMethod;
  /** Percent in micro-units: "5" is 5_000_000n (parseMoney of the agent's percent). */
  readonly percent: Micros;
}

export interface Commission {
  readonly base: Micros;
  readonly amount: Micros;
}

/** The period of `frequency` that contains the instant `t`. */
export function periodContaining(frequency: CommissionFrequency, t: Date): CommissionPeriod {
  const day = Math.floor(t.getTime() / DAY_MS) * DAY_MS;
  if (frequency === 'daily') return { start: new Date(day), end: new Date(day + DAY_MS) };
  if (frequency === 'weekly') {
    const weekday = (new Date(day).getUTCDay() + 6) % 7; // Monday 0 .. Sunday 6
    const start = day - weekday * DAY_MS;
    return { start: new Date(start), end: new Date(start + 7 * DAY_MS) };
  }
  const d = new Date(day);
  return {
    start: new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)),
    end: new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)),
  };
}

/** The period right after `p`. */
export function nextPeriod(frequency: CommissionFrequency, p: CommissionPeriod): CommissionPeriod {
  return periodContaining(frequency, p.end);
}

/**
 * The closed periods (ended at or before `now`) from `since` on, oldest first. The first period
 * starts at `since`'s UTC day when that is inside it (an agent whose commission starts on the 15th
 * earns for the 15th to the month's end, not for the whole month). `limit` caps how many (a guard
 * against a `since` far back with daily periods).
 */
export function closedPeriods(
  frequency: CommissionFrequency,
  since: Date,
  now: Date,
  limit = 5000,
): CommissionPeriod[] {
  const sinceDay = new Date(Math.floor(since.getTime() / DAY_MS) * DAY_MS);
  const out: CommissionPeriod[] = [];
  const first = periodContaining(frequency, sinceDay);
  for (let p = { start: sinceDay, end: first.end }; p.end <= now && out.length < limit;) {
    out.push(p);
    p = nextPeriod(frequency, p);
  }
  return out;
}

/** A period's key: its start day, `YYYY-MM-DD` (UTC). */
export function periodKey(p: CommissionPeriod): string {
  return p.start.toISOString().slice(0, 10);
}

/** What the percent applies to: the revenue, or the profit (revenue − cost). */
export function commissionBase(method: CommissionMethod, t: Traffic): Micros {
  return method === 'revenue' ? t.revenue : t.revenue - t.cost;
}

/** The commission of one period's traffic (rounding rule above). */
export function commissionOf(terms: CommissionTerms, t: Traffic): Commission {
  if (terms.percent < 0n) throw new RangeError('commission percent must not be negative');
  const base = commissionBase(terms.method, t);
  if (base <= 0n) return { base, amount: 0n };
  // base (micros) × percent (micros) / 100 / 1e6 is the amount in micros; rounded once to cents.
  const amount = divideMoney(base * terms.percent, 100n * MICROS_PER_UNIT, COMMISSION_DECIMALS);
  return { base, amount };
}

/** Adds traffic figures. */
export function addTraffic(a: Traffic, b: Traffic): Traffic {
  return { revenue: a.revenue + b.revenue, cost: a.cost + b.cost };
}

export const NO_TRAFFIC: Traffic = { revenue: 0n, cost: 0n };

/**
 * Folds traffic at instants (days of the daily summaries, say) into the periods of `frequency`,
 * keyed by periodKey. Rows outside every listed period are still folded into their own period.
 */
export function trafficByPeriod(
  frequency: CommissionFrequency,
  rows: Iterable<Traffic & { readonly at: Date }>,
): Map<string, Traffic> {
  const out = new Map<string, Traffic>();
  for (const r of rows) {
    const key = periodKey(periodContaining(frequency, r.at));
    out.set(key, addTraffic(out.get(key) ?? NO_TRAFFIC, r));
  }
  return out;
}

/** What a period's new computation adds to what was accrued for it before (0: nothing to write). */
export function commissionCorrection(due: Micros, accrued: Micros): Micros {
  return due - accrued;
}
