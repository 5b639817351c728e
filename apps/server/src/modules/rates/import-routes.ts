import { api, type Language } from '@tandem/contract';
import { type RateImportTask } from './contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { pageOf, newestFirst } from '../../db/paging';
import { actorOf } from '../../http/context';
import { notFound } from '../../http/errors';
import { localize } from '../../http/localize';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { liveImports, type ImportProgress } from './import/progress';
import { importQueue, startRateImport } from './import/start';
import { receiveUpload } from './upload';

const taskQuery = (db: Db) =>
  db
    .selectFrom('rate_import_tasks as k')
    .innerJoin('rate_import_results as x', 'x.task_id', 'k.id')
    .leftJoin('rate_tables as t', 't.rate_table_id', 'k.rate_table_id')
    .select([
      'k.id',
      'k.rate_table_id',
      't.name as rate_table_name',
      'k.file_name',
      'k.status',
      'k.progress',
      'k.created_at',
      'x.finished_at',
      'x.user_name',
      'x.source',
      'x.duplicate_mode',
      'x.total_rows',
      'x.inserted_rows',
      'x.updated_rows',
      'x.skipped_rows',
      'x.ended_rows',
      'x.deleted_rows',
      'x.error_rows',
      'x.message',
    ]);
type TaskRecord = Awaited<ReturnType<ReturnType<typeof taskQuery>['executeTakeFirstOrThrow']>>;

/** A failure is stored as its catalogue key and parameters; shown in the caller's language. */
function shownMessage(stored: string, lang: Language): string {
  if (!stored) return '';
  try {
    const m = JSON.parse(stored) as { key: string; params: (string | number)[] };
    return localize.message(m.key, lang, m.params);
  } catch {
    return stored;
  }
}
/** A task as answered: with its live progress when this process runs it (the stored percentage may lag). */
const toTask = (r: TaskRecord, lang: Language, running: Map<number, ImportProgress>): RateImportTask => {
  const live = r.status === api.rates.IMPORT_STATUS.running ? running.get(Number(r.id)) : undefined;
  return {
    ...r,
    id: Number(r.id),
    progress: live ? Math.max(r.progress, live.percent) : r.progress,
    created_at: r.created_at.toISOString(),
    finished_at: r.finished_at ? r.finished_at.toISOString() : null,
    message: shownMessage(r.message, lang),
    live: live
      ? {
          phase: live.phase,
          rows_parsed: live.rows_parsed,
          rows_staged: live.rows_staged,
          rows_applied: live.rows_applied,
          rows_to_apply: live.rows_to_apply,
        }
      : null,
  };
};

/** Rate import (rate table page and auto rate import rules), its progress and the rate import log. */
export function registerRateImport(app: FastifyInstance, s: Services): void {
  app.addHook('onClose', async () => {
    await importQueue(s).idle();
  });
  // A process that stopped during an import leaves its task running: it failed, nothing was applied.
  void s.db
    .updateTable('rate_import_tasks')
    .set({ status: api.rates.IMPORT_STATUS.failed })
    .where('status', '=', api.rates.IMPORT_STATUS.running)
    .where('id', 'in', (qb) =>
      qb.selectFrom('rate_import_results').select('task_id').where('finished_at', 'is', null),
    )
    .execute()
    .catch(() => undefined);

  implement(app, s, api.rates.importRates, async (ctx) => {
    const file = await receiveUpload(s, ctx as never, api.rates.rateImportOptions);
    return { object_id: await startRateImport(s, actorOf(ctx), ctx.params.id, file, 'rate_table') };
  });

  implement(app, s, api.rates.getImportTask, async (ctx) => {
    const r = await taskQuery(s.db).where('k.id', '=', ctx.params.id).executeTakeFirst();
    if (!r) throw notFound();
    return toTask(r, ctx.lang, liveImports(s));
  });

  implement(app, s, api.rates.listImportLog, async (ctx) => {
    const q = ctx.query;
    let qb = taskQuery(s.db);
    if (q.rate_table_id) qb = qb.where('k.rate_table_id', '=', q.rate_table_id);
    if (q.status) qb = qb.where('k.status', '=', q.status);
    const from = q.created_from ? new Date(q.created_from) : null;
    const to = q.created_to ? new Date(q.created_to) : null;
    if (from && !Number.isNaN(from.getTime())) qb = qb.where('k.created_at', '>=', from);
    if (to && !Number.isNaN(to.getTime())) qb = qb.where('k.created_at', '<', to);
    const page = await pageOf(
      qb,
      newestFirst(q),
      { created_at: 'k.created_at', status: 'k.status', file_name: 'k.file_name', rate_table_name: 't.name' },
      'created_at',
      'k.id',
    );
    return { items: page.items.map((r) => toTask(r, ctx.lang, liveImports(s))), total: page.total };
  });

  implement(app, s, api.rates.listImportErrors, async (ctx) => {
    if (
      !(await s.db
        .selectFrom('rate_import_tasks')
        .select('id')
        .where('id', '=', ctx.params.id)
        .executeTakeFirst())
    )
      throw notFound();
    const qb = s.db
      .selectFrom('rate_import_errors')
      .select(['id', 'line', 'code', 'field', 'message_key', 'params'])
      .where('task_id', '=', ctx.params.id);
    const page = await pageOf(qb, ctx.query, { line: 'line', code: 'code' }, 'line', 'id');
    return {
      items: page.items.map((e) => ({
        id: Number(e.id),
        line: e.line,
        code: e.code,
        field: e.field,
        message: localize.message(e.message_key, ctx.lang, e.params),
      })),
      total: page.total,
    };
  });

  // Keep the staging table lean when nothing runs (rows of finished tasks are deleted one by one).
  app.addHook('onReady', async () => {
    await sql`DELETE FROM rate_import_rows WHERE task_id NOT IN (SELECT task_id FROM rate_import_results WHERE finished_at IS NULL)`
      .execute(s.db)
      .catch(() => undefined);
  });
}
