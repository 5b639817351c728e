import { sql, type Kysely } from 'kysely';

/**
 * 0012_cdr: the money path (issue 10, DESIGN 6): call detail records, the batches they came in,
 * the ledger of every balance change.
 *
 * - cdr_batches: one row per batch the switch (or a file import) sent; the batch id is unique, so
 *   a resent batch is answered as a duplicate and changes nothing.
 * - cdr_keys: (call_id, attempt) of every stored CDR, unique across all days, with the CDR's id and
 *   start: a CDR sent again in another batch (or back-filled from a file with other time precision)
 *   is skipped, never billed twice. Also how the one-call view finds every attempt of a call.
 * - cdrs: one row per call attempt with both legs as rated (rate table, code, rate, billed time,
 *   cost) so every figure can be explained later. Partitioned by range of start_time, one partition
 *   per UTC day (made ahead by a job and on demand by the ingest; dropped by the retention job).
 *   Indexed for "one carrier over a time range" (ingress and egress side) and "everything over a
 *   time range".
 * - ledger: every change of a carrier's balance, with the balance before and after. The balance on
 *   the carrier is the sum of its ledger; (client_id, kind, side, ref) is unique so each source
 *   (a CDR batch, a rerate run, a payment) moves a balance once. Balances already stored become an
 *   opening row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
CREATE TABLE cdr_batches (
  batch_id text PRIMARY KEY,
  source text NOT NULL CHECK (source IN ('switch', 'file', 'demo')),
  received_at timestamptz NOT NULL DEFAULT now(),
  received integer NOT NULL DEFAULT 0,
  stored integer NOT NULL DEFAULT 0,
  duplicates integer NOT NULL DEFAULT 0,
  unpriced integer NOT NULL DEFAULT 0,
  revenue numeric(20,6) NOT NULL DEFAULT 0,
  cost numeric(20,6) NOT NULL DEFAULT 0
);

CREATE TABLE cdr_keys (
  call_id text NOT NULL,
  attempt smallint NOT NULL,
  cdr_id bigserial NOT NULL,
  start_time timestamptz NOT NULL,
  PRIMARY KEY (call_id, attempt)
);
CREATE INDEX cdr_keys_start ON cdr_keys USING brin (start_time);

CREATE TABLE cdrs (
  cdr_id bigint NOT NULL,
  batch_id text NOT NULL,
  call_id text NOT NULL,
  attempt smallint NOT NULL,
  is_final_attempt boolean NOT NULL,
  start_time timestamptz NOT NULL,
  answer_time timestamptz,
  end_time timestamptz NOT NULL,
  call_duration integer NOT NULL,
  pdd integer NOT NULL,
  ring_time integer,
  ingress_trunk_id integer NOT NULL,
  egress_trunk_id integer,
  ingress_client_id integer,
  egress_client_id integer,
  source_ip text NOT NULL,
  egress_host text,
  ani text NOT NULL,
  dnis text NOT NULL,
  egress_dnis text,
  lrn text,
  routing_ani text,
  routing_dnis text,
  release_cause integer NOT NULL,
  q850_cause integer,
  release_side text NOT NULL,
  codec text,
  ingress_rate_table_id integer,
  ingress_code text,
  ingress_code_name text,
  orig_country text,
  ingress_rate numeric(18,6),
  ingress_setup_fee numeric(18,6),
  ingress_rate_column text,
  ingress_jurisdiction text,
  ingress_billed_time integer NOT NULL DEFAULT 0,
  ingress_client_cost numeric(20,6) NOT NULL DEFAULT 0,
  short_call_charge numeric(20,6) NOT NULL DEFAULT 0,
  egress_rate_table_id integer,
  egress_code text,
  egress_code_name text,
  term_country text,
  egress_rate numeric(18,6),
  egress_setup_fee numeric(18,6),
  egress_rate_column text,
  egress_jurisdiction text,
  egress_billed_time integer NOT NULL DEFAULT 0,
  egress_cost numeric(20,6) NOT NULL DEFAULT 0,
  profit numeric(20,6) NOT NULL DEFAULT 0,
  unpriced_reason text,
  rated_at timestamptz NOT NULL DEFAULT now(),
  rerated integer NOT NULL DEFAULT 0
) PARTITION BY RANGE (start_time);
CREATE INDEX cdrs_start ON cdrs (start_time);
CREATE INDEX cdrs_ingress_client ON cdrs (ingress_client_id, start_time);
CREATE INDEX cdrs_egress_client ON cdrs (egress_client_id, start_time);
CREATE INDEX cdrs_id ON cdrs (cdr_id);

CREATE TABLE ledger (
  ledger_id bigserial PRIMARY KEY,
  client_id integer NOT NULL REFERENCES carriers(client_id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  kind text NOT NULL CHECK (kind IN ('opening', 'usage', 'payment', 'adjustment', 'rerate', 'credit_note', 'debit_note', 'reset')),
  side text NOT NULL DEFAULT '' CHECK (side IN ('', 'customer', 'vendor')),
  ref text NOT NULL,
  amount numeric(20,6) NOT NULL,
  balance_before numeric(20,6) NOT NULL,
  balance_after numeric(20,6) NOT NULL,
  cdr_count integer NOT NULL DEFAULT 0,
  note text NOT NULL DEFAULT '',
  created_by text NOT NULL DEFAULT 'system',
  UNIQUE (client_id, kind, side, ref),
  CHECK (balance_after = balance_before + amount)
);
CREATE INDEX ledger_client_time ON ledger (client_id, created_at);
CREATE INDEX ledger_time ON ledger (created_at);

INSERT INTO ledger (client_id, kind, ref, amount, balance_before, balance_after, note)
SELECT client_id, 'opening', 'opening', balance, 0, balance, 'Balance before the ledger existed'
FROM carriers WHERE balance <> 0;
`,
    )
    .execute(db);
}
