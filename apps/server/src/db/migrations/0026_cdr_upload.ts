import { sql, type Kysely } from 'kysely';

/**
 * 0026_cdr_upload: CDR files uploaded on the CDR screen (issue 10 section 1, docs/cdr.md "Upload on
 * the CDR screen").
 *
 * cdr_uploads: one row per upload, refused or accepted: the file's name, size and format, where it
 * waits for its job (under DATA_DIR), how many CDRs it holds, the problems that refused it (row,
 * field, message key and parameters, shown in the reader's language), who uploaded it, and the job
 * that ingests it (its state, progress and totals are the job's: the upload log reads them there).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
CREATE TABLE cdr_uploads (
  id serial PRIMARY KEY,
  file_name text NOT NULL,
  size bigint NOT NULL,
  kind text NOT NULL CHECK (kind IN ('csv', 'jsonl')),
  path text NOT NULL DEFAULT '',
  cdrs integer NOT NULL DEFAULT 0,
  refused boolean NOT NULL DEFAULT false,
  problems jsonb NOT NULL DEFAULT '[]',
  job_id bigint REFERENCES jobs (id) ON DELETE SET NULL,
  user_id integer,
  user_name text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cdr_uploads_created ON cdr_uploads (created_at);
`,
    )
    .execute(db);
}
