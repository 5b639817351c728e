import { sql, type Kysely } from 'kysely';

/**
 * 0036_db_cleansing: the daily job `cdr.partitions` became `db.cleansing` (Configuration > DB
 * Cleansing: CDR partitions, logs and exports, docs/cdr.md "Retention"). A run of the old kind still
 * queued would never be claimed (no process defines it any more): it is carried over to the new
 * kind, and the schedule's claimed slot with it, so the day's run is neither lost nor run twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
UPDATE jobs SET kind = 'db.cleansing' WHERE kind = 'cdr.partitions' AND status IN ('pending', 'running');
UPDATE job_schedules SET name = 'db.cleansing' WHERE name = 'cdr.partitions'
  AND NOT EXISTS (SELECT 1 FROM job_schedules WHERE name = 'db.cleansing');
DELETE FROM job_schedules WHERE name = 'cdr.partitions';
`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `UPDATE jobs SET kind = 'cdr.partitions' WHERE kind = 'db.cleansing' AND status IN ('pending', 'running');
UPDATE job_schedules SET name = 'cdr.partitions' WHERE name = 'db.cleansing';`,
    )
    .execute(db);
}
