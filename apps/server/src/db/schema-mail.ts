import type { ColumnType, Generated } from 'kysely';

/** Row types of the tables and columns of migration 0022_mail (docs/mail.md). */
type TextArray = ColumnType<string[], string[] | undefined, string[]>;
type Numeric = ColumnType<string, string | number | undefined, string | number>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface MailSendersTable {
  id: Generated<number>;
  name: string;
  server: string;
  port: number;
  username: Generated<string>;
  password_enc: Generated<string>;
  security: Generated<'ssl' | 'tls' | 'none'>;
  address: string;
  is_default: Generated<boolean>;
  status: Generated<'connected' | 'disconnected'>;
  status_error: Generated<string>;
  checked_at: NullableTimestamp;
  updated_at: Generated<Date>;
  updated_by: Generated<string>;
}
export interface MailTemplatesTable {
  id: Generated<number>;
  event: string;
  language: 'en' | 'ch' | 'de';
  sender_id: number | null;
  cc: TextArray;
  subject: string;
  content: string;
  updated_at: Generated<Date>;
  updated_by: Generated<string>;
}
export interface BalanceAlertsTable {
  client_id: number;
  event: 'low_balance' | 'zero_balance';
  below: Generated<boolean>;
  crossings: Generated<number>;
  changed_at: Generated<Date>;
}
export interface PaymentGatewaysTable {
  provider: 'stripe' | 'paypal';
  enabled: Generated<boolean>;
  public_key: Generated<string>;
  secret_enc: Generated<string>;
  webhook_secret_enc: Generated<string>;
  api_url: string;
  currency: Generated<string>;
  fee_percent: Numeric;
  fee_fixed: Numeric;
  service_charge_percent: Numeric;
  updated_at: Generated<Date>;
  updated_by: Generated<string>;
}
export interface OnlinePaymentsTable {
  id: Generated<number>;
  client_id: number;
  provider: 'stripe' | 'paypal';
  amount: Numeric;
  service_charge: Numeric;
  charged: Numeric;
  fee: Numeric;
  currency: string;
  status: Generated<'initial' | 'failed' | 'succeed'>;
  provider_ref: Generated<string>;
  transaction_id: Generated<string>;
  error: Generated<string>;
  created_by: Generated<string>;
  created_at: Generated<Date>;
  completed_at: NullableTimestamp;
}
export interface PaymentWebhookEventsTable {
  provider: string;
  event_id: string;
  event_type: Generated<string>;
  received_at: Generated<Date>;
}

export interface MailTables {
  mail_senders: MailSendersTable;
  mail_templates: MailTemplatesTable;
  balance_alerts: BalanceAlertsTable;
  payment_gateways: PaymentGatewaysTable;
  online_payments: OnlinePaymentsTable;
  payment_webhook_events: PaymentWebhookEventsTable;
}

/** email_log columns of 0022 (merged into the frame's row type). */
export interface EmailLogMailColumns {
  from_address: Generated<string>;
  cc: Generated<string>;
  sender_id: number | null;
  client_id: number | null;
  event: Generated<string>;
}
