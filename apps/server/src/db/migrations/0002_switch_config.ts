import { sql, type Kysely } from 'kysely';

/**
 * Switch configuration (issue 3): payment terms, time profiles, the carrier's commercial fields,
 * code decks and rate tables, trunks with hosts and products, trunk groups, routing plans, static
 * and dynamic routes, block lists, US jurisdiction data, switch API keys.
 * Rates are NUMERIC(18,6) (exact); instants are timestamptz (UTC); seconds are integers.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
CREATE TABLE payment_terms (
  payment_term_id serial PRIMARY KEY,
  name text NOT NULL,
  invoicing_cycle text NOT NULL DEFAULT 'monthly' CHECK (invoicing_cycle IN ('daily', 'weekly', 'monthly', 'yearly')),
  grace_days integer NOT NULL DEFAULT 0 CHECK (grace_days >= 0),
  notify_days integer NOT NULL DEFAULT 0 CHECK (notify_days >= 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX payment_terms_name_uq ON payment_terms (lower(name));

CREATE TABLE time_profiles (
  time_profile_id serial PRIMARY KEY,
  name text NOT NULL,
  type text NOT NULL DEFAULT 'all_time' CHECK (type IN ('all_time', 'daily', 'weekly')),
  start_week_day smallint CHECK (start_week_day BETWEEN 0 AND 6),
  end_week_day smallint CHECK (end_week_day BETWEEN 0 AND 6),
  start_time text,
  end_time text,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX time_profiles_name_uq ON time_profiles (lower(name));

ALTER TABLE carriers
  ADD COLUMN payment_term_id integer REFERENCES payment_terms(payment_term_id),
  ADD COLUMN min_profitability numeric(9,4),
  ADD COLUMN short_call_charge numeric(18,6) NOT NULL DEFAULT 0,
  ADD COLUMN call_limit integer,
  ADD COLUMN cps_limit integer,
  ADD COLUMN port_limit integer,
  ADD COLUMN enable_origination boolean NOT NULL DEFAULT false,
  ADD COLUMN auto_invoice boolean NOT NULL DEFAULT false,
  ADD COLUMN automatic_report boolean NOT NULL DEFAULT false,
  ADD COLUMN invoice_format text NOT NULL DEFAULT 'pdf',
  ADD COLUMN rate_decimal_places smallint NOT NULL DEFAULT 4,
  ADD COLUMN generate_at smallint NOT NULL DEFAULT 0,
  ADD COLUMN non_zero_invoices_only boolean NOT NULL DEFAULT true,
  ADD COLUMN notifications jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN low_balance_threshold numeric(18,6),
  ADD COLUMN vendor_permissions jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN allowed_ips text[] NOT NULL DEFAULT '{}';

CREATE TABLE code_decks (
  code_deck_id serial PRIMARY KEY,
  name text NOT NULL,
  is_default boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX code_decks_name_uq ON code_decks (lower(name));
CREATE UNIQUE INDEX code_decks_one_default ON code_decks (is_default) WHERE is_default;

CREATE TABLE codes (
  code_deck_id integer NOT NULL REFERENCES code_decks(code_deck_id) ON DELETE CASCADE,
  code text NOT NULL CHECK (code ~ '^[0-9]+$'),
  code_name text NOT NULL DEFAULT '',
  country text NOT NULL DEFAULT '',
  PRIMARY KEY (code_deck_id, code)
);

CREATE TABLE rate_tables (
  rate_table_id serial PRIMARY KEY,
  name text NOT NULL,
  code_deck_id integer REFERENCES code_decks(code_deck_id),
  currency text NOT NULL DEFAULT 'USD',
  billing_method text NOT NULL DEFAULT 'dnis' CHECK (billing_method IN ('dnis', 'lrn')),
  rate_type text NOT NULL DEFAULT 'a_z' CHECK (rate_type IN ('a_z', 'us_jurisdictional', 'us_non_jurisdictional')),
  require_setup_fee boolean NOT NULL DEFAULT false,
  require_local_rate boolean NOT NULL DEFAULT false,
  jurisdiction_country text NOT NULL DEFAULT '',
  decimal_places smallint NOT NULL DEFAULT 4 CHECK (decimal_places BETWEEN 0 AND 6),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX rate_tables_name_uq ON rate_tables (lower(name));

CREATE TABLE rates (
  rate_id bigserial PRIMARY KEY,
  rate_table_id integer NOT NULL REFERENCES rate_tables(rate_table_id) ON DELETE CASCADE,
  code text NOT NULL CHECK (code ~ '^[0-9]+$'),
  code_name text NOT NULL DEFAULT '',
  country text NOT NULL DEFAULT '',
  rate numeric(18,6) NOT NULL CHECK (rate >= 0),
  intra_rate numeric(18,6),
  inter_rate numeric(18,6),
  ij_rate numeric(18,6),
  local_rate numeric(18,6),
  min_time integer NOT NULL DEFAULT 1 CHECK (min_time >= 0),
  interval integer NOT NULL DEFAULT 1 CHECK (interval >= 1),
  grace_time integer NOT NULL DEFAULT 0 CHECK (grace_time >= 0),
  setup_fee numeric(18,6) NOT NULL DEFAULT 0 CHECK (setup_fee >= 0),
  effective_date timestamptz NOT NULL,
  end_date timestamptz,
  CHECK (end_date IS NULL OR end_date > effective_date),
  UNIQUE (rate_table_id, code, effective_date)
);
CREATE INDEX rates_table_code ON rates (rate_table_id, code);

CREATE TABLE us_jurisdiction (
  npanxx text PRIMARY KEY CHECK (npanxx ~ '^[0-9]{6}$'),
  state text NOT NULL,
  lata text NOT NULL DEFAULT ''
);

CREATE TABLE routing_plans (
  route_plan_id serial PRIMARY KEY,
  name text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX routing_plans_name_uq ON routing_plans (lower(name));

CREATE TABLE static_routes (
  static_route_id serial PRIMARY KEY,
  name text NOT NULL,
  defined_by text NOT NULL DEFAULT 'code' CHECK (defined_by IN ('code', 'code_name', 'country')),
  route_by text NOT NULL DEFAULT 'dnis' CHECK (route_by IN ('dnis', 'lrn')),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX static_routes_name_uq ON static_routes (lower(name));

CREATE TABLE dynamic_routes (
  dynamic_route_id serial PRIMARY KEY,
  name text NOT NULL,
  rule text NOT NULL DEFAULT 'lcr' CHECK (rule IN ('lcr', 'largest_asr', 'largest_acd')),
  time_profile_id integer REFERENCES time_profiles(time_profile_id),
  qos_cycle_minutes integer NOT NULL DEFAULT 60 CHECK (qos_cycle_minutes > 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX dynamic_routes_name_uq ON dynamic_routes (lower(name));

CREATE TABLE routing_plan_rows (
  id serial PRIMARY KEY,
  route_plan_id integer NOT NULL REFERENCES routing_plans(route_plan_id) ON DELETE CASCADE,
  prefix text NOT NULL DEFAULT '' CHECK (prefix ~ '^[0-9]*$'),
  ani_prefix text NOT NULL DEFAULT '' CHECK (ani_prefix ~ '^[0-9]*$'),
  dnis_min_length integer,
  dnis_max_length integer,
  ani_min_length integer,
  ani_max_length integer,
  route_type text NOT NULL CHECK (route_type IN ('static', 'dynamic')),
  static_route_id integer REFERENCES static_routes(static_route_id),
  dynamic_route_id integer REFERENCES dynamic_routes(dynamic_route_id),
  time_profile_id integer REFERENCES time_profiles(time_profile_id),
  CHECK ((route_type = 'static' AND static_route_id IS NOT NULL) OR (route_type = 'dynamic' AND dynamic_route_id IS NOT NULL))
);
CREATE INDEX routing_plan_rows_plan ON routing_plan_rows (route_plan_id);

CREATE TABLE trunks (
  trunk_id serial PRIMARY KEY,
  carrier_id integer NOT NULL REFERENCES carriers(client_id) ON DELETE CASCADE,
  name text NOT NULL,
  direction text NOT NULL CHECK (direction IN ('ingress', 'egress')),
  trunk_type2 text NOT NULL DEFAULT 'termination' CHECK (trunk_type2 IN ('termination', 'did')),
  is_active boolean NOT NULL DEFAULT true,
  auth_type text NOT NULL DEFAULT 'host' CHECK (auth_type IN ('host', 'registration', 'register_gateway')),
  host_strategy text NOT NULL DEFAULT 'top_down' CHECK (host_strategy IN ('top_down', 'round_robin')),
  tech_prefix text NOT NULL DEFAULT '' CHECK (tech_prefix ~ '^[0-9#*]*$'),
  rate_table_id integer REFERENCES rate_tables(rate_table_id),
  routing_plan_id integer REFERENCES routing_plans(route_plan_id),
  bill_by text NOT NULL DEFAULT 'dnis' CHECK (bill_by IN ('dnis', 'lrn')),
  min_profitability numeric(9,4),
  call_limit integer CHECK (call_limit IS NULL OR call_limit >= 0),
  cps_limit integer CHECK (cps_limit IS NULL OR cps_limit >= 0),
  sip_sessions integer NOT NULL DEFAULT 10,
  sip_cps_limit integer NOT NULL DEFAULT 1,
  media_type text NOT NULL DEFAULT 'proxy' CHECK (media_type IN ('bypass', 'proxy', 'transcoding')),
  protocol text NOT NULL DEFAULT 'udp' CHECK (protocol IN ('udp', 'tcp', 'tls')),
  t38 boolean NOT NULL DEFAULT false,
  codecs text[] NOT NULL DEFAULT '{G711U,G711A,G729}',
  timeouts jsonb NOT NULL DEFAULT '{}',
  digit_rules jsonb NOT NULL DEFAULT '{}',
  identity_options jsonb NOT NULL DEFAULT '{}',
  blocking jsonb NOT NULL DEFAULT '{}',
  failover_rules jsonb NOT NULL DEFAULT '[]',
  capacity jsonb NOT NULL DEFAULT '{}',
  stir_shaken jsonb NOT NULL DEFAULT '{}',
  spam_scoring jsonb NOT NULL DEFAULT '{}',
  allowed_send_to_ips text[] NOT NULL DEFAULT '{}',
  sip_profile text NOT NULL DEFAULT '',
  random_ani_group_id integer,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX trunks_name_uq ON trunks (lower(name));
CREATE INDEX trunks_carrier ON trunks (carrier_id);

CREATE TABLE trunk_hosts (
  id serial PRIMARY KEY,
  trunk_id integer NOT NULL REFERENCES trunks(trunk_id) ON DELETE CASCADE,
  host_type text NOT NULL DEFAULT 'ip' CHECK (host_type IN ('ip', 'hostname')),
  host text NOT NULL,
  port integer CHECK (port IS NULL OR port BETWEEN 1 AND 65535),
  netmask smallint NOT NULL DEFAULT 32 CHECK (netmask BETWEEN 0 AND 32),
  ordering integer NOT NULL DEFAULT 0
);
CREATE INDEX trunk_hosts_trunk ON trunk_hosts (trunk_id);
CREATE INDEX trunk_hosts_host ON trunk_hosts (host);

CREATE TABLE products (
  id serial PRIMARY KEY,
  name text NOT NULL,
  routing_plan_id integer REFERENCES routing_plans(route_plan_id),
  rate_table_id integer REFERENCES rate_tables(rate_table_id),
  tech_prefix text NOT NULL DEFAULT '' CHECK (tech_prefix ~ '^[0-9#*]*$'),
  description text NOT NULL DEFAULT '',
  scope text NOT NULL DEFAULT 'public' CHECK (scope IN ('public', 'private')),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX products_name_uq ON products (lower(name));
CREATE TABLE product_carriers (product_id integer NOT NULL REFERENCES products(id) ON DELETE CASCADE, carrier_id integer NOT NULL REFERENCES carriers(client_id) ON DELETE CASCADE, PRIMARY KEY (product_id, carrier_id));
CREATE TABLE product_agents (product_id integer NOT NULL REFERENCES products(id) ON DELETE CASCADE, agent_id integer NOT NULL REFERENCES agents(agent_id) ON DELETE CASCADE, PRIMARY KEY (product_id, agent_id));

CREATE TABLE trunk_routing_rows (
  id serial PRIMARY KEY,
  trunk_id integer NOT NULL REFERENCES trunks(trunk_id) ON DELETE CASCADE,
  product_id integer REFERENCES products(id),
  tech_prefix text NOT NULL DEFAULT '' CHECK (tech_prefix ~ '^[0-9#*]*$'),
  rate_table_id integer REFERENCES rate_tables(rate_table_id),
  routing_plan_id integer REFERENCES routing_plans(route_plan_id),
  UNIQUE (trunk_id, tech_prefix)
);

CREATE TABLE trunk_groups (
  group_id serial PRIMARY KEY,
  group_name text NOT NULL,
  trunk_type text NOT NULL CHECK (trunk_type IN ('ingress', 'egress')),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX trunk_groups_name_uq ON trunk_groups (lower(group_name));
CREATE TABLE trunk_group_members (group_id integer NOT NULL REFERENCES trunk_groups(group_id) ON DELETE CASCADE, trunk_id integer NOT NULL REFERENCES trunks(trunk_id) ON DELETE CASCADE, PRIMARY KEY (group_id, trunk_id));

CREATE TABLE static_route_items (
  id serial PRIMARY KEY,
  static_route_id integer NOT NULL REFERENCES static_routes(static_route_id) ON DELETE CASCADE,
  code text NOT NULL DEFAULT '',
  code_name text NOT NULL DEFAULT '',
  country text NOT NULL DEFAULT '',
  strategy text NOT NULL DEFAULT 'top_down' CHECK (strategy IN ('top_down', 'percentage', 'round_robin')),
  time_profile_id integer REFERENCES time_profiles(time_profile_id)
);
CREATE TABLE static_route_item_trunks (
  item_id integer NOT NULL REFERENCES static_route_items(id) ON DELETE CASCADE,
  trunk_id integer NOT NULL REFERENCES trunks(trunk_id),
  ordering integer NOT NULL DEFAULT 0,
  percentage numeric(6,2),
  PRIMARY KEY (item_id, trunk_id)
);

CREATE TABLE dynamic_route_trunks (
  dynamic_route_id integer NOT NULL REFERENCES dynamic_routes(dynamic_route_id) ON DELETE CASCADE,
  trunk_id integer NOT NULL REFERENCES trunks(trunk_id),
  priority integer,
  call_limit integer,
  cps_limit integer,
  PRIMARY KEY (dynamic_route_id, trunk_id)
);

CREATE TABLE block_list (
  id serial PRIMARY KEY,
  trunk_id integer REFERENCES trunks(trunk_id) ON DELETE CASCADE,
  carrier_id integer REFERENCES carriers(client_id) ON DELETE CASCADE,
  field text NOT NULL CHECK (field IN ('ani', 'dnis')),
  match text NOT NULL DEFAULT 'prefix' CHECK (match IN ('exact', 'prefix')),
  number text NOT NULL CHECK (number ~ '^[0-9]+$'),
  note text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE switch_api_keys (
  id serial PRIMARY KEY,
  name text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

CREATE TABLE trunk_qos (
  trunk_id integer PRIMARY KEY REFERENCES trunks(trunk_id) ON DELETE CASCADE,
  asr numeric(6,2) NOT NULL DEFAULT 0,
  acd numeric(10,2) NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now()
);
`,
    )
    .execute(db);
}
