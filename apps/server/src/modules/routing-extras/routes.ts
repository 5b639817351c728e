import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services';
import { registerBlockLists } from './block-lists';
import { registerDigitalMaps } from './digital-maps';

/**
 * Routing extras: digital maps, inbound media IP blocking and the STIOCN block list. The routing
 * module's snapshot loader reads them (load.ts); every write here notifies configChanged.
 */
export function registerRoutingExtras(app: FastifyInstance, s: Services): void {
  registerDigitalMaps(app, s);
  registerBlockLists(app, s);
}
