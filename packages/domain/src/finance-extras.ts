import { divideRoundHalfUp, type Micros } from './money';

/**
 * Extra charges and vendor invoices received (docs/billing.md "Extra charges", "Vendor invoices").
 * Pure rules: when a recurring charge falls due, and how a vendor's invoice compares with what the
 * CDRs of the same period say. Money and minutes are exact (micro-units); nothing is a float.
 */

// ---------------------------------------------------------------------------------------------
// Extra charges

export const CHARGE_FREQUENCIES = ['once', 'daily', 'weekly', 'monthly'] as const;
export type ChargeFrequency = (typeof CHARGE_FREQUENCIES)[number];

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
function parts(date: string): [number, number, number] {
  const m = DATE.exec(date);
  if (!m) throw new RangeError(`date must be YYYY-MM-DD, got ${date}`);
  return [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
}
/** YYYY-MM-DD of a calendar date whose month and day may overflow (Date.UTC would map years 0-99 to 19xx). */
function ymd(y: number, mo: number, d: number): string {
  const t = new Date(0);
  t.setUTCFullYear(y, mo, d);
  return t.toISOString().slice(0, 10);
}
const daysIn = (y: number, mo: number) => {
  const t = new Date(0);
  t.setUTCFullYear(y, mo + 1, 0);
  return t.getUTCDate();
};

/**
 * The local date of occurrence `n` (0 = the first) of a charge starting on `start`: once has only
 * occurrence 0; daily and weekly step 1 and 7 days; monthly keeps the start's day of the month,
 * on the month's last day when the month is shorter (31 Jan, 28 Feb, 31 Mar...), never drifting.
 */
export function occurrenceDate(frequency: ChargeFrequency, start: string, n: number): string | null {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`occurrence must be an integer >= 0, got ${n}`);
  const [y, mo, d] = parts(start);
  switch (frequency) {
    case 'once':
      return n === 0 ? start : null;
    case 'daily':
      return ymd(y, mo, d + n);
    case 'weekly':
      return ymd(y, mo, d + 7 * n);
    case 'monthly':
      return ymd(y, mo + n, Math.min(d, daysIn(y, mo + n)));
  }
}

/**
 * The occurrences of a charge that are due: from occurrence `from` (those before were charged) while
 * the date is on or before `today` (the carrier's local date) and on or before `end` (the last
 * date, null: until stopped), at most `limit` (a long pause catches up over several runs).
 */
