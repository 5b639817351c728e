import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../../db/connection';
import { type DuplicateMode } from '../contract';
import type { RowError } from './rate-rows';

export interface ApplyOptions {
  taskId: number;
  rateTableId: number;
  decimals: number;
  codeDeckId: number | null;
  /** Rate file columns the file has. */
  present: ReadonlySet<string>;
  duplicateMode: DuplicateMode;
  endPrevious: boolean;
  endAbsent: boolean;
  deleteExisting: boolean;
  hasCodeDeck: boolean;
  /** When codes absent from the file end (the import's default effective date). */
  absentEndDate: string;
  /** Latest effective date in the file: only rates that start before it can end. */
  maxEffective: string;
  dbKind: 'pglite' | 'postgres';
  /** Milliseconds of each step, filled in (kept with the task for operations). */
  timings?: Record<string, number>;
  /** The file's last line: new and changed rows are written in slices of lines up to it. */
  lastLine?: number;
  /** After each slice: the rows of the lines below `belowLine` are applied. */
  onApplied?: (belowLine: number) => Promise<void>;
}

/**
 * Lines written by one statement: a slice takes a few hundred milliseconds on PGlite, and the import
 * can say how far it is (the staging table has no index, so each slice reads it once: few slices).
 */
const APPLY_SLICE = 50_000;
export interface ApplyCounts {
  inserted: number;
  updated: number;
  skipped: number;
  ended: number;
  deleted: number;
}

/** 'reject' met rows whose code and effective date the table already has. */
export class ImportRejected extends Error {
  constructor(
    readonly errors: RowError[],
    readonly count: number,
  ) {
    super('import rejected');
  }
}

const MONEY = ['rate', 'intra_rate', 'inter_rate', 'ij_rate', 'local_rate'] as const;
const INTS: Record<string, number> = { min_time: 1, interval: 1, grace_time: 0 };
const KEY = ['rate_table_id', 'code', 'effective_date'];
const num = (v: unknown) => Number(v ?? 0);

/**
 * Applies the staged rows of one import to the rate table with set-based SQL (call inside one
 * transaction): optional delete of the existing rates, the duplicate check ('reject'), end dates of
 * replaced and absent codes, then, slice by slice of the file's lines, the UPDATE of existing rows
 * ('overwrite') and the INSERT of the new rows. Amounts are rounded by PostgreSQL (NUMERIC, half away from zero) to the table's decimal places.
 */
