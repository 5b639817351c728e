import { sql, type Kysely } from 'kysely';

/**
 * 0014_jobs: durable background jobs (docs/jobs.md).
 *
 * - jobs: one row per run of a job. A runner claims a due row with FOR UPDATE SKIP LOCKED and holds
 *   it by a lease (lease_until) it extends while the handler runs; a row whose lease ran out
 *   (its process died) is claimed again by any runner. `key` is an idempotency key: the same key
 *   never makes two rows. Progress (done, total, message) is written while the job runs and shown
 *   in the scheduler log; `rerun_of` links a run started again by hand to the one it repeats.
 * - job_schedules: the last slot each recurring job was enqueued for; a slot is claimed by moving
 *   last_slot forward in one statement, so two processes never run the same slot twice.
 * - export_log gains the job that writes the file, the file's place under EXPORT_DIR, its size and
 *   the export's kind and filter; rows written by the older synchronous exports keep job_id NULL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
CREATE TABLE jobs (
  id bigserial PRIMARY KEY,
  kind text NOT NULL,
  payload jsonb NOT NULL DEFAULT '{}',
  key text UNIQUE,
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'running', 'finished', 'failed', 'killed')),
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 3 CHECK (max_attempts >= 1),
  run_at timestamptz NOT NULL DEFAULT now(),
  locked_by text,
  lease_until timestamptz,
  progress_done bigint NOT NULL DEFAULT 0,
  progress_total bigint,
  progress_message text NOT NULL DEFAULT '',
  result jsonb,
  error text NOT NULL DEFAULT '',
  schedule text,
  rerun_of bigint REFERENCES jobs(id) ON DELETE SET NULL,
  user_id integer REFERENCES users(user_id) ON DELETE SET NULL,
  user_name text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  killed_by text
);
CREATE INDEX jobs_due ON jobs (run_at) WHERE status = 'pending';
CREATE INDEX jobs_lease ON jobs (lease_until) WHERE status = 'running';
CREATE INDEX jobs_created ON jobs (created_at);
CREATE INDEX jobs_kind ON jobs (kind, created_at);

CREATE TABLE job_schedules (
  name text PRIMARY KEY,
  last_slot timestamptz NOT NULL,
  job_id bigint REFERENCES jobs(id) ON DELETE SET NULL
);

ALTER TABLE export_log
  ADD COLUMN job_id bigint REFERENCES jobs(id) ON DELETE SET NULL,
  ADD COLUMN kind text,
  ADD COLUMN filter jsonb,
  ADD COLUMN path text,
  ADD COLUMN size_bytes bigint,
  ADD COLUMN row_count integer;
CREATE INDEX export_log_job ON export_log (job_id);
`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `ALTER TABLE export_log DROP COLUMN job_id, DROP COLUMN kind, DROP COLUMN filter, DROP COLUMN path,
         DROP COLUMN size_bytes, DROP COLUMN row_count;
       DROP TABLE job_schedules; DROP TABLE jobs;`,
    )
    .execute(db);
}
