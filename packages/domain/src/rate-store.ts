/**
 * The rate rows of every rate table of a snapshot, in columns indexed by the code deck's row
 * number (code-deck.ts), instead of one object per row.
 *
 * Why: a 700,000-code deck in eleven tables is 7.7 million rows. As objects (with five bigint
 * rates each) that is ~270 bytes a row and millions of objects for the garbage collector to
 * trace; in columns it is ~90 bytes a row in a few typed arrays. And since the deck numbers rows
 * node by node, then table by table, the rates of one code in all tables lie side by side: the
 * ten vendor rates a call compares share one or two cache lines.
 *
 * Money columns are BigInt64Array in micro-units (reading one yields a bigint); a missing rate
 * (no IJ rate, say) is stored as the smallest int64, which no real rate can be. Rows are
 * materialised as RateRow objects only on demand (traces, tools, CDR rating).
 */
import type { DeckRows } from './code-deck';
import type { JurisdictionalRates, RateColumn } from './jurisdiction';
import type { Micros } from './money';
import type { PrefixRow } from './prefix-index';
import { ROWS_PER_STEP, runSteps, type Steps } from './steps';

/** One rate row as the rest of the domain sees it. */
export interface RateRow extends PrefixRow, JurisdictionalRates {
  readonly code: string;
  readonly code_name: string | null;
  readonly country: string | null;
  readonly rate: Micros;
  readonly intra_rate: Micros | null;
  readonly inter_rate: Micros | null;
  readonly ij_rate: Micros | null;
  readonly local_rate: Micros | null;
  readonly min_time: number;
  readonly interval: number;
  readonly grace_time: number;
  readonly setup_fee: Micros;
  readonly effective_date: number | null;
  readonly end_date: number | null;
}

type RateColumns = Pick<
  RateStore,
  | 'code'
  | 'codeName'
  | 'country'
  | 'rate'
  | 'intra'
  | 'inter'
  | 'ij'
  | 'local'
  | 'setupFee'
  | 'minTime'
  | 'interval'
  | 'grace'
  | 'effective'
  | 'end'
>;

/** The columns of `size` rows, a step after each one when they are large (a small store: no pause). */
function* allocateColumns(size: number): Steps<RateColumns> {
  const large = size >= ROWS_PER_STEP;
  const code = new Array<string>(size);
  const codeName = new Array<string | null>(size);
  const country = new Array<string | null>(size);
  if (large) yield;
  const money = (): BigInt64Array => new BigInt64Array(size);
  const rate = money();
  if (large) yield;
  const intra = money();
  if (large) yield;
  const inter = money();
  if (large) yield;
  const ij = money();
  if (large) yield;
  const local = money();
  if (large) yield;
  const setupFee = money();
  if (large) yield;
  const minTime = new Int32Array(size);
  const interval = new Int32Array(size);
  const grace = new Int32Array(size);
  if (large) yield;
  const effective = new Float64Array(size);
  if (large) yield;
  const end = new Float64Array(size);
  return {
    code,
    codeName,
    country,
    rate,
    intra,
    inter,
    ij,
    local,
    setupFee,
    minTime,
    interval,
    grace,
    effective,
    end,
  };
}

