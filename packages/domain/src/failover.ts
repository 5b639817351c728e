/**
 * Failover: what to do when an egress trunk answers a call attempt with a SIP failure.
 *
 * The trunk's own rule for the code wins; else the system default rule for the code; else the
 * built-in rule: a final answer about the called party (486 Busy Here, 487 Request Terminated,
 * 6xx global failures) goes back to the customer as it is, anything else tries the next route.
 * A 'return' rule without a return code returns the vendor's code; without a clause, the
 * standard SIP reason phrase of the returned code.
 */
import type { FailoverRuleConfig } from './config';
import type { RoutingSnapshot } from './snapshot-types';

export type FailoverOutcome = 'next' | { readonly return_code: number; readonly return_clause: string };

const REASON_PHRASES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  480: 'Temporarily Unavailable',
  484: 'Address Incomplete',
  486: 'Busy Here',
  487: 'Request Terminated',
  488: 'Not Acceptable Here',
  500: 'Server Internal Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Server Time-out',
  600: 'Busy Everywhere',
  603: 'Decline',
  604: 'Does Not Exist Anywhere',
  606: 'Not Acceptable',
};

export function sipReasonPhrase(code: number): string {
  return REASON_PHRASES[code] ?? `SIP ${code}`;
}

function isFinalForCaller(code: number): boolean {
  return code === 486 || code === 487 || (code >= 600 && code <= 699);
}

export interface FailoverTrunk {
  readonly failover_rules?: readonly FailoverRuleConfig[] | null;
}

export function applyFailover(
  trunk: FailoverTrunk,
  sipCode: number,
  systemRules: readonly FailoverRuleConfig[] = [],
): FailoverOutcome {
  const rule =
    trunk.failover_rules?.find((r) => r.sip_code === sipCode) ??
    systemRules.find((r) => r.sip_code === sipCode);
  const action = rule ? rule.action : isFinalForCaller(sipCode) ? 'return' : 'next';
  if (action === 'next') return 'next';
  const returnCode = rule?.return_code ?? sipCode;
  return { return_code: returnCode, return_clause: rule?.return_clause ?? sipReasonPhrase(returnCode) };
}

/** applyFailover for a trunk of a snapshot, with the snapshot's system default rules; an unknown trunk gets the defaults only. */
export function failoverFor(snapshot: RoutingSnapshot, trunkId: number, sipCode: number): FailoverOutcome {
  return applyFailover(snapshot.trunks.get(trunkId) ?? {}, sipCode, snapshot.settings.default_failover_rules);
}
