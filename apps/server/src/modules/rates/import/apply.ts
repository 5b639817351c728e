import { type DuplicateMode } from '../contract';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../../db/connection';
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
  dbKind: 'pglite' | 'postgres';
}
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
const num = (v: unknown) => Number(v ?? 0);

/**
 * Applies the staged rows of one import to the rate table with set-based SQL (call inside one
 * transaction): optional delete of the existing rates, end dates of replaced and absent codes,
 * then one INSERT ... ON CONFLICT for the duplicate mode. Amounts are rounded by PostgreSQL
 * (NUMERIC, half away from zero) to the table's decimal places.
 */
export async function applyRateImport(trx: Db, o: ApplyOptions): Promise<ApplyCounts> {
  const counts: ApplyCounts = { inserted: 0, updated: 0, skipped: 0, ended: 0, deleted: 0 };
  const R = o.rateTableId;
  const T = o.taskId;
  if (o.dbKind === 'postgres') await sql`SET LOCAL work_mem = '256MB'`.execute(trx);
  await sql`SELECT 1 FROM rate_tables WHERE rate_table_id = ${R} FOR UPDATE`.execute(trx);

  if (o.deleteExisting) {
    const r = await trx.deleteFrom('rates').where('rate_table_id', '=', R).executeTakeFirst();
    counts.deleted = Number(r.numDeletedRows);
  }

  if (o.duplicateMode === 'reject' && !o.deleteExisting) {
    const clash = await sql<{ line: number; code: string; effective_date: Date; n: number }>`
      SELECT s.line, s.code, s.effective_date, count(*) OVER ()::int AS n
      FROM rate_import_rows s JOIN rates r ON r.rate_table_id = ${R} AND r.code = s.code AND r.effective_date = s.effective_date
      WHERE s.task_id = ${T} ORDER BY s.line LIMIT 1000`.execute(trx);
    if (clash.rows.length) {
      const errors: RowError[] = clash.rows.map((c) => ({
        line: c.line,
        code: c.code,
        field: 'code',
        key: 'codeEffectiveExists',
        params: [c.code, new Date(c.effective_date).toISOString().replace('T', ' ').replace('.000Z', '')],
      }));
      throw new ImportRejected(errors, num(clash.rows[0]?.n));
    }
  }

  if (o.endPrevious && !o.deleteExisting) {
    const r = await sql`
      WITH n AS (SELECT code, min(effective_date) AS eff FROM rate_import_rows WHERE task_id = ${T} GROUP BY code)
      UPDATE rates r SET end_date = n.eff FROM n
      WHERE r.rate_table_id = ${R} AND r.code = n.code AND r.effective_date < n.eff AND (r.end_date IS NULL OR r.end_date > n.eff)`.execute(
      trx,
    );
    counts.ended += num(r.numAffectedRows);
  }
  if (o.endAbsent && !o.deleteExisting) {
    const r = await sql`
      UPDATE rates r SET end_date = ${o.absentEndDate}::timestamptz
      WHERE r.rate_table_id = ${R} AND r.effective_date < ${o.absentEndDate}::timestamptz
        AND (r.end_date IS NULL OR r.end_date > ${o.absentEndDate}::timestamptz)
        AND NOT EXISTS (SELECT 1 FROM rate_import_rows s WHERE s.task_id = ${T} AND s.code = r.code)`.execute(
      trx,
    );
    counts.ended += num(r.numAffectedRows);
  }

  const dp = o.decimals;
  const deck = o.codeDeckId;
  const names = (col: 'code_name' | 'country'): RawBuilder<unknown> => {
    if (deck === null) return sql`COALESCE(s.${sql.raw(col)}, '')`;
    return o.hasCodeDeck
      ? sql`COALESCE(NULLIF(s.${sql.raw(col)}, ''), c.${sql.raw(col)}, '')`
      : sql`COALESCE(c.${sql.raw(col)}, '')`;
  };
  const values: [string, RawBuilder<unknown>][] = [
    ['rate_table_id', sql`${R}::int`],
    ['code', sql`s.code`],
    ['code_name', names('code_name')],
    ['country', names('country')],
    ...MONEY.map((m): [string, RawBuilder<unknown>] => [m, sql`round(s.${sql.raw(m)}, ${dp}::int)`]),
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
  const insert = sql`INSERT INTO rates (${sql.join(values.map(([c]) => sql.ref(c)))})
    SELECT ${sql.join(values.map(([, v]) => v))} FROM ${from} WHERE s.task_id = ${T}`;

  if (o.duplicateMode === 'overwrite') {
    // Columns the file does not have keep their values on existing rows.
    const updatable = values
      .map(([c]) => c)
      .filter((c) => !['rate_table_id', 'code', 'effective_date'].includes(c))
      .filter(
        (c) =>
          o.present.has(c) || ((c === 'code_name' || c === 'country') && deck !== null) || c === 'end_date',
      );
    const r = await sql<{ inserted: number; total: number }>`
      WITH up AS (${insert} ON CONFLICT (rate_table_id, code, effective_date) DO UPDATE SET ${sql.join(updatable.map((c) => sql`${sql.ref(c)} = EXCLUDED.${sql.ref(c)}`))}
        RETURNING (xmax = 0) AS fresh)
      SELECT (count(*) FILTER (WHERE fresh))::int AS inserted, count(*)::int AS total FROM up`.execute(trx);
    counts.inserted = num(r.rows[0]?.inserted);
    counts.updated = num(r.rows[0]?.total) - counts.inserted;
  } else {
    const staged = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM rate_import_rows WHERE task_id = ${T}`.execute(trx);
    const r = await sql`${insert} ON CONFLICT (rate_table_id, code, effective_date) DO NOTHING`.execute(trx);
    counts.inserted = num(r.numAffectedRows);
    counts.skipped = num(staged.rows[0]?.n) - counts.inserted;
  }
  await trx
    .updateTable('rate_tables')
    .set({ updated_at: new Date() })
    .where('rate_table_id', '=', R)
    .execute();
  return counts;
}
