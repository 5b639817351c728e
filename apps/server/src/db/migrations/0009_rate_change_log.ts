import { sql, type Kysely } from 'kysely';

/**
 * 0009_rate_change_log: the rate change log's trigger (0005) without its quadratic branch.
 *
 * On UPDATE, 0005 joined the statement's old and new transition tables to find rows moved to
 * another rate table. The planner does not know the row counts of transition tables (it assumes
 * few) and chose a nested loop: quadratic in the rows changed (a 100,000-row overwrite is 10^10
 * comparisons). Bulk writes worked around it by turning nested loops off for their transaction.
 * Now the join runs only for small statements (at most 1,000 rows, where any plan is quick); a
 * larger statement logs the whole rate tables of its old rows as changed, which the snapshot
 * loader reads as "reload these tables" (the same as the large INSERT and DELETE cases).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
CREATE OR REPLACE FUNCTION rate_changes_log() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE n bigint;
BEGIN
  IF TG_OP = 'DELETE' THEN
    SELECT count(*) INTO n FROM old_rows;
    IF n > 1000 THEN
      INSERT INTO rate_changes (rate_table_id, rate_id) SELECT DISTINCT rate_table_id, NULL::bigint FROM old_rows;
    ELSE
      INSERT INTO rate_changes (rate_table_id, rate_id) SELECT rate_table_id, rate_id FROM old_rows;
    END IF;
    RETURN NULL;
  END IF;
  SELECT count(*) INTO n FROM new_rows;
  IF n > 1000 THEN
    INSERT INTO rate_changes (rate_table_id, rate_id) SELECT DISTINCT rate_table_id, NULL::bigint FROM new_rows;
    IF TG_OP = 'UPDATE' THEN
      -- rows may have left other rate tables: those tables are reloaded whole
      INSERT INTO rate_changes (rate_table_id, rate_id)
        SELECT DISTINCT o.rate_table_id, NULL::bigint FROM old_rows o
        WHERE o.rate_table_id NOT IN (SELECT DISTINCT rate_table_id FROM new_rows);
    END IF;
  ELSE
    INSERT INTO rate_changes (rate_table_id, rate_id) SELECT rate_table_id, rate_id FROM new_rows;
    IF TG_OP = 'UPDATE' THEN
      -- a row moved to another rate table leaves the old one
      INSERT INTO rate_changes (rate_table_id, rate_id)
        SELECT o.rate_table_id, o.rate_id FROM old_rows o JOIN new_rows w ON w.rate_id = o.rate_id
        WHERE w.rate_table_id <> o.rate_table_id;
    END IF;
  END IF;
  RETURN NULL;
END $$;
`,
    )
    .execute(db);
}
