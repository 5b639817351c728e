/**
 * Why a call is refused, as the SIP response the switch sends back and a stable reason key.
 *
 * | constant                   | SIP | reason                   | when                                                         |
 * |----------------------------|-----|--------------------------|--------------------------------------------------------------|
 * | SOURCE_IP_BLOCKED          | 403 | source_ip_blocked        | the source IP is on the inbound media IP block list (unexpired) |
 * | NO_INGRESS_TRUNK           | 403 | no_ingress_trunk         | no ingress trunk host matches the source IP/port + tech prefix |
 * | INGRESS_TRUNK_INACTIVE     | 403 | ingress_trunk_inactive   | the matched ingress trunk is inactive                        |
 * | CUSTOMER_INACTIVE          | 403 | customer_inactive        | the trunk's carrier is inactive                              |
 * | INSUFFICIENT_BALANCE       | 402 | insufficient_balance     | prepaid: balance + allowed credit <= 0; postpaid: balance <= -credit limit |
 * | TRUNK_CALL_LIMIT           | 486 | trunk_call_limit         | the ingress trunk has call_limit calls up                    |
 * | CUSTOMER_CALL_LIMIT        | 486 | customer_call_limit      | the customer has call_limit calls up                         |
 * | TRUNK_CPS_LIMIT            | 503 | trunk_cps_limit          | the ingress trunk is at its calls-per-second limit           |
 * | CUSTOMER_CPS_LIMIT         | 503 | customer_cps_limit       | the customer is at its calls-per-second limit                |
 * | INVALID_NUMBER             | 484 | invalid_number           | the DNIS is empty or not digits after the digit rules        |
 * | OCN_BLOCKED                | 403 | ocn_blocked              | the call's STIR/SHAKEN OCN or origid is on the STIOCN block list |
 * | ANI_BLOCKED                | 403 | ani_blocked              | a block-list entry on the ANI only matches                   |
 * | DNIS_BLOCKED               | 403 | dnis_blocked             | a block-list entry with a DNIS condition matches             |
 * | NO_RATE_TABLE              | 404 | no_rate_table            | the ingress trunk has no (known) rate table                  |
 * | NO_INGRESS_RATE            | 404 | no_rate                  | no code of the rate table, effective now, prefixes the number |
 * | NO_ROUTING_PLAN            | 503 | no_routing_plan          | the ingress trunk has no (known) routing plan                |
 * | NO_ROUTING_PREFIX          | 404 | no_routing_prefix        | no routing-plan row matches the number (and time profile)    |
 * | NO_ROUTE                   | 503 | no_route                 | the route gives no egress trunk that survives the checks     |
 */

export interface RejectCode {
  readonly code: number;
  readonly reason: string;
}

export const REJECT = {
  SOURCE_IP_BLOCKED: { code: 403, reason: 'source_ip_blocked' },
  NO_INGRESS_TRUNK: { code: 403, reason: 'no_ingress_trunk' },
  INGRESS_TRUNK_INACTIVE: { code: 403, reason: 'ingress_trunk_inactive' },
  CUSTOMER_INACTIVE: { code: 403, reason: 'customer_inactive' },
  INSUFFICIENT_BALANCE: { code: 402, reason: 'insufficient_balance' },
  TRUNK_CALL_LIMIT: { code: 486, reason: 'trunk_call_limit' },
  CUSTOMER_CALL_LIMIT: { code: 486, reason: 'customer_call_limit' },
  TRUNK_CPS_LIMIT: { code: 503, reason: 'trunk_cps_limit' },
  CUSTOMER_CPS_LIMIT: { code: 503, reason: 'customer_cps_limit' },
  INVALID_NUMBER: { code: 484, reason: 'invalid_number' },
  OCN_BLOCKED: { code: 403, reason: 'ocn_blocked' },
  ANI_BLOCKED: { code: 403, reason: 'ani_blocked' },
  DNIS_BLOCKED: { code: 403, reason: 'dnis_blocked' },
  NO_RATE_TABLE: { code: 404, reason: 'no_rate_table' },
  NO_INGRESS_RATE: { code: 404, reason: 'no_rate' },
  NO_ROUTING_PLAN: { code: 503, reason: 'no_routing_plan' },
  NO_ROUTING_PREFIX: { code: 404, reason: 'no_routing_prefix' },
  NO_ROUTE: { code: 503, reason: 'no_route' },
} as const satisfies Record<string, RejectCode>;

export type RejectReason = (typeof REJECT)[keyof typeof REJECT]['reason'];

/**
 * Why an egress trunk left the candidate list (trace only; the call itself goes on).
 */
export const EGRESS_DROP = {
  UNKNOWN_TRUNK: 'unknown_trunk',
  NOT_EGRESS: 'not_an_egress_trunk',
  DUPLICATE: 'listed_twice',
  TRUNK_INACTIVE: 'trunk_inactive',
  VENDOR_INACTIVE: 'vendor_inactive',
  TRUNK_CALL_LIMIT: 'trunk_call_limit',
  TRUNK_CPS_LIMIT: 'trunk_cps_limit',
  VENDOR_CALL_LIMIT: 'vendor_call_limit',
  VENDOR_CPS_LIMIT: 'vendor_cps_limit',
  ROUTE_CALL_LIMIT: 'route_call_limit',
  ROUTE_CPS_LIMIT: 'route_cps_limit',
  BLOCKED: 'blocked',
  NO_RATE_TABLE: 'no_rate_table',
  NO_RATE: 'no_rate',
  UNPROFITABLE: 'below_min_profitability',
  MAX_ROUTES: 'beyond_max_routes',
} as const;

export type EgressDropReason = (typeof EGRESS_DROP)[keyof typeof EGRESS_DROP];
