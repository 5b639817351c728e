import { sql, type Kysely } from 'kysely';

/**
 * 0039_balance_resets: Finance's "reset balance" (spec 02: "Reset balance job: pending or finished";
 * Log > Reset Balance Log). A reset sets a carrier's balance to a value now or at a chosen time: a
 * row here (pending), a durable job at `run_at` that writes one 'reset' ledger row of the difference
 * (ref `reset-<id>`, so it moves the balance once whatever retries) and marks the row finished with
 * the balance before and the amount; a pending one can be cancelled. docs/billing.md.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
CREATE TABLE balance_resets (
  reset_id serial PRIMARY KEY,
  client_id integer NOT NULL REFERENCES carriers(client_id) ON DELETE CASCADE,
  balance numeric(20,6) NOT NULL,
  run_at timestamptz NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'finished', 'cancelled')),
  note text NOT NULL DEFAULT '',
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  balance_before numeric(20,6),
  amount numeric(20,6),
  finished_at timestamptz,
  cancelled_by text
);
CREATE INDEX balance_resets_client ON balance_resets (client_id, reset_id);
`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`DROP TABLE balance_resets;`).execute(db);
}
