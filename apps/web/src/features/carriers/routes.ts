import type { RouteDef } from '../../app/routes';

/** Routes of the carriers area (issue 3). */
export const carrierRoutes: RouteDef[] = [];
