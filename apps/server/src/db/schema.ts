import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { CarrierCommercialColumns, SwitchConfigTables } from './schema-switch';
import type { RatesTables } from './schema-rates';
import type { CarriersTables } from './schema-carriers';
import type { RoutingTables } from './schema-routing';
import type { RateDeliveryTables } from './schema-rate-delivery';
import type { RateGenerationTables } from './schema-rate-generation';
import type { RoutingExtrasTables } from './schema-routing-extras';
import type { CdrTables } from './schema-cdr';
import type { JobsTables } from './schema-jobs';
import type { CdrSearchTables } from './schema-cdr-search';
import type { StatsTables } from './schema-stats';
import type { MonitoringTables } from './schema-monitoring';
import type { BillingTables, InvoiceBillingColumns } from './schema-billing';
import type { EmailLogMailColumns, MailTables } from './schema-mail';
import type { AgentCommissionColumns, AgentsTables } from './schema-agents';
import type { CdrUploadTables } from './schema-cdr-upload';
import type { DidTables } from './schema-did';

/** Kysely row types of the tables (migrations are the source of truth; keep these in step). */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** NUMERIC arrives as a string and is written as a decimal string: exact money. */
type Numeric = ColumnType<string, string | undefined, string>;
type Json = ColumnType<unknown, string | undefined, string>;

export interface SettingsTable {
  key: string;
  value: Json;
  updated_at: Generated<Date>;
}
export interface FilesTable {
  id: Generated<number>;
  entity: string;
  format: string;
  file_name: string;
  mime: string;
  size_bytes: number;
  data: Uint8Array;
  is_public: Generated<boolean>;
  created_by: number | null;
  created_at: Generated<Date>;
}
export interface MainMenuTable {
  id: number;
  group_name: string;
  ordering: number;
}
export interface SysSubmenuTable {
  id: Generated<number>;
  main_menu_id: number;
  display_name: string;
  web_url: string;
  ordering: number;
  sub: string | null;
}
export interface RolesTable {
  role_id: Generated<number>;
  role_name: string;
  /** Users of the role must turn two-factor sign-in on before anything else (0020). */
  require_2fa: Generated<boolean>;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}
export interface RolePrivilegesTable {
  role_id: number;
  func_name: string;
  readable: boolean;
  writable: boolean;
  executable: boolean;
}
export interface RoleGroupPrivilegesTable {
  role_id: number;
  group_id: number;
  readable: boolean;
}
export interface AgentsTable extends AgentCommissionColumns {
  agent_id: Generated<number>;
  agent_name: string;
  status: Generated<'active' | 'inactive'>;
  email: string;
  commission_method: Generated<'profit' | 'revenue'>;
  commission_percent: Numeric;
  frequency: Generated<'daily' | 'weekly' | 'monthly'>;
  referral_key: string;
  logo_id: number | null;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}
export interface CarriersTable extends CarrierCommercialColumns {
  client_id: Generated<number>;
  name: string;
  company: Generated<string>;
  client_type: Generated<'client' | 'vendor'>;
  company_type: Generated<'termination' | 'origination'>;
  is_active: Generated<boolean>;
  registration_status: Generated<'pending' | 'approved' | 'rejected'>;
  mode: Generated<'prepaid' | 'postpaid'>;
  balance: Numeric;
  credit_limit: Numeric;
  test_credit: Numeric;
  allowed_credit: Numeric;
  unlimited_credit: Generated<boolean>;
  mutual_balance: Numeric;
  currency: Generated<string>;
  main_email: Generated<string>;
  noc_email: Generated<string>;
  billing_email: Generated<string>;
  rates_email: Generated<string>;
  address: Generated<string>;
  tax_id: Generated<string>;
  time_zone: Generated<string>;
  agent_id: number | null;
  is_panel_accountsummary: Generated<boolean>;
  is_panel_paymenthistory: Generated<boolean>;
  is_panel_invoices: Generated<boolean>;
  is_panel_balance: Generated<boolean>;
  is_panel_onlinepayment: Generated<boolean>;
  is_panel_trunks: Generated<boolean>;
  enable_trunk_view: Generated<boolean>;
  is_panel_didrequest: Generated<boolean>;
  is_panel_mydid: Generated<boolean>;
  is_panel_products: Generated<boolean>;
  is_panel_cdrslist: Generated<boolean>;
  is_panel_summaryreport: Generated<boolean>;
  is_panel_block_list: Generated<boolean>;
  ticket_menu: Generated<string>;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}
