import { toMicros } from '@tandem/domain';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services';
import { registerBlockList, registerPortalBlockList } from './block-list';
import { registerDynamicRoutes } from './dynamic-routes';
import { registerEngineRoutes } from './engine-routes';
import { LiveState } from './live-state';
import { registerPlans } from './plans';
import { QosRefresher, registerTrunkQos } from './qos';
import { registerRoutingSettings } from './settings-routes';
import { SnapshotService } from './snapshot-service';
import { registerStaticRoutes } from './static-routes';
import { registerSwitchApi } from './switch-api';
import { registerRoutingTools } from './tools';
import { registerRoutingWizard } from './wizard';

/**
 * routing (issue 3): routing plans, static and dynamic routes, block lists, routing settings and the
 * wizard; the routing engine's snapshot (built at start, rebuilt on configuration changes), the route
 * API of the SIP proxy and the simulation and analysis tools.
 */
/** The routing engine and its live state, shared with the money path (CDR ingest, credit). */
export interface CallPath {
  readonly engine: SnapshotService;
  readonly live: LiveState;
  /** The dynamic routes' ASR/ACD from the CDRs: told when CDRs are stored. */
  readonly qos: QosRefresher;
}

export function registerRouting(app: FastifyInstance, s: Services): CallPath {
  const engine = new SnapshotService(s);
  const live = new LiveState();
  engine.onInstalled = (loaded, startedAt) =>
    live.adoptBalances(
      loaded.config.carriers.map((c) => ({ carrier_id: c.carrier_id, balance: toMicros(c.balance) })),
      startedAt,
    );
  const qos = new QosRefresher(s);
  app.addHook('onReady', async () => {
    engine.start();
    qos.start();
  });
  app.addHook('onClose', async () => {
    qos.stop();
    engine.stop();
  });

  registerPlans(app, s);
  registerStaticRoutes(app, s);
  registerDynamicRoutes(app, s);
  registerBlockList(app, s);
  registerPortalBlockList(app, s);
  registerRoutingSettings(app, s);
  registerRoutingWizard(app, s);
  registerEngineRoutes(app, s, engine);
  registerSwitchApi(app, s, engine, live);
  registerTrunkQos(app, s);
  registerRoutingTools(app, s, engine, live);
  return { engine, live, qos };
}
