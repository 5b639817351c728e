import { api, type RerateFigures, type RerateFilter, type RerateRun } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../http/context';
import { invalidField, notFound, ruleBroken } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import type { CallPath } from '../routing/routes';
import { runRerate, type RerateDeps } from './rerate';

/**
 * Tools > Rerate: runs start as a background preview; the apply runs in the background in chunks
 * (runRerate). Until the durable job queue is here, runs execute in this process and the ones a
 * stopped process left in 'previewing' or 'applying' are resumed when the server is ready.
 */
export class RerateRunner {
  private readonly running = new Map<number, Promise<void>>();
  deps: RerateDeps;

  constructor(s: Services, path: CallPath) {
    this.deps = { s, engine: path.engine, live: path.live };
  }

  start(runId: number): void {
    if (this.running.has(runId)) return;
    const p = runRerate(this.deps, runId).finally(() => this.running.delete(runId));
    this.running.set(runId, p);
  }

  /** Runs left unfinished (a restart, a crash) carry on from their last committed chunk. */
  async resume(): Promise<void> {
    const rows = await this.deps.s.db
      .selectFrom('rerate_runs')
      .select('run_id')
      .where('state', 'in', ['previewing', 'applying'])
      .orderBy('run_id')
      .execute();
    for (const r of rows) this.start(r.run_id);
  }

  /** Waits for the runs in flight (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.allSettled([...this.running.values()]);
  }
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export async function readRun(s: Services, runId: number): Promise<RerateRun | null> {
  const r = await s.db.selectFrom('rerate_runs').selectAll().where('run_id', '=', runId).executeTakeFirst();
  return r ? toRun(r) : null;
}

function toRun(r: {
  run_id: number;
  created_by: string;
  created_at: Date;
  filter: unknown;
  state: RerateRun['state'];
  matched: number;
  processed: number;
  preview: unknown;
  result: unknown;
  applied_by: string | null;
  apply_started_at: Date | null;
  finished_at: Date | null;
  error: string;
}): RerateRun {
  return {
    run_id: r.run_id,
    created_by: r.created_by,
    created_at: iso(r.created_at)!,
    filter: r.filter as RerateFilter,
    state: r.state,
    matched: r.matched,
    processed: r.processed,
    preview: (r.preview as RerateFigures | null) ?? null,
    result: (r.result as RerateFigures | null) ?? null,
    applied_by: r.applied_by,
    apply_started_at: iso(r.apply_started_at),
    finished_at: iso(r.finished_at),
    error: r.error,
  };
}

/** Each app's runner (tests reach it through the app's services). */
export const rerateRunners = new WeakMap<Services, RerateRunner>();

export function registerRerate(app: FastifyInstance, s: Services, path: CallPath): RerateRunner {
  const runner = new RerateRunner(s, path);
  rerateRunners.set(s, runner);
  app.addHook('onReady', async () => {
    await runner.resume();
  });
  app.addHook('onClose', async () => runner.idle());

  implement(app, s, api.rerate.create, async (ctx) => {
    const f = ctx.body;
    for (const field of ['ingress_rate_table_id', 'egress_rate_table_id'] as const) {
      const id = f[field];
      if (id === null) continue;
      const t = await s.db
        .selectFrom('rate_tables')
        .select('rate_table_id')
        .where('rate_table_id', '=', id)
        .executeTakeFirst();
      if (!t) throw invalidField(field, 'rateTableMissing', [id]);
    }
    const id = await s.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('rerate_runs')
        .values({ created_by: actorOf(ctx).user.name, filter: JSON.stringify(f) })
        .returning('run_id')
        .executeTakeFirstOrThrow();
      await s.audit.record(trx, actorOf(ctx), 'rerate', row.run_id, 'preview', null, f);
      return row.run_id;
    });
    runner.start(id);
    return { object_id: id };
  });

  implement(app, s, api.rerate.list, async (ctx) => {
    const q = ctx.query;
    let qb = s.db.selectFrom('rerate_runs');
    if (q.state) qb = qb.where('state', '=', q.state);
    const total = await qb.select((e) => e.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    const rows = await qb
      .selectAll()
      .orderBy('run_id', q.order_by ? q.order_dir : 'desc')
      .limit(q.per_page)
      .offset(q.page * q.per_page)
      .execute();
    return { items: rows.map(toRun), total: Number(total.n) };
  });

  implement(app, s, api.rerate.get, async (ctx) => {
    const run = await readRun(s, ctx.params.id);
    if (!run) throw notFound();
    return run;
  });

  implement(app, s, api.rerate.apply, async (ctx) => {
    const actor = actorOf(ctx);
    const started = await s.db.transaction().execute(async (trx) => {
      const r = await trx
        .selectFrom('rerate_runs')
        .select(['state', 'apply_started_at'])
        .where('run_id', '=', ctx.params.id)
        .forUpdate()
        .executeTakeFirst();
      if (!r) throw notFound();
      // Applied already, or being applied: nothing more to do (applying twice changes nothing).
      if (r.state === 'applied' || r.state === 'applying') return false;
      // A failed apply resumes from its last committed chunk; a preview must have finished.
      const resume = r.state === 'failed' && r.apply_started_at !== null;
      if (r.state !== 'previewed' && !resume) throw ruleBroken('rerateNotPreviewed');
      await trx
        .updateTable('rerate_runs')
        .set({
          state: 'applying',
          error: '',
          finished_at: null,
          applied_by: actor.user.name,
          apply_started_at: resume ? r.apply_started_at : new Date(),
        })
        .where('run_id', '=', ctx.params.id)
        .execute();
      await s.audit.record(
        trx,
        actor,
        'rerate',
        ctx.params.id,
        resume ? 'resume' : 'apply',
        { state: r.state },
        {
          state: 'applying',
        },
      );
      return true;
    });
    if (started) runner.start(ctx.params.id);
    return (await readRun(s, ctx.params.id))!;
  });

  return runner;
}
