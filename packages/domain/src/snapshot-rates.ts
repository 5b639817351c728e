/**
 * Building the snapshot's rates: every rate table's rows parsed into one code deck and its rate
 * columns (code-deck.ts, rate-store.ts).
 */
import { CodeDeck, deckRowsOf } from './code-deck';
import { toMicros } from './money';
import type { Micros, MoneyInput } from './money';
import { PrefixCodeError } from './prefix-index';
import { RateStore } from './rate-store';
import type { RateRow } from './rate-store';
import { SnapshotError } from './snapshot-types';
import type { Steps } from './steps';
import type { SnapshotRateTable } from './snapshot-types';
import type { RateRowConfig, RateTableConfig } from './config';

/**
 * Parses money fields, sharing one bigint per distinct text: decks repeat the same few rate
 * strings many times. The memo holds at most 50,000 texts, and is dropped when it stops
 * paying (a deck of all-distinct rates would only pay for hashing).
 */
export class MoneyReader {
  private memo: Map<string, Micros> | null = new Map();
  private hits = 0;
  private misses = 0;

  /** Parses; throws MoneyFormatError on a malformed text. */
  read(value: MoneyInput): Micros {
    if (typeof value === 'bigint') return value;
    const memo = this.memo;
    let micros = memo?.get(value);
    if (micros !== undefined) {
      this.hits++;
      return micros;
    }
    micros = toMicros(value);
    if (memo !== null) {
      this.misses++;
      if (memo.size < 50_000) memo.set(value, micros);
      else if (this.hits < this.misses) this.memo = null;
    }
    return micros;
  }

  /** Parses a named field; a malformed text becomes a SnapshotError naming it. */
  field(value: MoneyInput, field: string): Micros {
    try {
      return this.read(value);
    } catch (error) {
      throw new SnapshotError(field, (error as Error).message);
    }
  }

  optional(value: MoneyInput | null | undefined, field: string): Micros | null {
    return value == null || value === '' ? null : this.field(value, field);
  }
}

/**
 * A rate table of the snapshot. A class, so every table has one hidden class: the hot path reads
 * `slot`, `type` and `decimals` of eleven tables per call, and objects spread from a head with a
 * closure added each got their own map, which made those reads megamorphic (about 5 % of a
 * decision on the 700,000-code deck).
 */
export class RateTableView implements SnapshotRateTable {
  readonly rate_table_id: number;
  readonly name: string;
  readonly type: RateTableConfig['type'];
  readonly decimals: number;
  readonly require_local_rate: boolean;
  readonly slot: number;
  readonly row_count: number;
  private deck: CodeDeck | null = null;
  private store: RateStore | null = null;

  /** Checks the table's settings; the rows come with `attach`. */
  constructor(config: RateTableConfig, at: string, slot: number) {
    const decimals = config.decimal_places;
    if (!Number.isInteger(decimals) || decimals < 0 || decimals > 6) {
      throw new SnapshotError(`${at}.decimal_places`, `must be 0..6, got ${decimals}`);
    }
    this.rate_table_id = config.rate_table_id;
    this.name = config.name ?? `#${config.rate_table_id}`;
    this.type = config.type;
    this.decimals = decimals;
    this.require_local_rate = config.require_local_rate ?? false;
    this.slot = slot;
    this.row_count = config.columns?.count ?? config.rows.length;
  }

  /** The snapshot's code deck and rate columns, where this table's rows are. */
  attach(deck: CodeDeck, store: RateStore): this {
    this.deck = deck;
    this.store = store;
    return this;
  }

  lookup(number: string, atMs: number): RateRow | undefined {
    const k = (this.deck as CodeDeck).lookup(this.slot, number, atMs);
    return k < 0 ? undefined : (this.store as RateStore).row(k);
  }
}

/**
 * Parses one config row and writes it into the store at deck row k. No temporary objects or
 * strings per row (7.7 million rows is a real size): the field path of an error is only put
 * together when there is an error.
 */
export function writeRateRow(
  store: RateStore,
  k: number,
  r: RateRowConfig,
  t: number,
  i: number,
  money: MoneyReader,
): void {
  const problem = writeRateRowChecked(store, k, r, money);
  if (problem !== null) {
    throw new SnapshotError(`rate_tables[${t}].rows[${i}].${problem.field}`, problem.message);
  }
}

