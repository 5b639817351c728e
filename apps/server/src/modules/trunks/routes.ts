import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services';

/** trunks (issue 3): routes of this area. */
export function registerTrunks(_app: FastifyInstance, _s: Services): void {}
