/**
 * Exact money.
 *
 * An amount is a `bigint` count of micro-units (1e-6 of the currency): "0.2875" is 287_500n.
 * No float ever touches an amount. Rounding happens only where a caller asks for it, with a
 * declared number of decimal places (0..6) and one rounding mode:
 *
 *   ROUND HALF UP = half away from zero (as PostgreSQL `round(numeric, n)` and Java's
 *   `RoundingMode.HALF_UP`): 0.125 -> 0.13, -0.125 -> -0.13, 0.124 -> 0.12.
 *
 * Rates are per minute; `chargeForSeconds` turns a per-minute rate and a number of seconds
 * into an amount rounded once, from the exact product (no intermediate rounding).
 */

/** An amount in micro-units (1e-6 of the currency). */
export type Micros = bigint;

/** What configuration may carry for an amount: micro-units, or a decimal string such as "-1.5". */
export type MoneyInput = bigint | string;

export const MONEY_SCALE = 6;
export const MICROS_PER_UNIT = 1_000_000n;

export class MoneyFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MoneyFormatError';
  }
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/** The micro-unit size of one step at `decimals` places: 10^(6 - decimals). */
const STEP: readonly bigint[] = [1_000_000n, 100_000n, 10_000n, 1_000n, 100n, 10n, 1n];

function stepOf(decimals: number): bigint {
  const step = STEP[decimals];
  if (step === undefined || !Number.isInteger(decimals)) {
    throw new RangeError(`decimal places must be an integer 0..6, got ${decimals}`);
  }
  return step;
}

/**
 * Parses a plain decimal string ("12", "0.2875", "-1.5", ".5", "+3.") into micro-units.
 * Surrounding spaces are ignored. Exponents, thousands separators and more than six
 * significant decimals are refused (a rate of "0.0000005" would otherwise be silently changed).
 */
export function parseMoney(text: string): Micros {
  const fast = parsePlainDecimal(text);
  if (fast !== null) return fast;
  const match = DECIMAL.exec(text.trim());
  const whole = match?.[2] ?? '';
  const fraction = match?.[3] ?? '';
  if (!match || (whole === '' && fraction === '')) {
    throw new MoneyFormatError(`not a decimal amount: "${text}"`);
  }
  const significant = fraction.replace(/0+$/, '');
  if (significant.length > MONEY_SCALE) {
    throw new MoneyFormatError(`more than ${MONEY_SCALE} decimal places: "${text}"`);
  }
  const micros = BigInt((whole || '0') + significant.padEnd(MONEY_SCALE, '0'));
  return match[1] === '-' ? -micros : micros;
}

/**
 * Fast path of parseMoney for the usual deck cell ("0.0125", "-3", "12.5"): at most 9 whole
 * digits and 6 decimals, so the micro-unit count stays an exact integer below 2^53 while it is
 * accumulated digit by digit. Returns null for anything else (the general path decides).
 */
function parsePlainDecimal(text: string): Micros | null {
  const length = text.length;
  let i = 0;
  let negative = false;
  if (length > 0 && text.charCodeAt(0) === 45) {
    negative = true;
    i = 1;
  }
  let whole = 0;
  let wholeDigits = 0;
  for (; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) break;
    if (c < 48 || c > 57 || ++wholeDigits > 9) return null;
    whole = whole * 10 + (c - 48);
  }
  if (wholeDigits === 0) return null;
  let fraction = 0;
  let fractionDigits = 0;
  if (i < length) {
    for (i++; i < length; i++) {
      const c = text.charCodeAt(i);
      if (c < 48 || c > 57 || ++fractionDigits > MONEY_SCALE) return null;
      fraction = fraction * 10 + (c - 48);
    }
  }
  const micros = whole * 1_000_000 + fraction * (SCALE_NUMBER[MONEY_SCALE - fractionDigits] as number);
  return BigInt(negative ? -micros : micros);
}

/** Accepts micro-units as they are, or parses a decimal string. */
export function toMicros(value: MoneyInput): Micros {
  return typeof value === 'bigint' ? value : parseMoney(value);
}

/** `numerator / denominator` rounded half away from zero. The denominator must be positive. */
export function divideRoundHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('denominator must be positive');
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  let quotient = magnitude / denominator;
  if ((magnitude % denominator) * 2n >= denominator) quotient += 1n;
  return negative ? -quotient : quotient;
}

/** Rounds an amount half-up to `decimals` places (0..6); the result is still in micro-units. */
export function roundMoney(amount: Micros, decimals: number): Micros {
  const step = stepOf(decimals);
  return step === 1n ? amount : divideRoundHalfUp(amount, step) * step;
}

