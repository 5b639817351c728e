import type { ColumnType, Generated } from 'kysely';

/** Row types of the Finance module's tables (migration 0021_billing). Money is NUMERIC, read as text. */
type Numeric = ColumnType<string, string | undefined, string>;
type Json<T = unknown> = ColumnType<T, string | undefined, string>;
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Big = ColumnType<string | number, string | number | undefined, string | number>;

export interface InvoiceSettingsTable {
  invoice_setting_id: Generated<number>;
  name: string;
  logo: Generated<string>;
  decimal_places: Generated<number>;
  invoice_delivery: Generated<'attachment' | 'link'>;
  cdr_delivery: Generated<'attachment' | 'link'>;
  overlap_protection: Generated<boolean>;
  billing_info: Generated<string>;
  billing_info_position: Generated<'top' | 'bottom'>;
  company_info: Generated<string>;
  company_info_position: Generated<'top' | 'bottom'>;
  tax_percent: Numeric;
  link_days: Generated<number>;
  is_default: Generated<boolean>;
  updated_at: Generated<Date>;
  updated_by: Generated<string>;
}

export type InvoiceSide = 'customer' | 'vendor';
export type InvoiceStatus = 'normal' | 'voided';
export type PayStatus = 'unpaid' | 'partially_paid' | 'paid';

/** Columns 0021 adds to the frame's invoices table (amount is the total, paid_amount what payments paid). */
export interface InvoiceBillingColumns {
  side: Generated<InvoiceSide>;
  origin: Generated<'manual' | 'auto'>;
  time_zone: Generated<string>;
  decimal_places: Generated<number>;
  calls: Big;
  billed_seconds: Big;
  usage_exact: Numeric;
  subtotal: Numeric;
  tax_percent: Numeric;
  tax: Numeric;
  opening_balance: Numeric;
  closing_balance: Numeric;
  credited: Numeric;
  debited: Numeric;
  pay_status: Generated<PayStatus>;
  lines: Json;
  options: Json;
  setting: Json;
  invoice_setting_id: number | null;
  token_hash: string | null;
  token_expires_at: NullableTimestamp;
  auto_key: string | null;
  note: Generated<string>;
  created_by: Generated<string>;
  voided_at: NullableTimestamp;
  voided_by: string | null;
  /** 0030: the extra charges the invoice shows (exact). */
  extra_charges: Numeric;
}

export interface PaymentsTable {
  payment_id: Generated<number>;
  client_id: number;
  direction: 'received' | 'sent';
  amount: string;
  fee: Numeric;
  paid_at: Timestamp;
  method: Generated<string>;
  transaction_id: Generated<string>;
  note: Generated<string>;
  idempotency_key: string | null;
  status: Generated<'completed' | 'canceled'>;
  created_at: Generated<Date>;
  created_by: Generated<string>;
  canceled_at: NullableTimestamp;
  canceled_by: string | null;
  cancel_note: Generated<string>;
}

export interface PaymentAllocationsTable {
  payment_id: number;
  invoice_id: number;
  amount: string;
}

export interface BillingNotesTable {
  note_id: Generated<number>;
  client_id: number;
  kind: 'credit' | 'debit';
  invoice_id: number | null;
  amount: string;
  note: Generated<string>;
  status: Generated<'normal' | 'canceled'>;
  created_at: Generated<Date>;
  created_by: Generated<string>;
  canceled_at: NullableTimestamp;
  canceled_by: string | null;
  idempotency_key: string | null;
}

export interface InvoiceLogTable {
  log_id: Generated<number>;
  invoice_id: number | null;
  client_id: number | null;
  invoice_number: Generated<string>;
  action: string;
  status: Generated<'success' | 'failed' | 'skipped'>;
  message: Generated<string>;
  created_at: Generated<Date>;
  created_by: Generated<string>;
}

