import { sql, type Kysely } from 'kysely';

/**
 * The portal frame: users, sessions, roles, menu catalogue, settings, files, logs, tickets, and the
 * first columns of carriers, agents, invoices and switches (later areas extend these tables).
 * Money is NUMERIC(20,6); times are timestamptz (UTC).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
CREATE TABLE settings (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE files (
  id serial PRIMARY KEY,
  entity text NOT NULL,
  format text NOT NULL,
  file_name text NOT NULL,
  mime text NOT NULL,
  size_bytes integer NOT NULL,
  data bytea NOT NULL,
  is_public boolean NOT NULL DEFAULT true,
  created_by integer,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE main_menu (
  id integer PRIMARY KEY,
  group_name text NOT NULL UNIQUE,
  ordering integer NOT NULL
);

CREATE TABLE sys_submenu (
  id serial PRIMARY KEY,
  main_menu_id integer NOT NULL REFERENCES main_menu(id),
  display_name text NOT NULL,
  web_url text NOT NULL,
  ordering integer NOT NULL,
  sub text,
  UNIQUE (main_menu_id, web_url)
);

CREATE TABLE roles (
  role_id serial PRIMARY KEY,
  role_name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX roles_name_uq ON roles (lower(role_name));

CREATE TABLE role_privileges (
  role_id integer NOT NULL REFERENCES roles(role_id) ON DELETE CASCADE,
  func_name text NOT NULL,
  readable boolean NOT NULL DEFAULT false,
  writable boolean NOT NULL DEFAULT false,
  executable boolean NOT NULL DEFAULT false,
  PRIMARY KEY (role_id, func_name)
);

CREATE TABLE role_group_privileges (
  role_id integer NOT NULL REFERENCES roles(role_id) ON DELETE CASCADE,
  group_id integer NOT NULL REFERENCES main_menu(id),
  readable boolean NOT NULL DEFAULT false,
  PRIMARY KEY (role_id, group_id)
);

CREATE TABLE agents (
  agent_id serial PRIMARY KEY,
  agent_name text NOT NULL,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
  email text NOT NULL,
  commission_method text NOT NULL DEFAULT 'profit' CHECK (commission_method IN ('profit', 'revenue')),
  commission_percent numeric(9,4) NOT NULL DEFAULT 0,
  frequency text NOT NULL DEFAULT 'monthly' CHECK (frequency IN ('daily', 'weekly', 'monthly')),
  referral_key text NOT NULL UNIQUE,
  logo_id integer REFERENCES files(id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX agents_name_uq ON agents (lower(agent_name));

CREATE TABLE carriers (
  client_id serial PRIMARY KEY,
  name text NOT NULL,
  company text NOT NULL DEFAULT '',
  client_type text NOT NULL DEFAULT 'client' CHECK (client_type IN ('client', 'vendor')),
  company_type text NOT NULL DEFAULT 'termination' CHECK (company_type IN ('termination', 'origination')),
  is_active boolean NOT NULL DEFAULT true,
  registration_status text NOT NULL DEFAULT 'approved' CHECK (registration_status IN ('pending', 'approved', 'rejected')),
  mode text NOT NULL DEFAULT 'prepaid' CHECK (mode IN ('prepaid', 'postpaid')),
  balance numeric(20,6) NOT NULL DEFAULT 0,
  credit_limit numeric(20,6) NOT NULL DEFAULT 0,
  test_credit numeric(20,6) NOT NULL DEFAULT 0,
  allowed_credit numeric(20,6) NOT NULL DEFAULT 0,
  unlimited_credit boolean NOT NULL DEFAULT false,
  mutual_balance numeric(20,6) NOT NULL DEFAULT 0,
  currency text NOT NULL DEFAULT 'USD',
  main_email text NOT NULL DEFAULT '',
  noc_email text NOT NULL DEFAULT '',
  billing_email text NOT NULL DEFAULT '',
  rates_email text NOT NULL DEFAULT '',
  address text NOT NULL DEFAULT '',
  tax_id text NOT NULL DEFAULT '',
  time_zone text NOT NULL DEFAULT '+0000',
  agent_id integer REFERENCES agents(agent_id),
  is_panel_accountsummary boolean NOT NULL DEFAULT true,
  is_panel_paymenthistory boolean NOT NULL DEFAULT true,
  is_panel_invoices boolean NOT NULL DEFAULT true,
  is_panel_balance boolean NOT NULL DEFAULT true,
  is_panel_onlinepayment boolean NOT NULL DEFAULT true,
  is_panel_trunks boolean NOT NULL DEFAULT true,
  enable_trunk_view boolean NOT NULL DEFAULT true,
  is_panel_didrequest boolean NOT NULL DEFAULT true,
  is_panel_mydid boolean NOT NULL DEFAULT true,
  is_panel_products boolean NOT NULL DEFAULT true,
  is_panel_cdrslist boolean NOT NULL DEFAULT true,
  is_panel_summaryreport boolean NOT NULL DEFAULT true,
  is_panel_block_list boolean NOT NULL DEFAULT true,
  ticket_menu text NOT NULL DEFAULT 'true',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX carriers_name_uq ON carriers (lower(name));

CREATE TABLE users (
  user_id serial PRIMARY KEY,
  name text NOT NULL,
  password_hash text NOT NULL,
  first_name text NOT NULL DEFAULT '',
  last_name text NOT NULL DEFAULT '',
  email text NOT NULL DEFAULT '',
  user_type text NOT NULL CHECK (user_type IN ('admin', 'client', 'agent')),
  role_id integer REFERENCES roles(role_id),
  client_id integer REFERENCES carriers(client_id) ON DELETE CASCADE,
  agent_id integer REFERENCES agents(agent_id) ON DELETE CASCADE,
  active boolean NOT NULL DEFAULT true,
  is_server_admin boolean NOT NULL DEFAULT false,
  avatar_id integer REFERENCES files(id) ON DELETE SET NULL,
  landing_page text,
  language text NOT NULL DEFAULT 'en',
  allowed_ips text[] NOT NULL DEFAULT '{}',
  is_show_daily_usage boolean NOT NULL DEFAULT false,
  is_daily_balance_notification boolean NOT NULL DEFAULT false,
  zero_balance_notice boolean NOT NULL DEFAULT false,
  last_login_at timestamptz,
  last_seen_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (user_type <> 'client' OR client_id IS NOT NULL),
  CHECK (user_type <> 'agent' OR agent_id IS NOT NULL)
);
CREATE UNIQUE INDEX users_name_uq ON users (lower(name));
CREATE INDEX users_email_idx ON users (lower(email));

CREATE TABLE sessions (
  id bigserial PRIMARY KEY,
  token_hash text NOT NULL UNIQUE,
  cdr_token_hash text NOT NULL UNIQUE,
  user_id integer NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
  ip text NOT NULL DEFAULT '',
  user_agent text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  refresh_until timestamptz NOT NULL,
  cdr_expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  revoked_reason text
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE password_resets (
  token_hash text PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

CREATE TABLE signin_history (
  id bigserial PRIMARY KEY,
  user_id integer REFERENCES users(user_id) ON DELETE SET NULL,
  name text NOT NULL,
  ip text NOT NULL,
  result text NOT NULL CHECK (result IN ('success', 'failed', 'forbidden')),
  reason text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX signin_history_ip_time ON signin_history (ip, created_at);
CREATE INDEX signin_history_name_time ON signin_history (lower(name), created_at);

CREATE TABLE retrieve_password_log (
  id bigserial PRIMARY KEY,
  user_id integer REFERENCES users(user_id) ON DELETE SET NULL,
  name text NOT NULL,
  email text NOT NULL,
  status text NOT NULL CHECK (status IN ('email_sent', 'modify_failure', 'modified_successfully')),
  ip text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE email_log (
  id bigserial PRIMARY KEY,
  to_address text NOT NULL,
  subject text NOT NULL,
  kind text NOT NULL,
  status text NOT NULL CHECK (status IN ('sent', 'failed')),
  error text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE modification_log (
  id bigserial PRIMARY KEY,
  user_id integer,
  user_name text NOT NULL,
  entity text NOT NULL,
  entity_id text NOT NULL,
  action text NOT NULL,
  before jsonb,
  after jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX modification_log_entity ON modification_log (entity, entity_id);

CREATE TABLE export_log (
  id bigserial PRIMARY KEY,
  user_id integer REFERENCES users(user_id) ON DELETE SET NULL,
  user_name text NOT NULL,
  client_id integer REFERENCES carriers(client_id) ON DELETE CASCADE,
  entity text NOT NULL,
  file_name text NOT NULL,
  status text NOT NULL DEFAULT 'finished',
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE import_log (
  id bigserial PRIMARY KEY,
  user_id integer REFERENCES users(user_id) ON DELETE SET NULL,
  user_name text NOT NULL,
  entity text NOT NULL,
  file_name text NOT NULL,
  status text NOT NULL DEFAULT 'in progress',
  upload_time timestamptz NOT NULL DEFAULT now(),
  finished_time timestamptz,
  total_rows integer NOT NULL DEFAULT 0,
  error_rows integer NOT NULL DEFAULT 0
);

CREATE TABLE did_upload_tasks (
  id bigserial PRIMARY KEY,
  user_id integer REFERENCES users(user_id) ON DELETE SET NULL,
  file_name text NOT NULL,
  status text NOT NULL DEFAULT 'In Process',
  total integer NOT NULL DEFAULT 0,
  done integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE rate_import_tasks (
  id bigserial PRIMARY KEY,
  user_id integer REFERENCES users(user_id) ON DELETE SET NULL,
  rate_table_id integer,
  file_name text NOT NULL,
  status text NOT NULL DEFAULT 'Insert new rate',
  progress integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE tickets (
  id serial PRIMARY KEY,
  client_id integer REFERENCES carriers(client_id) ON DELETE CASCADE,
  agent_id integer REFERENCES agents(agent_id) ON DELETE CASCADE,
  user_id integer REFERENCES users(user_id) ON DELETE SET NULL,
  username text NOT NULL,
  department text NOT NULL DEFAULT 'Admin',
  subject text NOT NULL,
  content text NOT NULL DEFAULT '',
  url text NOT NULL DEFAULT '',
  type text NOT NULL DEFAULT 'support',
  attachment_id integer REFERENCES files(id),
  ticket_status text NOT NULL DEFAULT 'open' CHECK (ticket_status IN ('open', 'waiting', 'in_progress', 'resolved', 'closed', 'reopened')),
  created_on timestamptz NOT NULL DEFAULT now(),
  modified_on timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tickets_status ON tickets (ticket_status);

CREATE TABLE client_messages (
  id serial PRIMARY KEY,
  client_id integer NOT NULL REFERENCES carriers(client_id) ON DELETE CASCADE,
  type text NOT NULL DEFAULT 'notice',
  subject text NOT NULL,
  content text NOT NULL DEFAULT '',
  is_read boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE client_alerts (
  id serial PRIMARY KEY,
  client_id integer NOT NULL REFERENCES carriers(client_id) ON DELETE CASCADE,
  level text NOT NULL DEFAULT 'warning',
  content text NOT NULL,
  status text NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'viewed', 'read')),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE invoices (
  invoice_id serial PRIMARY KEY,
  client_id integer NOT NULL REFERENCES carriers(client_id) ON DELETE CASCADE,
  invoice_number text NOT NULL UNIQUE,
  invoice_date date NOT NULL,
  period_start timestamptz NOT NULL,
  period_end timestamptz NOT NULL,
  amount numeric(20,6) NOT NULL,
  paid_amount numeric(20,6) NOT NULL DEFAULT 0,
  due_date date NOT NULL,
  currency text NOT NULL DEFAULT 'USD',
  status text NOT NULL DEFAULT 'normal' CHECK (status IN ('normal', 'voided')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX invoices_client ON invoices (client_id, invoice_date);

CREATE TABLE switches (
  switch_id serial PRIMARY KEY,
  name text NOT NULL UNIQUE,
  lan_ip text NOT NULL DEFAULT '',
  active_call_ip text NOT NULL DEFAULT '',
  cli_ip text NOT NULL DEFAULT '',
  cli_port integer,
  connected boolean NOT NULL DEFAULT false,
  last_seen_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE sip_hosts (
  id serial PRIMARY KEY,
  switch_id integer NOT NULL REFERENCES switches(switch_id) ON DELETE CASCADE,
  host_name text NOT NULL,
  sip_ip text NOT NULL,
  sip_port integer NOT NULL DEFAULT 5060,
  UNIQUE (sip_ip, sip_port)
);
`,
    )
    .execute(db);
}
