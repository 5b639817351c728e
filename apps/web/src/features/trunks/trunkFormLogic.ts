import type { z } from 'zod';
import { serverMessage } from '../../i18n';

/** Which tab of the trunk edit holds a top-level field (to open it on an error). */
export const TAB_OF: Record<string, string> = {
  carrier_id: 'basic',
  name: 'basic',
  trunk_type2: 'basic',
  auth_type: 'basic',
  registration: 'basic',
  is_active: 'basic',
  hosts: 'hosts',
  host_strategy: 'hosts',
  timeouts: 'timeouts',
  codecs: 'codecs',
  media_type: 'codecs',
  t38: 'codecs',
  protocol: 'codecs',
  ignore_early_media: 'codecs',
  ignore_early_no_sdp: 'codecs',
  blocking: 'autoCallBlock',
  call_limit: 'limit',
  cps_limit: 'limit',
  sip_sessions: 'limit',
  sip_cps_limit: 'limit',
  identity_options: 'passThrough',
  tech_prefix: 'billing',
  rate_table_id: 'billing',
  rounding: 'billing',
  billing_mode: 'billing',
  bill_by: 'billing',
  min_profitability: 'billing',
  random_ani_group_id: 'billing',
  sip_profiles: 'sipProfile',
  routing_plan_id: 'routing',
  digital_map_id: 'digitManipulation',
  routing_rows: 'routing',
  capacity: 'capacity',
  failover_rules: 'failover',
  stir_shaken: 'stirShaken',
  spam_scoring: 'spam',
  allowed_send_to_ips: 'sendTo',
};
export const tabOf = (path: readonly (string | number)[]) => {
  const [first, second] = path;
  if (first === 'digit_rules') return second === 'manipulations' ? 'digitManipulation' : 'digitReplacement';
  if (first === 'blocking' && second === 'cid_block') return 'cidBlock';
  return TAB_OF[String(first)] ?? 'basic';
};

/** "hosts.0.host" (server) -> ['hosts', 0, 'host'] (antd name path). */
export const pathOf = (key: string): (string | number)[] =>
  key.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));

export interface FieldError {
  name: (string | number)[];
  errors: string[];
}

/** The contract's issues as antd field errors (messages from the catalogue, with their arguments). */
export function issuesToFields(
  issues: readonly z.core.$ZodIssue[],
  labelOf: (path: (string | number)[]) => string,
  message: (key: string, args: readonly (string | number)[]) => string = serverMessage,
): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const i of issues) {
    const name = i.path.map((p) => (typeof p === 'number' ? p : String(p)));
    const k = name.join('.');
    if (seen.has(k)) continue;
    seen.add(k);
    const args = (i as { params?: { args?: (string | number)[] } }).params?.args;
    out.push({ name, errors: [message(i.message, args ?? [labelOf(name)])] });
  }
  return out;
}

/** Form values -> request body: drops undefined and turns empty optional texts into null where the contract expects null. */
export function cleanValues(v: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(v)) {
    if (val === undefined) continue;
    out[k] = k === 'min_profitability' && val === '' ? null : val;
  }
  return out;
}
