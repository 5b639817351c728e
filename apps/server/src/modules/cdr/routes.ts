import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import type { CallPath } from '../routing/routes';
import { CdrIngest } from './ingest';
import { BalancePoller } from './balance-poller';
import { registerRerate } from './rerate-routes';
import { registerCdrUpload } from './upload-routes';

/**
 * cdr (issue 10): the money path. CDR ingest from the switch (POST /switch/cdr), rating of both
 * legs, the ledger and balances, and the live balances and credit holds the route API reads.
 */
export function registerCdr(app: FastifyInstance, s: Services, path: CallPath): CdrIngest {
  const ingest = new CdrIngest(s, path.engine, path.live);
  ingest.onCommitted(() => path.qos.cdrsStored());
  const poller = new BalancePoller(s, path.live);
  app.addHook('onReady', async () => {
    poller.start();
    ingest.folder.start();
  });
  app.addHook('onClose', async () => {
    poller.stop();
    await ingest.folder.stop();
  });

  registerRerate(app, s, path);

  implement(app, s, api.cdr.switchCdr, async (ctx) =>
    ingest.ingest(ctx.body.batch_id, ctx.body.cdrs, 'switch'),
  );
  registerCdrUpload(app, s, ingest);
  return ingest;
}
