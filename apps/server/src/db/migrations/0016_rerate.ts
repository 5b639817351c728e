import { sql, type Kysely } from 'kysely';

/**
 * 0016_rerate: Tools > Rerate runs and regenerate balance's ledger rows (issue 10 section 3).
 *
 * - rerate_runs: one row per rerate: who asked, the filter (time range, carriers, trunks, unpriced
 *   only, a named rate table per side), the state (previewing -> previewed -> applying -> applied,
 *   or failed), progress (matched, processed), the preview's and the apply's figures (CDRs,
 *   changed, priced, old and new revenue and cost, per carrier, a sample of changed CDRs), and the
 *   apply's cursor: the last (start_time, cdr_id) and chunk number committed, so a resumed apply
 *   carries on after the last committed chunk.
 * - ledger kind 'regenerate': a zero-amount row that records a stored balance set back to its
 *   ledger sum (Finance > Regenerate Balance).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
CREATE TABLE rerate_runs (
  run_id serial PRIMARY KEY,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  filter jsonb NOT NULL,
  state text NOT NULL DEFAULT 'previewing'
    CHECK (state IN ('previewing', 'previewed', 'applying', 'applied', 'failed')),
  matched integer NOT NULL DEFAULT 0,
  processed integer NOT NULL DEFAULT 0,
  preview jsonb,
  result jsonb,
  cursor_start timestamptz,
  cursor_id bigint,
  chunk integer NOT NULL DEFAULT 0,
  applied_by text,
  apply_started_at timestamptz,
  finished_at timestamptz,
  error text NOT NULL DEFAULT ''
);
CREATE INDEX rerate_runs_created ON rerate_runs (created_at);

ALTER TABLE ledger DROP CONSTRAINT ledger_kind_check;
ALTER TABLE ledger ADD CONSTRAINT ledger_kind_check CHECK (kind IN ('opening', 'usage', 'payment',
  'adjustment', 'rerate', 'credit_note', 'debit_note', 'reset', 'regenerate'));
`,
    )
    .execute(db);
}
