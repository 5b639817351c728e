import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services';

/** rates (issue 3): routes of this area. */
export function registerRates(_app: FastifyInstance, _s: Services): void {}
