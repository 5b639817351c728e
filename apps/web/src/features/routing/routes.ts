import type { RouteDef } from '../../app/routes';

/** Routes of the routing area (issue 3). */
export const routingRoutes: RouteDef[] = [];
