import type { ColumnType, Generated } from 'kysely';

/** Row types of the agents' commission tables (migration 0025_agents). Money is NUMERIC, read as text. */
type Numeric = ColumnType<string, string | undefined, string>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type DateColumn = ColumnType<Date, Date | string | undefined, Date | string>;

/** The columns 0025 adds to `agents` (AgentsTable in schema.ts extends this). */
export interface AgentCommissionColumns {
  portal_edit: Generated<boolean>;
  own_invoice_setting: Generated<boolean>;
  /** First day (UTC) whose traffic earns commission. */
  commission_since: DateColumn;
  /** Commission owed: the sum of the agent's ledger. */
  balance: Numeric;
}

export interface AgentCommissionPeriodsTable {
  agent_id: number;
  period_start: Timestamp;
  period_end: Timestamp;
  frequency: 'daily' | 'weekly' | 'monthly';
  method: 'profit' | 'revenue';
  percent: string;
  clients: Generated<number>;
  revenue: Numeric;
  cost: Numeric;
  base: Numeric;
  amount: Numeric;
  accrued: Numeric;
  revision: Generated<number>;
  computed_at: Generated<Date>;
}

export interface AgentCommissionClientsTable {
  agent_id: number;
  period_start: Timestamp;
  client_id: number;
  revenue: Numeric;
  cost: Numeric;
}

export interface AgentPayoutsTable {
  payout_id: Generated<number>;
  agent_id: number;
  amount: string;
  paid_on: DateColumn;
  method: Generated<string>;
  reference: Generated<string>;
  note: Generated<string>;
  request_key: string | null;
  created_by: Generated<string>;
  created_at: Generated<Date>;
}

export type AgentLedgerKind = 'commission' | 'payout' | 'adjustment';

export interface AgentLedgerTable {
  ledger_id: Generated<number>;
  agent_id: number;
  created_at: Generated<Date>;
  kind: AgentLedgerKind;
  ref: string;
  period_start: Date | null;
  amount: string;
  balance_before: string;
  balance_after: string;
  note: Generated<string>;
  created_by: Generated<string>;
}

export interface AgentsTables {
  agent_commission_periods: AgentCommissionPeriodsTable;
  agent_commission_clients: AgentCommissionClientsTable;
  agent_payouts: AgentPayoutsTable;
  agent_ledger: AgentLedgerTable;
}
