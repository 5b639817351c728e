import type { ColumnType, Generated } from 'kysely';

/** Row types of the money path's tables (migration 0012_cdr). Money is NUMERIC, read as text. */
type Numeric = ColumnType<string, string | undefined, string>;
type NullableNumeric = ColumnType<string | null, string | null | undefined, string | null>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface CdrBatchesTable {
  batch_id: string;
  source: 'switch' | 'file' | 'demo';
  received_at: Generated<Date>;
  received: Generated<number>;
  stored: Generated<number>;
  duplicates: Generated<number>;
  unpriced: Generated<number>;
  revenue: Numeric;
  cost: Numeric;
}

export interface CdrKeysTable {
  call_id: string;
  attempt: number;
  cdr_id: Generated<number>;
  start_time: Timestamp;
}

export interface CdrsTable {
  cdr_id: number;
  batch_id: string;
  call_id: string;
  attempt: number;
  is_final_attempt: boolean;
  start_time: Timestamp;
  answer_time: Timestamp | null;
  end_time: Timestamp;
  call_duration: number;
  pdd: number;
  ring_time: number | null;
  ingress_trunk_id: number;
  egress_trunk_id: number | null;
  ingress_client_id: number | null;
  egress_client_id: number | null;
  source_ip: string;
  egress_host: string | null;
  ani: string;
  dnis: string;
  egress_dnis: string | null;
  lrn: string | null;
  routing_ani: string | null;
  routing_dnis: string | null;
  release_cause: number;
  q850_cause: number | null;
  release_side: string;
  codec: string | null;
  ingress_rate_table_id: number | null;
  ingress_code: string | null;
  ingress_code_name: string | null;
  orig_country: string | null;
  ingress_rate: NullableNumeric;
  ingress_setup_fee: NullableNumeric;
  ingress_rate_column: string | null;
  ingress_jurisdiction: string | null;
  ingress_billed_time: Generated<number>;
  ingress_client_cost: Numeric;
  short_call_charge: Numeric;
  egress_rate_table_id: number | null;
  egress_code: string | null;
  egress_code_name: string | null;
  term_country: string | null;
  egress_rate: NullableNumeric;
  egress_setup_fee: NullableNumeric;
  egress_rate_column: string | null;
  egress_jurisdiction: string | null;
  egress_billed_time: Generated<number>;
  egress_cost: Numeric;
  profit: Numeric;
  unpriced_reason: string | null;
  rated_at: Generated<Date>;
  rerated: Generated<number>;
}

export type LedgerKind =
  | 'opening'
  | 'usage'
  | 'payment'
  | 'adjustment'
  | 'rerate'
  | 'credit_note'
  | 'debit_note'
  | 'reset'
  | 'regenerate'
  /** DID setup, monthly, channel charges and release refunds (0023_did). */
  | 'did_charge'
  /** One-off and recurring extra charges (0030_finance_extras). */
  | 'extra_charge';

export interface LedgerTable {
  ledger_id: Generated<number>;
  client_id: number;
  created_at: Generated<Date>;
  kind: LedgerKind;
  side: Generated<'' | 'customer' | 'vendor'>;
  ref: string;
  amount: string;
  balance_before: string;
  balance_after: string;
  cdr_count: Generated<number>;
  note: Generated<string>;
  created_by: Generated<string>;
}

export type RerateState = 'previewing' | 'previewed' | 'applying' | 'applied' | 'failed';

/** Tools > Rerate runs (migration 0016_rerate). */
export interface RerateRunsTable {
  run_id: Generated<number>;
  created_by: string;
  created_at: Generated<Date>;
  filter: ColumnType<unknown, string, string>;
  state: ColumnType<RerateState, RerateState | undefined, RerateState>;
  matched: Generated<number>;
  processed: Generated<number>;
  preview: ColumnType<unknown, string | null | undefined, string | null>;
  result: ColumnType<unknown, string | null | undefined, string | null>;
  cursor_start: Timestamp | null;
  cursor_id: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  chunk: Generated<number>;
  applied_by: string | null;
  apply_started_at: Timestamp | null;
  finished_at: Timestamp | null;
  error: Generated<string>;
}

/** Finance's balance resets (migration 0039_balance_resets). */
export interface BalanceResetsTable {
  reset_id: Generated<number>;
  client_id: number;
  balance: string;
  run_at: Timestamp;
  state: ColumnType<'pending' | 'finished' | 'cancelled', 'pending' | undefined, 'finished' | 'cancelled'>;
  note: Generated<string>;
  created_by: string;
  created_at: Generated<Date>;
  balance_before: string | null;
  amount: string | null;
  finished_at: Timestamp | null;
  cancelled_by: string | null;
}

export interface CdrTables {
  balance_resets: BalanceResetsTable;
  rerate_runs: RerateRunsTable;
  cdr_batches: CdrBatchesTable;
  cdr_keys: CdrKeysTable;
  cdrs: CdrsTable;
  ledger: LedgerTable;
}
