import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { z } from 'zod';
import { likeContains, pageOf, withinTime, withIsoTimes, newestFirst } from '../../db/paging';
import { actorOf } from '../../http/context';
import { implement } from '../../http/register';
import type { Services } from '../../services';

export function registerLogs(app: FastifyInstance, s: Services): void {
  registerSigninHistoryExport(s);

  implement(app, s, api.log.listSigninHistory, async (ctx) => {
    let qb = s.db
      .selectFrom('signin_history')
      .select(['id', 'user_id', 'name', 'ip', 'result', 'reason', 'created_at']);
    if (ctx.query.name) qb = qb.where('name', 'ilike', likeContains(ctx.query.name));
    if (ctx.query.result) qb = qb.where('result', '=', ctx.query.result);
    const page = await pageOf(
      qb,
      newestFirst(ctx.query),
      { created_at: 'created_at', name: 'name', result: 'result', ip: 'ip' },
      'created_at',
      'id',
    );
    return {
      items: page.items.map(withIsoTimes),
      total: page.total,
    };
  });

  implement(app, s, api.log.listRetrievePasswordLog, async (ctx) => {
    const q = ctx.query;
    let qb = s.db
      .selectFrom('retrieve_password_log')
      .select(['id', 'user_id', 'name', 'email', 'status', 'ip', 'created_at']);
    if (q.name)
      qb = qb.where((eb) =>
        eb.or([eb('name', 'ilike', likeContains(q.name!)), eb('email', 'ilike', likeContains(q.name!))]),
      );
    if (q.status) qb = qb.where('status', '=', q.status);
    qb = withinTime(qb, 'created_at', q.created_from, q.created_to);
    const page = await pageOf(
      qb,
      newestFirst(q),
      { created_at: 'created_at', name: 'name', status: 'status' },
      'created_at',
      'id',
    );
    return { items: page.items.map(withIsoTimes), total: page.total };
  });

  implement(app, s, api.log.listModificationLog, async (ctx) => {
    let qb = s.db
      .selectFrom('modification_log')
      .select([
        'id',
        'user_id',
        'user_name',
        'entity',
        'entity_id',
        'action',
        'before',
        'after',
        'created_at',
      ]);
    if (ctx.query.entity) qb = qb.where('entity', '=', ctx.query.entity);
    if (ctx.query.entity_id) qb = qb.where('entity_id', '=', ctx.query.entity_id);
    const page = await pageOf(
      qb,
      newestFirst(ctx.query),
      { created_at: 'created_at', entity: 'entity', user_name: 'user_name' },
      'created_at',
      'id',
    );
    return {
      items: page.items.map(withIsoTimes),
      total: page.total,
    };
  });

  implement(app, s, api.log.listExportLog, async (ctx) => {
    const actor = actorOf(ctx);
    // Background exports show their job's state; downloads made at once were finished when logged.
    const status = sql<string>`COALESCE(j.status, e.status)`;
    let qb = s.db
      .selectFrom('export_log as e')
      .leftJoin('jobs as j', 'j.id', 'e.job_id')
      .select([
        'e.id',
        'e.client_id',
        'e.user_id',
        'e.user_name',
        'e.entity',
        'e.file_name',
        status.as('status'),
        'e.created_at',
        'e.job_id',
        'j.progress_done',
        'j.progress_total',
        'e.row_count',
        'e.size_bytes',
        'j.error',
      ]);
    // Tenancy: portal users see their own carrier's exports (agents: their own).
    if (actor.type === 'client' || actor.type === 'vendor')
      qb = qb.where('e.client_id', '=', actor.clientId ?? -1);
    if (actor.type === 'agent') qb = qb.where('e.user_id', '=', actor.user.user_id);
    if (ctx.query.mine === 'true') qb = qb.where('e.user_id', '=', actor.user.user_id);
    if (ctx.query.status) qb = qb.where(status, '=', ctx.query.status);
    qb = withinTime(qb, 'e.created_at', ctx.query.upload_time_from, ctx.query.upload_time_to);
    const page = await pageOf(
      qb,
      newestFirst(ctx.query),
      { created_at: 'e.created_at', entity: 'e.entity' },
      'created_at',
      'e.id',
    );
    return {
      items: page.items.map(({ user_id, ...r }) => ({
        ...withIsoTimes(r),
        progress_done: r.progress_done === null ? null : Number(r.progress_done),
        progress_total: r.progress_total === null ? null : Number(r.progress_total),
        error: r.error || null,
        downloadable: r.job_id !== null && r.status === 'finished' && user_id === actor.user.user_id,
      })),
      total: page.total,
    };
  });

  implement(app, s, api.log.listImportLog, async (ctx) => {
    let qb = s.db.selectFrom(IMPORTS.as('x')).selectAll('x');
    if (ctx.query.status) qb = qb.where('x.status', '=', ctx.query.status);
    qb = withinTime(qb, 'x.upload_time', ctx.query.upload_time_from, ctx.query.upload_time_to);
    const page = await pageOf(
      qb,
      newestFirst(ctx.query),
      { upload_time: 'x.upload_time', status: 'x.status', entity: 'x.entity' },
      'upload_time',
      'x.key',
    );
    return {
      items: page.items.map((r) => ({ ...withIsoTimes(r), id: Number(r.id) })),
      total: page.total,
    };
  });

  implement(app, s, api.log.listDidUploadTasks, async (ctx) => {
    let qb = s.db
      .selectFrom('did_upload_tasks')
      .select(['id', 'file_name', 'status', 'created_at', 'total', 'done']);
    if (ctx.query.status) qb = qb.where('status', '=', ctx.query.status);
    qb = withinTime(qb, 'created_at', ctx.query.created_from, ctx.query.created_to);
    const page = await pageOf(qb, ctx.query, { created_at: 'created_at' }, 'created_at', 'id');
    return {
      items: page.items.map(withIsoTimes),
      total: page.total,
    };
  });

  implement(app, s, api.log.listRateImportTasks, async (ctx) => {
    let qb = s.db
      .selectFrom('rate_import_tasks')
      .select(['id', 'rate_table_id', 'file_name', 'status', 'created_at', 'progress']);
    if (ctx.query.status) qb = qb.where('status', '=', ctx.query.status);
    qb = withinTime(qb, 'created_at', ctx.query.created_from, ctx.query.created_to);
    const page = await pageOf(qb, ctx.query, { created_at: 'created_at' }, 'created_at', 'id');
    return {
      items: page.items.map(withIsoTimes),
      total: page.total,
    };
  });
}

