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
 * | TRUNK_BLOCKED              | 403 | trunk_blocked            | a fraud or monitoring rule blocked the ingress trunk (monitoring.ts) |
 * | ANI_MONITOR_BLOCKED        | 403 | ani_monitor_blocked      | a fraud rule blocked the caller's ANI on the ingress trunk   |
 * | ROUTE_BLOCKED              | 403 | route_blocked            | a monitoring rule blocked the ingress trunk for the called code |
 * | LOOP_DETECTED              | 482 | loop_detected            | the same ANI and DNIS came more than N times in S seconds (loop rule) |
 * | DID_NOT_FOUND              | 404 | did_not_found            | a DID vendor's call to a number that is not its DID          |
 * | DID_UNASSIGNED             | 404 | did_unassigned           | the DID is in stock, held by no client                       |
 * | DID_RESERVED               | 480 | did_reserved             | the DID is reserved for a client, not yet assigned           |
 * | DID_RELEASED               | 410 | did_released             | the client released the DID                                  |
 * | DID_SUSPENDED              | 402 | did_suspended            | the DID is suspended: its prepaid client did not pay its charges |
 * | DID_CLIENT_INACTIVE        | 403 | did_client_inactive      | the client holding the DID is inactive                       |
 * | DID_VENDOR_CALL_LIMIT      | 486 | did_vendor_call_limit    | the DID vendor (the carrier, not its trunk) has call_limit calls up |
 * | DID_VENDOR_CPS_LIMIT       | 503 | did_vendor_cps_limit     | the DID vendor is at its calls-per-second limit              |
 * | DID_CLIENT_CALL_LIMIT      | 486 | did_client_call_limit    | the DID client uses every channel it pays for                |
 * | DID_CLIENT_CPS_LIMIT       | 503 | did_client_cps_limit     | the DID client is at its calls-per-second limit              |
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
  TRUNK_BLOCKED: { code: 403, reason: 'trunk_blocked' },
  ANI_MONITOR_BLOCKED: { code: 403, reason: 'ani_monitor_blocked' },
  ROUTE_BLOCKED: { code: 403, reason: 'route_blocked' },
  LOOP_DETECTED: { code: 482, reason: 'loop_detected' },
  DID_NOT_FOUND: { code: 404, reason: 'did_not_found' },
  DID_UNASSIGNED: { code: 404, reason: 'did_unassigned' },
  DID_RESERVED: { code: 480, reason: 'did_reserved' },
  DID_RELEASED: { code: 410, reason: 'did_released' },
  DID_SUSPENDED: { code: 402, reason: 'did_suspended' },
  DID_CLIENT_INACTIVE: { code: 403, reason: 'did_client_inactive' },
  DID_VENDOR_CALL_LIMIT: { code: 486, reason: 'did_vendor_call_limit' },
  DID_VENDOR_CPS_LIMIT: { code: 503, reason: 'did_vendor_cps_limit' },
  DID_CLIENT_CALL_LIMIT: { code: 486, reason: 'did_client_call_limit' },
  DID_CLIENT_CPS_LIMIT: { code: 503, reason: 'did_client_cps_limit' },
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
  MONITOR_BLOCKED: 'monitor_blocked',
  NO_RATE_TABLE: 'no_rate_table',
  NO_RATE: 'no_rate',
  UNPROFITABLE: 'below_min_profitability',
  MAX_ROUTES: 'beyond_max_routes',
} as const;

export type EgressDropReason = (typeof EGRESS_DROP)[keyof typeof EGRESS_DROP];
