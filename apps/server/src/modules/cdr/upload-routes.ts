import fs from 'node:fs';
import path from 'node:path';
import { api, ErrorCode, type CdrUploadRow, type Language } from '@tandem/contract';
import { formatMoney } from '@tandem/domain';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/connection';
import { pageOf, newestFirst } from '../../db/paging';
import { actorOf } from '../../http/context';
import { AppError, notFound, type FieldError } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { receiveUpload } from '../rates/upload';
import {
  cdrFileBatches,
  cdrFileKind,
  CdrFileError,
  checkCdrFile,
  problemText,
  type CdrFileKind,
  type CdrFileProblem,
} from './cdr-file';
import type { BulkTotals, CdrIngest } from './ingest';

/**
 * CDR upload on the CDR screen (issue 10 section 1, docs/cdr.md "Upload on the CDR screen"): the
 * file is streamed to DATA_DIR/cdr-uploads, checked whole by the same code as `tandem import-cdrs`
 * (a malformed row refuses it, naming row and field: nothing stored), then ingested by the durable
 * job `cdr.upload` through `CdrIngest.ingestMany`, the ingest of POST /switch/cdr, in batches with
 * content-derived ids: the same file twice, or a job resumed after a restart, bills nothing twice.
 */
export const CDR_UPLOAD_JOB = 'cdr.upload';
export const CDR_UPLOAD_BATCH = 5_000;

export const uploadDir = (s: Services) => path.join(s.config.dataDir, 'cdr-uploads');

const kindOf = (fileName: string): CdrFileKind | null => cdrFileKind(fileName);

/** The job's result: the ingest's totals as JSON. */
interface UploadResult {
  batches: number;
  skipped_batches: number;
  received: number;
  stored: number;
  duplicates: number;
  unpriced: number;
  revenue: string;
  cost: string;
}
const resultOf = (t: BulkTotals): UploadResult => ({
  batches: t.batches,
  skipped_batches: t.skipped_batches,
  received: t.received,
  stored: t.stored,
  duplicates: t.duplicates,
  unpriced: t.unpriced,
  revenue: formatMoney(t.revenue, 6),
  cost: formatMoney(t.cost, 6),
});

export function registerCdrUpload(app: FastifyInstance, s: Services, ingest: CdrIngest): void {
  s.jobs.define<{ uploadId: number }>(
    CDR_UPLOAD_JOB,
    async (payload, ctx) => {
      const u = await s.db
        .selectFrom('cdr_uploads')
        .select(['path', 'kind', 'cdrs'])
        .where('id', '=', payload.uploadId)
        .executeTakeFirst();
      if (!u) throw new Error(`CDR upload ${payload.uploadId} is gone`);
      if (!fs.existsSync(u.path)) throw new Error(`the file of CDR upload ${payload.uploadId} is gone`);
      ctx.progress({ done: 0, total: u.cdrs, message: 'ingesting' });
      async function* batches() {
        for await (const b of cdrFileBatches(u!.path, u!.kind, CDR_UPLOAD_BATCH)) {
          ctx.signal.throwIfAborted();
          yield b;
        }
      }
      const totals = await ingest.ingestMany(batches(), 'file', (r, t) =>
        ctx.progress({ done: t.received, total: u.cdrs, message: `batch ${r.batch_id}` }),
      );
      fs.rmSync(u.path, { force: true });
      return resultOf(totals);
    },
    { maxAttempts: 3, backoffMs: 5_000 },
  );

  implement(app, s, api.cdrUpload.uploadCdrs, async (ctx) => {
    const actor = actorOf(ctx);
    const file = await receiveUpload(s, ctx as never, z.object({}), { kindOf, dir: uploadDir(s) });
    const base = {
      file_name: file.fileName,
      size: file.size,
      kind: file.kind,
      user_id: actor.user.user_id,
      user_name: actor.user.name,
    };
    let cdrs: number;
    try {
      cdrs = await checkCdrFile(file.filePath, file.kind);
    } catch (e) {
      fs.rmSync(file.filePath, { force: true });
      if (!(e instanceof CdrFileError)) throw e;
      await s.db
        .insertInto('cdr_uploads')
        .values({ ...base, refused: true, problems: JSON.stringify(e.details) })
        .execute();
      throw refusal(e.details);
    }
    const { id, jobId } = await s.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('cdr_uploads')
        .values({ ...base, path: file.filePath, cdrs })
        .returning('id')
        .executeTakeFirstOrThrow();
      const job = await s.jobs.enqueue(
        CDR_UPLOAD_JOB,
        { uploadId: row.id },
        { user: { user_id: actor.user.user_id, name: actor.user.name }, db: trx },
      );
      await trx.updateTable('cdr_uploads').set({ job_id: job.id }).where('id', '=', row.id).execute();
      await s.audit.record(trx, actor, 'cdr_upload', row.id, 'upload', null, {
        file_name: file.fileName,
        cdrs,
      });
      return { id: row.id, jobId: Number(job.id) };
    });
    s.jobs.runner.wake();
    return { object_id: id, cdrs, job_id: jobId };
  });

  implement(app, s, api.cdrUpload.getUpload, async (ctx) => {
    const r = await uploadQuery(s.db).where('u.id', '=', ctx.params.id).executeTakeFirst();
    if (!r) throw notFound();
    return toRow(r, ctx.lang);
  });

  implement(app, s, api.cdrUpload.listUploads, async (ctx) => {
    const q = ctx.query;
    let qb = uploadQuery(s.db);
    if (q.status) qb = qb.where(statusSql, '=', q.status);
    const page = await pageOf(
      qb,
      newestFirst(q),
      { created_at: 'u.created_at', file_name: 'u.file_name', cdrs: 'u.cdrs' },
      'created_at',
      'u.id',
    );
    return { items: page.items.map((r) => toRow(r, ctx.lang)), total: page.total };
  });
}