const signinFilter = api.log.signinHistoryFilter.strict();
type SigninFilter = z.output<typeof signinFilter>;

/** Log > User Sign-in History as a background CSV export (services.exports), newest first. */
function registerSigninHistoryExport(s: Services): void {
  const filtered = (f: SigninFilter) => {
    let qb = s.db.selectFrom('signin_history');
    if (f.name) qb = qb.where('name', 'ilike', likeContains(f.name));
    if (f.result) qb = qb.where('result', '=', f.result);
    return qb;
  };
  s.exports.register<SigninFilter>('signin_history', {
    permission: { func: '/log/user_signin_history', level: 'read' },
    filter: signinFilter,
    fileName: 'user-signin-history',
    entity: 'user_signin_history',
    columns: [
      { key: 'created_at', header: 'time (UTC)' },
      { key: 'name', header: 'name' },
      { key: 'ip', header: 'ip' },
      { key: 'result', header: 'result' },
      { key: 'reason', header: 'reason' },
    ],
    count: async (f) =>
      Number(
        (
          await filtered(f)
            .select((e) => e.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    async *pages(f) {
      let before = Number.MAX_SAFE_INTEGER;
      for (;;) {
        const page = await filtered(f)
          .select(['id', 'name', 'ip', 'result', 'reason', 'created_at'])
          .where('id', '<', before)
          .orderBy('id', 'desc')
          .limit(1000)
          .execute();
        yield page.map((r) => ({ ...r, created_at: r.created_at.toISOString() }));
        if (page.length < 1000) return;
        before = page.at(-1)?.id ?? 0;
      }
    },
  });
}

/**
 * Log > Import Log: every file import, whatever it loaded, in one list (each area keeps its own log
 * with the details: Rate Import Log, DID Import Log, CDR Upload Log). One status for all: in
 * progress, finished or failed. The frame's counter of imports in progress today reads it too.
 */
const IMPORTS = sql<{
  key: string;
  id: string;
  user_name: string;
  entity: (typeof api.log.IMPORT_ENTITIES)[number];
  file_name: string;
  status: (typeof api.log.IMPORT_LOG_STATUSES)[number];
  upload_time: Date;
  finished_time: Date | null;
  total_rows: number;
  error_rows: number;
}>`(
  SELECT 'rate_table:' || t.id AS key, t.id, coalesce(nullif(r.user_name, ''), u.name, '') AS user_name,
    'rate_table' AS entity, t.file_name,
    CASE t.status WHEN ${api.rates.IMPORT_STATUS.running} THEN 'in progress'
      WHEN ${api.rates.IMPORT_STATUS.failed} THEN 'failed' ELSE 'finished' END AS status,
    t.created_at AS upload_time, r.finished_at AS finished_time,
    coalesce(r.total_rows, 0) AS total_rows, coalesce(r.error_rows, 0) AS error_rows
  FROM rate_import_tasks t
  LEFT JOIN rate_import_results r ON r.task_id = t.id
  LEFT JOIN users u ON u.user_id = t.user_id
  UNION ALL
  SELECT 'did:' || d.id, d.id, coalesce(u.name, ''), 'did', d.file_name,
    CASE WHEN d.status = 'In Process' THEN 'in progress' WHEN lower(d.status) IN ('failed', 'error') THEN 'failed'
      ELSE 'finished' END,
    d.created_at, NULL::timestamptz, d.total, 0
  FROM did_upload_tasks d
  LEFT JOIN users u ON u.user_id = d.user_id
  UNION ALL
  SELECT 'cdr:' || c.id, c.id, c.user_name, 'cdr', c.file_name,
    CASE WHEN c.refused OR j.status IS NULL OR j.status IN ('failed', 'killed') THEN 'failed'
      WHEN j.status = 'finished' THEN 'finished' ELSE 'in progress' END,
    c.created_at, j.finished_at, c.cdrs, jsonb_array_length(c.problems)
  FROM cdr_uploads c
  LEFT JOIN jobs j ON j.id = c.job_id
)`;
