import type { ColumnType, Generated } from 'kysely';

/** Row types of the tables of Tools > Rate Generation (0006_rate_generation). */
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T = unknown> = ColumnType<T, string | undefined, string>;
type NullableNumeric = ColumnType<string | null, string | null | undefined, string | null>;

export interface RateGenerationTemplatesTable {
  id: Generated<number>;
  name: string;
  rate_table_type: Generated<'a_z' | 'us_jurisdictional' | 'us_non_jurisdictional'>;
  lcr_basis: Generated<'lcr1' | 'lcr2' | 'lcr3' | 'average'>;
  average_count: Generated<number>;
  default_rate: NullableNumeric;
  decimal_places: Generated<number>;
  code_deck_id: number | null;
  margins: Json;
  interval: Generated<number>;
  min_time: Generated<number>;
  updated_at: Generated<Date>;
  updated_by: Generated<string>;
}

export interface RateGenerationTemplateTrunksTable {
  template_id: number;
  trunk_id: number;
  position: number;
}

export interface RateGenerationHistoryTable {
  id: Generated<number>;
  template_id: number | null;
  template_name: string;
  settings: Json;
  rate_table_type: 'a_z' | 'us_jurisdictional' | 'us_non_jurisdictional';
  decimal_places: number;
  status: Generated<'Initial' | 'Finished' | 'Failed'>;
  user_id: number | null;
  created_by: string;
  start_time: Generated<Date>;
  finish_time: NullableTimestamp;
  rate_date: ColumnType<Date, Date | string, Date | string>;
  rate_count: Generated<number>;
  applied: Generated<boolean>;
  applied_at: NullableTimestamp;
  rate_table_id: number | null;
  rate_table_name: string | null;
  import_task_id: number | null;
  message: Generated<string>;
}

export interface RateGenerationRatesTable {
  history_id: number;
  code: string;
  code_name: string;
  country: string;
  rate: string;
  intra_rate: NullableNumeric;
  inter_rate: NullableNumeric;
  ij_rate: NullableNumeric;
  local_rate: NullableNumeric;
  cost: NullableNumeric;
  vendor_trunk_id: number | null;
  vendor_trunk_name: string | null;
  markup_type: 'percentage' | 'fixed' | null;
  markup: NullableNumeric;
  source: 'vendor' | 'default';
  vendor_count: number;
}

export interface RateGenerationTables {
  rate_generation_templates: RateGenerationTemplatesTable;
  rate_generation_template_trunks: RateGenerationTemplateTrunksTable;
  rate_generation_history: RateGenerationHistoryTable;
  rate_generation_rates: RateGenerationRatesTable;
}