export interface UsersTable {
  user_id: Generated<number>;
  name: string;
  password_hash: string;
  first_name: Generated<string>;
  last_name: Generated<string>;
  email: Generated<string>;
  user_type: 'admin' | 'client' | 'agent';
  role_id: number | null;
  client_id: number | null;
  agent_id: number | null;
  active: Generated<boolean>;
  is_server_admin: Generated<boolean>;
  avatar_id: number | null;
  landing_page: string | null;
  language: Generated<string>;
  allowed_ips: ColumnType<string[], string[] | undefined, string[]>;
  is_show_daily_usage: Generated<boolean>;
  is_daily_balance_notification: Generated<boolean>;
  zero_balance_notice: Generated<boolean>;
  /** 0033: "enable reporting grouping" (statistics). */
  report_grouping: Generated<boolean>;
  last_login_at: NullableTimestamp;
  last_seen_at: NullableTimestamp;
  /** 0013: two-factor sign-in (TOTP). */
  totp_secret: string | null;
  totp_pending_secret: string | null;
  totp_enabled: Generated<boolean>;
  totp_last_step: ColumnType<number, number | undefined, number>;
  created_at: Generated<Date>;
  updated_at: Timestamp;
}
export interface SessionsTable {
  id: Generated<number>;
  token_hash: string;
  cdr_token_hash: string;
  user_id: number;
  ip: string;
  user_agent: string;
  created_at: Generated<Date>;
  last_used_at: Timestamp;
  expires_at: Timestamp;
  refresh_until: Timestamp;
  cdr_expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  revoked_reason: string | null;
}
export interface PasswordResetsTable {
  token_hash: string;
  user_id: number;
  created_at: Generated<Date>;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}
