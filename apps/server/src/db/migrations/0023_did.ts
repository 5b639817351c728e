import { sql, type Kysely } from 'kysely';

/**
 * 0023_did: the DID (origination) module (issue 14, docs/did.md).
 *
 * - did_billing_rules: fixed or variable; monthly price per DID, per minute, per channel, setup fee.
 * - did_products: a named offer of a billing rule that DID clients take.
 * - did_vendors / did_clients: the DID terms of a carrier (company_type 'origination'); each has
 *   its DID trunk (trunks.trunk_type2 'did': the vendor's ingress trunk identifies its calls by
 *   source IP, the client's egress trunk is where its numbers' calls go).
 * - dids: the repository; a number is unique; state assigned | unassigned | reserved | released;
 *   did_history keeps every change.
 * - did_charges: each recurring or one-off DID charge once (carrier, side, kind, DID, period);
 *   the ledger row it made carries the same reference.
 * - did_upload_tasks (frame table): the DID import log gains the vendor, the mode and the counts.
 * - ledger kind 'did_charge' (added to whatever list the constraint holds, so other areas' kinds stay).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
CREATE TABLE did_billing_rules (
  id serial PRIMARY KEY,
  name text NOT NULL,
  type text NOT NULL DEFAULT 'fixed' CHECK (type IN ('fixed', 'variable')),
  monthly_price numeric(18,6) NOT NULL DEFAULT 0 CHECK (monthly_price >= 0),
  per_minute numeric(18,6) NOT NULL DEFAULT 0 CHECK (per_minute >= 0),
  per_channel numeric(18,6) NOT NULL DEFAULT 0 CHECK (per_channel >= 0),
  setup_fee numeric(18,6) NOT NULL DEFAULT 0 CHECK (setup_fee >= 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX did_billing_rules_name_uq ON did_billing_rules (lower(name));

CREATE TABLE did_products (
  id serial PRIMARY KEY,
  name text NOT NULL,
  billing_rule_id integer NOT NULL REFERENCES did_billing_rules(id),
  description text NOT NULL DEFAULT '',
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX did_products_name_uq ON did_products (lower(name));

CREATE TABLE did_vendors (
  carrier_id integer PRIMARY KEY REFERENCES carriers(client_id) ON DELETE CASCADE,
  trunk_id integer REFERENCES trunks(trunk_id) ON DELETE SET NULL,
  decimal_places smallint NOT NULL DEFAULT 4 CHECK (decimal_places BETWEEN 0 AND 6),
  billing_rule_id integer REFERENCES did_billing_rules(id),
  auth_type text NOT NULL DEFAULT 'ip' CHECK (auth_type IN ('ip', 'host'))
);

CREATE TABLE did_clients (
  carrier_id integer PRIMARY KEY REFERENCES carriers(client_id) ON DELETE CASCADE,
  trunk_id integer REFERENCES trunks(trunk_id) ON DELETE SET NULL,
  billing_rule_id integer REFERENCES did_billing_rules(id),
  did_product_id integer REFERENCES did_products(id),
  auth_type text NOT NULL DEFAULT 'host' CHECK (auth_type IN ('host', 'registration')),
  round_up boolean NOT NULL DEFAULT false,
  channels integer NOT NULL DEFAULT 0 CHECK (channels >= 0),
  grace_days integer NOT NULL DEFAULT 7 CHECK (grace_days >= 0),
  buy_needs_approval boolean NOT NULL DEFAULT false,
  signin_notification boolean NOT NULL DEFAULT false
);

CREATE TABLE dids (
  did_id serial PRIMARY KEY,
  number text NOT NULL UNIQUE CHECK (number ~ '^[0-9]{7,15}$'),
  vendor_id integer NOT NULL REFERENCES carriers(client_id),
  client_id integer REFERENCES carriers(client_id),
  vendor_billing_rule_id integer REFERENCES did_billing_rules(id),
  client_billing_rule_id integer REFERENCES did_billing_rules(id),
  state text NOT NULL DEFAULT 'unassigned' CHECK (state IN ('assigned', 'unassigned', 'reserved', 'released')),
  reserved_for integer REFERENCES carriers(client_id),
  assigned_at timestamptz,
  released_at timestamptz,
  suspended_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((state = 'assigned') = (client_id IS NOT NULL))
);
CREATE INDEX dids_vendor ON dids (vendor_id, number);
CREATE INDEX dids_client ON dids (client_id, assigned_at);
CREATE INDEX dids_state ON dids (state, number);

CREATE TABLE did_history (
  id bigserial PRIMARY KEY,
  did_id integer NOT NULL REFERENCES dids(did_id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  action text NOT NULL,
  state text NOT NULL,
  client_id integer,
  note text NOT NULL DEFAULT '',
  user_name text NOT NULL DEFAULT ''
);
CREATE INDEX did_history_did ON did_history (did_id, at);

CREATE TABLE did_charges (
  id bigserial PRIMARY KEY,
  carrier_id integer NOT NULL REFERENCES carriers(client_id) ON DELETE CASCADE,
  side text NOT NULL CHECK (side IN ('customer', 'vendor')),
  kind text NOT NULL CHECK (kind IN ('setup', 'monthly', 'refund', 'channels')),
  did_id integer REFERENCES dids(did_id) ON DELETE SET NULL,
  number text NOT NULL DEFAULT '',
  period text NOT NULL DEFAULT '',
  amount numeric(18,6) NOT NULL,
  ref text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (carrier_id, side, ref)
);
CREATE INDEX did_charges_carrier ON did_charges (carrier_id, created_at);

ALTER TABLE did_upload_tasks
  ADD COLUMN vendor_id integer REFERENCES carriers(client_id) ON DELETE SET NULL,
  ADD COLUMN action text NOT NULL DEFAULT 'upload' CHECK (action IN ('upload', 'delete')),
  ADD COLUMN method text NOT NULL DEFAULT 'file' CHECK (method IN ('list', 'file', 'range')),
  ADD COLUMN duplicate text NOT NULL DEFAULT 'ignore' CHECK (duplicate IN ('overwrite', 'ignore')),
  ADD COLUMN inserted integer NOT NULL DEFAULT 0,
  ADD COLUMN updated integer NOT NULL DEFAULT 0,
  ADD COLUMN ignored integer NOT NULL DEFAULT 0,
  ADD COLUMN error text NOT NULL DEFAULT '',
  ADD COLUMN user_name text NOT NULL DEFAULT '',
  ADD COLUMN finished_at timestamptz;
`,
    )
    .execute(db);

  // Add 'did_charge' to the ledger kinds, keeping every kind the constraint lists now.
  const def = await sql<{ def: string }>`
    SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'ledger_kind_check'`.execute(
    db,
  );
  const kinds = [...(def.rows[0]?.def ?? '').matchAll(/'([a-z_]+)'/g)].map((m) => m[1] as string);
  if (!kinds.includes('did_charge')) kinds.push('did_charge');
  await sql.raw(`ALTER TABLE ledger DROP CONSTRAINT IF EXISTS ledger_kind_check`).execute(db);
  await sql
    .raw(
      `ALTER TABLE ledger ADD CONSTRAINT ledger_kind_check CHECK (kind IN (${kinds.map((k) => `'${k}'`).join(', ')}))`,
    )
    .execute(db);
}
