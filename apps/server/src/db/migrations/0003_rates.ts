import { sql, type Kysely } from 'kysely';

/**
 * 0003_rates: what the rates area adds to 0002 (code decks, rate tables, rates, US jurisdiction):
 * rate upload templates, auto rate import rules, the outcome and per-row errors of each rate import
 * (one row per rate_import_tasks row of 0001), the staging table imports load in bulk before they
 * apply in one transaction, and the rate mass edit log; rates get room for HOT updates.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
CREATE TABLE rate_upload_templates (
  id serial PRIMARY KEY,
  name text NOT NULL,
  delete_existing boolean NOT NULL DEFAULT false,
  end_date_option text NOT NULL DEFAULT 'end_previous' CHECK (end_date_option IN ('keep', 'end_previous', 'end_previous_and_absent')),
  effective_date_format text NOT NULL DEFAULT 'YYYY-MM-DD',
  has_code_deck boolean NOT NULL DEFAULT true,
  default_effective_days integer NOT NULL DEFAULT 0 CHECK (default_effective_days BETWEEN 0 AND 365),
  duplicate_mode text NOT NULL DEFAULT 'reject' CHECK (duplicate_mode IN ('reject', 'skip', 'overwrite')),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX rate_upload_templates_name_uq ON rate_upload_templates (lower(name));

CREATE TABLE auto_rate_import_rules (
  id serial PRIMARY KEY,
  name text NOT NULL,
  rate_table_id integer NOT NULL REFERENCES rate_tables(rate_table_id),
  template_id integer REFERENCES rate_upload_templates(id),
  email_subject text NOT NULL DEFAULT '',
  is_active boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX auto_rate_import_rules_name_uq ON auto_rate_import_rules (lower(name));

CREATE TABLE rate_import_results (
  task_id bigint PRIMARY KEY REFERENCES rate_import_tasks(id) ON DELETE CASCADE,
  user_name text NOT NULL DEFAULT '',
  source text NOT NULL DEFAULT 'rate_table',
  duplicate_mode text NOT NULL,
  options jsonb NOT NULL DEFAULT '{}',
  total_rows integer NOT NULL DEFAULT 0,
  inserted_rows integer NOT NULL DEFAULT 0,
  updated_rows integer NOT NULL DEFAULT 0,
  skipped_rows integer NOT NULL DEFAULT 0,
  ended_rows integer NOT NULL DEFAULT 0,
  deleted_rows integer NOT NULL DEFAULT 0,
  error_rows integer NOT NULL DEFAULT 0,
  message text NOT NULL DEFAULT '',
  finished_at timestamptz
);

CREATE TABLE rate_import_errors (
  id bigserial PRIMARY KEY,
  task_id bigint NOT NULL REFERENCES rate_import_tasks(id) ON DELETE CASCADE,
  line integer NOT NULL,
  code text NOT NULL DEFAULT '',
  field text NOT NULL DEFAULT '',
  message_key text NOT NULL,
  params jsonb NOT NULL DEFAULT '[]'
);
CREATE INDEX rate_import_errors_task ON rate_import_errors (task_id, line);

CREATE UNLOGGED TABLE rate_import_rows (
  task_id bigint NOT NULL,
  line integer NOT NULL,
  code text NOT NULL,
  code_name text,
  country text,
  rate numeric(18,6),
  intra_rate numeric(18,6),
  inter_rate numeric(18,6),
  ij_rate numeric(18,6),
  local_rate numeric(18,6),
  min_time integer,
  "interval" integer,
  grace_time integer,
  setup_fee numeric(18,6),
  effective_date timestamptz NOT NULL,
  end_date timestamptz
);

CREATE TABLE rate_mass_edit_log (
  id bigserial PRIMARY KEY,
  rate_table_id integer REFERENCES rate_tables(rate_table_id) ON DELETE SET NULL,
  rate_table_name text NOT NULL DEFAULT '',
  user_id integer REFERENCES users(user_id) ON DELETE SET NULL,
  user_name text NOT NULL DEFAULT '',
  filter jsonb NOT NULL DEFAULT '{}',
  actions jsonb NOT NULL DEFAULT '{}',
  affected_rows integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rate_mass_edit_log_created ON rate_mass_edit_log (created_at);

CREATE INDEX codes_deck_name ON codes (code_deck_id, code_name);

-- Rate rows are rewritten in bulk (imports with overwrite, end dates, mass edits) without touching
-- an indexed column: with half of each page free such updates are HOT (no index entries), several
-- times cheaper. (rate_table_id, code) lookups use the unique (rate_table_id, code, effective_date)
-- index, so the separate index of 0002 only cost every write its upkeep.
ALTER TABLE rates SET (fillfactor = 50);
DROP INDEX IF EXISTS rates_table_code;
CREATE INDEX us_jurisdiction_state ON us_jurisdiction (state);
`,
    )
    .execute(db);
}