export function chargesDue(opts: {
  frequency: ChargeFrequency;
  start: string;
  end: string | null;
  from: number;
  today: string;
  limit?: number;
}): { n: number; date: string }[] {
  const limit = opts.limit ?? 400;
  const out: { n: number; date: string }[] = [];
  for (let n = opts.from; out.length < limit; n++) {
    const date = occurrenceDate(opts.frequency, opts.start, n);
    if (date === null || date > opts.today || (opts.end !== null && date > opts.end)) break;
    out.push({ n, date });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Vendor invoices received

/** One of Tandem's summary lines (a destination or a local day) of the vendor's calls. */
export interface OurLine {
  readonly key: string;
  readonly calls: number;
  readonly billed_seconds: number;
  readonly amount: Micros;
}
/** One line of the vendor's invoice as entered: a destination or a date (YYYY-MM-DD). */
export interface TheirLine {
  readonly key: string;
  /** Minutes as the vendor states them (micro-minutes), null when not given. */
  readonly minutes: Micros | null;
  readonly amount: Micros;
}

export interface ComparedLine {
  readonly key: string;
  readonly our_calls: number;
  readonly our_minutes: Micros;
  readonly our_amount: Micros;
  readonly their_minutes: Micros | null;
  readonly their_amount: Micros | null;
  /** Vendor − Tandem; null when one side has no such line (the whole amount is then the gap). */
  readonly amount_difference: Micros;
  readonly minutes_difference: Micros | null;
}

export interface VendorComparison {
  readonly our_calls: number;
  readonly our_minutes: Micros;
  readonly our_amount: Micros;
  readonly their_minutes: Micros | null;
  readonly their_amount: Micros;
  /** Vendor − Tandem: > 0 the vendor bills more than the CDRs say. */
  readonly amount_difference: Micros;
  readonly minutes_difference: Micros | null;
  /** amount_difference / our_amount in percent (micro-percent, 6 places); null when ours is 0. */
  readonly amount_difference_percent: Micros | null;
  readonly by_destination: readonly ComparedLine[];
  readonly by_day: readonly ComparedLine[];
}

/** Billed seconds as minutes, exact to the micro-minute (half up). */
export const minutesOfSeconds = (seconds: number): Micros =>
  divideRoundHalfUp(BigInt(seconds) * 1_000_000n, 60n);

/** A vendor line's key is a day when it is a date, else a destination. */
export const isDayKey = (key: string): boolean => DATE.test(key.trim());

const norm = (k: string) => k.trim().toLowerCase();

function compareLines(ours: readonly OurLine[], theirs: readonly TheirLine[]): ComparedLine[] {
  const byKey = new Map<
    string,
    { our?: OurLine; their?: { key: string; minutes: Micros | null; amount: Micros } }
  >();
  for (const o of ours) byKey.set(norm(o.key), { our: o });
  for (const t of theirs) {
    const k = norm(t.key);
    const e = byKey.get(k) ?? {};
    // The vendor may list a destination more than once (per rate or code): summed.
    const prev = e.their;
    e.their = prev
      ? {
          key: prev.key,
          amount: prev.amount + t.amount,
          minutes: prev.minutes === null || t.minutes === null ? null : prev.minutes + t.minutes,
        }
      : { key: t.key.trim(), minutes: t.minutes, amount: t.amount };
    byKey.set(k, e);
  }
  const out: ComparedLine[] = [];
  for (const e of byKey.values()) {
    const ourMinutes = minutesOfSeconds(e.our?.billed_seconds ?? 0);
    const ourAmount = e.our?.amount ?? 0n;
    const theirAmount = e.their?.amount ?? null;
    const theirMinutes = e.their ? e.their.minutes : null;
    out.push({
      key: e.our?.key ?? e.their?.key ?? '',
      our_calls: e.our?.calls ?? 0,
      our_minutes: ourMinutes,
      our_amount: ourAmount,
      their_minutes: theirMinutes,
      their_amount: theirAmount,
      amount_difference: (theirAmount ?? 0n) - ourAmount,
      minutes_difference: theirMinutes === null ? null : theirMinutes - ourMinutes,
    });
  }
  // Largest gap first: what a finance clerk disputes first.
  return out.sort((a, b) => {
    const da = a.amount_difference < 0n ? -a.amount_difference : a.amount_difference;
    const db = b.amount_difference < 0n ? -b.amount_difference : b.amount_difference;
    return da === db ? a.key.localeCompare(b.key) : da > db ? -1 : 1;
  });
}

/**
 * Compares a vendor's invoice with Tandem's own cost of that vendor for the same period (the CDR
 * summaries): totals, and line by line per destination and per day where the vendor gave lines
 * (a line keyed by a date is a day, any other key a destination, matched case-insensitively).
 * Differences are vendor − Tandem.
 */
export function compareVendorInvoice(input: {
  ours: { destination: readonly OurLine[]; day: readonly OurLine[] };
  their_amount: Micros;
  their_minutes: Micros | null;
  their_lines: readonly TheirLine[];
}): VendorComparison {
  const ourAmount = input.ours.destination.reduce((a, l) => a + l.amount, 0n);
  const ourSeconds = input.ours.destination.reduce((a, l) => a + l.billed_seconds, 0);
  const ourCalls = input.ours.destination.reduce((a, l) => a + l.calls, 0);
  const ourMinutes = minutesOfSeconds(ourSeconds);
  const diff = input.their_amount - ourAmount;
  const days = input.their_lines.filter((l) => isDayKey(l.key));
  const destinations = input.their_lines.filter((l) => !isDayKey(l.key));
  return {
    our_calls: ourCalls,
    our_minutes: ourMinutes,
    our_amount: ourAmount,
    their_minutes: input.their_minutes,
    their_amount: input.their_amount,
    amount_difference: diff,
    minutes_difference: input.their_minutes === null ? null : input.their_minutes - ourMinutes,
    amount_difference_percent:
      ourAmount === 0n
        ? null
        : divideRoundHalfUp(
            (ourAmount < 0n ? -diff : diff) * 100_000_000n,
            ourAmount < 0n ? -ourAmount : ourAmount,
          ),
    by_destination: destinations.length ? compareLines(input.ours.destination, destinations) : [],
    by_day: days.length ? compareLines(input.ours.day, days) : [],
  };
}
