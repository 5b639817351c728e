/**
 * Failover: what to do when an egress trunk answers a call attempt with a SIP failure.
 *
 * The trunk's own rule for the code wins; else the system default rule for the code; else the
 * built-in rule: a final answer about the called party (486 Busy Here, 487 Request Terminated,
 * 6xx global failures) goes back to the customer as it is, anything else tries the next route.
 * A 'return' rule without a return code returns the vendor's code; without a clause, the
 * standard SIP reason phrase of the returned code.
 *
 * The rule lives in one place, failoverTable(): the effective rules of a trunk as a table the
 * switch reads from every route answer (exact code, else the code's class "6xx", else "*"), and
 * applyFailover() resolves a code through the same table.
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

export interface FailoverTrunk {
  readonly failover_rules?: readonly FailoverRuleConfig[] | null;
}

/**
 * One entry of a failover table. 'next': try the next route (after the last one the vendor's answer
 * goes back). 'return': send the caller `return_code` and `return_clause`; both null mean the
 * vendor's answer as it is (an entry for a class of codes).
 */
export interface FailoverEntry {
  readonly action: 'next' | 'return';
  readonly return_code: number | null;
  readonly return_clause: string | null;
}

/**
 * A trunk's effective failover rules, keyed by SIP code ("503"), then by class ("6xx"), then "*"
 * for every other code: look a code up in that order (failoverEntry).
 */
export type FailoverTable = Readonly<Record<string, FailoverEntry>>;

const NEXT: FailoverEntry = { action: 'next', return_code: null, return_clause: null };
const AS_ANSWERED: FailoverEntry = { action: 'return', return_code: null, return_clause: null };

function entryOf(rule: FailoverRuleConfig): FailoverEntry {
  if (rule.action === 'next') return NEXT;
  const code = rule.return_code ?? rule.sip_code;
  return { action: 'return', return_code: code, return_clause: rule.return_clause || sipReasonPhrase(code) };
}

/**
 * The failover table of a trunk: the built-in rule (486 and 487 back to the caller, 6xx back as
 * answered, anything else the next route), the system default rules over it, the trunk's own rules
 * over those.
 */
export function failoverTable(
  trunk: FailoverTrunk,
  systemRules: readonly FailoverRuleConfig[] = [],
): FailoverTable {
  const table: Record<string, FailoverEntry> = {
    '486': entryOf({ sip_code: 486, action: 'return' }),
    '487': entryOf({ sip_code: 487, action: 'return' }),
  };
  for (const r of systemRules) table[String(r.sip_code)] = entryOf(r);
  for (const r of trunk.failover_rules ?? []) table[String(r.sip_code)] = entryOf(r);
  table['6xx'] = AS_ANSWERED;
  table['*'] = NEXT;
  return table;
}

/** The entry of a failover table for a SIP code: the code's own, else its class's, else "*". */
export function failoverEntry(table: FailoverTable, sipCode: number): FailoverEntry {
  return table[String(sipCode)] ?? table[`${Math.floor(sipCode / 100)}xx`] ?? table['*'] ?? NEXT;
}

export function applyFailover(
  trunk: FailoverTrunk,
  sipCode: number,
  systemRules: readonly FailoverRuleConfig[] = [],
): FailoverOutcome {
  const e = failoverEntry(failoverTable(trunk, systemRules), sipCode);
  if (e.action === 'next') return 'next';
  const returnCode = e.return_code ?? sipCode;
  return { return_code: returnCode, return_clause: e.return_clause ?? sipReasonPhrase(returnCode) };
}

/** applyFailover for a trunk of a snapshot, with the snapshot's system default rules; an unknown trunk gets the defaults only. */
export function failoverFor(snapshot: RoutingSnapshot, trunkId: number, sipCode: number): FailoverOutcome {
  return applyFailover(snapshot.trunks.get(trunkId) ?? {}, sipCode, snapshot.settings.default_failover_rules);
}
