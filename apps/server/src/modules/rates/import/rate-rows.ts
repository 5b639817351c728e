import { type MessageKey } from '@tandem/contract';
import { RATE_FILE_COLUMNS, type DateFormat, type DuplicateMode, type RateFileColumn } from '../contract';
import { dateReader } from './dates';

/** One refused row of a rate file. */
export interface RowError {
  line: number;
  code: string;
  field: string;
  key: MessageKey;
  params: (string | number)[];
}

/** Rows accepted from one batch, column by column (the shape `unnest` takes). */
export interface StagedColumns {
  line: number[];
  code: string[];
  code_name: (string | null)[];
  country: (string | null)[];
  rate: (string | null)[];
  intra_rate: (string | null)[];
  inter_rate: (string | null)[];
  ij_rate: (string | null)[];
  local_rate: (string | null)[];
  min_time: (number | null)[];
  interval: (number | null)[];
  grace_time: (number | null)[];
  setup_fee: (string | null)[];
  effective_date: string[];
  end_date: (string | null)[];
}

const ALIASES: Record<string, RateFileColumn> = {
  prefix: 'code',
  dial_code: 'code',
  dialcode: 'code',
  destination_code: 'code',
  name: 'code_name',
  destination: 'code_name',
  description: 'code_name',
  code_name: 'code_name',
  codename: 'code_name',
  first_interval: 'min_time',
  minimum_time: 'min_time',
  min: 'min_time',
  sub_interval: 'interval',
  increment: 'interval',
  intra: 'intra_rate',
  intrastate_rate: 'intra_rate',
  inter: 'inter_rate',
  interstate_rate: 'inter_rate',
  ij: 'ij_rate',
  indeterminate_rate: 'ij_rate',
  local: 'local_rate',
  setup: 'setup_fee',
  connection_fee: 'setup_fee',
  connect_fee: 'setup_fee',
  grace: 'grace_time',
  effective: 'effective_date',
  start_date: 'effective_date',
  effective_from: 'effective_date',
  end: 'end_date',
  expiry_date: 'end_date',
};
const norm = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[\s\-_.]+/g, '_');

/**
 * Which file column feeds which rate column: the explicit mapping (file header -> column, '' to
 * ignore) first, then headers named like a column (any case, spaces or underscores) or a common alias.
 */
export function mapHeader(
  header: readonly string[],
  mapping: Record<string, string> = {},
): Partial<Record<RateFileColumn, number>> {
  const out: Partial<Record<RateFileColumn, number>> = {};
  const explicit = new Map(Object.entries(mapping).map(([k, v]) => [k.trim(), v]));
  header.forEach((h, i) => {
    const target = explicit.get(h.trim());
    if (target === undefined) return;
    if (
      (RATE_FILE_COLUMNS as readonly string[]).includes(target) &&
      out[target as RateFileColumn] === undefined
    )
      out[target as RateFileColumn] = i;
  });
  header.forEach((h, i) => {
    if (explicit.has(h.trim())) return;
    const n = norm(h);
    const col = (RATE_FILE_COLUMNS as readonly string[]).includes(n) ? (n as RateFileColumn) : ALIASES[n];
    if (col && out[col] === undefined) out[col] = i;
  });
  return out;
}

const AMOUNT = /^\d{1,12}(\.\d{1,6})?$/;
/** A decimal amount as text (<= 6 decimals; trailing zeros past the sixth are dropped), or null when not one. */
export function amountText(v: string): string | null {
  let t = v.trim();
  if (t.startsWith('.')) t = '0' + t;
  if (AMOUNT.test(t)) return t;
  const m = /^(\d{1,12})\.(\d{6})(0+)$/.exec(t);
  return m ? `${m[1]}.${m[2]}` : null;
}
const INTEGER = /^\d{1,9}(\.0+)?$/;
const CODE = /^\d{1,32}$/;
const INTEGER_COLUMNS = ['min_time', 'interval', 'grace_time'] as const;
const MONEY_COLUMNS = ['intra_rate', 'inter_rate', 'ij_rate', 'local_rate', 'setup_fee'] as const;

export interface RowCheckOptions {
  columns: Partial<Record<RateFileColumn, number>>;
  dateFormat: DateFormat;
  /** Fixed-width UTC text (see dateReader) for rows without an effective date. */
  defaultEffective: string;
  duplicateMode: DuplicateMode;
}

/**
 * Checks the rows of a rate file one batch at a time (spec 02 section 5: codes are digits, rates and
 * fees valid positive floating numbers, min time / interval / grace time valid positive integers,
 * effective date before end date, dates in the chosen format) and drops in-file duplicates of code
 * and effective date: 'reject' refuses the later row, 'skip' keeps the first, 'overwrite' the last.
 */
export class RateRowChecker {
  readonly errors: RowError[] = [];
  errorCount = 0;
  skipped = 0;
  accepted = 0;
  /** Lines staged earlier that a later duplicate replaced ('overwrite'). */
  readonly replacedLines: number[] = [];
  /** effective date -> code -> line of the accepted row. */
  private readonly seen = new Map<string, Map<string, number>>();
  private readonly readDate: (t: string) => string | null;

  constructor(
    private readonly o: RowCheckOptions,
    private readonly maxStoredErrors = 1000,
  ) {
    this.readDate = dateReader(o.dateFormat);
  }

  private fail(
    line: number,
    code: string,
    field: string,
    key: MessageKey,
    params: (string | number)[] = [field],
  ): void {
    this.errorCount++;
    if (this.errors.length < this.maxStoredErrors) this.errors.push({ line, code, field, key, params });
  }

  /** Latest effective date of the accepted rows (fixed-width UTC text), '' before any. */
  maxEffective = '';

