/**
 * Rating of one call leg (DESIGN 5.6).
 *
 * Billed duration, from the answered duration d in seconds (fractions allowed):
 *   - 0 when the call was not answered (d = 0) or d <= grace_time;
 *   - min_time when d <= min_time;
 *   - otherwise min_time + ceil((d - min_time) / interval) * interval.
 * In a deck "30/6" means min_time 30 ("First Interval") and interval 6 ("Sub Interval").
 *
 * Cost = setup_fee + rate * billed_seconds / 60, computed exactly and rounded half-up once to
 * the rate table's decimal places. A call with billed duration 0 costs nothing (no setup fee).
 *
 * The revenue of a call is the ingress leg's cost, its cost the egress leg's; profit = revenue - cost.
 */
import { divideMoney } from './money';
import type { Micros } from './money';

export interface BillingIncrements {
  /** Minimum billed seconds ("first interval"), integer >= 0. */
  readonly min_time: number;
  /** Billing increment after the minimum ("sub interval"), integer >= 1. */
  readonly interval: number;
  /** Calls up to this many seconds are free, integer >= 0. */
  readonly grace_time: number;
}

export class BillingTermsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BillingTermsError';
  }
}

function checkIncrements(terms: BillingIncrements): void {
  const { min_time, interval, grace_time } = terms;
  if (!Number.isSafeInteger(min_time) || min_time < 0) {
    throw new BillingTermsError(`min_time must be an integer >= 0, got ${min_time}`);
  }
  if (!Number.isSafeInteger(interval) || interval < 1) {
    throw new BillingTermsError(`interval must be an integer >= 1, got ${interval}`);
  }
  if (!Number.isSafeInteger(grace_time) || grace_time < 0) {
    throw new BillingTermsError(`grace_time must be an integer >= 0, got ${grace_time}`);
  }
}

/** Billed seconds of an answered duration (seconds, may be fractional; 0 = unanswered). */
export function billedDuration(durationSeconds: number, terms: BillingIncrements): number {
  checkIncrements(terms);
  if (!Number.isFinite(durationSeconds) || durationSeconds < 0) {
    throw new BillingTermsError(`duration must be a finite number >= 0, got ${durationSeconds}`);
  }
  if (durationSeconds === 0 || durationSeconds <= terms.grace_time) return 0;
  if (durationSeconds <= terms.min_time) return terms.min_time;
  return terms.min_time + Math.ceil((durationSeconds - terms.min_time) / terms.interval) * terms.interval;
}

/** setup_fee + rate * billedSeconds / 60, rounded half-up once to `decimals`; 0 when nothing is billed. */
export function callCost(
  ratePerMinute: Micros,
  billedSeconds: number,
  setupFee: Micros,
  decimals: number,
): Micros {
  if (billedSeconds === 0) return 0n;
  if (!Number.isSafeInteger(billedSeconds) || billedSeconds < 0) {
    throw new BillingTermsError(`billed seconds must be an integer >= 0, got ${billedSeconds}`);
  }
  return divideMoney(ratePerMinute * BigInt(billedSeconds) + setupFee * 60n, 60n, decimals);
}

export interface LegTerms extends BillingIncrements {
  /** Per-minute rate chosen for the call (after jurisdiction). */
  readonly rate: Micros;
  readonly setup_fee: Micros;
  /** Decimal places of the rate table (0..6). */
  readonly decimals: number;
}

export interface RatedLeg {
  readonly billed_seconds: number;
  readonly cost: Micros;
}

export function rateLeg(durationSeconds: number, terms: LegTerms): RatedLeg {
  const billed = billedDuration(durationSeconds, terms);
  return { billed_seconds: billed, cost: callCost(terms.rate, billed, terms.setup_fee, terms.decimals) };
}

export interface RatedCall {
  readonly ingress: RatedLeg;
  readonly egress: RatedLeg | null;
  /** What the customer pays (ingress leg cost). */
  readonly revenue: Micros;
  /** What the vendor is paid (egress leg cost; 0 without an egress leg). */
  readonly cost: Micros;
  readonly profit: Micros;
}

/** Rates both legs of a CDR: revenue from the ingress terms, cost from the egress terms. */
export function rateCall(durationSeconds: number, ingress: LegTerms, egress: LegTerms | null): RatedCall {
  const ingressLeg = rateLeg(durationSeconds, ingress);
  const egressLeg = egress ? rateLeg(durationSeconds, egress) : null;
  const revenue = ingressLeg.cost;
  const cost = egressLeg?.cost ?? 0n;
  return { ingress: ingressLeg, egress: egressLeg, revenue, cost, profit: revenue - cost };
}
