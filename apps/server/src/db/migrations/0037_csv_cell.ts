import { sql, type Kysely } from 'kysely';

/**
 * 0037_csv_cell: `csv_cell(text)`, the database's copy of the contract's `csvCell` (one CSV cell:
 * NULL as nothing, a leading = + - @ tab or CR defused with a quote, quoted when it holds a comma,
 * a double quote or a line break). The CDR CSV builds its lines in the query with it, so a page of
 * CDRs reaches the server as one string instead of thousands of row objects (docs/performance.md,
 * issue 16). Plain SQL functions, so the planner inlines them. A test holds both versions equal
 * (test/api/csv-cell.test.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
CREATE OR REPLACE FUNCTION csv_quote(v text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS
$$ SELECT CASE WHEN v ~ '[",\\r\\n]' THEN '"' || replace(v, '"', '""') || '"' ELSE v END $$;
CREATE OR REPLACE FUNCTION csv_cell(v text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT CASE WHEN v IS NULL THEN ''
  ELSE csv_quote(CASE WHEN v ~ '^[-=+@\\t\\r]' THEN '''' || v ELSE v END) END $$;
`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`DROP FUNCTION IF EXISTS csv_cell(text); DROP FUNCTION IF EXISTS csv_quote(text);`)
    .execute(db);
}
