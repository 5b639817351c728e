import fs from 'node:fs';
import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { likeContains, pageOf, withinTime, withIsoTimes, newestFirst } from '../../db/paging';
import { actorOf } from '../../http/context';
import { notFound, ruleBroken } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';

/**
 * Log > Scheduler Log (every background job: state, progress, kill, run again) and the generic
 * background exports (start, download by the owner). The queue itself is services.jobs.
 */
export function registerJobs(app: FastifyInstance, s: Services): void {
  implement(app, s, api.jobs.listSchedulerLog, async (ctx) => {
    const q = ctx.query;
    let qb = s.db
      .selectFrom('jobs')
      .select([
        'id',
        'kind',
        'status',
        'attempts',
        'max_attempts',
        'progress_done',
        'progress_total',
        'progress_message',
        'error',
        'schedule',
        'rerun_of',
        'user_name',
        'killed_by',
        'run_at',
        'created_at',
        'started_at',
        'finished_at',
      ]);
    if (q.kind) qb = qb.where('kind', 'ilike', likeContains(q.kind));
    if (q.status) qb = qb.where('status', '=', q.status);
    qb = withinTime(qb, 'created_at', q.created_from, q.created_to);
    const page = await pageOf(
      qb,
      newestFirst(q),
      { created_at: 'created_at', kind: 'kind', status: 'status', finished_at: 'finished_at' },
      'created_at',
      'id',
    );
    return {
      items: page.items.map((r) => ({
        ...withIsoTimes(r),
        progress_done: Number(r.progress_done),
        progress_total: r.progress_total === null ? null : Number(r.progress_total),
      })),
      total: page.total,
    };
  });

  implement(app, s, api.jobs.killJob, async (ctx) => {
    const actor = actorOf(ctx);
    await mustExist(s, ctx.params.id);
    await s.db.transaction().execute(async (trx) => {
      if (!(await s.jobs.kill(ctx.params.id, actor.user.name, { db: trx })))
        throw ruleBroken('jobNotKillable');
      await s.audit.record(trx, actor, 'job', ctx.params.id, 'kill', null, { status: 'killed' });
    });
    s.jobs.runner.abortLocal(ctx.params.id, 'killed');
    return { object_id: ctx.params.id };
  });

  implement(app, s, api.jobs.rerunJob, async (ctx) => {
    const actor = actorOf(ctx);
    await mustExist(s, ctx.params.id);
    const id = await s.db.transaction().execute(async (trx) => {
      const user = { user_id: actor.user.user_id, name: actor.user.name };
      const created = await s.jobs.rerun(ctx.params.id, user, { db: trx });
      if (created === null) throw ruleBroken('jobNotRerunnable');
      await s.audit.record(trx, actor, 'job', ctx.params.id, 'rerun', null, { job_id: created });
      return created;
    });
    s.jobs.runner.wake();
    return { object_id: id };
  });

  implement(app, s, api.jobs.listRecurring, async () => {
    const claimed = await s.db.selectFrom('job_schedules').selectAll().execute();
    const items = [...s.jobs.recurring.values()].map((r) => {
      const c = claimed.find((x) => x.name === r.kind);
      return {
        kind: r.kind,
        schedule: r.description,
        last_slot: c ? c.last_slot.toISOString() : null,
        job_id: c?.job_id ?? null,
      };
    });
    return { items, total: items.length };
  });

  implement(app, s, api.jobs.startExport, async (ctx) => {
    const r = await s.exports.start(ctx.body.kind, ctx.body.filter, actorOf(ctx), ctx.lang, ctx.body.format);
    return { object_id: r.exportId, job_id: r.jobId };
  });

  implement(app, s, api.jobs.downloadExport, async (ctx) => {
    const actor = actorOf(ctx);
    const e = await s.db
      .selectFrom('export_log')
      .leftJoin('jobs', 'jobs.id', 'export_log.job_id')
      .select(['export_log.user_id', 'export_log.file_name', 'export_log.path', 'jobs.status'])
      .where('export_log.id', '=', ctx.params.id)
      .where('export_log.job_id', 'is not', null)
      .executeTakeFirst();
    // Only the user who started it: anyone else is told there is no such export.
    if (!e || e.user_id !== actor.user.user_id) throw notFound();
    const xlsx = e.path?.endsWith('.xlsx') ?? false;
    const file = s.exports.filePath(ctx.params.id, xlsx ? 'xlsx' : 'csv');
    if (e.status !== 'finished' || !e.path || !fs.existsSync(file)) throw ruleBroken('exportNotReady');
    ctx.reply
      .header(
        'content-type',
        xlsx
          ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
          : 'text/csv; charset=utf-8',
      )
      .header('content-disposition', `attachment; filename="${e.file_name}"`)
      .send(fs.createReadStream(file));
  });
}

async function mustExist(s: Services, id: number): Promise<void> {
  const row = await s.db.selectFrom('jobs').select('id').where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
}
