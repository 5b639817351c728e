import { carrierRoutes } from '../features/carriers/routes';
import { configurationRoutes } from '../features/configuration/routes';
import { rateRoutes } from '../features/rates/routes';
import { routingRoutes } from '../features/routing/routes';
import { rateGenerationRoutes } from '../features/rategen/routes';
import type { RouteDef } from './routes';

/** Routes of the business areas; each area declares its own in features/<area>/routes.ts. */
export const areaRoutes: RouteDef[] = [
  ...configurationRoutes,
  ...rateRoutes,
  ...carrierRoutes,
  ...routingRoutes,
  ...rateGenerationRoutes,
];
