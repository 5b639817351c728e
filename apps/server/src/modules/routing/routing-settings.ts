import type { api } from '@tandem/contract';
import type { DefaultIjRule, FailoverRuleConfig } from '@tandem/domain';
import type { z } from 'zod';
import type { Db } from '../../db/connection';
import type { SettingsService } from '../config/settings';

/**
 * Routing settings kept in the settings table: the system default failover rules, the route error
 * responses (global route error), and what the engine reads from the system settings (time zone,
 * default US IJ rule).
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
 * The system settings the engine needs (Configuration > System Setting): the time zone, the
 * default US IJ rule, and the default ring timeout and maximum call duration it hands the switch
 * for trunks that set none. Changing any of them rebuilds the snapshot (config routes,
 * ROUTING_KEYS).
 */
export async function readSystemRouting(
  settings: SettingsService,
  db?: Db,
): Promise<{
  timezone: string;
  default_ij_rule: DefaultIjRule;
  default_ring_timeout_s: number;
  max_call_duration_s: number;
}> {
  const system = await settings.system(db);
  return {
    timezone: system.timezone,
    default_ij_rule: system.default_us_ij_rule,
    default_ring_timeout_s: system.default_ring_timeout_s,
    max_call_duration_s: system.max_call_duration_s,
  };
}
