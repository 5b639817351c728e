import type { ColumnType, Generated } from 'kysely';

/** Row types of the job tables (migration 0014_jobs). */
type Json = ColumnType<unknown, string | undefined, string>;
type NullableJson = ColumnType<unknown, string | null | undefined, string | null>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export type JobStatus = 'pending' | 'running' | 'finished' | 'failed' | 'killed';

export interface JobsTable {
  id: Generated<number>;
  kind: string;
  payload: Json;
  key: string | null;
  status: Generated<JobStatus>;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  run_at: ColumnType<Date, Date | string | undefined, Date | string>;
  locked_by: string | null;
  lease_until: NullableTimestamp;
  progress_done: Generated<number>;
  progress_total: number | null;
  progress_message: Generated<string>;
  result: NullableJson;
  error: Generated<string>;
  schedule: string | null;
  rerun_of: number | null;
  user_id: number | null;
  user_name: Generated<string>;
  created_at: Generated<Date>;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  killed_by: string | null;
}

export interface JobSchedulesTable {
  name: string;
  last_slot: ColumnType<Date, Date | string, Date | string>;
  job_id: number | null;
}

export interface JobsTables {
  jobs: JobsTable;
  job_schedules: JobSchedulesTable;
}
