import { api, type Endpoint } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services';
import { registerAuth } from './auth/routes';
import { registerConfig } from './config/routes';
import { registerHome } from './home/routes';
import { registerLogs } from './logs/routes';
import { registerRoles } from './roles/routes';
import { registerSignup } from './signup/routes';
import { registerSwitch } from './switch/routes';
import { registerTickets } from './tickets/routes';
import { registerUsers } from './users/routes';
import { registerConfiguration } from './configuration/routes';
import { registerRates } from './rates/routes';
import { registerCarriers } from './carriers/routes';
import { registerTrunks } from './trunks/routes';
import { registerRouting } from './routing/routes';
import { registerRateDelivery } from './rate-delivery/routes';
import { registerRoutingExtras } from './routing-extras/routes';
import { registerRateReports } from './rate-reports/routes';
import { registerRateGeneration } from './rate-generation/routes';
import { registerCdr } from './cdr/routes';
import { registerJobs } from './jobs/routes';
import { registerCdrSearch } from './cdr-search/routes';
import { registerFinance } from './finance/routes';
import { registerBalanceResets } from './finance/resets';
import { registerStats } from './stats/routes';
import { registerMonitoring } from './monitoring/routes';
import { registerBilling } from './billing/routes';
import { registerMailConfig } from './mail-config/routes';
import { registerAgents } from './agents/routes';
import { registerDid } from './did/routes';
import { registerDidExtras } from './did/extras';
import { registerOnlinePayment } from './online-payment/routes';
import { registerCleansing } from './cleansing/routes';

export function registerModules(app: FastifyInstance, s: Services): void {
  registerAuth(app, s);
  registerUsers(app, s);
  registerRoles(app, s);
  registerConfig(app, s);
  registerLogs(app, s);
  registerJobs(app, s);
  registerTickets(app, s);
  registerHome(app, s);
  registerSwitch(app, s);
  registerSignup(app, s);
  registerConfiguration(app, s);
  registerRates(app, s);
  registerCarriers(app, s);
  registerTrunks(app, s);
  const callPath = registerRouting(app, s);
  registerRateDelivery(app, s);
  registerRoutingExtras(app, s);
  registerRateReports(app, s);
  registerRateGeneration(app, s);
  const ingest = registerCdr(app, s, callPath);
  registerCleansing(app, s, ingest.partitions);
  registerCdrSearch(app, s);
  registerFinance(app, s);
  registerBalanceResets(app, s);
  registerStats(app, s, callPath);
  registerMonitoring(app, s, callPath);
  registerBilling(app, s);
  registerMailConfig(app, s);
  registerAgents(app, s);
  registerDid(app, s);
  registerDidExtras(app, s);
  registerOnlinePayment(app, s);
}

const isEndpoint = (v: unknown): v is Endpoint =>
  typeof v === 'object' && v !== null && 'method' in v && 'path' in v && 'access' in v && 'payload' in v;

/** Endpoints in an area module, including those grouped by crudEndpoints (one level down). */
function endpointsIn(area: Record<string, unknown>): Endpoint[] {
  return Object.values(area).flatMap((v) =>
    isEndpoint(v)
      ? [v]
      : typeof v === 'object' && v !== null && 'def' in v
        ? Object.values(v).filter(isEndpoint)
        : [],
  );
}

/** Every endpoint declared in the contract (the OpenAPI document lists them; a test checks each is served). */
export function allEndpoints(): Endpoint[] {
  return Object.values(api).flatMap((area) => endpointsIn(area as Record<string, unknown>));
}
