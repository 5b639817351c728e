import type { ColumnType, Generated } from 'kysely';

/** Row types of the DID (origination) tables of migration 0023_did. */
type Numeric = ColumnType<string, string | number | undefined, string | number>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export type DidState = 'assigned' | 'unassigned' | 'reserved' | 'released';

export interface DidBillingRulesTable {
  id: Generated<number>;
  name: string;
  type: Generated<'fixed' | 'variable'>;
  monthly_price: Numeric;
  per_minute: Numeric;
  per_channel: Numeric;
  setup_fee: Numeric;
  updated_at: Timestamp;
  updated_by: Generated<string>;
}
export interface DidProductsTable {
  id: Generated<number>;
  name: string;
  billing_rule_id: number;
  description: Generated<string>;
  updated_at: Timestamp;
}
export interface DidVendorsTable {
  carrier_id: number;
  trunk_id: number | null;
  decimal_places: Generated<number>;
  billing_rule_id: number | null;
  auth_type: Generated<'ip' | 'host'>;
}
export interface DidClientsTable {
  carrier_id: number;
  trunk_id: number | null;
  billing_rule_id: number | null;
  did_product_id: number | null;
  auth_type: Generated<'host' | 'registration'>;
  round_up: Generated<boolean>;
  channels: Generated<number>;
  grace_days: Generated<number>;
  buy_needs_approval: Generated<boolean>;
  signin_notification: Generated<boolean>;
}
export interface DidsTable {
  did_id: Generated<number>;
  number: string;
  vendor_id: number;
  client_id: number | null;
  vendor_billing_rule_id: number | null;
  client_billing_rule_id: number | null;
  state: Generated<DidState>;
  reserved_for: number | null;
  assigned_at: NullableTimestamp;
  released_at: NullableTimestamp;
  suspended_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}
export interface DidHistoryTable {
  id: Generated<number>;
  did_id: number;
  at: Timestamp;
  action: string;
  state: DidState;
  client_id: number | null;
  note: Generated<string>;
  user_name: Generated<string>;
}
export interface DidChargesTable {
  id: Generated<number>;
  carrier_id: number;
  side: 'customer' | 'vendor';
  kind: 'setup' | 'monthly' | 'refund' | 'channels';
  did_id: number | null;
  number: Generated<string>;
  period: Generated<string>;
  amount: Numeric;
  ref: string;
  created_at: Timestamp;
}

export type PortStatus = 'requested' | 'in_progress' | 'completed' | 'rejected';
/** 0034: a client's port-in request and each move of its status. */
export interface DidPortRequestsTable {
  id: Generated<number>;
  carrier_id: number;
  numbers: string[];
  current_provider: string;
  requested_date: ColumnType<string, string, string>;
  note: Generated<string>;
  status: Generated<PortStatus>;
  operator_note: Generated<string>;
  created_by: Generated<string>;
  created_at: Generated<Date>;
  updated_at: Timestamp;
  updated_by: Generated<string>;
}
export interface DidPortRequestHistoryTable {
  id: Generated<number>;
  request_id: number;
  at: Generated<Date>;
  status: PortStatus;
  note: Generated<string>;
  user_name: Generated<string>;
}

export interface DidTables {
  did_port_requests: DidPortRequestsTable;
  did_port_request_history: DidPortRequestHistoryTable;
  did_billing_rules: DidBillingRulesTable;
  did_products: DidProductsTable;
  did_vendors: DidVendorsTable;
  did_clients: DidClientsTable;
  dids: DidsTable;
  did_history: DidHistoryTable;
  did_charges: DidChargesTable;
}

declare module './schema' {
  /** did_upload_tasks columns of 0023 (the DID import log). */
  interface DidUploadTasksTable {
    vendor_id: number | null;
    action: Generated<'upload' | 'delete'>;
    method: Generated<'list' | 'file' | 'range'>;
    duplicate: Generated<'overwrite' | 'ignore'>;
    inserted: Generated<number>;
    updated: Generated<number>;
    ignored: Generated<number>;
    error: Generated<string>;
    user_name: Generated<string>;
    finished_at: NullableTimestamp;
    /** 0029: a CSV file import run by the job `did.import` (the file, the rule asked for, the job). */
    path: string | null;
    billing_rule_id: number | null;
    job_id: number | null;
  }
}