/** 2^52: below this magnitude integer division in doubles is exact (see formatSmall). */
const EXACT_DOUBLE = 4_503_599_627_370_496;
/** Half of it: the difference of two amounts below this stays below 2^52. */
const HALF_EXACT_DOUBLE = EXACT_DOUBLE / 2;
/** Below this magnitude formatSmall works in 32-bit integers (the usual rate or margin: under 1,000 a minute). */
const INT32_SAFE = 1_000_000_000;
const STEP_NUMBER: readonly number[] = [1_000_000, 100_000, 10_000, 1_000, 100, 10, 1];
const SCALE_NUMBER: readonly number[] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000];
/** digitGroup(n)[v]: v written with exactly n digits (n = 1..4); built on first use. */
const DIGIT_GROUPS: (readonly string[] | undefined)[] = [];
function digitGroup(n: number): readonly string[] {
  return (DIGIT_GROUPS[n] ??= Array.from({ length: 10 ** n }, (_, v) => String(v).padStart(n, '0')));
}

/**
 * Texts of amounts below one unit, kept once made: rates and margins per minute are nearly all
 * below one unit and a rate deck repeats them, so the routing answer's twenty-odd amounts per
 * call mostly cost one array read instead of building a string (a sixth of a decision on the
 * 700,000-code deck). One table per sign and number of decimal places, indexed by the amount in
 * steps of those places ("0.0123" at 4 places is entry 123). Bounded: a table keeps at most
 * KEEP_LIMIT texts and then builds the others each time, so at 6 places it holds at most an
 * 8 MB index and about 3 MB of texts.
 */
const KEEP_LIMIT = 100_000;
interface KeptTexts {
  readonly texts: (string | undefined)[];
  count: number;
}
const KEPT: (KeptTexts | undefined)[] = [];

function belowOne(steps: number, decimals: number, negative: boolean): string {
  const kept = (KEPT[negative ? decimals + 7 : decimals] ??= {
    texts: new Array<string | undefined>(SCALE_NUMBER[decimals] as number),
    count: 0,
  });
  const known = kept.texts[steps];
  if (known !== undefined) return known;
  const text = `${negative ? '-' : ''}0.${String(steps).padStart(decimals, '0')}`;
  if (kept.count < KEEP_LIMIT) {
    kept.texts[steps] = text;
    kept.count++;
  }
  return text;
}

/**
 * Formats an amount with exactly `decimals` places (0..6, default 6), rounding half-up first.
 * formatMoney(287_500n, 4) === "0.2875"; formatMoney(-1_500_000n, 0) === "-2".
 */
export function formatMoney(amount: Micros, decimals: number = MONEY_SCALE): string {
  const step = stepOf(decimals);
  // Number() rounds monotonically, so a double inside +-2^52 means the amount is (and is exact).
  const near = Number(amount);
  if (near < EXACT_DOUBLE && near > -EXACT_DOUBLE) return formatSmall(near, decimals);
  const steps = step === 1n ? amount : divideRoundHalfUp(amount, step);
  const negative = steps < 0n;
  let digits = (negative ? -steps : steps).toString();
  if (decimals > 0) {
    if (digits.length <= decimals) digits = '0'.repeat(decimals - digits.length + 1) + digits;
    const cut = digits.length - decimals;
    digits = `${digits.slice(0, cut)}.${digits.slice(cut)}`;
  }
  return negative ? `-${digits}` : digits;
}

/**
 * The same formatting for |micros| < 2^52 on integer-valued doubles, which is several times
 * faster than bigint division (the routing hot path formats ~20 amounts per call). Only exact
 * integer operations are used: for m < 2^52 and a step <= 1e6, floor(m / step) is exact
 * because the rounding error of the quotient is below 1 / step, and q * step and m - q * step
 * are integers below 2^53. A property test pins it against the bigint path.
 */
function formatSmall(micros: number, decimals: number): string {
  const step = STEP_NUMBER[decimals] as number;
  const negative = micros < 0;
  const magnitude = negative ? -micros : micros;
  let steps: number;
  let whole: number;
  let fraction: number;
  const scale = SCALE_NUMBER[decimals] as number;
  if (magnitude < INT32_SAFE) {
    // The same arithmetic in int32 (x / y | 0 truncates like floor for non-negative x): integer
    // division instead of a double division and a floor, on the routing hot path.
    const m = magnitude | 0;
    steps = ((m + (step >> 1)) / step) | 0; // half up; step is 1 or even
    whole = (steps / scale) | 0;
    fraction = steps - whole * scale;
  } else {
    steps = Math.floor(magnitude / step);
    if ((magnitude - steps * step) * 2 >= step) steps += 1;
    whole = Math.floor(steps / scale);
    fraction = steps - whole * scale;
  }
  if (decimals === 0) return negative && steps !== 0 ? `-${steps}` : String(steps);
  if (whole === 0) return belowOne(fraction, decimals, negative && steps !== 0);
  // Fraction digits from tables of zero-padded groups: at most one string built.
  let text: string;
  if (decimals <= 4) {
    text = `${whole}.${digitGroup(decimals)[fraction]}`;
  } else {
    const high = Math.floor(fraction / 1000);
    text = `${whole}.${digitGroup(decimals - 3)[high]}${digitGroup(3)[fraction - high * 1000]}`;
  }
  return negative ? `-${text}` : text;
}