const NONE = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export class RateStore {
  readonly code: string[];
  readonly codeName: (string | null)[];
  readonly country: (string | null)[];
  readonly rate: BigInt64Array;
  readonly intra: BigInt64Array;
  readonly inter: BigInt64Array;
  readonly ij: BigInt64Array;
  readonly local: BigInt64Array;
  readonly setupFee: BigInt64Array;
  readonly minTime: Int32Array;
  readonly interval: Int32Array;
  readonly grace: Int32Array;
  /** Epoch ms; NaN = none. */
  readonly effective: Float64Array;
  readonly end: Float64Array;

  /** `columns`: made by allocateSteps; otherwise each column is allocated here. */
  constructor(
    readonly size: number,
    columns?: RateColumns,
  ) {
    const c = columns ?? runSteps(allocateColumns(size));
    this.code = c.code;
    this.codeName = c.codeName;
    this.country = c.country;
    this.rate = c.rate;
    this.intra = c.intra;
    this.inter = c.inter;
    this.ij = c.ij;
    this.local = c.local;
    this.setupFee = c.setupFee;
    this.minTime = c.minTime;
    this.interval = c.interval;
    this.grace = c.grace;
    this.effective = c.effective;
    this.end = c.end;
  }

  /**
   * A store of `size` rows with its columns allocated one per step: 600,000 rows are about 45 MB
   * of typed arrays, which in one go held the server's thread for 35 ms (issue 16).
   */
  static *allocateSteps(size: number): Steps<RateStore> {
    return new RateStore(size, yield* allocateColumns(size));
  }

  /** The marker of a missing rate in a money column. */
  static readonly MISSING: bigint = NONE;

  /** Whether an amount fits a column (int64 micro-units, the missing marker excluded). */
  static fits(amount: Micros): boolean {
    return amount > NONE && amount <= INT64_MAX;
  }

  write(k: number, row: RateRow): void {
    this.code[k] = row.code;
    this.codeName[k] = row.code_name;
    this.country[k] = row.country;
    this.rate[k] = row.rate;
    this.intra[k] = row.intra_rate ?? NONE;
    this.inter[k] = row.inter_rate ?? NONE;
    this.ij[k] = row.ij_rate ?? NONE;
    this.local[k] = row.local_rate ?? NONE;
    this.setupFee[k] = row.setup_fee;
    this.minTime[k] = row.min_time;
    this.interval[k] = row.interval;
    this.grace[k] = row.grace_time;
    this.effective[k] = row.effective_date ?? Number.NaN;
    this.end[k] = row.end_date ?? Number.NaN;
  }

  /** Copies row i of `from` into row k (the strings are shared). */
  copyRow(k: number, from: RateStore, i: number): void {
    this.code[k] = from.code[i] as string;
    this.codeName[k] = from.codeName[i] ?? null;
    this.country[k] = from.country[i] ?? null;
    this.rate[k] = from.rate[i] as bigint;
    this.intra[k] = from.intra[i] as bigint;
    this.inter[k] = from.inter[i] as bigint;
    this.ij[k] = from.ij[i] as bigint;
    this.local[k] = from.local[i] as bigint;
    this.setupFee[k] = from.setupFee[i] as bigint;
    this.minTime[k] = from.minTime[i] as number;
    this.interval[k] = from.interval[i] as number;
    this.grace[k] = from.grace[i] as number;
    this.effective[k] = from.effective[i] as number;
    this.end[k] = from.end[i] as number;
  }

  /** A store of `size` rows holding the first `count` rows of this one (growing a cache). */
  resized(size: number, count: number): RateStore {
    const next = new RateStore(size);
    const n = Math.min(count, size);
    for (let i = 0; i < n; i++) {
      next.code[i] = this.code[i] as string;
      next.codeName[i] = this.codeName[i] ?? null;
      next.country[i] = this.country[i] ?? null;
    }
    next.rate.set(this.rate.subarray(0, n));
    next.intra.set(this.intra.subarray(0, n));
    next.inter.set(this.inter.subarray(0, n));
    next.ij.set(this.ij.subarray(0, n));
    next.local.set(this.local.subarray(0, n));
    next.setupFee.set(this.setupFee.subarray(0, n));
    next.minTime.set(this.minTime.subarray(0, n));
    next.interval.set(this.interval.subarray(0, n));
    next.grace.set(this.grace.subarray(0, n));
    next.effective.set(this.effective.subarray(0, n));
    next.end.set(this.end.subarray(0, n));
    return next;
  }

  /** Rows 0..count-1 as the code deck reads them. */
  deckRows(count: number): DeckRows {
    const { code, effective, end } = this;
    return {
      length: count,
      code: (i) => code[i] as string,
      start: (i) => {
        const at = effective[i] as number;
        return at === at ? at : -Infinity;
      },
      end: (i) => {
        const at = end[i] as number;
        return at === at ? at : Infinity;
      },
    };
  }

  /** The per-minute rate of row k in a column, with the fallbacks of jurisdiction.ts. */
  rateAt(k: number, column: RateColumn): Micros {
    switch (column) {
      case 'rate':
        return this.rate[k] as bigint;
      case 'intra_rate':
        return orElse(this.intra[k] as bigint, this.rate, k);
      case 'inter_rate':
        return orElse(this.inter[k] as bigint, this.rate, k);
      case 'ij_rate':
        return orElse(this.ij[k] as bigint, this.rate, k);
      case 'local_rate': {
        const local = this.local[k] as bigint;
        return local !== NONE ? local : orElse(this.intra[k] as bigint, this.rate, k);
      }
    }
  }

  /** Row k as an object (for traces, tools and rating, not for the routing hot path). */
  row(k: number): RateRow {
    const optional = (value: bigint) => (value === NONE ? null : value);
    const effective = this.effective[k] as number;
    const end = this.end[k] as number;
    return {
      code: this.code[k] as string,
      code_name: this.codeName[k] ?? null,
      country: this.country[k] ?? null,
      rate: this.rate[k] as bigint,
      intra_rate: optional(this.intra[k] as bigint),
      inter_rate: optional(this.inter[k] as bigint),
      ij_rate: optional(this.ij[k] as bigint),
      local_rate: optional(this.local[k] as bigint),
      min_time: this.minTime[k] as number,
      interval: this.interval[k] as number,
      grace_time: this.grace[k] as number,
      setup_fee: this.setupFee[k] as bigint,
      effective_date: Number.isNaN(effective) ? null : effective,
      end_date: Number.isNaN(end) ? null : end,
    };
  }
}

function orElse(value: bigint, fallback: BigInt64Array, k: number): bigint {
  return value !== NONE ? value : (fallback[k] as bigint);
}
