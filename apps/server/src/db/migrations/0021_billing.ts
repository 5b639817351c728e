import { sql, type Kysely } from 'kysely';

/**
 * 0021_billing: the Finance module (issue 12, docs/billing.md).
 *
 * - invoice_settings: how invoices look and travel (decimal places, logo, attachment or link, overlap
 *   protection, billing and company text at top or bottom); one may be the default. A carrier is
 *   assigned one (carriers.invoice_setting_id), else the default applies.
 * - invoices (the frame's table, extended): one bill of one carrier for one period [period_start,
 *   period_end) (UTC instants cut at the carrier's local midnight), side customer (what it bought) or
 *   vendor (what it sold us). usage_exact at 6 places; subtotal, tax and amount (the total) rounded to
 *   decimal_places; paid_amount, credited, debited and pay_status follow payments and notes. auto_key
 *   makes an automatic invoice once per carrier, side and period whatever runs or processes.
 *   The public link's token is stored hashed, with its expiry.
 * - payments: received from a client or sent to a vendor; each is one ledger row (kind 'payment',
 *   ref 'payment:<id>'), a cancel one reversing row ('payment:<id>:cancel'). idempotency_key makes a
 *   provider's or a client's retry record it once.
 * - payment_allocations: which invoices a payment pays, and how much of each.
 * - billing_notes: credit notes (in the carrier's favour) and debit notes, each a ledger row, on an
 *   invoice or free-standing.
 * - invoice_log: created, sent, failed, voided, reversed, skipped... (Log > Invoice Log).
 * - auto_invoices: the automatic invoicing of a carrier (started or stopped) and how far it got.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
CREATE TABLE invoice_settings (
  invoice_setting_id serial PRIMARY KEY,
  name text NOT NULL,
  logo text NOT NULL DEFAULT '',
  decimal_places smallint NOT NULL DEFAULT 2 CHECK (decimal_places BETWEEN 0 AND 6),
  invoice_delivery text NOT NULL DEFAULT 'attachment' CHECK (invoice_delivery IN ('attachment', 'link')),
  cdr_delivery text NOT NULL DEFAULT 'attachment' CHECK (cdr_delivery IN ('attachment', 'link')),
  overlap_protection boolean NOT NULL DEFAULT true,
  billing_info text NOT NULL DEFAULT '',
  billing_info_position text NOT NULL DEFAULT 'top' CHECK (billing_info_position IN ('top', 'bottom')),
  company_info text NOT NULL DEFAULT '',
  company_info_position text NOT NULL DEFAULT 'top' CHECK (company_info_position IN ('top', 'bottom')),
  tax_percent numeric(9,4) NOT NULL DEFAULT 0 CHECK (tax_percent >= 0 AND tax_percent <= 100),
  link_days integer NOT NULL DEFAULT 30 CHECK (link_days >= 0),
  is_default boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX invoice_settings_name_uq ON invoice_settings (lower(name));
CREATE UNIQUE INDEX invoice_settings_one_default ON invoice_settings (is_default) WHERE is_default;

ALTER TABLE carriers ADD COLUMN invoice_setting_id integer REFERENCES invoice_settings(invoice_setting_id) ON DELETE SET NULL;

CREATE SEQUENCE invoice_number_seq;
ALTER TABLE invoices
  ADD COLUMN side text NOT NULL DEFAULT 'customer' CHECK (side IN ('customer', 'vendor')),
  ADD COLUMN origin text NOT NULL DEFAULT 'manual' CHECK (origin IN ('manual', 'auto')),
  ADD COLUMN time_zone text NOT NULL DEFAULT '+0000',
  ADD COLUMN decimal_places smallint NOT NULL DEFAULT 2 CHECK (decimal_places BETWEEN 0 AND 6),
  ADD COLUMN calls bigint NOT NULL DEFAULT 0,
  ADD COLUMN billed_seconds bigint NOT NULL DEFAULT 0,
  ADD COLUMN usage_exact numeric(24,6) NOT NULL DEFAULT 0,
  ADD COLUMN subtotal numeric(20,6) NOT NULL DEFAULT 0,
  ADD COLUMN tax_percent numeric(9,4) NOT NULL DEFAULT 0,
  ADD COLUMN tax numeric(20,6) NOT NULL DEFAULT 0,
  ADD COLUMN opening_balance numeric(20,6) NOT NULL DEFAULT 0,
  ADD COLUMN closing_balance numeric(20,6) NOT NULL DEFAULT 0,
  ADD COLUMN credited numeric(20,6) NOT NULL DEFAULT 0,
  ADD COLUMN debited numeric(20,6) NOT NULL DEFAULT 0,
  ADD COLUMN pay_status text NOT NULL DEFAULT 'unpaid' CHECK (pay_status IN ('unpaid', 'partially_paid', 'paid')),
  ADD COLUMN lines jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN options jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN setting jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN invoice_setting_id integer REFERENCES invoice_settings(invoice_setting_id) ON DELETE SET NULL,
  ADD COLUMN token_hash text UNIQUE,
  ADD COLUMN token_expires_at timestamptz,
  ADD COLUMN auto_key text UNIQUE,
  ADD COLUMN note text NOT NULL DEFAULT '',
  ADD COLUMN created_by text NOT NULL DEFAULT 'system',
  ADD COLUMN voided_at timestamptz,
  ADD COLUMN voided_by text,
  ADD CONSTRAINT invoices_period_check CHECK (period_end > period_start);
UPDATE invoices SET subtotal = amount, usage_exact = amount,
  pay_status = CASE WHEN paid_amount >= amount THEN 'paid' WHEN paid_amount > 0 THEN 'partially_paid' ELSE 'unpaid' END;
CREATE INDEX invoices_period ON invoices (client_id, period_start);

CREATE TABLE payments (
  payment_id serial PRIMARY KEY,
  client_id integer NOT NULL REFERENCES carriers(client_id) ON DELETE CASCADE,
  direction text NOT NULL CHECK (direction IN ('received', 'sent')),
  amount numeric(20,6) NOT NULL CHECK (amount > 0),
  fee numeric(20,6) NOT NULL DEFAULT 0 CHECK (fee >= 0),
  paid_at timestamptz NOT NULL DEFAULT now(),
  method text NOT NULL DEFAULT 'manual',
  transaction_id text NOT NULL DEFAULT '',
  note text NOT NULL DEFAULT '',
  idempotency_key text,
  status text NOT NULL DEFAULT 'completed' CHECK (status IN ('completed', 'canceled')),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  canceled_at timestamptz,
  canceled_by text,
  cancel_note text NOT NULL DEFAULT '',
  UNIQUE (client_id, idempotency_key)
);
CREATE INDEX payments_client ON payments (client_id, paid_at);

CREATE TABLE payment_allocations (
  payment_id integer NOT NULL REFERENCES payments(payment_id) ON DELETE CASCADE,
  invoice_id integer NOT NULL REFERENCES invoices(invoice_id) ON DELETE CASCADE,
  amount numeric(20,6) NOT NULL CHECK (amount > 0),
  PRIMARY KEY (payment_id, invoice_id)
);
CREATE INDEX payment_allocations_invoice ON payment_allocations (invoice_id);

CREATE TABLE billing_notes (
  note_id serial PRIMARY KEY,
  client_id integer NOT NULL REFERENCES carriers(client_id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('credit', 'debit')),
  invoice_id integer REFERENCES invoices(invoice_id) ON DELETE SET NULL,
  amount numeric(20,6) NOT NULL CHECK (amount > 0),
  note text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'normal' CHECK (status IN ('normal', 'canceled')),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system',
  canceled_at timestamptz,
  canceled_by text
);
CREATE INDEX billing_notes_client ON billing_notes (client_id, created_at);
CREATE INDEX billing_notes_invoice ON billing_notes (invoice_id);

CREATE TABLE invoice_log (
  log_id bigserial PRIMARY KEY,
  invoice_id integer REFERENCES invoices(invoice_id) ON DELETE SET NULL,
  client_id integer REFERENCES carriers(client_id) ON DELETE SET NULL,
  invoice_number text NOT NULL DEFAULT '',
  action text NOT NULL,
  status text NOT NULL DEFAULT 'success' CHECK (status IN ('success', 'failed', 'skipped')),
  message text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by text NOT NULL DEFAULT 'system'
);
CREATE INDEX invoice_log_time ON invoice_log (created_at);

CREATE TABLE auto_invoices (
  client_id integer PRIMARY KEY REFERENCES carriers(client_id) ON DELETE CASCADE,
  side text NOT NULL DEFAULT 'customer' CHECK (side IN ('customer', 'vendor')),
  first_period_from timestamptz NOT NULL,
  last_period_end timestamptz,
  last_run_at timestamptz,
  last_error text NOT NULL DEFAULT '',
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL DEFAULT ''
);
`,
    )
    .execute(db);
}
