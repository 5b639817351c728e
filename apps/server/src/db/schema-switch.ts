import type { ColumnType, Generated } from 'kysely';

/** Row types of migration 0002 (switch configuration). */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Numeric = ColumnType<string, string | undefined, string>;
type NullableNumeric = ColumnType<string | null, string | null | undefined, string | null>;
type Json<T = unknown> = ColumnType<T, string | undefined, string>;
type TextArray = ColumnType<string[], string[] | undefined, string[]>;

export interface PaymentTermsTable {
  payment_term_id: Generated<number>;
  name: string;
  invoicing_cycle: Generated<'daily' | 'weekly' | 'monthly' | 'yearly'>;
  grace_days: Generated<number>;
  notify_days: Generated<number>;
  updated_at: Generated<Date>;
  updated_by: Generated<string>;
}
export interface TimeProfilesTable {
  time_profile_id: Generated<number>;
  name: string;
  type: Generated<'all_time' | 'daily' | 'weekly'>;
  start_week_day: number | null;
  end_week_day: number | null;
  start_time: string | null;
  end_time: string | null;
  updated_at: Generated<Date>;
}
export interface CodeDecksTable {
  code_deck_id: Generated<number>;
  name: string;
  is_default: Generated<boolean>;
  updated_at: Generated<Date>;
  updated_by: Generated<string>;
}
export interface CodesTable {
  code_deck_id: number;
  code: string;
  code_name: Generated<string>;
  country: Generated<string>;
}
export interface RateTablesTable {
  rate_table_id: Generated<number>;
  name: string;
  code_deck_id: number | null;
  currency: Generated<string>;
  billing_method: Generated<'dnis' | 'lrn'>;
  rate_type: Generated<'a_z' | 'us_jurisdictional' | 'us_non_jurisdictional'>;
  require_setup_fee: Generated<boolean>;
  require_local_rate: Generated<boolean>;
  jurisdiction_country: Generated<string>;
  decimal_places: Generated<number>;
  updated_at: Generated<Date>;
  updated_by: Generated<string>;
}
export interface RatesTable {
  rate_id: Generated<number>;
  rate_table_id: number;
  code: string;
  code_name: Generated<string>;
  country: Generated<string>;
  rate: string;
  intra_rate: NullableNumeric;
  inter_rate: NullableNumeric;
  ij_rate: NullableNumeric;
  local_rate: NullableNumeric;
  min_time: Generated<number>;
  interval: Generated<number>;
  grace_time: Generated<number>;
  setup_fee: Numeric;
  effective_date: Timestamp;
  end_date: NullableTimestamp;
}
export interface UsJurisdictionTable {
  npanxx: string;
  state: string;
  lata: Generated<string>;
}
export interface RoutingPlansTable {
  route_plan_id: Generated<number>;
  name: string;
  updated_at: Generated<Date>;
  updated_by: Generated<string>;
}
export interface StaticRoutesTable {
  static_route_id: Generated<number>;
  name: string;
  defined_by: Generated<'code' | 'code_name' | 'country'>;
  route_by: Generated<'dnis' | 'lrn'>;
  updated_at: Generated<Date>;
}
export interface DynamicRoutesTable {
  dynamic_route_id: Generated<number>;
  name: string;
  rule: Generated<'lcr' | 'largest_asr' | 'largest_acd'>;
  time_profile_id: number | null;
  qos_cycle_minutes: Generated<number>;
  updated_at: Generated<Date>;
}
export interface RoutingPlanRowsTable {
  id: Generated<number>;
  route_plan_id: number;
  prefix: Generated<string>;
  ani_prefix: Generated<string>;
  dnis_min_length: number | null;
  dnis_max_length: number | null;
  ani_min_length: number | null;
  ani_max_length: number | null;
  route_type: 'static' | 'dynamic';
  static_route_id: number | null;
  dynamic_route_id: number | null;
  time_profile_id: number | null;
}
export interface TrunksTable {
  trunk_id: Generated<number>;
  carrier_id: number;
  name: string;
  direction: 'ingress' | 'egress';
  trunk_type2: Generated<'termination' | 'did'>;
  is_active: Generated<boolean>;
  auth_type: Generated<'host' | 'registration' | 'register_gateway'>;
  host_strategy: Generated<'top_down' | 'round_robin'>;
  tech_prefix: Generated<string>;
  rate_table_id: number | null;
  routing_plan_id: number | null;
  bill_by: Generated<'dnis' | 'lrn'>;
  min_profitability: NullableNumeric;
  call_limit: number | null;
  cps_limit: number | null;
  sip_sessions: Generated<number>;
  sip_cps_limit: Generated<number>;
  media_type: Generated<'bypass' | 'proxy' | 'transcoding'>;
  protocol: Generated<'udp' | 'tcp' | 'tls'>;
  t38: Generated<boolean>;
  codecs: TextArray;
  timeouts: Json;
  digit_rules: Json;
  identity_options: Json;
  blocking: Json;
  failover_rules: Json;
  capacity: Json;
  stir_shaken: Json;
  spam_scoring: Json;
  allowed_send_to_ips: TextArray;
  sip_profile: Generated<string>;
  random_ani_group_id: number | null;
  updated_at: Generated<Date>;
}
export interface TrunkHostsTable {
  id: Generated<number>;
  trunk_id: number;
  host_type: Generated<'ip' | 'hostname'>;
  host: string;
  port: number | null;
  netmask: Generated<number>;
  ordering: Generated<number>;
}
export interface ProductsTable {
  id: Generated<number>;
  name: string;
  routing_plan_id: number | null;
  rate_table_id: number | null;
  tech_prefix: Generated<string>;
  description: Generated<string>;
  scope: Generated<'public' | 'private'>;
  updated_at: Generated<Date>;
}
export interface ProductCarriersTable {
  product_id: number;
  carrier_id: number;
}
export interface ProductAgentsTable {
  product_id: number;
  agent_id: number;
}
export interface TrunkRoutingRowsTable {
  id: Generated<number>;
  trunk_id: number;
  product_id: number | null;
  tech_prefix: Generated<string>;
  rate_table_id: number | null;
  routing_plan_id: number | null;
}
export interface TrunkGroupsTable {
  group_id: Generated<number>;
  group_name: string;
  trunk_type: 'ingress' | 'egress';
  updated_at: Generated<Date>;
}
export interface TrunkGroupMembersTable {
  group_id: number;
  trunk_id: number;
}
export interface StaticRouteItemsTable {
  id: Generated<number>;
  static_route_id: number;
  code: Generated<string>;
  code_name: Generated<string>;
  country: Generated<string>;
  strategy: Generated<'top_down' | 'percentage' | 'round_robin'>;
  time_profile_id: number | null;
}
export interface StaticRouteItemTrunksTable {
  item_id: number;
  trunk_id: number;
  ordering: Generated<number>;
  percentage: NullableNumeric;
}
export interface DynamicRouteTrunksTable {
  dynamic_route_id: number;
  trunk_id: number;
  priority: number | null;
  call_limit: number | null;
  cps_limit: number | null;
}
export interface BlockListTable {
  id: Generated<number>;
  trunk_id: number | null;
  carrier_id: number | null;
  field: 'ani' | 'dnis';
  match: Generated<'exact' | 'prefix'>;
  number: string;
  note: Generated<string>;
  created_at: Generated<Date>;
}
export interface SwitchApiKeysTable {
  id: Generated<number>;
  name: string;
  key_hash: string;
  created_at: Generated<Date>;
  revoked_at: NullableTimestamp;
}
/** Rolling QoS figures of a trunk over a QoS cycle length (one row per trunk and cycle since 0011). */
export interface TrunkQosTable {
  trunk_id: number;
  cycle_minutes: number;
  asr: Numeric;
  acd: Numeric;
  attempts: Generated<number>;
  answered: Generated<number>;
  billed_seconds: Generated<number>;
  /** When the latest sample counted in the figures was received. */
  updated_at: Generated<Date>;
  /** 0033: 'cdr' (the CDR summaries) or 'switch' (the /switch/qos samples). */
  source: Generated<'switch' | 'cdr'>;
}
/** Interval counters the switch reported for a trunk (0011). */
export interface TrunkQosSamplesTable {
  id: Generated<number>;
  trunk_id: number;
  received_at: Generated<Date>;
  attempts: number;
  answered: number;
  billed_seconds: number;
}

