import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import type { CallPath } from '../routing/routes';
import { CdrIngest } from './ingest';
import { BalancePoller } from './balance-poller';
import { registerRerate } from './rerate-routes';
import { registerCdrUpload } from './upload-routes';
import { SummaryFolder } from '../stats/summaries';

/**
 * cdr (issue 10): the money path. CDR ingest from the switch (POST /switch/cdr), rating of both
 * legs, the ledger and balances, and the live balances and credit holds the route API reads.
 */
export function registerCdr(app: FastifyInstance, s: Services, path: CallPath): CdrIngest {
  const ingest = new CdrIngest(s, path.engine, path.live);
  // The traffic summaries follow each batch through their queue and the fold (migration 0038).
  const folder = new SummaryFolder(
    s.db,
    (err) => s.log.warn({ err }, 'summary fold failed'),
    s.config.summaryFoldMs,
  );
  ingest.onCommitted(() => {
    path.qos.cdrsStored();
    folder.soon();
  });
  const poller = new BalancePoller(s, path.live);
  app.addHook('onReady', async () => {
    poller.start();
    folder.start();
  });
  app.addHook('onClose', async () => {
    poller.stop();
    await folder.stop();
  });

  registerRerate(app, s, path);

  implement(app, s, api.cdr.switchCdr, async (ctx) =>
    ingest.ingest(ctx.body.batch_id, ctx.body.cdrs, 'switch'),
  );
  registerCdrUpload(app, s, ingest);
  return ingest;
}
