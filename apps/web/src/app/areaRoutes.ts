import { configurationRoutes } from '../features/configuration/routes';
import type { RouteDef } from './routes';

/** Routes of the business areas; each area declares its own in features/<area>/routes.ts. */
export const areaRoutes: RouteDef[] = [...configurationRoutes];
