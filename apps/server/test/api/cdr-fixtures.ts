import type { api } from '@tandem/contract';
import type { z } from 'zod';
import { startHarness, type Harness } from './harness';
import { lcrOverVendors, rebuildAfter, switchKey, termination, type Fixture } from './routing-fixtures';

export type CdrBatchResult = z.output<typeof api.cdr.cdrBatchResult>;

let seq = 0;

/**
 * One CDR of the routing fixture's customer (trunk f.ingress) through vendor `vendor` (index into
 * f.vendors, null: refused before any vendor), answered for `duration` seconds (0: not answered).
 */
export function cdrOf(
  f: Fixture,
  opts: {
    dnis?: string;
    duration?: number;
    vendor?: number | null;
    start?: string;
    callId?: string;
    attempt?: number;
    final?: boolean;
  } = {},
): Record<string, unknown> {
  const duration = opts.duration ?? 60;
  const start = Date.parse(opts.start ?? '2026-11-20T10:00:00Z');
  const answer = duration > 0 ? start + 3000 : null;
  const end = (answer ?? start + 5000) + duration * 1000;
  const vendor = opts.vendor === undefined ? 1 : opts.vendor;
  return {
    call_id: opts.callId ?? `call-${++seq}-${Math.random().toString(36).slice(2, 8)}`,
    attempt: opts.attempt ?? 1,
    is_final_attempt: opts.final ?? true,
    start_time: new Date(start).toISOString(),
    answer_time: answer === null ? null : new Date(answer).toISOString(),
    end_time: new Date(end).toISOString(),
    duration,
    ingress_trunk_id: f.ingress,
    egress_trunk_id: vendor === null ? null : f.vendors[vendor]!.trunk,
    source_ip: '198.51.100.7',
    ani: '15550001111',
    dnis: opts.dnis ?? '447700900123',
    egress_dnis: opts.dnis ?? '447700900123',
    release_cause: duration > 0 ? 200 : 486,
    release_side: duration > 0 ? 'O' : 'T',
    pdd_ms: 1200,
  };
}

/** POST /api/switch/cdr with the switch key. */
export const sendCdrs = (h: Harness, key: string, batch_id: string, cdrs: unknown[]) =>
  h.call<CdrBatchResult>('POST', '/api/switch/cdr', {
    body: { batch_id, cdrs },
    headers: { 'x-switch-key': key },
  });

/**
 * The CDR tests' server: a harness (`env` for its configuration) with the first admin, a switch
 * key, the termination fixture routed LCR over its vendors, and the engine rebuilt with it.
 */
export async function cdrHarness(
  env: Record<string, string> = {},
): Promise<{ h: Harness; admin: string; key: string; f: Fixture }> {
  const h = await startHarness(env);
  const admin = await h.setupAdmin();
  const key = await switchKey(h, admin);
  const f = await termination(h);
  await lcrOverVendors(h, f);
  await rebuildAfter(h, admin);
  return { h, admin, key, f };
}