export async function applyRateImport(trx: Db, o: ApplyOptions): Promise<ApplyCounts> {
  const counts: ApplyCounts = { inserted: 0, updated: 0, skipped: 0, ended: 0, deleted: 0 };
  const R = o.rateTableId;
  const T = o.taskId;
  let t0 = performance.now();
  const step = (name: string) => {
    if (o.timings) o.timings[name] = Math.round(performance.now() - t0);
    t0 = performance.now();
  };
  if (o.dbKind === 'postgres') await sql`SET LOCAL work_mem = '256MB'`.execute(trx);
  await sql`SELECT 1 FROM rate_tables WHERE rate_table_id = ${R} FOR UPDATE`.execute(trx);

  if (o.deleteExisting) {
    const r = await trx.deleteFrom('rates').where('rate_table_id', '=', R).executeTakeFirst();
    counts.deleted = Number(r.numDeletedRows);
    step('delete_existing_ms');
  } else {
    if (o.duplicateMode === 'reject') await rejectDuplicates(trx, R, T);
    step('duplicate_check_ms');
    counts.ended = await endRates(trx, o);
    step('end_dates_ms');
  }

  const dp = o.decimals;
  const deck = o.codeDeckId;
  const names = (col: 'code_name' | 'country'): RawBuilder<unknown> => {
    if (deck === null) return sql`COALESCE(s.${sql.ref(col)}, '')`;
    return o.hasCodeDeck
      ? sql`COALESCE(NULLIF(s.${sql.ref(col)}, ''), c.${sql.ref(col)}, '')`
      : sql`COALESCE(c.${sql.ref(col)}, '')`;
  };
  // Column -> value of a rate row made from a staged row `s` (and the code deck's row `c`).
  const values: [string, RawBuilder<unknown>][] = [
    ['rate_table_id', sql`${R}::int`],
    ['code', sql`s.code`],
    ['code_name', names('code_name')],
    ['country', names('country')],
    ...MONEY.map((m): [string, RawBuilder<unknown>] => [m, sql`round(s.${sql.ref(m)}, ${dp}::int)`]),
    ...Object.entries(INTS).map(([c, d]): [string, RawBuilder<unknown>] => [
      c,
      sql`COALESCE(s.${sql.ref(c)}, ${d}::int)`,
    ]),
    ['setup_fee', sql`COALESCE(round(s.setup_fee, ${dp}::int), 0)`],
    ['effective_date', sql`s.effective_date`],
    ['end_date', sql`s.end_date`],
  ];
  const from =
    deck === null
      ? sql`rate_import_rows s`
      : sql`rate_import_rows s LEFT JOIN codes c ON c.code_deck_id = ${deck}::int AND c.code = s.code`;
  const staged = await sql<{
    n: number;
  }>`SELECT count(*)::int AS n FROM rate_import_rows WHERE task_id = ${T}`.execute(trx);

  const overwrite = o.duplicateMode === 'overwrite' && !o.deleteExisting;
  // Callers that staged rows themselves (rate generation) give no last line: the staging table's.
  const lastLine =
    o.lastLine ??
    num(
      (
        await sql<{
          n: number;
        }>`SELECT COALESCE(max(line), 0)::int AS n FROM rate_import_rows WHERE task_id = ${T}`.execute(trx)
      ).rows[0]?.n,
    );
  let overwriteMs = 0;
  let insertMs = 0;
  for (let lo = 0; lo <= lastLine; lo += APPLY_SLICE) {
    const hi = Math.min(lastLine + 1, lo + APPLY_SLICE);
    const lines = sql`s.line >= ${lo}::int AND s.line < ${hi}::int`;
    let t = performance.now();
    if (overwrite) {
      // Existing rows by one UPDATE joined on code and effective date. Only rows whose values change
      // get a new version (HOT: no indexed column changes); columns the file does not have keep their
      // values. Every matched row counts as overwritten.
      const columns = values
        .map(([c]) => c)
        .filter((c) => !KEY.includes(c))
        .filter(
          (c) =>
            o.present.has(c) || ((c === 'code_name' || c === 'country') && deck !== null) || c === 'end_date',
        );
      const source = columns.map((c) => sql`n.${sql.ref(c)}`);
      await sql`
        UPDATE rates r SET ${sql.join(columns.map((c, i) => sql`${sql.ref(c)} = ${source[i]}`))}
        FROM (SELECT ${sql.join(values.map(([c, v]) => sql`${v} AS ${sql.ref(c)}`))} FROM ${from} WHERE s.task_id = ${T} AND ${lines}) n
        WHERE r.rate_table_id = ${R} AND r.code = n.code AND r.effective_date = n.effective_date
          AND (${sql.join(columns.map((c) => sql`r.${sql.ref(c)}`))}) IS DISTINCT FROM (${sql.join(source)})`.execute(
        trx,
      );
      overwriteMs += performance.now() - t;
      t = performance.now();
    }
    // New rows; rows that exist stay as they are ('skip') or were overwritten just above. The anti-join
    // leaves them out in one pass (a re-imported deck would otherwise probe the index row by row).
    const r = await sql`INSERT INTO rates (${sql.join(values.map(([c]) => sql.ref(c)))})
      SELECT ${sql.join(values.map(([, v]) => v))} FROM ${from} WHERE s.task_id = ${T} AND ${lines}
        AND NOT EXISTS (SELECT 1 FROM rates x WHERE x.rate_table_id = ${R} AND x.code = s.code AND x.effective_date = s.effective_date)
      ON CONFLICT (rate_table_id, code, effective_date) DO NOTHING`.execute(trx);
    counts.inserted += num(r.numAffectedRows);
    insertMs += performance.now() - t;
    await o.onApplied?.(hi);
  }
  if (o.timings) {
    if (overwrite) o.timings.overwrite_ms = Math.round(overwriteMs);
    o.timings.insert_ms = Math.round(insertMs);
  }
  const matched = num(staged.rows[0]?.n) - counts.inserted;
  if (o.duplicateMode === 'overwrite') counts.updated = matched;
  else counts.skipped = matched;
  await trx
    .updateTable('rate_tables')
    .set({ updated_at: new Date() })
    .where('rate_table_id', '=', R)
    .execute();
  return counts;
}

