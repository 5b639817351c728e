import type { RouteDef } from '../../app/routes';

/** Routes of the rates area (issue 3). */
export const rateRoutes: RouteDef[] = [];