/**
 * formatMoney for an amount already converted with Number(), when `isExactMicros` holds for it:
 * the routing answer converts the ingress rate once per call and each vendor rate once, and
 * formats both the rate and the margin from those numbers (Number() of a bigint is a runtime call).
 */
export function formatMicros(micros: number, decimals: number): string {
  stepOf(decimals);
  return formatSmall(micros, decimals);
}

/** Whether a Number() of an amount is exact and so is the difference of two such (|n| < 2^51). */
export function isExactMicros(near: number): boolean {
  return near < HALF_EXACT_DOUBLE && near > -HALF_EXACT_DOUBLE;
}

/** formatMoney(a - b, decimals) without allocating the difference when both are small. */
export function formatMoneyDifference(a: Micros, b: Micros, decimals: number): string {
  const x = Number(a);
  const y = Number(b);
  return isExactMicros(x) && isExactMicros(y) ? formatMicros(x - y, decimals) : formatMoney(a - b, decimals);
}

export function addMoney(a: Micros, b: Micros): Micros {
  return a + b;
}

export function subtractMoney(a: Micros, b: Micros): Micros {
  return a - b;
}

export function sumMoney(amounts: Iterable<Micros>): Micros {
  let total = 0n;
  for (const amount of amounts) total += amount;
  return total;
}

/**
 * `amount / divisor` (amount in micro-units, divisor a positive integer), computed exactly and
 * rounded half-up once to `decimals` places.
 */
export function divideMoney(amount: Micros, divisor: bigint, decimals: number): Micros {
  const step = stepOf(decimals);
  return divideRoundHalfUp(amount, divisor * step) * step;
}

/**
 * The charge for `seconds` at a per-minute rate: rate * seconds / 60, computed exactly and
 * rounded half-up once to `decimals` places. `seconds` must be a non-negative integer.
 */
export function chargeForSeconds(ratePerMinute: Micros, seconds: number, decimals: number): Micros {
  if (!Number.isSafeInteger(seconds) || seconds < 0) {
    throw new RangeError(`seconds must be a non-negative integer, got ${seconds}`);
  }
  return divideMoney(ratePerMinute * BigInt(seconds), 60n, decimals);
}

const HUNDRED_PERCENT = 100n * MICROS_PER_UNIT;

/**
 * Profit margin as a fraction of revenue, compared exactly with a minimum percentage:
 * (revenue - cost) / revenue * 100 >= minPercent. Both amounts and the percentage are
 * micro-units (a percentage of "2.5" is 2_500_000n). A revenue of zero has a margin of 0 %
 * when the cost is zero too, and of minus infinity when the cost is positive.
 */
export function meetsMinimumMargin(revenue: Micros, cost: Micros, minPercent: Micros): boolean {
  const ceiling = maximumCost(revenue, minPercent);
  return ceiling !== null && cost <= ceiling;
}

/**
 * The highest cost (in micro-units) that still leaves `minPercent` of `revenue` as margin, or
 * null when no cost does (zero revenue and a positive minimum). Integer costs only, so:
 * (revenue - cost) * 100e6 >= minPercent * revenue  <=>  cost <= floor(revenue * (100e6 - minPercent) / 100e6).
 * Computed once per call, it turns each vendor's check into one comparison.
 */
export function maximumCost(revenue: Micros, minPercent: Micros): Micros | null {
  if (revenue <= 0n) return minPercent <= 0n ? 0n : null;
  const numerator = revenue * (HUNDRED_PERCENT - minPercent);
  // floor division (bigint division truncates toward zero)
  const quotient = numerator / HUNDRED_PERCENT;
  return numerator < 0n && quotient * HUNDRED_PERCENT !== numerator ? quotient - 1n : quotient;
}

/** Margin percentage of revenue, rounded half-up to `decimals` places (for display). */
export function marginPercent(revenue: Micros, cost: Micros, decimals = 2): string | null {
  if (revenue <= 0n) return null;
  const micros = divideRoundHalfUp((revenue - cost) * 100n * MICROS_PER_UNIT, revenue);
  return formatMoney(micros, decimals);
}
