/**
 * US jurisdiction of a call and the rate column it selects.
 *
 * Numbers are North American (NANP) numbers, given as 1NPANXXXXXX or NPANXXXXXX (digits only).
 * NPA and NXX both start with 2..9. The jurisdiction data maps the 6-digit NPA-NXX to its state
 * (and LATA, and country when known; no country means US).
 *
 * Classification of a call from ANI to the terminating number (DNIS, or LRN when billing by LRN):
 *   - indeterminate: the ANI is not a valid NANP number, its NPA-NXX is unknown, or it is not in
 *     the US; also when the terminating number is invalid or unknown (its state cannot be told);
 *   - local: both NPA-NXX known, both LATAs known and equal, and the rate table requires a local
 *     rate (`require_local_rate`); without that flag a same-LATA call is simply intra or inter;
 *   - intra: both in the same state (intrastate);
 *   - inter: different states (interstate).
 *
 * Rate column by rate table type:
 *   - 'a_z' and 'us_non_jurisdictional': always `rate` (no jurisdiction is computed);
 *   - 'us_jurisdictional': intra -> intra_rate, inter -> inter_rate, local -> local_rate,
 *     indeterminate -> by the system's default IJ rule: 'inter' -> inter_rate,
 *     'intra' -> intra_rate, 'ij' -> ij_rate.
 * A row without the selected column falls back: local_rate -> intra_rate -> rate; the others -> rate.
 */
import type { Micros } from './money';

export interface NpaNxxInfo {
  readonly state: string;
  readonly lata?: string | null;
  /** ISO country; missing or null means US. */
  readonly country?: string | null;
}

/** 6-digit NPA-NXX -> state and LATA. */
export type JurisdictionData = ReadonlyMap<string, NpaNxxInfo> | Readonly<Record<string, NpaNxxInfo>>;

export type Jurisdiction = 'intra' | 'inter' | 'local' | 'indeterminate';
export type RateTableType = 'a_z' | 'us_jurisdictional' | 'us_non_jurisdictional';
/** What an indeterminate call is charged: the inter rate, the intra rate or the IJ rate. */
export type DefaultIjRule = 'inter' | 'intra' | 'ij';
export type RateColumn = 'rate' | 'intra_rate' | 'inter_rate' | 'ij_rate' | 'local_rate';

export interface JurisdictionalRates {
  readonly rate: Micros;
  readonly intra_rate?: Micros | null;
  readonly inter_rate?: Micros | null;
  readonly ij_rate?: Micros | null;
  readonly local_rate?: Micros | null;
}

const NPA_NXX_SPACE = 1_000_000;

/**
 * Offset of the NPA in a NANP number (0 for NPANXXXXXX, 1 for 1NPANXXXXXX), or -1 when the
 * number is not a valid NANP number.
 */
export function nanpOffset(number: string): number {
  let offset: number;
  if (number.length === 10) offset = 0;
  else if (number.length === 11 && number.charCodeAt(0) === 49) offset = 1;
  else return -1;
  for (let i = offset; i < number.length; i++) {
    const c = number.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
  }
  const npaFirst = number.charCodeAt(offset);
  const nxxFirst = number.charCodeAt(offset + 3);
  return npaFirst >= 50 && nxxFirst >= 50 ? offset : -1;
}

/** The 10-digit form NPANXXXXXX of a NANP number, or null. */
export function nanpTenDigits(number: string): string | null {
  const offset = nanpOffset(number);
  return offset < 0 ? null : number.slice(offset);
}

/**
 * Jurisdiction data indexed by the NPA-NXX as an integer. For `classify` (once per call on the
 * hot path) each NPA-NXX is packed into one int: state number << 16 | LATA number (both
 * numbered from 1 at build; LATA 0 = unknown), -1 for a number outside the US, 0 for unknown,
 * so classifying reads two ints and touches no object.
 */
export class JurisdictionIndex {
  private constructor(
    private readonly packed: Int32Array,
    private readonly slots: Int32Array,
    private readonly infos: readonly NpaNxxInfo[],
    readonly size: number,
  ) {}

