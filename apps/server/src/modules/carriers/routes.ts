import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services';

/** carriers (issue 3): routes of this area. */
export function registerCarriers(_app: FastifyInstance, _s: Services): void {}