  check(rows: readonly string[][], firstLine: number): StagedColumns {
    const out: StagedColumns = {
      line: [],
      code: [],
      code_name: [],
      country: [],
      rate: [],
      intra_rate: [],
      inter_rate: [],
      ij_rate: [],
      local_rate: [],
      min_time: [],
      interval: [],
      grace_time: [],
      setup_fee: [],
      effective_date: [],
      end_date: [],
    };
    const c = this.o.columns;
    const iCode = c.code ?? -1,
      iRate = c.rate ?? -1,
      iName = c.code_name ?? -1,
      iCountry = c.country ?? -1;
    const iEff = c.effective_date ?? -1,
      iEnd = c.end_date ?? -1;
    const money = MONEY_COLUMNS.map((col) => [col, c[col] ?? -1] as const).filter(([, i]) => i >= 0);
    const ints = INTEGER_COLUMNS.map((col) => [col, c[col] ?? -1] as const).filter(([, i]) => i >= 0);
    const moneyValues: (string | null)[] = MONEY_COLUMNS.map(() => null);
    const intValues: (number | null)[] = INTEGER_COLUMNS.map(() => null);
    const defaultEffective = this.o.defaultEffective;
    // A plain loop with no closure per row: this runs for every row of decks of a million codes.
    for (let k = 0; k < rows.length; k++) {
      const row = rows[k]!;
      const line = firstLine + k;
      const code = (row[iCode] ?? '').trim();
      if (!code) {
        this.fail(line, code, 'code', 'required');
        continue;
      }
      if (!CODE.test(code)) {
        this.fail(line, code, 'code', 'digitsOnly');
        continue;
      }
      const rateText = row[iRate] ?? '';
      const rate = amountText(rateText);
      if (rate === null) {
        this.fail(line, code, 'rate', rateText.trim() === '' ? 'required' : 'positiveDecimal');
        continue;
      }
      let bad: string | null = null;
      moneyValues.fill(null);
      for (let m = 0; m < money.length; m++) {
        const [col, i] = money[m]!;
        const v = row[i] ?? '';
        if (v === '' || v.trim() === '') continue;
        const a = amountText(v);
        if (a === null) {
          bad = col;
          break;
        }
        moneyValues[MONEY_COLUMNS.indexOf(col)] = a;
      }
      if (bad) {
        this.fail(line, code, bad, 'positiveDecimal');
        continue;
      }
      intValues.fill(null);
      for (let m = 0; m < ints.length; m++) {
        const [col, i] = ints[m]!;
        const v = (row[i] ?? '').trim();
        if (v === '') continue;
        const n = INTEGER.test(v) ? Number.parseInt(v, 10) : -1;
        if (n < 0 || (col === 'interval' && n < 1)) {
          bad = col;
          break;
        }
        intValues[INTEGER_COLUMNS.indexOf(col)] = n;
      }
      if (bad) {
        this.fail(line, code, bad, 'positiveInteger');
        continue;
      }
      let effective = defaultEffective;
      const effText = iEff >= 0 ? (row[iEff] ?? '') : '';
      if (effText !== '' && effText.trim() !== '') {
        const d = this.readDate(effText);
        if (d === null) {
          this.fail(line, code, 'effective_date', 'rateDateFormatWrong', [
            'effective_date',
            effText,
            this.o.dateFormat,
          ]);
          continue;
        }
        effective = d;
      }
      let end: string | null = null;
      const endText = iEnd >= 0 ? (row[iEnd] ?? '') : '';
      if (endText !== '' && endText.trim() !== '') {
        end = this.readDate(endText);
        if (end === null) {
          this.fail(line, code, 'end_date', 'rateDateFormatWrong', ['end_date', endText, this.o.dateFormat]);
          continue;
        }
        if (end <= effective) {
          this.fail(line, code, 'end_date', 'effectiveBeforeEnd', []);
          continue;
        }
      }
      const name = iName >= 0 ? (row[iName] ?? '') : null;
      const country = iCountry >= 0 ? (row[iCountry] ?? '') : null;
      if (name !== null && name.length > 100) {
        this.fail(line, code, 'code_name', 'tooLong', ['code_name', 100]);
        continue;
      }
      if (country !== null && country.length > 100) {
        this.fail(line, code, 'country', 'tooLong', ['country', 100]);
        continue;
      }
      // In-file duplicates of code and effective date (one map per effective date keeps keys short).
      let seen = this.seen.get(effective);
      if (!seen) this.seen.set(effective, (seen = new Map<string, number>()));
      const earlier = seen.get(code);
      if (earlier !== undefined) {
        if (this.o.duplicateMode === 'reject') {
          this.fail(line, code, 'code', 'duplicateCodes', [code]);
          continue;
        }
        if (this.o.duplicateMode === 'skip') {
          this.skipped++;
          continue;
        }
        this.replacedLines.push(earlier);
        this.accepted--;
      }
      seen.set(code, line);
      this.accepted++;
      if (effective > this.maxEffective) this.maxEffective = effective;
      out.line.push(line);
      out.code.push(code);
      out.code_name.push(name === null ? null : name.trim());
      out.country.push(country === null ? null : country.trim());
      out.rate.push(rate);
      out.intra_rate.push(moneyValues[0]!);
      out.inter_rate.push(moneyValues[1]!);
      out.ij_rate.push(moneyValues[2]!);
      out.local_rate.push(moneyValues[3]!);
      out.setup_fee.push(moneyValues[4]!);
      out.min_time.push(intValues[0]!);
      out.interval.push(intValues[1]!);
      out.grace_time.push(intValues[2]!);
      out.effective_date.push(effective);
      out.end_date.push(end);
    }
    return out;
  }
}
