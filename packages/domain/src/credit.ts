/**
 * Live credit control (DESIGN 6): what a customer's available credit buys at the rate of the call
 * being routed, and the amount a call holds while it is up.
 *
 * Available credit = balance - held - floor, where floor is -allowed credit (prepaid) or -credit
 * limit (postpaid) and `held` is what the customer's calls up hold already. A limited-credit call is
 * admitted only when the available credit buys at least the first billed step at the ingress rate;
 * its maximum duration is then capped at the longest call the credit pays for, and the call holds
 * the cost of that duration until its CDR arrives (or the hold expires). Because every admitted
 * call's hold is subtracted before the next decision, the sum of the holds can never exceed the
 * credit: concurrent calls cannot overspend. A call's length is bounded by its routes' maximum
 * duration, else CREDIT_HORIZON_S, so one call never holds more than that length's cost.
 */
import { billedDuration, callCost } from './rating';

/**
 * Longest call a limited-credit customer is granted when neither its trunk, the vendor's nor the
 * system's maximum call duration sets one: a call holds the cost of its longest possible length,
 * so that length must be bounded (2 hours, a usual class-4 maximum).
 */
export const CREDIT_HORIZON_S = 7200;
import type { LegTerms } from './rating';
import type { Micros } from './money';

/**
 * The longest answered duration (seconds) whose cost at `terms` is at most `available`, on the
 * billing grid (min_time, then steps of interval); null when the call costs nothing whatever its
 * length (rate and setup fee 0); 0 when not even the first billed step is affordable.
 */
export function affordableSeconds(available: Micros, terms: LegTerms): number | null {
  if (terms.rate <= 0n && terms.setup_fee <= 0n) return null;
  if (available <= 0n) return 0;
  const first = terms.min_time > 0 ? terms.min_time : terms.interval;
  if (terms.rate <= 0n) {
    // Only the setup fee: any length or none.
    return callCost(0n, first, terms.setup_fee, terms.decimals) <= available ? null : 0;
  }
  // Upper bound without rounding: rate * s / 60 + setup <= available.
  const bound = ((available - terms.setup_fee) * 60n) / terms.rate;
  if (bound < BigInt(first)) {
    return callCost(terms.rate, first, terms.setup_fee, terms.decimals) <= available ? first : 0;
  }
  // Align down to the grid; half-up rounding may add less than one step of the decimals, so step
  // back while the rounded cost exceeds the credit (at most a few steps).
  const capped = bound > 1_000_000_000n ? 1_000_000_000 : Number(bound);
  let steps = terms.min_time > 0 ? Math.floor((capped - terms.min_time) / terms.interval) : 0;
  let billed =
    terms.min_time > 0
      ? terms.min_time + steps * terms.interval
      : Math.floor(capped / terms.interval) * terms.interval;
  while (billed >= first && callCost(terms.rate, billed, terms.setup_fee, terms.decimals) > available) {
    billed -= terms.interval;
    steps--;
  }
  return billed >= first ? billed : 0;
}

/** What a call of at most `maxSeconds` holds at `terms` (its cost if it lasts that long). */
export function holdFor(maxSeconds: number, terms: LegTerms): Micros {
  if (maxSeconds <= 0) return 0n;
  const billed = billedDuration(maxSeconds, { ...terms, grace_time: 0 });
  return callCost(terms.rate, billed, terms.setup_fee, terms.decimals);
}
