import { sql, type RawBuilder } from 'kysely';
import type { ArrayItem } from './arrays';

/**
 * Bulk rows by `COPY ... FROM STDIN` (text format), PostgreSQL's fastest way in, on both databases
 * (docs/decisions.md, issue 10's ingest target). `copyRows` is a statement like any other: it runs
 * in the caller's transaction through Kysely. Its SQL is `COPY table (columns) FROM STDIN $1` with
 * the data as the one parameter; each driver turns that into its own COPY (connection.ts:
 * pg-copy-streams on the PostgreSQL client; pglite-dialect.ts: COPY from PGlite's `/dev/blob`).
 */
export function copyRows(table: string, columns: readonly string[], data: string): RawBuilder<unknown> {
  return sql`COPY ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) FROM STDIN ${data}`;
}

const COPY_SQL = /^COPY\b[^;]*\bFROM STDIN \$1$/;

/** The COPY statement of a `copyRows` query (its SQL without the data placeholder), else null. */
export function copyOf(sqlText: unknown, params: readonly unknown[] | undefined): string | null {
  if (typeof sqlText !== 'string' || params?.length !== 1 || !COPY_SQL.test(sqlText)) return null;
  return sqlText.slice(0, -3);
}

const SPECIAL = /[\\\n\r\t]/;

/**
 * One value in COPY's text format: NULL as `\N`; in text, backslash, newline, carriage return and
 * tab escaped; numbers, bigints and booleans as they print.
 */
export function copyValue(v: ArrayItem): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v !== 'string') return String(v);
  return SPECIAL.test(v) ? v.replace(/[\\\n\r\t]/g, escape) : v;
}

function escape(c: string): string {
  return c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t';
}
