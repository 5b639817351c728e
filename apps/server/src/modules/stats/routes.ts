import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../http/context';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { dashboard } from './dashboard';
import { summaryReport } from './report';

/** Statistics (docs/statistics.md): reports over the traffic summaries, tenancy applied here. */
export function registerStats(app: FastifyInstance, s: Services): void {
  implement(app, s, api.stats.getSummaryReport, (ctx) => summaryReport(s.db, actorOf(ctx), ctx.query));
  implement(app, s, api.stats.getDashboard, (ctx) => dashboard(s.db, actorOf(ctx), ctx.query));
}
