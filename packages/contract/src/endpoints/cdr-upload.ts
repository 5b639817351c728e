import { z } from 'zod';
import { adminOnly } from '../access';
import { idParams, listQuery, paged } from '../common';
import { endpoint } from '../endpoint';

/**
 * CDR upload on the CDR screen (issue 10 section 1, docs/cdr.md "Upload on the CDR screen"): an
 * operator uploads a CDR file (CSV with a header row naming the fields of POST /api/switch/cdr, or
 * JSON Lines) that is checked whole first (a malformed row refuses the file, naming row and field,
 * nothing stored) and then ingested by a durable job through the same ingest as the switch's
 * batches, with progress. The same file twice bills nothing twice. Every upload, refused or not, is
 * a row of the upload log.
 */
export const FUNC = { cdrsList: '/statistics/cdrs_list' } as const;
const TAG = 'cdr upload';

/** Extensions an upload may have. */
export const CDR_UPLOAD_EXTENSIONS = ['csv', 'jsonl', 'ndjson'] as const;

/**
 * Where an upload is: refused (the check found malformed rows; nothing stored), queued, running,
 * finished, failed or killed (the job's states).
 */
export const CDR_UPLOAD_STATUSES = ['refused', 'queued', 'running', 'finished', 'failed', 'killed'] as const;
export type CdrUploadStatus = (typeof CDR_UPLOAD_STATUSES)[number];

export const cdrUploadRow = z.object({
  id: z.number(),
  file_name: z.string(),
  size: z.number(),
  status: z.enum(CDR_UPLOAD_STATUSES),
  /** CDRs in the file (0 when refused). */
  cdrs: z.number(),
  /** CDRs ingested so far. */
  done: z.number(),
  /** What the ingest did, when finished: stored now, already stored before (never billed twice), unpriced. */
  stored: z.number().nullable(),
  duplicates: z.number().nullable(),
  unpriced: z.number().nullable(),
  batches: z.number().nullable(),
  revenue: z.string().nullable(),
  cost: z.string().nullable(),
  /** Why it was refused (rows and fields) or failed, in the caller's language. */
  problems: z.array(z.string()),
  job_id: z.number().nullable(),
  user_name: z.string(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type CdrUploadRow = z.infer<typeof cdrUploadRow>;

export const uploadCdrs = endpoint({
  method: 'POST',
  path: '/cdr/upload',
  summary:
    'Upload a CDR file (multipart: file, CSV with a header of the switch CDR fields or JSON Lines): checked whole (a malformed row refuses it naming row and field, nothing stored), then ingested by a job as POST /switch/cdr batches; answers the upload id',
  tag: TAG,
  access: adminOnly(FUNC.cdrsList, 'write'),
  multipart: true,
  payload: z.object({ object_id: z.number(), cdrs: z.number(), job_id: z.number() }),
});

export const getUpload = endpoint({
  method: 'GET',
  path: '/cdr/upload/:id',
  summary: 'One CDR upload with its progress',
  tag: TAG,
  access: adminOnly(FUNC.cdrsList, 'read'),
  params: idParams,
  payload: cdrUploadRow,
});

export const listUploads = endpoint({
  method: 'GET',
  path: '/cdr/upload_log',
  summary: 'The CDR upload log (newest first)',
  tag: TAG,
  access: adminOnly(FUNC.cdrsList, 'read'),
  query: listQuery.extend({ status: z.enum(CDR_UPLOAD_STATUSES).optional() }),
  payload: paged(cdrUploadRow),
});
