import type { ColumnType, Generated } from 'kysely';

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

/** Saved report schedules (migration 0027_report_schedules); recipients and query as JSON text. */
export interface ReportSchedulesTable {
  id: Generated<number>;
  report: string;
  name: string;
  frequency: 'daily' | 'weekly' | 'monthly';
  hour: number;
  tz: string;
  recipients: string;
  query: string;
  active: Generated<boolean>;
  user_id: number;
  owner: string;
  next_run_at: ColumnType<Date, Date | string, Date | string>;
  last_run_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: Generated<Date>;
}

/** Each report mailed, by a schedule or sent now (migration 0027_report_schedules). */
export interface ScheduledReportLogTable {
  id: Generated<number>;
  schedule_id: number | null;
  schedule_name: Generated<string>;
  report: string;
  user_id: number | null;
  owner: string;
  period_from: string;
  period_to: string;
  recipients: string;
  status: ColumnType<'pending' | 'sent' | 'failed', 'pending' | 'sent' | 'failed' | undefined>;
  row_count: Generated<number>;
  error: Generated<string>;
  job_id: number | null;
  created_at: Generated<Date>;
  sent_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** 0033: the carriers a system user looks after (statistics without "View All Carriers"). */
export interface UserCarriersTable {
  user_id: number;
  client_id: number;
}
/** 0033: most calls up at once per 5 minutes and trunk, from the switch's /switch/calls reports (trunk 0: the whole switch). */
export interface TrunkChannelPeaksTable {
  slot: Date;
  trunk_id: number;
  peak: number;
}

export interface StatsTables {
  cdr_summaries: CdrSummariesTable;
  cdr_summaries_hourly: CdrSummariesHourlyTable;
  cdr_summaries_daily: CdrSummariesHourlyTable;
  /** 0035: the 15-minute key per UTC day. */
  cdr_summaries_daily_detail: CdrSummariesTable;
  report_schedules: ReportSchedulesTable;
  cdr_host_summaries: CdrSummariesHourlyTable & { source_ip: string; egress_host: string };
  /** 0038: batches whose CDRs the fold (foldSummaries) has still to summarise. */
  cdr_summary_queue: { batch_id: string; cdr_ids: string[]; start_times: Date[]; cdr_count: number };
  scheduled_report_log: ScheduledReportLogTable;
  user_carriers: UserCarriersTable;
  trunk_channel_peaks: TrunkChannelPeaksTable;
}
