import { z } from 'zod';
import { SIGNED_IN, adminOnly } from '../access';
import { instantFilter, listQuery, paged } from '../common';
import { endpoint } from '../endpoint';

export const signinHistoryRow = z.object({
  id: z.number(),
  user_id: z.number().nullable(),
  name: z.string(),
  ip: z.string(),
  result: z.enum(['success', 'failed', 'forbidden']),
  reason: z.string(),
  created_at: z.string(),
});
/** The sign-in history's filter (the list and its background export, services.exports kind signin_history). */
export const signinHistoryFilter = z.object({
  name: z.string().max(64).optional(),
  result: z.enum(['success', 'failed', 'forbidden']).optional(),
});
export const listSigninHistory = endpoint({
  method: 'GET',
  path: '/log/user_signin_history',
  summary: 'Every sign-in attempt with its result',
  tag: 'log',
  access: adminOnly('/log/user_signin_history', 'read'),
  query: listQuery.extend(signinHistoryFilter.shape),
  payload: paged(signinHistoryRow),
});

/** Log > Retrieve Password Log: the "forgot password" mails sent (or failed) and the resets made with them. */
export const RETRIEVE_PASSWORD_STATUSES = ['email_sent', 'modify_failure', 'modified_successfully'] as const;
export const retrievePasswordRow = z.object({
  id: z.number(),
  user_id: z.number().nullable(),
  name: z.string(),
  email: z.string(),
  status: z.enum(RETRIEVE_PASSWORD_STATUSES),
  ip: z.string(),
  created_at: z.string(),
});
export const listRetrievePasswordLog = endpoint({
  method: 'GET',
  path: '/log/retrieve_password_log',
  summary:
    'Password resets asked for by "forgot password": the reset mail sent or not sent (mail failure), and the password changed with the link; filters: user name or e-mail, status, time',
  tag: 'log',
  access: adminOnly('/log/retrieve_password_log', 'read'),
  query: listQuery.extend({
    name: z.string().max(64).optional(),
    status: z.enum(RETRIEVE_PASSWORD_STATUSES).optional(),
    created_from: instantFilter.optional(),
    created_to: instantFilter.optional(),
  }),
  payload: paged(retrievePasswordRow),
});

export const modificationRow = z.object({
  id: z.number(),
  user_id: z.number().nullable(),
  user_name: z.string(),
  entity: z.string(),
  entity_id: z.string(),
  action: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  created_at: z.string(),
});
export const listModificationLog = endpoint({
  method: 'GET',
  path: '/log/modification_log',
  summary: 'Who changed what, with before and after',
  tag: 'log',
  access: adminOnly('/log/modification_log', 'read'),
  query: listQuery.extend({
    entity: z.string().max(64).optional(),
    entity_id: z.string().max(64).optional(),
  }),
  payload: paged(modificationRow),
});

const timeRange = { upload_time_from: instantFilter.optional(), upload_time_to: instantFilter.optional() };

export const exportLogRow = z.object({
  id: z.number(),
  client_id: z.number().nullable(),
  user_name: z.string(),
  entity: z.string(),
  file_name: z.string(),
  /** finished for downloads made at once; the job's state for background exports. */
  status: z.string(),
  created_at: z.string(),
  /** Background exports (services.exports): the job, its progress, the file; null for the others. */
  job_id: z.number().nullable(),
  progress_done: z.number().nullable(),
  progress_total: z.number().nullable(),
  row_count: z.number().nullable(),
  size_bytes: z.number().nullable(),
  error: z.string().nullable(),
  /** The caller started it and its file is ready. */
  downloadable: z.boolean(),
});
export const listExportLog = endpoint({
  method: 'GET',
  path: '/log/export',
  summary: 'Export log (clients see their own; the count drives the rate export log menu)',
  tag: 'log',
  access: adminOnly('/log/export_log', 'read', ['client', 'vendor', 'agent']),
  query: listQuery.extend({
    status: z.string().optional(),
    mine: z.enum(['true', 'false']).optional(),
    ...timeRange,
  }),
  payload: paged(exportLogRow),
});

/** Log > Import Log: one status for every kind of import. */
export const IMPORT_LOG_STATUSES = ['in progress', 'finished', 'failed'] as const;
/** What an import loaded (each has its own log with the details). */
export const IMPORT_ENTITIES = ['rate_table', 'did', 'cdr'] as const;
export const importLogRow = z.object({
  /** Unique in the list: the entity and the id. */
  key: z.string(),
  /** The import's id in its own log (rate import task, DID upload, CDR upload). */
  id: z.number(),
  user_name: z.string(),
  entity: z.enum(IMPORT_ENTITIES),
  file_name: z.string(),
  status: z.enum(IMPORT_LOG_STATUSES),
  upload_time: z.string(),
  finished_time: z.string().nullable(),
  total_rows: z.number(),
  error_rows: z.number(),
});
export const listImportLog = endpoint({
  method: 'GET',
  path: '/log/import',
  summary:
    'Every file import (rate tables, DID numbers, CDRs), newest first, with one status for all; the frame counts imports in progress today',
  tag: 'log',
  access: adminOnly('/log/import_log', 'read'),
  query: listQuery.extend({ status: z.enum(IMPORT_LOG_STATUSES).optional(), ...timeRange }),
  payload: paged(importLogRow),
});

export const didUploadTaskRow = z.object({
  id: z.number(),
  file_name: z.string(),
  status: z.string(),
  created_at: z.string(),
  total: z.number(),
  done: z.number(),
});
export const listDidUploadTasks = endpoint({
  method: 'GET',
  path: '/tool/did_number_upload_task/list',
  summary: 'DID upload tasks; the frame counts In Process today',
  tag: 'tool',
  access: adminOnly('/origination/did_repository_upload', 'read'),
  query: listQuery.extend({
    status: z.string().optional(),
    created_from: instantFilter.optional(),
    created_to: instantFilter.optional(),
  }),
  payload: paged(didUploadTaskRow),
});

export const rateImportTaskRow = z.object({
  id: z.number(),
  rate_table_id: z.number().nullable(),
  file_name: z.string(),
  status: z.string(),
  created_at: z.string(),
  progress: z.number(),
});
export const listRateImportTasks = endpoint({
  method: 'GET',
  path: '/tool/rate/import/list',
  summary: 'Rate import tasks; the frame counts "Insert new rate" today',
  tag: 'tool',
  access: adminOnly('/routing/rate_table', 'read'),
  query: listQuery.extend({
    status: z.string().optional(),
    created_from: instantFilter.optional(),
    created_to: instantFilter.optional(),
  }),
  payload: paged(rateImportTaskRow),
});

export const signedInOnly = SIGNED_IN;
