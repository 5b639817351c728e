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
  private readonly seen = new Map<string, number>();
  private readonly readDate: (t: string) => string | null;

  constructor(
    private readonly o: RowCheckOptions,
    private readonly maxStoredErrors = 1000,
  ) {
    this.readDate = dateReader(o.dateFormat);
  }

  private fail(e: RowError): void {
    this.errorCount++;
    if (this.errors.length < this.maxStoredErrors) this.errors.push(e);
  }

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
    const cell = (row: readonly string[], col: RateFileColumn): string | undefined => {
      const i = c[col];
      return i === undefined ? undefined : (row[i] ?? '');
    };
    rows.forEach((row, k) => {
      const line = firstLine + k;
      const code = (cell(row, 'code') ?? '').trim();
      const err = (field: string, key: MessageKey, params: (string | number)[] = [field]) =>
        this.fail({ line, code, field, key, params });
      if (!code) return err('code', 'required');
      if (!CODE.test(code)) return err('code', 'digitsOnly');
      const rateText = cell(row, 'rate') ?? '';
      if (rateText.trim() === '') return err('rate', 'required');
      const rate = amountText(rateText);
      if (rate === null) return err('rate', 'positiveDecimal');
      const money: Partial<Record<(typeof MONEY_COLUMNS)[number], string | null>> = {};
      for (const col of MONEY_COLUMNS) {
        const v = cell(row, col);
        if (v === undefined || v.trim() === '') money[col] = null;
        else {
          const a = amountText(v);
          if (a === null) return err(col, 'positiveDecimal');
          money[col] = a;
        }
      }
      const ints: Partial<Record<(typeof INTEGER_COLUMNS)[number], number | null>> = {};
      for (const col of INTEGER_COLUMNS) {
        const v = cell(row, col)?.trim();
        if (v === undefined || v === '') ints[col] = null;
        else if (!INTEGER.test(v) || (col === 'interval' && Number.parseInt(v, 10) < 1))
          return err(col, 'positiveInteger');
        else ints[col] = Number.parseInt(v, 10);
      }
      const effText = cell(row, 'effective_date');
      let effective = this.o.defaultEffective;
      if (effText !== undefined && effText.trim() !== '') {
        const d = this.readDate(effText);
        if (d === null)
          return err('effective_date', 'rateDateFormatWrong', ['effective_date', effText, this.o.dateFormat]);
        effective = d;
      }
      const endText = cell(row, 'end_date');
      let end: string | null = null;
      if (endText !== undefined && endText.trim() !== '') {
        end = this.readDate(endText);
        if (end === null)
          return err('end_date', 'rateDateFormatWrong', ['end_date', endText, this.o.dateFormat]);
        if (end <= effective) return err('end_date', 'effectiveBeforeEnd', []);
      }
      const name = cell(row, 'code_name');
      const country = cell(row, 'country');
      if (name !== undefined && name.length > 100) return err('code_name', 'tooLong', ['code_name', 100]);
      if (country !== undefined && country.length > 100) return err('country', 'tooLong', ['country', 100]);

      const key = `${code}|${effective}`;
      const earlier = this.seen.get(key);
      if (earlier !== undefined) {
        if (this.o.duplicateMode === 'reject') return err('code', 'duplicateCodes', [code]);
        if (this.o.duplicateMode === 'skip') {
          this.skipped++;
          return;
        }
        this.replacedLines.push(earlier);
        this.accepted--;
      }
      this.seen.set(key, line);
      this.accepted++;
      out.line.push(line);
      out.code.push(code);
      out.code_name.push(name === undefined ? null : name.trim());
      out.country.push(country === undefined ? null : country.trim());
      out.rate.push(rate);
      out.intra_rate.push(money.intra_rate ?? null);
      out.inter_rate.push(money.inter_rate ?? null);
      out.ij_rate.push(money.ij_rate ?? null);
      out.local_rate.push(money.local_rate ?? null);
      out.setup_fee.push(money.setup_fee ?? null);
      out.min_time.push(ints.min_time ?? null);
      out.interval.push(ints.interval ?? null);
      out.grace_time.push(ints.grace_time ?? null);
      out.effective_date.push(effective);
      out.end_date.push(end);
    });
    return out;
  }
}
