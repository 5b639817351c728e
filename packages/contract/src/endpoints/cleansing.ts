import { z } from 'zod';
import { adminOnly } from '../access';
import { endpoint } from '../endpoint';
import { systemSettings } from './config';
import { jobStatus } from './jobs';

/**
 * Configuration > DB Cleansing (`/configuration/auto_rotation_and_cleaning`, issue 10 section 5,
 * docs/cdr.md "Retention"): what the database holds and what the daily cleansing job removes.
 * The job (`db.cleansing`, daily 01:00 UTC) makes the CDR day partitions ahead, drops the days
 * older than the CDR retention, deletes logs older than the log retention and export files older
 * than the export retention. The page shows each with what the next run removes, changes the three
 * retentions (stored with the system settings) and runs the job now.
 */
export const FUNC = '/configuration/auto_rotation_and_cleaning';
const TAG = 'config';
export const CLEANSING_JOB = 'db.cleansing';

/** The retentions (days, 0 keeps everything): the system settings of the same names. */
export const cleansingSettings = systemSettings
  .pick({ cdr_retention_days: true, log_retention_days: true, export_retention_days: true })
  .strict();
export type CleansingSettings = z.infer<typeof cleansingSettings>;

/** The logs the log retention applies to (the audit trail, Modification Log, is kept for good). */
export const CLEANSING_LOGS = [
  'signin_history',
  'retrieve_password_log',
  'email_log',
  'scheduler_log',
  'monitoring_log',
  'scheduled_report_log',
] as const;
export type CleansingLog = (typeof CLEANSING_LOGS)[number];

/** A day partition: `ahead` is made before its day (after today), `drops` goes at the next run. */
export const PARTITION_STATES = ['ahead', 'kept', 'drops'] as const;
export const cdrPartition = z.object({
  /** UTC day, YYYY-MM-DD. */
  day: z.string(),
  name: z.string(),
  /** CDRs of the day (from the daily summaries, exact). */
  cdrs: z.number(),
  /** On-disk size with its indexes, bytes. */
  bytes: z.number(),
  state: z.enum(PARTITION_STATES),
});
export type CdrPartition = z.infer<typeof cdrPartition>;

const removal = {
  /** Rows (or files) now held, and those the next run removes. */
  rows: z.number(),
  drops: z.number(),
  /** Oldest entry, ISO UTC; null when empty. */
  oldest: z.string().nullable(),
};

export const cleansingState = z.object({
  settings: cleansingSettings,
  /** The server's clock, ISO UTC (the drops below are counted as of now). */
  now: z.string(),
  schedule: z.string(),
  next_run_at: z.string(),
  last_run: z
    .object({
      job_id: z.number(),
      status: jobStatus,
      started_at: z.string().nullable(),
      finished_at: z.string().nullable(),
      progress_message: z.string(),
      error: z.string(),
      /** What a finished run did; null until it finishes. */
      done: z
        .object({
          partitions_made: z.number(),
          partitions_dropped: z.number(),
          log_entries_deleted: z.number(),
          exports_deleted: z.number(),
        })
        .nullable(),
    })
    .nullable(),
  /** Days (partitions) before this UTC day go at the next run; null when the CDR retention is 0. */
  cdr_cutoff: z.string().nullable(),
  partitions: z.array(cdrPartition),
  cdr_totals: z.object({
    partitions: z.number(),
    cdrs: z.number(),
    bytes: z.number(),
    drop_partitions: z.number(),
    drop_cdrs: z.number(),
    drop_bytes: z.number(),
  }),
  /** Entries older than this go at the next run; null when the log retention is 0. */
  log_cutoff: z.string().nullable(),
  logs: z.array(z.object({ log: z.enum(CLEANSING_LOGS), ...removal })),
  export_cutoff: z.string().nullable(),
  exports: z.object({ ...removal, bytes: z.number(), drop_bytes: z.number() }),
});
export type CleansingState = z.infer<typeof cleansingState>;

export const getCleansing = endpoint({
  method: 'GET',
  path: '/config/db-cleansing',
  summary:
    'DB Cleansing: CDR day partitions with their size, logs and export files, the retentions and what the next daily run removes',
  tag: TAG,
  access: adminOnly(FUNC, 'read'),
  payload: cleansingState,
});

export const putCleansing = endpoint({
  method: 'PUT',
  path: '/config/db-cleansing',
  summary: 'Change the CDR, log and export retentions (days, 0 keeps everything); answers the new state',
  tag: TAG,
  access: adminOnly(FUNC, 'write'),
  body: cleansingSettings,
  payload: cleansingState,
});

export const runCleansing = endpoint({
  method: 'POST',
  path: '/config/db-cleansing/run',
  summary: 'Run the cleansing job now (a durable job; progress in the scheduler log); answers its id',
  tag: TAG,
  access: adminOnly(FUNC, 'execute'),
  payload: z.object({ job_id: z.number(), created: z.boolean() }),
});
