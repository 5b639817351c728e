import type { ColumnType } from 'kysely';

/** Row types of the traffic summaries (migration 0019_cdr_summaries). Counts are BIGINT, money NUMERIC: read as text. */
type Big = ColumnType<string, string | number, string | number>;
type Numeric = ColumnType<string, string, string>;

export interface CdrSummariesTable {
  bucket: ColumnType<Date, Date | string, Date | string>;
  ingress_client_id: number;
  egress_client_id: number;
  ingress_trunk_id: number;
  egress_trunk_id: number;
  egress_code: string;
  term_country: string;
  release_cause: number;
  release_side: string;
  non_zero: boolean;
  attempts: Big;
  answered: Big;
  non_zero_calls: Big;
  ner_calls: Big;
  short_calls: Big;
  unpriced: Big;
  duration: Big;
  ingress_billed_time: Big;
  egress_billed_time: Big;
  revenue: Numeric;
  cost: Numeric;
  pdd_sum: Big;
  pdd_calls: Big;
}

/** The hourly roll-up: the same sums by hour, customer, vendor, trunks and country. */
export type CdrSummariesHourlyTable = Omit<
  CdrSummariesTable,
  'egress_code' | 'release_cause' | 'release_side' | 'non_zero'
>;

export interface StatsTables {
  cdr_summaries: CdrSummariesTable;
  cdr_summaries_hourly: CdrSummariesHourlyTable;
  cdr_summaries_daily: CdrSummariesHourlyTable;
}
