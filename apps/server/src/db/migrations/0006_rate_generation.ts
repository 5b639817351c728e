import { sql, type Kysely } from 'kysely';

/**
 * 0006_rate_generation: Tools > Rate Generation.
 * - templates (margin ranges as jsonb, in the contract's shape) and their egress trunks, in order;
 * - the history of generation runs (the template's settings copied at the start, so a later edit of
 *   the template does not change what a run says it did) and the rates each run produced, with the
 *   cost, vendor trunk and margin behind each.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
CREATE TABLE rate_generation_templates (
  id serial PRIMARY KEY,
  name text NOT NULL,
  rate_table_type text NOT NULL DEFAULT 'a_z' CHECK (rate_table_type IN ('a_z', 'us_jurisdictional', 'us_non_jurisdictional')),
  lcr_basis text NOT NULL DEFAULT 'lcr1' CHECK (lcr_basis IN ('lcr1', 'lcr2', 'lcr3', 'average')),
  average_count smallint NOT NULL DEFAULT 3 CHECK (average_count BETWEEN 1 AND 10),
  default_rate numeric(18,6) CHECK (default_rate IS NULL OR default_rate >= 0),
  decimal_places smallint NOT NULL DEFAULT 4 CHECK (decimal_places BETWEEN 0 AND 6),
  code_deck_id integer REFERENCES code_decks(code_deck_id),
  margins jsonb NOT NULL DEFAULT '[]',
  "interval" integer NOT NULL DEFAULT 1 CHECK ("interval" >= 1),
  min_time integer NOT NULL DEFAULT 1 CHECK (min_time >= 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX rate_generation_templates_name_uq ON rate_generation_templates (lower(name));

CREATE TABLE rate_generation_template_trunks (
  template_id integer NOT NULL REFERENCES rate_generation_templates(id) ON DELETE CASCADE,
  trunk_id integer NOT NULL REFERENCES trunks(trunk_id) ON DELETE CASCADE,
  position smallint NOT NULL,
  PRIMARY KEY (template_id, trunk_id)
);
CREATE INDEX rate_generation_template_trunks_trunk ON rate_generation_template_trunks (trunk_id);

CREATE TABLE rate_generation_history (
  id bigserial PRIMARY KEY,
  template_id integer REFERENCES rate_generation_templates(id) ON DELETE SET NULL,
  template_name text NOT NULL,
  settings jsonb NOT NULL,
  rate_table_type text NOT NULL,
  decimal_places smallint NOT NULL,
  status text NOT NULL DEFAULT 'Initial' CHECK (status IN ('Initial', 'Finished', 'Failed')),
  user_id integer REFERENCES users(user_id) ON DELETE SET NULL,
  created_by text NOT NULL,
  start_time timestamptz NOT NULL DEFAULT now(),
  finish_time timestamptz,
  rate_date timestamptz NOT NULL,
  rate_count integer NOT NULL DEFAULT 0,
  applied boolean NOT NULL DEFAULT false,
  applied_at timestamptz,
  rate_table_id integer REFERENCES rate_tables(rate_table_id) ON DELETE SET NULL,
  rate_table_name text,
  import_task_id bigint REFERENCES rate_import_tasks(id) ON DELETE SET NULL,
  message text NOT NULL DEFAULT ''
);
CREATE INDEX rate_generation_history_template ON rate_generation_history (template_id, start_time);

CREATE TABLE rate_generation_rates (
  history_id bigint NOT NULL REFERENCES rate_generation_history(id) ON DELETE CASCADE,
  code text NOT NULL CHECK (code ~ '^[0-9]+$'),
  code_name text NOT NULL DEFAULT '',
  country text NOT NULL DEFAULT '',
  rate numeric(18,6) NOT NULL,
  intra_rate numeric(18,6),
  inter_rate numeric(18,6),
  ij_rate numeric(18,6),
  local_rate numeric(18,6),
  cost numeric(18,6),
  vendor_trunk_id integer,
  vendor_trunk_name text,
  markup_type text CHECK (markup_type IS NULL OR markup_type IN ('percentage', 'fixed')),
  markup numeric(18,6),
  source text NOT NULL CHECK (source IN ('vendor', 'default')),
  vendor_count integer NOT NULL DEFAULT 0,
  PRIMARY KEY (history_id, code)
);
`,
    )
    .execute(db);
}
