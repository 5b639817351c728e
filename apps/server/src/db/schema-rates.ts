import type { ColumnType, Generated } from 'kysely';

/** Row types of the tables the rates area adds in its own migration (0003_rates). */
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T = unknown> = ColumnType<T, string | undefined, string>;
type NullableNumeric = ColumnType<string | null, string | null | undefined, string | null>;

export type DuplicateMode = 'reject' | 'skip' | 'overwrite';
export type EndDateOption = 'keep' | 'end_previous' | 'end_previous_and_absent';

export interface RateUploadTemplatesTable {
  id: Generated<number>;
  name: string;
  delete_existing: Generated<boolean>;
  end_date_option: Generated<EndDateOption>;
  effective_date_format: Generated<string>;
  has_code_deck: Generated<boolean>;
  default_effective_days: Generated<number>;
  duplicate_mode: Generated<DuplicateMode>;
  updated_at: Generated<Date>;
  updated_by: Generated<string>;
}

export interface AutoRateImportRulesTable {
  id: Generated<number>;
  name: string;
  rate_table_id: number;
  template_id: number | null;
  email_subject: Generated<string>;
  is_active: Generated<boolean>;
  updated_at: Generated<Date>;
  updated_by: Generated<string>;
}

export interface RateImportResultsTable {
  task_id: number;
  user_name: Generated<string>;
  source: Generated<string>;
  duplicate_mode: DuplicateMode;
  options: Json;
  total_rows: Generated<number>;
  inserted_rows: Generated<number>;
  updated_rows: Generated<number>;
  skipped_rows: Generated<number>;
  ended_rows: Generated<number>;
  deleted_rows: Generated<number>;
  error_rows: Generated<number>;
  message: Generated<string>;
  finished_at: NullableTimestamp;
}

export interface RateImportErrorsTable {
  id: Generated<number>;
  task_id: number;
  line: number;
  code: Generated<string>;
  field: Generated<string>;
  message_key: string;
  params: Json<(string | number)[]>;
}

export interface RateImportRowsTable {
  task_id: number;
  line: number;
  code: string;
  code_name: string | null;
  country: string | null;
  rate: NullableNumeric;
  intra_rate: NullableNumeric;
  inter_rate: NullableNumeric;
  ij_rate: NullableNumeric;
  local_rate: NullableNumeric;
  min_time: number | null;
  interval: number | null;
  grace_time: number | null;
  setup_fee: NullableNumeric;
  effective_date: ColumnType<Date, Date | string, Date | string>;
  end_date: NullableTimestamp;
}

export interface RateMassEditLogTable {
  id: Generated<number>;
  rate_table_id: number | null;
  rate_table_name: Generated<string>;
  user_id: number | null;
  user_name: Generated<string>;
  filter: Json;
  actions: Json;
  affected_rows: Generated<number>;
  created_at: Generated<Date>;
}

export interface RatesTables {
  rate_upload_templates: RateUploadTemplatesTable;
  auto_rate_import_rules: AutoRateImportRulesTable;
  rate_import_results: RateImportResultsTable;
  rate_import_errors: RateImportErrorsTable;
  rate_import_rows: RateImportRowsTable;
  rate_mass_edit_log: RateMassEditLogTable;
}
