import type { ColumnType, Generated } from 'kysely';

/** Row types of the monitoring tables (migration 0024_monitoring). NUMERIC reads as text, JSONB as values. */
type Numeric = ColumnType<string | null, string | null | undefined, string | null>;
type Json<T> = ColumnType<T, string, string>;
type Time = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

interface Actions {
  unblock_after_minutes: number | null;
  email_to: Generated<'none' | 'partner' | 'own' | 'both'>;
  email_subject: Generated<string>;
}

export interface FraudRulesTable extends Actions {
  id: Generated<number>;
  rule_name: string;
  is_active: Generated<boolean>;
  scope: Generated<'all' | 'trunks'>;
  granularity: Generated<'trunk' | 'ani'>;
  trunk_ids: Json<number[]>;
  hour_minutes: Numeric;
  hour_revenue: Numeric;
  hour_cost: Numeric;
  day_minutes: Numeric;
  day_revenue: Numeric;
  day_cost: Numeric;
  asr_below: Numeric;
  acd_below: Numeric;
  min_attempts: Generated<number>;
  block: Generated<boolean>;
  last_run_at: NullableTime;
  updated_at: Time;
  updated_by: Generated<string>;
}

export interface MonitoringRulesTable extends Actions {
  id: Generated<number>;
  rule_name: string;
  is_active: Generated<boolean>;
  side: Generated<'egress' | 'ingress'>;
  trunk_ids: Json<number[]>;
  code_mode: Generated<'all' | 'include' | 'exclude'>;
  codes: Json<string[]>;
  asr_below: Numeric;
  acd_below: Numeric;
  ner_below: Numeric;
  profit_below: Numeric;
  sdp_above: Numeric;
  pdd_above: Numeric;
  min_attempts: number;
  sample_minutes: number;
  every_minutes: number;
  action_block: Generated<'none' | 'trunk' | 'route'>;
  last_run_at: NullableTime;
  next_run_at: NullableTime;
  updated_at: Time;
  updated_by: Generated<string>;
}

export interface LoopRulesTable {
  id: Generated<number>;
  rule_name: string;
  is_active: Generated<boolean>;
  trunk_ids: Json<number[]>;
  number_ranges: Json<string[]>;
  max_calls: number;
  window_seconds: number;
  block_seconds: number;
  updated_at: Time;
  updated_by: Generated<string>;
}

export interface MonitoringStateTable {
  rule_kind: string;
  rule_id: number;
  subject: string;
  state: 'clear' | 'breached';
  since: Time;
}

export interface MonitoringBlocksTable {
  block_id: Generated<number>;
  rule_kind: 'fraud' | 'rule' | 'loop';
  rule_id: number | null;
  rule_name: string;
  subject: string;
  side: 'ingress' | 'egress';
  trunk_id: number;
  ani: string | null;
  codes: ColumnType<string[] | null, string | null, string | null>;
  created_at: Time;
  until: NullableTime;
  lifted_at: NullableTime;
  lifted_by: string | null;
  lift_reason: 'expired' | 'manual' | null;
}

export interface MonitoringLogTable {
  id: Generated<number>;
  at: Time;
  rule_kind: 'fraud' | 'rule' | 'loop';
  rule_id: number | null;
  rule_name: string;
  event: string;
  trunk_id: number | null;
  subject: Generated<string>;
  detail: Generated<string>;
  figures: ColumnType<Record<string, number | null> | null, string | null, string | null>;
  block_id: number | null;
}

export interface MonitoringTables {
  fraud_rules: FraudRulesTable;
  monitoring_rules: MonitoringRulesTable;
  loop_rules: LoopRulesTable;
  monitoring_state: MonitoringStateTable;
  monitoring_blocks: MonitoringBlocksTable;
  monitoring_log: MonitoringLogTable;
}
