import { z } from 'zod';
import { SIGNED_IN, adminOnly } from '../access';
import { idParams, instantFilter, listQuery, paged } from '../common';
import { endpoint } from '../endpoint';

/** States of a background job (spec 02: jobs can be killed, reprocessed or executed again). */
export const JOB_STATUSES = ['pending', 'running', 'finished', 'failed', 'killed'] as const;
export const jobStatus = z.enum(JOB_STATUSES);

export const jobRow = z.object({
  id: z.number(),
  kind: z.string(),
  status: jobStatus,
  attempts: z.number(),
  max_attempts: z.number(),
  progress_done: z.number(),
  progress_total: z.number().nullable(),
  progress_message: z.string(),
  error: z.string(),
  schedule: z.string().nullable(),
  rerun_of: z.number().nullable(),
  user_name: z.string(),
  killed_by: z.string().nullable(),
  run_at: z.string(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});

/** Log > Scheduler Log: every background job with its state and progress. */
export const listSchedulerLog = endpoint({
  method: 'GET',
  path: '/log/scheduler',
  summary: 'Background jobs (imports, exports, scheduled work) with state and progress',
  tag: 'log',
  access: adminOnly('/log/scheduler_log', 'read'),
  query: listQuery.extend({
    kind: z.string().max(64).optional(),
    status: jobStatus.optional(),
    created_from: instantFilter.optional(),
    created_to: instantFilter.optional(),
  }),
  payload: paged(jobRow),
});

export const killJob = endpoint({
  method: 'PATCH',
  path: '/log/scheduler/:id/kill',
  summary: 'Kill a pending or running job (it is not retried)',
  tag: 'log',
  access: adminOnly('/log/scheduler_log', 'execute'),
  params: idParams,
  payload: z.object({ object_id: z.number() }),
});

export const rerunJob = endpoint({
  method: 'PATCH',
  path: '/log/scheduler/:id/rerun',
  summary: 'Run a finished, failed or killed job again (a new job with the same input)',
  tag: 'log',
  access: adminOnly('/log/scheduler_log', 'execute'),
  params: idParams,
  payload: z.object({ object_id: z.number() }),
});

export const recurringRow = z.object({
  kind: z.string(),
  schedule: z.string(),
  last_slot: z.string().nullable(),
  job_id: z.number().nullable(),
});
export const listRecurring = endpoint({
  method: 'GET',
  path: '/log/scheduler/recurring',
  summary: 'Recurring jobs: schedule (UTC) and the last slot run',
  tag: 'log',
  access: adminOnly('/log/scheduler_log', 'read'),
  payload: z.object({ items: z.array(recurringRow), total: z.number() }),
});

/**
 * Starts an export of a registered kind (services.exports) as a background job; the file appears in
 * the export log and only the user who started it may download it. `filter` is the kind's own
 * filter (its list page's); the kind's permission is checked by the server.
 */
export const startExport = endpoint({
  method: 'POST',
  path: '/export/create',
  summary: 'Start a CSV or XLSX export of a registered kind in the background',
  tag: 'export',
  access: SIGNED_IN,
  body: z.object({
    kind: z.string().min(1).max(64),
    filter: z.record(z.string(), z.unknown()).default({}),
    /** CSV keeps exact text; XLSX makes money and counts numbers (a sheet per 1,000,000 rows). */
    format: z.enum(['csv', 'xlsx']).default('csv'),
  }),
  payload: z.object({ object_id: z.number(), job_id: z.number() }),
});

export const downloadExport = endpoint({
  method: 'GET',
  path: '/export/:id/download',
  summary: 'The file of a finished export (its owner only)',
  tag: 'export',
  access: SIGNED_IN,
  params: idParams,
  raw: true,
  payload: z.unknown(),
});
