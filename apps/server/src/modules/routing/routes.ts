import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services';

/** routing (issue 3): routes of this area. */
export function registerRouting(_app: FastifyInstance, _s: Services): void {}
