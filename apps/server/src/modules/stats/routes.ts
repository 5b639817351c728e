import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../http/context';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import type { CallPath } from '../routing/routes';
import { dashboard } from './dashboard';
import { alertsTab, chartsTab, peaksTab, qosTab, reportTab } from './dashboard-tabs';
import { activeCalls, ChannelPeaks } from './live';
import { registerOptions, viewerFor } from './options';
import { registerReports, runReport } from './reports';

/** Statistics (docs/statistics.md): reports over the traffic summaries, tenancy applied here. */
export function registerStats(app: FastifyInstance, s: Services, path: CallPath): void {
  const viewer = (ctx: Parameters<typeof actorOf>[0]) => viewerFor(s.db, actorOf(ctx));
  implement(app, s, api.stats.getSummaryReport, async (ctx) =>
    runReport(s.db, await viewer(ctx), 'summary_report', ctx.query),
  );
  implement(app, s, api.stats.getDashboard, async (ctx) => dashboard(s.db, await viewer(ctx), ctx.query));
  const d = api.dashboard;
  implement(app, s, d.getReport, async (ctx) => reportTab(s.db, await viewer(ctx), ctx.query));
  implement(app, s, d.getCharts, async (ctx) => chartsTab(s.db, await viewer(ctx), ctx.query));
  implement(app, s, d.getPeaks, async (ctx) => peaksTab(s.db, await viewer(ctx), ctx.query.tz));
  implement(app, s, d.getQos, async (ctx) => qosTab(s.db, await viewer(ctx), ctx.query));
  implement(app, s, d.getAlerts, async (ctx) => alertsTab(s.db, await viewer(ctx), ctx.query));

  const peaks = new ChannelPeaks(s.db, s.log);
  path.live.onCallsReport((report, snapshot) => peaks.record(report, snapshot));
  app.addHook('onClose', async () => peaks.flush());
  implement(app, s, api.stats.getActiveCalls, async (ctx) =>
    activeCalls(s.db, await viewer(ctx), path.live, peaks, ctx.query.tz),
  );

  registerOptions(app, s);
  registerReports(app, s);
}
