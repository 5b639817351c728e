import { sql, type Kysely } from 'kysely';

/**
 * 0025_agents: agents' commissions and payouts (issue 15, docs/agents.md).
 *
 * - agents gains: portal_edit (the agent may edit its clients' contact data in its portal),
 *   own_invoice_setting (its clients' invoices carry the agent's logo and name), commission_since
 *   (the first day whose traffic earns commission; periods before it are never computed), balance
 *   (commission owed: the sum of its agent_ledger rows, as a carrier's balance is its ledger's).
 * - agent_commission_periods: each closed period's computation as it stands (traffic of the agent's
 *   clients, base, amount, what was accrued for it), one row per (agent, period start).
 * - agent_commission_clients: the clients of a period with their traffic (the report's detail, and
 *   the clients a later recomputation of the period uses, so reassigning a client never moves old
 *   commission between agents).
 * - agent_ledger: every change of what an agent is owed, with the balance before and after:
 *   commission accruals and their corrections (kind commission, ref commission:<period>:<n>), payouts
 *   (kind payout, ref payout:<id>) and adjustments. (agent_id, kind, ref) is unique, so a source moves
 *   the balance once whatever retries happen.
 * - agent_payouts: payouts recorded by Agent > Commission History > New Payout Record; request_key
 *   makes a resent form a no-op.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
ALTER TABLE agents
  ADD COLUMN portal_edit boolean NOT NULL DEFAULT false,
  ADD COLUMN own_invoice_setting boolean NOT NULL DEFAULT false,
  ADD COLUMN commission_since date,
  ADD COLUMN balance numeric(20,6) NOT NULL DEFAULT 0;
UPDATE agents SET commission_since = (created_at AT TIME ZONE 'UTC')::date;
ALTER TABLE agents ALTER COLUMN commission_since SET NOT NULL,
  ALTER COLUMN commission_since SET DEFAULT ((now() AT TIME ZONE 'UTC')::date);

CREATE TABLE agent_commission_periods (
  agent_id integer NOT NULL REFERENCES agents(agent_id) ON DELETE CASCADE,
  period_start timestamptz NOT NULL,
  period_end timestamptz NOT NULL,
  frequency text NOT NULL CHECK (frequency IN ('daily', 'weekly', 'monthly')),
  method text NOT NULL CHECK (method IN ('profit', 'revenue')),
  percent numeric(9,4) NOT NULL,
  clients integer NOT NULL DEFAULT 0,
  revenue numeric(24,6) NOT NULL DEFAULT 0,
  cost numeric(24,6) NOT NULL DEFAULT 0,
  base numeric(24,6) NOT NULL DEFAULT 0,
  amount numeric(20,6) NOT NULL DEFAULT 0,
  accrued numeric(20,6) NOT NULL DEFAULT 0,
  revision integer NOT NULL DEFAULT 1,
  computed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (agent_id, period_start),
  CHECK (period_end > period_start)
);
CREATE INDEX agent_commission_periods_start ON agent_commission_periods (period_start);

CREATE TABLE agent_commission_clients (
  agent_id integer NOT NULL,
  period_start timestamptz NOT NULL,
  client_id integer NOT NULL REFERENCES carriers(client_id) ON DELETE CASCADE,
  revenue numeric(24,6) NOT NULL DEFAULT 0,
  cost numeric(24,6) NOT NULL DEFAULT 0,
  PRIMARY KEY (agent_id, period_start, client_id),
  FOREIGN KEY (agent_id, period_start) REFERENCES agent_commission_periods(agent_id, period_start) ON DELETE CASCADE
);

CREATE TABLE agent_payouts (
  payout_id serial PRIMARY KEY,
  agent_id integer NOT NULL REFERENCES agents(agent_id) ON DELETE RESTRICT,
  amount numeric(20,6) NOT NULL CHECK (amount > 0),
  paid_on date NOT NULL,
  method text NOT NULL DEFAULT '',
  reference text NOT NULL DEFAULT '',
  note text NOT NULL DEFAULT '',
  request_key text,
  created_by text NOT NULL DEFAULT 'system',
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (agent_id, request_key)
);

CREATE TABLE agent_ledger (
  ledger_id bigserial PRIMARY KEY,
  agent_id integer NOT NULL REFERENCES agents(agent_id) ON DELETE RESTRICT,
  created_at timestamptz NOT NULL DEFAULT now(),
  kind text NOT NULL CHECK (kind IN ('commission', 'payout', 'adjustment')),
  ref text NOT NULL,
  period_start timestamptz,
  amount numeric(20,6) NOT NULL,
  balance_before numeric(20,6) NOT NULL,
  balance_after numeric(20,6) NOT NULL,
  note text NOT NULL DEFAULT '',
  created_by text NOT NULL DEFAULT 'system',
  UNIQUE (agent_id, kind, ref),
  CHECK (balance_after = balance_before + amount)
);
CREATE INDEX agent_ledger_agent ON agent_ledger (agent_id, created_at);
`,
    )
    .execute(db);
}
