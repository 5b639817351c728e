import { expect } from '@playwright/test';
import { api } from '@tandem/contract';
import { baseUrl, call, unique } from './api';
import { engineSettled, randomIp, rateTableWith, vendorWithTrunk } from './switch';

/**
 * Call attempts as the switch reports them (POST /api/switch/cdr, docs/api.md), for the specs that
 * need rated traffic behind a screen: one builder with the usual values, one sender.
 */
export interface Attempt {
  callId: string;
  /** Start of the attempt, ms since the epoch (UTC). */
  start: number;
  /** Seconds from answer to end; 0 for an attempt that was not answered. */
  duration: number;
  ingressTrunk: number;
  egressTrunk: number | null;
  sourceIp: string;
  /** Default: answered when it lasted. */
  answered?: boolean;
  /** Ring time before the answer (default 2 s). */
  answerAfterMs?: number;
  /** Length of an unanswered attempt (default 4 s). */
  failAfterMs?: number;
  attempt?: number;
  final?: boolean;
  ani?: string;
  dnis?: string;
  egressDnis?: string;
  /** Default 200 when answered, else 486 (busy). */
  releaseCause?: number;
  /** Default O when answered, else T. */
  releaseSide?: string;
  pddMs?: number;
}

export function cdrOf(a: Attempt): Record<string, unknown> {
  const answered = a.answered ?? a.duration > 0;
  const answer = answered ? a.start + (a.answerAfterMs ?? 2000) : null;
  return {
    call_id: a.callId,
    attempt: a.attempt ?? 1,
    is_final_attempt: a.final ?? true,
    start_time: new Date(a.start).toISOString(),
    answer_time: answer === null ? null : new Date(answer).toISOString(),
    end_time: new Date((answer ?? a.start + (a.failAfterMs ?? 4000)) + a.duration * 1000).toISOString(),
    duration: a.duration,
    ingress_trunk_id: a.ingressTrunk,
    egress_trunk_id: a.egressTrunk,
    source_ip: a.sourceIp,
    ani: a.ani ?? '15550001111',
    dnis: a.dnis ?? '447700900123',
    ...(a.egressDnis === undefined ? {} : { egress_dnis: a.egressDnis }),
    release_cause: a.releaseCause ?? (answered ? 200 : 486),
    release_side: a.releaseSide ?? (answered ? 'O' : 'T'),
    pdd_ms: a.pddMs ?? 900,
  };
}

/** Posts one batch with the switch key; fails the test unless the ingest took it. */
export async function postCdrs(
  key: string,
  cdrs: Record<string, unknown>[],
  batchPrefix = 'batch',
): Promise<{ stored: number; revenue: string }> {
  const res = await fetch(new URL('/api/switch/cdr', baseUrl()), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-switch-key': key },
    body: JSON.stringify({ batch_id: unique(batchPrefix), cdrs }),
  });
  const body = (await res.json()) as { success: boolean; payload: { stored: number; revenue: string } };
  expect(body.success, JSON.stringify(body)).toBe(true);
  return body.payload;
}

/**
 * A customer's own UK London (4420, country United Kingdom) route: an ingress trunk on a new rate table at `clientRate`, a
 * vendor with its trunk at `vendorRate`, and a switch key, with the engine settled.
 */
export async function londonRoute(
  token: string,
  carrierId: number,
  prefix: string,
  rates = { client: '0.0600', vendor: '0.0200' },
): Promise<{ ingressTrunk: number; sourceIp: string; vendorTrunk: number; key: string }> {
  const row = { code: '4420', code_name: 'UK London', country: 'United Kingdom' };
  const clientTable = await rateTableWith(token, `${prefix}_client`, [{ ...row, rate: rates.client }]);
  const vendorTable = await rateTableWith(token, `${prefix}_vendor`, [{ ...row, rate: rates.vendor }]);
  const sourceIp = randomIp();
  const ingress = await call(api.trunks.trunk.create, {
    token,
    body: {
      name: unique(`${prefix}_in`),
      carrier_id: carrierId,
      direction: 'ingress',
      rate_table_id: clientTable.id,
      hosts: [{ host_type: 'ip', host: sourceIp, port: null, netmask: 32 }],
    },
  });
  const vendor = await vendorWithTrunk(token, { rateTableId: vendorTable.id, ip: randomIp() });
  await engineSettled(token);
  const { key } = await call(api.routing.createSwitchKey, {
    token,
    body: { name: unique(`${prefix}_proxy`) },
  });
  return { ingressTrunk: ingress.object_id, sourceIp, vendorTrunk: vendor.trunkId, key };
}
