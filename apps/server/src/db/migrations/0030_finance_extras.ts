import { sql, type Kysely } from 'kysely';

/**
 * 0030_finance_extras (issue 12, docs/billing.md "Extra charges" and "Vendor invoices"):
 * - extra_charges: one-off or recurring (daily, weekly, monthly) charges on a carrier, each created
 *   once per idempotency key; extra_charge_runs: each occurrence charged once (primary key charge +
 *   occurrence), with its ledger row 'extra_charge' (ref `extra_charge:<id>:<date>`), cancelled by
 *   a reversing row (`…:cancel`);
 * - invoices.extra_charges: the charges an invoice shows (their lines are in invoices.lines);
 * - vendor_invoices: invoices received from vendors (number unique per vendor), Tandem's figures of
 *   the same period at the last comparison, the dispute state; settling one writes at most one
 *   ledger row 'adjustment' (ref `vendor_invoice:<id>`); vendor_invoice_files: its PDF, if uploaded;
 * - ledger kind 'extra_charge' (added to whatever list the constraint holds, so other areas' kinds stay).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
CREATE TABLE extra_charges (
  extra_charge_id serial PRIMARY KEY,
  client_id integer NOT NULL REFERENCES carriers(client_id),
  side text NOT NULL DEFAULT 'customer' CHECK (side IN ('customer', 'vendor')),
  name text NOT NULL,
  amount numeric(20,6) NOT NULL CHECK (amount > 0),
  frequency text NOT NULL CHECK (frequency IN ('once', 'daily', 'weekly', 'monthly')),
  start_date date NOT NULL,
  end_date date,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'stopped', 'finished')),
  charged_count integer NOT NULL DEFAULT 0,
  last_charged_date date,
  note text NOT NULL DEFAULT '',
  idempotency_key text,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT '',
  stopped_at timestamptz,
  stopped_by text,
  CONSTRAINT extra_charges_idempotency UNIQUE (client_id, idempotency_key)
);
CREATE INDEX extra_charges_due ON extra_charges (status, client_id);

CREATE TABLE extra_charge_runs (
  extra_charge_id integer NOT NULL REFERENCES extra_charges(extra_charge_id),
  occurrence integer NOT NULL,
  charge_date date NOT NULL,
  client_id integer NOT NULL,
  side text NOT NULL,
  amount numeric(20,6) NOT NULL,
  status text NOT NULL DEFAULT 'charged' CHECK (status IN ('charged', 'canceled')),
  charged_at timestamptz NOT NULL DEFAULT now(),
  canceled_at timestamptz,
  canceled_by text,
  PRIMARY KEY (extra_charge_id, occurrence)
);
CREATE INDEX extra_charge_runs_carrier ON extra_charge_runs (client_id, side, charge_date);

ALTER TABLE invoices ADD COLUMN extra_charges numeric(20,6) NOT NULL DEFAULT 0;

CREATE TABLE vendor_invoices (
  vendor_invoice_id serial PRIMARY KEY,
  client_id integer NOT NULL REFERENCES carriers(client_id),
  invoice_number text NOT NULL,
  invoice_date date NOT NULL,
  period_from date NOT NULL,
  period_to date NOT NULL,
  period_start timestamptz NOT NULL,
  period_end timestamptz NOT NULL,
  time_zone text NOT NULL,
  currency text NOT NULL,
  amount numeric(20,6) NOT NULL,
  minutes numeric(20,6),
  lines jsonb NOT NULL DEFAULT '[]',
  our_amount numeric(20,6) NOT NULL DEFAULT 0,
  our_seconds bigint NOT NULL DEFAULT 0,
  our_calls bigint NOT NULL DEFAULT 0,
  compared_at timestamptz NOT NULL DEFAULT now(),
  status text NOT NULL DEFAULT 'received' CHECK (status IN ('received', 'disputed', 'accepted', 'resolved')),
  disputed_amount numeric(20,6),
  dispute_note text NOT NULL DEFAULT '',
  disputed_at timestamptz,
  disputed_by text,
  agreed_amount numeric(20,6),
  adjustment numeric(20,6),
  settle_note text NOT NULL DEFAULT '',
  settled_at timestamptz,
  settled_by text,
  note text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT '',
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT vendor_invoices_number UNIQUE (client_id, invoice_number),
  CHECK (period_to >= period_from)
);
CREATE INDEX vendor_invoices_period ON vendor_invoices (client_id, period_start);

CREATE TABLE vendor_invoice_files (
  vendor_invoice_id integer PRIMARY KEY REFERENCES vendor_invoices(vendor_invoice_id) ON DELETE CASCADE,
  file_name text NOT NULL,
  size integer NOT NULL,
  content bytea NOT NULL,
  uploaded_at timestamptz NOT NULL DEFAULT now(),
  uploaded_by text NOT NULL DEFAULT ''
);
`,
    )
    .execute(db);

  // Add 'extra_charge' to the ledger kinds, keeping every kind the constraint lists now.
  const def = await sql<{ def: string }>`
    SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'ledger_kind_check'`.execute(
    db,
  );
  const kinds = [...(def.rows[0]?.def ?? '').matchAll(/'([a-z_]+)'/g)].map((m) => m[1] as string);
  if (!kinds.includes('extra_charge')) kinds.push('extra_charge');
  await sql.raw(`ALTER TABLE ledger DROP CONSTRAINT IF EXISTS ledger_kind_check`).execute(db);
  await sql
    .raw(
      `ALTER TABLE ledger ADD CONSTRAINT ledger_kind_check CHECK (kind IN (${kinds.map((k) => `'${k}'`).join(', ')}))`,
    )
    .execute(db);
}