  static build(data: JurisdictionData): JurisdictionIndex {
    const entries: Iterable<[string, NpaNxxInfo]> =
      data instanceof Map ? data.entries() : Object.entries(data as Readonly<Record<string, NpaNxxInfo>>);
    const slots = new Int32Array(NPA_NXX_SPACE);
    const packed = new Int32Array(NPA_NXX_SPACE);
    const infos: NpaNxxInfo[] = [];
    const states = new Map<string, number>();
    const latas = new Map<string, number>();
    const numberOf = (names: Map<string, number>, name: string, limit: number): number => {
      let id = names.get(name);
      if (id === undefined) {
        id = names.size + 1;
        if (id > limit) throw new RangeError(`more than ${limit} distinct states or LATAs`);
        names.set(name, id);
      }
      return id;
    };
    for (const [npaNxx, info] of entries) {
      if (!/^[2-9]\d{2}[2-9]\d{2}$/.test(npaNxx)) {
        throw new RangeError(`NPA-NXX must be 6 digits (NPA and NXX starting 2-9), got "${npaNxx}"`);
      }
      const key = Number(npaNxx);
      const slot = slots[key] as number;
      if (slot === 0) {
        infos.push(info);
        slots[key] = infos.length;
      } else {
        infos[slot - 1] = info; // a later entry for the same NPA-NXX replaces the earlier one
      }
      packed[key] = isUs(info)
        ? (numberOf(states, info.state, 0x7fff) << 16) | (info.lata ? numberOf(latas, info.lata, 0xffff) : 0)
        : -1;
    }
    return new JurisdictionIndex(packed, slots, infos, infos.length);
  }

  /** State, LATA and country of a NANP number's NPA-NXX, or undefined. */
  lookup(number: string): NpaNxxInfo | undefined {
    const key = npaNxxKey(number);
    const slot = key < 0 ? 0 : (this.slots[key] as number);
    return slot === 0 ? undefined : this.infos[slot - 1];
  }

  /** Jurisdiction of a call from `ani` to `terminating` (DNIS or LRN); see the module comment. */
  classify(ani: string, terminating: string, requireLocalRate: boolean): Jurisdiction {
    const fromKey = npaNxxKey(ani);
    const toKey = npaNxxKey(terminating);
    if (fromKey < 0 || toKey < 0) return 'indeterminate';
    const from = this.packed[fromKey] as number;
    const to = this.packed[toKey] as number;
    if (from <= 0 || to <= 0) return 'indeterminate'; // unknown (0) or outside the US (-1)
    const lata = from & 0xffff;
    if (requireLocalRate && lata !== 0 && lata === (to & 0xffff)) return 'local';
    return from >>> 16 === to >>> 16 ? 'intra' : 'inter';
  }
}

/** The NPA-NXX of a NANP number as an integer (e.g. 212555), or -1. */
function npaNxxKey(number: string): number {
  const offset = nanpOffset(number);
  if (offset < 0) return -1;
  let key = 0;
  for (let i = offset; i < offset + 6; i++) key = key * 10 + number.charCodeAt(i) - 48;
  return key;
}

function isUs(info: NpaNxxInfo): boolean {
  return info.country == null || info.country === 'US';
}

/** The rate column a call uses; non-jurisdictional tables always use `rate`. */
export function rateColumnFor(
  tableType: RateTableType,
  jurisdiction: Jurisdiction | null,
  ijRule: DefaultIjRule,
): RateColumn {
  if (tableType !== 'us_jurisdictional' || jurisdiction === null) return 'rate';
  switch (jurisdiction) {
    case 'intra':
      return 'intra_rate';
    case 'inter':
      return 'inter_rate';
    case 'local':
      return 'local_rate';
    case 'indeterminate':
      return ijRule === 'ij' ? 'ij_rate' : ijRule === 'intra' ? 'intra_rate' : 'inter_rate';
  }
}

/**
 * Where a column's rate comes from when the row leaves it empty, in order: the rule behind
 * rateInColumn and RateStore.rateAt (which spell it out as switches for speed; a unit test holds
 * them to this list) and behind SQL that prices a column (the rate generation analysis).
 */
export const RATE_COLUMN_FALLBACK: Readonly<Record<RateColumn, readonly RateColumn[]>> = {
  rate: ['rate'],
  intra_rate: ['intra_rate', 'rate'],
  inter_rate: ['inter_rate', 'rate'],
  ij_rate: ['ij_rate', 'rate'],
  local_rate: ['local_rate', 'intra_rate', 'rate'],
};

/** The per-minute rate of a row in a column, with the documented fallbacks. */
export function rateInColumn(row: JurisdictionalRates, column: RateColumn): Micros {
  // A switch of plain property reads: `row[column]` would be a slow generic keyed load.
  switch (column) {
    case 'rate':
      return row.rate;
    case 'intra_rate':
      return row.intra_rate ?? row.rate;
    case 'inter_rate':
      return row.inter_rate ?? row.rate;
    case 'ij_rate':
      return row.ij_rate ?? row.rate;
    case 'local_rate':
      return row.local_rate ?? row.intra_rate ?? row.rate;
  }
}
