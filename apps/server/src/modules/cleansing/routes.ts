import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../http/context';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import type { CdrPartitions } from '../cdr/partitions';
import { patchSystemSettings } from '../config/system-settings';
import { CLEANSING_SCHEDULE, cleansingState, runCleansing } from './service';

/**
 * Configuration > DB Cleansing (issue 10 section 5): the daily job `db.cleansing` and the page's
 * calls. A missed run (the server was down at 01:00 UTC) runs once at the next start; "Run now" is
 * one job per minute however often it is pressed.
 */
export function registerCleansing(app: FastifyInstance, s: Services, partitions: CdrPartitions): void {
  const { CLEANSING_JOB } = api.cleansing;
  s.jobs.define(CLEANSING_JOB, (_payload, ctx) => runCleansing(s, partitions, ctx));
  s.jobs.every(CLEANSING_JOB, CLEANSING_SCHEDULE);

  implement(app, s, api.cleansing.getCleansing, async () => cleansingState(s, partitions));
  implement(app, s, api.cleansing.putCleansing, async (ctx) => {
    await patchSystemSettings(s, actorOf(ctx), ctx.body);
    return cleansingState(s, partitions);
  });
  implement(app, s, api.cleansing.runCleansing, async (ctx) => {
    const actor = actorOf(ctx);
    const minute = new Date().toISOString().slice(0, 16);
    const job = await s.jobs.enqueue(
      CLEANSING_JOB,
      {},
      { key: `${CLEANSING_JOB}:now@${minute}`, user: { user_id: actor.user.user_id, name: actor.user.name } },
    );
    return { job_id: job.id, created: job.created };
  });
}
