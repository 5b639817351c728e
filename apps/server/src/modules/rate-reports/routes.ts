import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../http/context';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { assignCandidates, assignRateDeck } from './assign';
import { clientRateSummary } from './client-rate-summary';
import { rateReport } from './rate-report';

/** Rate reports (docs/rate-reports.md): client rate summary, rate report, assign a rate table to many trunks. */
export function registerRateReports(app: FastifyInstance, s: Services): void {
  implement(app, s, api.rateReports.clientRateSummary, (ctx) => clientRateSummary(s.db, ctx.query));
  implement(app, s, api.rateReports.rateReport, (ctx) => rateReport(s.db, ctx.query));
  implement(app, s, api.rateReports.assignCandidates, (ctx) =>
    assignCandidates(s.db, ctx.params.id, ctx.query),
  );
  implement(app, s, api.rateReports.assignRateDeck, (ctx) =>
    assignRateDeck(s, actorOf(ctx), ctx.params.id, ctx.body.trunk_ids),
  );
}
