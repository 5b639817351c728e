import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { likeContains, pageOf, withinTime, withIsoTimes } from '../../db/paging';
import { actorOf } from '../../http/context';
import { implement } from '../../http/register';
import type { Services } from '../../services';

export function registerLogs(app: FastifyInstance, s: Services): void {
  implement(app, s, api.log.listSigninHistory, async (ctx) => {
    let qb = s.db
      .selectFrom('signin_history')
      .select(['id', 'user_id', 'name', 'ip', 'result', 'reason', 'created_at']);
    if (ctx.query.name) qb = qb.where('name', 'ilike', likeContains(ctx.query.name));
    if (ctx.query.result) qb = qb.where('result', '=', ctx.query.result);
    const page = await pageOf(
      qb,
      { ...ctx.query, order_dir: ctx.query.order_by ? ctx.query.order_dir : 'desc' },
      { created_at: 'created_at', name: 'name', result: 'result', ip: 'ip' },
      'created_at',
      'id',
    );
    return {
      items: page.items.map(withIsoTimes),
      total: page.total,
    };
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
      { ...ctx.query, order_dir: ctx.query.order_by ? ctx.query.order_dir : 'desc' },
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
    let qb = s.db
      .selectFrom('export_log')
      .select(['id', 'client_id', 'user_name', 'entity', 'file_name', 'status', 'created_at']);
    // Tenancy: portal users see their own carrier's exports (agents: their own).
    if (actor.type === 'client' || actor.type === 'vendor')
      qb = qb.where('client_id', '=', actor.clientId ?? -1);
    if (actor.type === 'agent') qb = qb.where('user_id', '=', actor.user.user_id);
    if (ctx.query.status) qb = qb.where('status', '=', ctx.query.status);
    qb = withinTime(qb, 'created_at', ctx.query.upload_time_from, ctx.query.upload_time_to);
    const page = await pageOf(
      qb,
      ctx.query,
      { created_at: 'created_at', entity: 'entity' },
      'created_at',
      'id',
    );
    return {
      items: page.items.map(withIsoTimes),
      total: page.total,
    };
  });

  implement(app, s, api.log.listImportLog, async (ctx) => {
    let qb = s.db
      .selectFrom('import_log')
      .select([
        'id',
        'user_name',
        'entity',
        'file_name',
        'status',
        'upload_time',
        'finished_time',
        'total_rows',
        'error_rows',
      ]);
    if (ctx.query.status) qb = qb.where('status', '=', ctx.query.status);
    qb = withinTime(qb, 'upload_time', ctx.query.upload_time_from, ctx.query.upload_time_to);
    const page = await pageOf(
      qb,
      ctx.query,
      { upload_time: 'upload_time', status: 'status' },
      'upload_time',
      'id',
    );
    return {
      items: page.items.map(withIsoTimes),
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
