/**
 * Rate generation: a sell rate deck computed from vendor costs.
 *
 * For each code (of the template's code deck, or else every code the vendors price), each selected
 * vendor's cost is its rate table's row for the code by longest-prefix match, effective at the
 * generation instant (prefix-index.ts). The LCR basis picks the cost the sell rate is built on:
 *
 *   - lcr1, lcr2, lcr3: the lowest, 2nd lowest or 3rd lowest vendor cost; when fewer vendors price
 *     the code, the highest of those that do (the deepest fallback the route can reach);
 *   - average: the average of the N lowest costs (of all when fewer vendors price the code).
 *
 * Ties between vendors are broken by the order of the vendors given (the template's trunk order).
 * The margin rule is the one of the rate range [from, to) the cost falls into (to null = open);
 * its markup is a percentage of the cost or a fixed amount added to it. A cost outside every range
 * is sold at cost (the detail row says no margin applied). Codes no vendor prices get the default
 * rate when there is one (no margin: it is a sell rate), and are left out otherwise.
 *
 * US jurisdictional templates price each column (rate, intra, inter, IJ, local) on its own, from
 * the vendors' same column with the fallbacks of jurisdiction.ts (local -> intra -> rate, others ->
 * rate); the other types price the `rate` column only.
 *
 * Money is exact: the average and the markup are computed on exact fractions and rounded once,
 * half up, to the template's decimal places.
 */
import { rateInColumn } from './jurisdiction';
import type { JurisdictionalRates, RateColumn, RateTableType } from './jurisdiction';
import { MICROS_PER_UNIT, divideRoundHalfUp, roundMoney, toMicros } from './money';
import type { Micros, MoneyInput } from './money';
import { PrefixIndex } from './prefix-index';
import type { RateRowConfig } from './config';

export const LCR_BASES = ['lcr1', 'lcr2', 'lcr3', 'average'] as const;
export type LcrBasis = (typeof LCR_BASES)[number];
export const MARKUP_TYPES = ['percentage', 'fixed'] as const;
export type MarkupType = (typeof MARKUP_TYPES)[number];

export interface MarginRange {
  readonly rate_from: MoneyInput;
  /** Exclusive; null = no upper bound. */
  readonly rate_to: MoneyInput | null;
  readonly markup_type: MarkupType;
  /** Percent of the cost ('10' = 10 %) or an amount per minute. */
  readonly markup: MoneyInput;
}

export interface RateGenRule {
  readonly rate_table_type: RateTableType;
  readonly lcr_basis: LcrBasis;
  /** N of 'average' (the N lowest costs). */
  readonly average_count: number;
  readonly default_rate: MoneyInput | null;
  readonly decimal_places: number;
  readonly margins: readonly MarginRange[];
}

/** A vendor rate row: the engine's rate row config without the billing increments (rate generation prices by rate only). */
export type VendorRate = Omit<RateRowConfig, 'min_time' | 'interval' | 'grace_time' | 'setup_fee'>;

export interface RateGenVendor {
  /** The egress trunk. */
  readonly trunk_id: number;
  readonly rows: readonly VendorRate[];
}

export interface RateGenCode {
  readonly code: string;
  readonly code_name?: string | null;
  readonly country?: string | null;
}

/** What one column's price was built from. */
export interface ColumnPrice {
  readonly rate: Micros;
  /** The cost the rate was built on (the average to 6 places for 'average'); null for the default rate. */
  readonly cost: Micros | null;
  /** The vendor of the cost (for 'average', the lowest of those averaged); null for the default rate. */
  readonly trunk_id: number | null;
  /** Index of the margin range applied, or null (default rate, or a cost outside every range). */
  readonly margin_index: number | null;
  /** Vendors that priced the code in this column. */
  readonly vendor_count: number;
}