/** writeRateRow without a place in a config: the problem (field and message) or null. Row k may be partly written on a problem. */
export function writeRateRowChecked(
  store: RateStore,
  k: number,
  r: RateRowConfig,
  money: MoneyReader,
): { field: string; message: string } | null {
  let field = 'end_date';
  try {
    if (r.effective_date != null && r.end_date != null && r.end_date <= r.effective_date) {
      throw new RangeError('effective date must be less than end date');
    }
    store.code[k] = r.code;
    store.codeName[k] = r.code_name ?? null;
    store.country[k] = r.country ?? null;
    field = 'rate';
    store.rate[k] = inRange(money.read(r.rate));
    field = 'intra_rate';
    store.intra[k] = optionalRate(r.intra_rate, money);
    field = 'inter_rate';
    store.inter[k] = optionalRate(r.inter_rate, money);
    field = 'ij_rate';
    store.ij[k] = optionalRate(r.ij_rate, money);
    field = 'local_rate';
    store.local[k] = optionalRate(r.local_rate, money);
    field = 'setup_fee';
    store.setupFee[k] = r.setup_fee == null || r.setup_fee === '' ? 0n : inRange(money.read(r.setup_fee));
    field = 'min_time';
    store.minTime[k] = seconds(r.min_time, 1, 0);
    field = 'interval';
    store.interval[k] = seconds(r.interval, 1, 1);
    field = 'grace_time';
    store.grace[k] = seconds(r.grace_time, 0, 0);
    store.effective[k] = r.effective_date ?? Number.NaN;
    store.end[k] = r.end_date ?? Number.NaN;
    return null;
  } catch (error) {
    return { field, message: (error as Error).message };
  }
}

function inRange(amount: Micros): Micros {
  if (!RateStore.fits(amount)) throw new RangeError('amount out of range');
  return amount;
}

function optionalRate(value: MoneyInput | null | undefined, money: MoneyReader): Micros {
  return value == null || value === '' ? RateStore.MISSING : inRange(money.read(value));
}

function seconds(value: number | null | undefined, fallback: number, min: number): number {
  const result = value ?? fallback;
  if (!Number.isSafeInteger(result) || result < min || result > 2_147_483_647) {
    throw new RangeError(`must be an integer >= ${min}, got ${result}`);
  }
  return result;
}

/** All rate tables in one code deck, their rows written into the store in deck order (as steps, steps.ts). */
export function* buildCodeDeckSteps(
  tables: readonly RateTableConfig[],
  money: MoneyReader,
): Steps<{ deck: CodeDeck; store: RateStore }> {
  let total = 0;
  tables.forEach((table, t) => {
    const invalid = table.columns?.invalid;
    if (invalid) {
      throw new SnapshotError(
        `rate_tables[${t}].rows[code ${invalid.code}].${invalid.field}`,
        invalid.message,
      );
    }
    total += table.columns?.count ?? table.rows.length;
  });
  const store = yield* RateStore.allocateSteps(total);
  try {
    const deck = yield* CodeDeck.buildSteps(
      tables.map((t) => (t.columns ? t.columns.store.deckRows(t.columns.count) : deckRowsOf(t.rows))),
      (t, i, k) => {
        const table = tables[t] as RateTableConfig;
        if (table.columns) store.copyRow(k, table.columns.store, i);
        else writeRateRow(store, k, table.rows[i] as RateRowConfig, t, i, money);
      },
    );
    return { deck, store };
  } catch (error) {
    if (!(error instanceof PrefixCodeError)) throw error;
    const codesOf = (table: RateTableConfig): readonly string[] =>
      table.columns ? table.columns.store.code.slice(0, table.columns.count) : table.rows.map((r) => r.code);
    const t = tables.findIndex((table) => codesOf(table).includes(error.code));
    const r = t < 0 ? -1 : codesOf(tables[t] as RateTableConfig).indexOf(error.code);
    throw new SnapshotError(`rate_tables[${t}].rows[${r}].code`, error.message);
  }
}