export interface AutoInvoicesTable {
  client_id: number;
  side: Generated<InvoiceSide>;
  first_period_from: Timestamp;
  last_period_end: NullableTimestamp;
  last_run_at: NullableTimestamp;
  last_error: Generated<string>;
  updated_at: Generated<Date>;
  updated_by: Generated<string>;
}

type NullableNumeric = ColumnType<string | null, string | null | undefined, string | null>;
type NullableDate = ColumnType<Date | null, string | null | undefined, string | null>;
type DateColumn = ColumnType<Date, string, string>;

/** 0030: one-off or recurring charges on a carrier. */
export interface ExtraChargesTable {
  extra_charge_id: Generated<number>;
  client_id: number;
  side: Generated<InvoiceSide>;
  name: string;
  amount: string;
  frequency: 'once' | 'daily' | 'weekly' | 'monthly';
  start_date: DateColumn;
  end_date: NullableDate;
  status: Generated<'active' | 'stopped' | 'finished'>;
  /** Occurrences charged so far (the next one is this index). */
  charged_count: Generated<number>;
  last_charged_date: NullableDate;
  note: Generated<string>;
  idempotency_key: string | null;
  created_at: Generated<Date>;
  created_by: Generated<string>;
  stopped_at: NullableTimestamp;
  stopped_by: string | null;
}

/** 0030: each occurrence of an extra charge, charged once. */
export interface ExtraChargeRunsTable {
  extra_charge_id: number;
  occurrence: number;
  charge_date: DateColumn;
  client_id: number;
  side: InvoiceSide;
  amount: string;
  status: Generated<'charged' | 'canceled'>;
  charged_at: Generated<Date>;
  canceled_at: NullableTimestamp;
  canceled_by: string | null;
}

export type VendorInvoiceStatus = 'received' | 'disputed' | 'accepted' | 'resolved';

/** 0030: invoices received from vendors and their comparison with Tandem's figures. */
export interface VendorInvoicesTable {
  vendor_invoice_id: Generated<number>;
  client_id: number;
  invoice_number: string;
  invoice_date: DateColumn;
  period_from: DateColumn;
  period_to: DateColumn;
  period_start: Timestamp;
  period_end: Timestamp;
  time_zone: string;
  currency: string;
  amount: string;
  minutes: NullableNumeric;
  lines: Json;
  our_amount: Numeric;
  our_seconds: Big;
  our_calls: Big;
  compared_at: Generated<Date>;
  status: Generated<VendorInvoiceStatus>;
  disputed_amount: NullableNumeric;
  dispute_note: Generated<string>;
  disputed_at: NullableTimestamp;
  disputed_by: string | null;
  agreed_amount: NullableNumeric;
  adjustment: NullableNumeric;
  settle_note: Generated<string>;
  settled_at: NullableTimestamp;
  settled_by: string | null;
  note: Generated<string>;
  created_at: Generated<Date>;
  created_by: Generated<string>;
  updated_at: Generated<Date>;
}

export interface VendorInvoiceFilesTable {
  vendor_invoice_id: number;
  file_name: string;
  size: number;
  content: Buffer;
  uploaded_at: Generated<Date>;
  uploaded_by: Generated<string>;
}

export interface BillingTables {
  extra_charges: ExtraChargesTable;
  extra_charge_runs: ExtraChargeRunsTable;
  vendor_invoices: VendorInvoicesTable;
  vendor_invoice_files: VendorInvoiceFilesTable;
  invoice_settings: InvoiceSettingsTable;
  payments: PaymentsTable;
  payment_allocations: PaymentAllocationsTable;
  billing_notes: BillingNotesTable;
  invoice_log: InvoiceLogTable;
  auto_invoices: AutoInvoicesTable;
}

declare module './schema-switch' {
  /** carriers column of 0021: the invoice setting assigned (null: the default one). */
  interface CarrierCommercialColumns {
    invoice_setting_id: number | null;
  }
}