export interface GeneratedRate {
  readonly code: string;
  readonly code_name: string;
  readonly country: string;
  readonly source: 'vendor' | 'default';
  readonly rate: ColumnPrice;
  /** US jurisdictional templates only (null otherwise). */
  readonly intra_rate: ColumnPrice | null;
  readonly inter_rate: ColumnPrice | null;
  readonly ij_rate: ColumnPrice | null;
  readonly local_rate: ColumnPrice | null;
}

export class RateGenRuleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RateGenRuleError';
  }
}

const HUNDRED_PERCENT = 100n * MICROS_PER_UNIT;
const JURISDICTIONAL: readonly RateColumn[] = ['intra_rate', 'inter_rate', 'ij_rate', 'local_rate'];

interface Range {
  from: Micros;
  to: Micros | null;
  type: MarkupType;
  markup: Micros;
}
interface Cost {
  cost: Micros;
  trunk: number;
  order: number;
}
type Row = Omit<JurisdictionalRates, 'rate'> & {
  code: string;
  code_name: string | null;
  country: string | null;
  rate: Micros;
  effective_date: number | null;
  end_date: number | null;
};

/**
 * Generates the rates of `codes` (null: the codes the vendors have rows for at `atMs`) from the
 * vendors' rates effective at `atMs`. Codes come out sorted, each once.
 */
export function generateRates(
  rule: RateGenRule,
  vendors: readonly RateGenVendor[],
  codes: readonly RateGenCode[] | null,
  atMs: number,
): GeneratedRate[] {
  const ranges = checkRule(rule);
  const defaultRate =
    rule.default_rate === null ? null : roundMoney(toMicros(rule.default_rate), rule.decimal_places);
  const rows = vendors.map((v) => v.rows.map(toRow));
  const indexes = rows.map((r) => PrefixIndex.build(r));
  const list = codes ?? vendorCodes(rows, atMs);
  const seen = new Set<string>();
  const columns: readonly RateColumn[] =
    rule.rate_table_type === 'us_jurisdictional' ? ['rate', ...JURISDICTIONAL] : ['rate'];
  const out: GeneratedRate[] = [];
  for (const entry of [...list].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))) {
    if (seen.has(entry.code)) continue;
    seen.add(entry.code);
    const matched: { row: Row; trunk: number; order: number }[] = [];
    indexes.forEach((index, order) => {
      const row = index.lookup(entry.code, atMs);
      if (row) matched.push({ row, trunk: (vendors[order] as RateGenVendor).trunk_id, order });
    });
    const exact = matched.find((m) => m.row.code === entry.code)?.row ?? matched[0]?.row;
    const code_name = entry.code_name || exact?.code_name || '';
    const country = entry.country || exact?.country || '';
    if (matched.length === 0) {
      if (defaultRate === null) continue;
      const price: ColumnPrice = {
        rate: defaultRate,
        cost: null,
        trunk_id: null,
        margin_index: null,
        vendor_count: 0,
      };
      const jur = columns.length > 1 ? price : null;
      out.push({
        code: entry.code,
        code_name,
        country,
        source: 'default',
        rate: price,
        intra_rate: jur,
        inter_rate: jur,
        ij_rate: jur,
        local_rate: jur,
      });
      continue;
    }
    const priced = columns.map((column) =>
      priceColumn(
        rule,
        ranges,
        matched.map((m) => ({ cost: rateInColumn(m.row, column), trunk: m.trunk, order: m.order })),
      ),
    );
    const [rate, intra = null, inter = null, ij = null, local = null] = priced;
    out.push({
      code: entry.code,
      code_name,
      country,
      source: 'vendor',
      rate: rate as ColumnPrice,
      intra_rate: intra,
      inter_rate: inter,
      ij_rate: ij,
      local_rate: local,
    });
  }
  return out;
}