/** Code 110 naming the first malformed row and field; every problem found (up to 20) as a field error. */
function refusal(details: readonly CdrFileProblem[]): AppError {
  const first = details[0]!;
  const fields: Record<string, FieldError> = {};
  for (const d of details) fields[`rows.${d.line}.${d.field}`] = { key: d.key, params: d.params };
  return new AppError(ErrorCode.validation, 'cdrFileRefused', [first.line, first.field], 400, fields);
}

const statusSql = sql<string>`CASE WHEN u.refused THEN 'refused' WHEN j.status IS NULL THEN 'failed'
  WHEN j.status = 'pending' THEN 'queued' ELSE j.status END`;

const uploadQuery = (db: Db) =>
  db
    .selectFrom('cdr_uploads as u')
    .leftJoin('jobs as j', 'j.id', 'u.job_id')
    .select([
      'u.id',
      'u.file_name',
      'u.size',
      'u.cdrs',
      'u.problems',
      'u.job_id',
      'u.user_name',
      'u.created_at',
      'j.progress_done',
      'j.result',
      'j.error',
      'j.finished_at',
      statusSql.as('status'),
    ]);
type UploadRecord = Awaited<ReturnType<ReturnType<typeof uploadQuery>['executeTakeFirstOrThrow']>>;

function toRow(r: UploadRecord, lang: Language): CdrUploadRow {
  const result = (r.result ?? null) as UploadResult | null;
  const status = r.status as CdrUploadRow['status'];
  const problems = ((r.problems ?? []) as CdrFileProblem[]).map((p) => problemText(p, lang));
  if (r.error) problems.push(r.error);
  return {
    id: r.id,
    file_name: r.file_name,
    size: Number(r.size),
    status,
    cdrs: r.cdrs,
    done: status === 'finished' ? r.cdrs : Number(r.progress_done ?? 0),
    stored: result?.stored ?? null,
    duplicates: result?.duplicates ?? null,
    unpriced: result?.unpriced ?? null,
    batches: result?.batches ?? null,
    revenue: result?.revenue ?? null,
    cost: result?.cost ?? null,
    problems,
    job_id: r.job_id === null ? null : Number(r.job_id),
    user_name: r.user_name,
    created_at: r.created_at.toISOString(),
    finished_at: r.finished_at ? new Date(r.finished_at).toISOString() : null,
  };
}
