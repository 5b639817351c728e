import { carrierRoutes } from '../features/carriers/routes';
import { configurationRoutes } from '../features/configuration/routes';
import { rateRoutes } from '../features/rates/routes';
import { routingRoutes } from '../features/routing/routes';
import { rateDeliveryRoutes } from '../features/rate-delivery/routes';
import { routingExtrasRoutes } from '../features/routing-extras/routes';
import { rateReportRoutes } from '../features/rate-reports/routes';
import { rateGenerationRoutes } from '../features/rategen/routes';
import { jobRoutes } from '../features/jobs/routes';
import { cdrRoutes } from '../features/cdr/routes';
import { rerateRoutes } from '../features/rerate/routes';
import { financeRoutes } from '../features/finance/routes';
import { statisticsRoutes } from '../features/statistics/routes';
import { monitoringRoutes } from '../features/monitoring/routes';
import { agentRoutes } from '../features/agents/routes';
import { billingRoutes } from '../features/billing/routes';
import { didRoutes } from '../features/did/routes';
import { mailRoutes } from '../features/mail/routes';
import { onlinePaymentRoutes } from '../features/online-payment/routes';
import type { RouteDef } from './routes';

/** Routes of the business areas; each area declares its own in features/<area>/routes.ts. */
export const areaRoutes: RouteDef[] = [
  ...configurationRoutes,
  ...rateRoutes,
  ...carrierRoutes,
  ...routingRoutes,
  ...rateDeliveryRoutes,
  ...routingExtrasRoutes,
  ...rateReportRoutes,
  ...rateGenerationRoutes,
  ...jobRoutes,
  ...cdrRoutes,
  ...rerateRoutes,
  ...financeRoutes,
  ...statisticsRoutes,
  ...monitoringRoutes,
  ...agentRoutes,
  ...billingRoutes,
  ...didRoutes,
  ...mailRoutes,
  ...onlinePaymentRoutes,
];
