import type { api, SystemSettings } from '@tandem/contract';
import type { FailoverRuleConfig } from '@tandem/domain';
import type { z } from 'zod';
import type { Db } from '../../db/connection';
import type { SettingsService } from '../config/settings';

/**
 * Routing settings kept in the settings table: the system default failover rules, the route error
 * responses (global route error), and what the engine reads from the system settings
 * (SYSTEM_ROUTING_KEYS).
 */
export const FAILOVER_KEY = 'routing_default_failover';
export const ERROR_RESPONSE_KEY = 'routing_error_responses';

type ErrorResponse = z.output<typeof api.routing.errorResponse>;

export async function readDefaultFailover(settings: SettingsService, db?: Db): Promise<FailoverRuleConfig[]> {
  const v = await settings.get<{ rules: FailoverRuleConfig[] }>(FAILOVER_KEY, { rules: [] }, db);
  return Array.isArray(v.rules) ? v.rules : [];
}

export async function readErrorResponses(settings: SettingsService, db?: Db): Promise<ErrorResponse[]> {
  const v = await settings.get<{ responses: ErrorResponse[] }>(ERROR_RESPONSE_KEY, { responses: [] }, db);
  return Array.isArray(v.responses) ? v.responses : [];
}

/**
 * The system settings the routing snapshot holds (Configuration > System Setting): the time zone,
 * the default US IJ rule, and the default ring timeout and maximum call duration it hands the
 * switch for trunks that set none. Changing any of them rebuilds the snapshot (config routes).
 */
export const SYSTEM_ROUTING_KEYS = [
  'timezone',
  'default_us_ij_rule',
  'default_ring_timeout_s',
  'max_call_duration_s',
] as const;
export type SystemRouting = Pick<SystemSettings, (typeof SYSTEM_ROUTING_KEYS)[number]>;

export async function readSystemRouting(settings: SettingsService, db?: Db): Promise<SystemRouting> {
  const system = await settings.system(db);
  return Object.fromEntries(SYSTEM_ROUTING_KEYS.map((k) => [k, system[k]])) as SystemRouting;
}