export interface SwitchConfigTables {
  payment_terms: PaymentTermsTable;
  time_profiles: TimeProfilesTable;
  code_decks: CodeDecksTable;
  codes: CodesTable;
  rate_tables: RateTablesTable;
  rates: RatesTable;
  us_jurisdiction: UsJurisdictionTable;
  routing_plans: RoutingPlansTable;
  static_routes: StaticRoutesTable;
  dynamic_routes: DynamicRoutesTable;
  routing_plan_rows: RoutingPlanRowsTable;
  trunks: TrunksTable;
  trunk_hosts: TrunkHostsTable;
  products: ProductsTable;
  product_carriers: ProductCarriersTable;
  product_agents: ProductAgentsTable;
  trunk_routing_rows: TrunkRoutingRowsTable;
  trunk_groups: TrunkGroupsTable;
  trunk_group_members: TrunkGroupMembersTable;
  static_route_items: StaticRouteItemsTable;
  static_route_item_trunks: StaticRouteItemTrunksTable;
  dynamic_route_trunks: DynamicRouteTrunksTable;
  block_list: BlockListTable;
  switch_api_keys: SwitchApiKeysTable;
  trunk_qos: TrunkQosTable;
  trunk_qos_samples: TrunkQosSamplesTable;
}

/** Carrier columns added by migration 0002. */
export interface CarrierCommercialColumns {
  payment_term_id: number | null;
  min_profitability: NullableNumeric;
  short_call_charge: Numeric;
  call_limit: number | null;
  cps_limit: number | null;
  port_limit: number | null;
  enable_origination: Generated<boolean>;
  auto_invoice: Generated<boolean>;
  automatic_report: Generated<boolean>;
  invoice_format: Generated<string>;
  rate_decimal_places: Generated<number>;
  generate_at: Generated<number>;
  non_zero_invoices_only: Generated<boolean>;
  notifications: Json;
  low_balance_threshold: NullableNumeric;
  vendor_permissions: Json;
  allowed_ips: TextArray;
}
