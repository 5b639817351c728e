import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services';
import { registerEngineRoutes } from './engine-routes';
import { LiveState } from './live-state';
import { SnapshotService } from './snapshot-service';
import { registerSwitchApi } from './switch-api';

/**
 * routing (issue 3): routing plans, static and dynamic routes, block lists, routing settings and the
 * wizard; the routing engine's snapshot (built at start, rebuilt on configuration changes), the route
 * API of the SIP proxy and the simulation and analysis tools.
 */
export function registerRouting(app: FastifyInstance, s: Services): void {
  const engine = new SnapshotService(s);
  const live = new LiveState();
  app.addHook('onReady', async () => engine.start());
  app.addHook('onClose', async () => engine.stop());

  registerEngineRoutes(app, s, engine);
  registerSwitchApi(app, s, engine, live);
}
