import { api, type RerateFigures, type RerateFilter, type RerateRun } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { newestFirst } from '../../db/paging';
import { actorOf } from '../../http/context';
import { invalidField, notFound, ruleBroken } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import type { CallPath } from '../routing/routes';
import { runRerate, type RerateDeps } from './rerate';

/**
 * Tools > Rerate: the preview and the apply of a run are durable background jobs (`rerate.run`,
 * docs/jobs.md) calling runRerate, which carries on from the run's last committed chunk: a job
 * taken over after its process died, or run again after a failure, never moves money twice.
 */
export class RerateRunner {
  deps: RerateDeps;

  constructor(
    private readonly s: Services,
    path: CallPath,
  ) {
    this.deps = { s, engine: path.engine, live: path.live };
    s.jobs.define<{ runId: number }>(
      'rerate.run',
      async (payload, ctx) => {
        ctx.signal.throwIfAborted();
        await runRerate(this.deps, payload.runId, (done, total) =>
          ctx.progress({ done, total, message: `rerate run ${payload.runId}` }),
        );
      },
      { maxAttempts: 3, backoffMs: 5_000 },
    );
  }

  /** Queues the run's next phase (its preview, or its apply) as a job. */
  async start(runId: number, user?: { user_id: number; name: string }): Promise<void> {
    await this.s.jobs.enqueue('rerate.run', { runId }, { user });
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
    await runner.start(id, actorOf(ctx).user);
    return { object_id: id };
  });

  implement(app, s, api.rerate.list, async (ctx) => {
    const q = ctx.query;
    let qb = s.db.selectFrom('rerate_runs');
    if (q.state) qb = qb.where('state', '=', q.state);
    const total = await qb.select((e) => e.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    const rows = await qb
      .selectAll()
      .orderBy('run_id', newestFirst(q).order_dir)
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
    if (started) await runner.start(ctx.params.id, actorOf(ctx).user);
    return (await readRun(s, ctx.params.id))!;
  });

  return runner;
}