export interface UserRecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: Date | null;
}
export interface SigninHistoryTable {
  id: Generated<number>;
  user_id: number | null;
  name: string;
  ip: string;
  result: 'success' | 'failed' | 'forbidden';
  reason: string;
  created_at: Generated<Date>;
}
export interface RetrievePasswordLogTable {
  id: Generated<number>;
  user_id: number | null;
  name: string;
  email: string;
  status: 'email_sent' | 'modify_failure' | 'modified_successfully';
  ip: string;
  created_at: Generated<Date>;
}
export interface EmailLogTable extends EmailLogMailColumns {
  id: Generated<number>;
  to_address: string;
  subject: string;
  kind: string;
  status: 'sent' | 'failed';
  error: string;
  created_at: Generated<Date>;
}
export interface ModificationLogTable {
  id: Generated<number>;
  user_id: number | null;
  user_name: string;
  entity: string;
  entity_id: string;
  action: string;
  before: Json | null;
  after: Json | null;
  created_at: Generated<Date>;
}
export interface ExportLogTable {
  id: Generated<number>;
  user_id: number | null;
  user_name: string;
  client_id: number | null;
  entity: string;
  file_name: string;
  status: Generated<string>;
  created_at: Generated<Date>;
  /** Exports written by a job (0014_jobs); NULL for the synchronous downloads. */
  job_id: ColumnType<number | null, number | null | undefined, number | null>;
  kind: ColumnType<string | null, string | null | undefined, string | null>;
  filter: ColumnType<unknown, string | null | undefined, string | null>;
  path: ColumnType<string | null, string | null | undefined, string | null>;
  size_bytes: ColumnType<number | null, number | null | undefined, number | null>;
  row_count: ColumnType<number | null, number | null | undefined, number | null>;
}
export interface ImportLogTable {
  id: Generated<number>;
  user_id: number | null;
  user_name: string;
  entity: string;
  file_name: string;
  status: Generated<string>;
  upload_time: Generated<Date>;
  finished_time: NullableTimestamp;
  total_rows: Generated<number>;
  error_rows: Generated<number>;
}
export interface DidUploadTasksTable {
  id: Generated<number>;
  user_id: number | null;
  file_name: string;
  status: Generated<string>;
  total: Generated<number>;
  done: Generated<number>;
  created_at: Generated<Date>;
}
export interface RateImportTasksTable {
  id: Generated<number>;
  user_id: number | null;
  rate_table_id: number | null;
  file_name: string;
  status: Generated<string>;
  progress: Generated<number>;
  created_at: Generated<Date>;
}
export interface TicketsTable {
  id: Generated<number>;
  client_id: number | null;
  agent_id: number | null;
  user_id: number | null;
  username: string;
  department: string;
  subject: string;
  content: string;
  url: string;
  type: string;
  attachment_id: number | null;
  ticket_status: Generated<'open' | 'waiting' | 'in_progress' | 'resolved' | 'closed' | 'reopened'>;
  created_on: Generated<Date>;
  modified_on: Timestamp;
}
export interface ClientMessagesTable {
  id: Generated<number>;
  client_id: number;
  type: Generated<string>;
  subject: string;
  content: Generated<string>;
  is_read: Generated<boolean>;
  created_at: Generated<Date>;
}
export interface ClientAlertsTable {
  id: Generated<number>;
  client_id: number;
  level: Generated<string>;
  content: string;
  status: Generated<'new' | 'viewed' | 'read'>;
  created_at: Generated<Date>;
}
export interface InvoicesTable extends InvoiceBillingColumns {
  invoice_id: Generated<number>;
  client_id: number;
  invoice_number: string;
  invoice_date: ColumnType<Date, string, string>;
  period_start: Timestamp;
  period_end: Timestamp;
  amount: Numeric;
  paid_amount: Numeric;
  due_date: ColumnType<Date, string, string>;
  currency: Generated<string>;
  status: Generated<'normal' | 'voided'>;
  created_at: Generated<Date>;
}
export interface SwitchesTable {
  switch_id: Generated<number>;
  name: string;
  lan_ip: Generated<string>;
  active_call_ip: Generated<string>;
  cli_ip: Generated<string>;
  cli_port: number | null;
  connected: Generated<boolean>;
  last_seen_at: NullableTimestamp;
  created_at: Generated<Date>;
}
export interface SipHostsTable {
  id: Generated<number>;
  switch_id: number;
  host_name: string;
  sip_ip: string;
  sip_port: Generated<number>;
}

export interface Database
  extends
    SwitchConfigTables,
    RatesTables,
    CarriersTables,
    RoutingTables,
    RateGenerationTables,
    RateDeliveryTables,
    RoutingExtrasTables,
    CdrTables,
    JobsTables,
    CdrSearchTables,
    StatsTables,
    MonitoringTables,
    BillingTables,
    MailTables,
    AgentsTables,
    CdrUploadTables,
    DidTables {
  settings: SettingsTable;
  files: FilesTable;
  main_menu: MainMenuTable;
  sys_submenu: SysSubmenuTable;
  roles: RolesTable;
  role_privileges: RolePrivilegesTable;
  role_group_privileges: RoleGroupPrivilegesTable;
  agents: AgentsTable;
  carriers: CarriersTable;
  users: UsersTable;
  sessions: SessionsTable;
  password_resets: PasswordResetsTable;
  signin_history: SigninHistoryTable;
  user_recovery_codes: UserRecoveryCodesTable;
  retrieve_password_log: RetrievePasswordLogTable;
  email_log: EmailLogTable;
  modification_log: ModificationLogTable;
  export_log: ExportLogTable;
  import_log: ImportLogTable;
  did_upload_tasks: DidUploadTasksTable;
  rate_import_tasks: RateImportTasksTable;
  tickets: TicketsTable;
  client_messages: ClientMessagesTable;
  client_alerts: ClientAlertsTable;
  invoices: InvoicesTable;
  switches: SwitchesTable;
  sip_hosts: SipHostsTable;
}

export type UserRecord = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type CarrierRecord = Selectable<CarriersTable>;