/** 'reject': rows whose code and effective date the table already has refuse the whole import. */
async function rejectDuplicates(trx: Db, R: number, T: number): Promise<void> {
  const clash = await sql<{ line: number; code: string; effective_date: Date; n: number }>`
    SELECT s.line, s.code, s.effective_date, count(*) OVER ()::int AS n
    FROM rate_import_rows s JOIN rates r ON r.rate_table_id = ${R} AND r.code = s.code AND r.effective_date = s.effective_date
    WHERE s.task_id = ${T} ORDER BY s.line LIMIT 1000`.execute(trx);
  if (!clash.rows.length) return;
  const errors: RowError[] = clash.rows.map((c) => {
    const shown = new Date(c.effective_date)
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, '');
    return { line: c.line, code: c.code, field: 'code', key: 'codeEffectiveExists', params: [c.code, shown] };
  });
  throw new ImportRejected(errors, num(clash.rows[0]?.n));
}

/**
 * End dates of existing rates: of the imported codes when a new rate starts (end previous), and of
 * codes absent from the file at the import's effective date (end absent). Only rates that start
 * before the file's latest date can end: most re-imports have none, and then nothing is joined.
 */
async function endRates(trx: Db, o: ApplyOptions): Promise<number> {
  const R = o.rateTableId;
  const T = o.taskId;
  let ended = 0;
  const limit = o.endAbsent && o.absentEndDate > o.maxEffective ? o.absentEndDate : o.maxEffective;
  if (!(o.endPrevious || o.endAbsent) || !limit) return 0;
  const older =
    await sql`SELECT 1 FROM rates WHERE rate_table_id = ${R} AND effective_date < ${limit}::timestamptz LIMIT 1`.execute(
      trx,
    );
  if (!older.rows.length) return 0;
  if (o.endPrevious) {
    const r = await sql`
      WITH n AS (SELECT code, min(effective_date) AS eff FROM rate_import_rows WHERE task_id = ${T} GROUP BY code)
      UPDATE rates r SET end_date = n.eff FROM n
      WHERE r.rate_table_id = ${R} AND r.effective_date < ${o.maxEffective}::timestamptz
        AND r.code = n.code AND r.effective_date < n.eff AND (r.end_date IS NULL OR r.end_date > n.eff)`.execute(
      trx,
    );
    ended += num(r.numAffectedRows);
  }
  if (o.endAbsent) {
    const r = await sql`
      UPDATE rates r SET end_date = ${o.absentEndDate}::timestamptz
      WHERE r.rate_table_id = ${R} AND r.effective_date < ${o.absentEndDate}::timestamptz
        AND (r.end_date IS NULL OR r.end_date > ${o.absentEndDate}::timestamptz)
        AND NOT EXISTS (SELECT 1 FROM rate_import_rows s WHERE s.task_id = ${T} AND s.code = r.code)`.execute(
      trx,
    );
    ended += num(r.numAffectedRows);
  }
  return ended;
}