/** The sell price of one column from the vendors' costs in it (at least one). */
function priceColumn(rule: RateGenRule, ranges: readonly Range[], costs: Cost[]): ColumnPrice {
  costs.sort((a, b) => (a.cost < b.cost ? -1 : a.cost > b.cost ? 1 : a.order - b.order));
  let sum: Micros;
  let count: bigint;
  let basis: Cost;
  if (rule.lcr_basis === 'average') {
    const taken = costs.slice(0, Math.max(1, rule.average_count));
    sum = taken.reduce((n, c) => n + c.cost, 0n);
    count = BigInt(taken.length);
    basis = taken[0] as Cost;
  } else {
    const position = rule.lcr_basis === 'lcr1' ? 0 : rule.lcr_basis === 'lcr2' ? 1 : 2;
    basis = costs[Math.min(position, costs.length - 1)] as Cost;
    sum = basis.cost;
    count = 1n;
  }
  // The cost is sum / count exactly; the range test and the markup work on that fraction.
  const index = ranges.findIndex((r) => sum >= r.from * count && (r.to === null || sum < r.to * count));
  const range = index < 0 ? null : (ranges[index] as Range);
  let numerator: bigint;
  let denominator: bigint;
  if (range === null) {
    numerator = sum;
    denominator = count;
  } else if (range.type === 'percentage') {
    numerator = sum * (HUNDRED_PERCENT + range.markup);
    denominator = count * HUNDRED_PERCENT;
  } else {
    numerator = sum + range.markup * count;
    denominator = count;
  }
  const step = 10n ** BigInt(6 - rule.decimal_places);
  return {
    rate: divideRoundHalfUp(numerator, denominator * step) * step,
    cost: divideRoundHalfUp(sum, count),
    trunk_id: basis.trunk,
    margin_index: index < 0 ? null : index,
    vendor_count: costs.length,
  };
}

/** The ranges in micro-units; refuses a rule the contract would refuse too (a pure caller's guard). */
function checkRule(rule: RateGenRule): Range[] {
  if (!Number.isInteger(rule.decimal_places) || rule.decimal_places < 0 || rule.decimal_places > 6)
    throw new RateGenRuleError(`decimal places must be 0..6, got ${rule.decimal_places}`);
  if (rule.lcr_basis === 'average' && (!Number.isInteger(rule.average_count) || rule.average_count < 1))
    throw new RateGenRuleError(`average count must be a positive integer, got ${rule.average_count}`);
  const ranges = rule.margins.map((m) => ({
    from: toMicros(m.rate_from),
    to: m.rate_to === null ? null : toMicros(m.rate_to),
    type: m.markup_type,
    markup: toMicros(m.markup),
  }));
  const sorted = [...ranges].sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  for (let i = 0; i < sorted.length; i++) {
    const r = sorted[i] as Range;
    if (r.to !== null && r.to <= r.from) throw new RateGenRuleError('a rate range must end after it starts');
    const next = sorted[i + 1];
    if (next && (r.to === null || next.from < r.to)) throw new RateGenRuleError('rate ranges overlap');
  }
  return ranges;
}

/** Every code with a row effective at `atMs` in any vendor table. */
function vendorCodes(tables: readonly (readonly Row[])[], atMs: number): RateGenCode[] {
  const codes = new Map<string, RateGenCode>();
  for (const table of tables) {
    for (const row of table) {
      if (codes.has(row.code)) continue;
      const start = row.effective_date ?? -Infinity;
      const end = row.end_date ?? Infinity;
      if (start <= atMs && atMs < end) codes.set(row.code, { code: row.code });
    }
  }
  return [...codes.values()];
}

function toRow(v: VendorRate): Row {
  const optional = (m: MoneyInput | null | undefined) => (m === null || m === undefined ? null : toMicros(m));
  return {
    code: v.code,
    code_name: v.code_name ?? null,
    country: v.country ?? null,
    rate: toMicros(v.rate),
    intra_rate: optional(v.intra_rate),
    inter_rate: optional(v.inter_rate),
    ij_rate: optional(v.ij_rate),
    local_rate: optional(v.local_rate),
    effective_date: v.effective_date ?? null,
    end_date: v.end_date ?? null,
  };
}
