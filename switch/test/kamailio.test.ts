/**
 * The reference Kamailio configuration (switch/kamailio/kamailio.cfg) against a real Tandem server on
 * PostgreSQL, with sipp as the customer and the vendors on loopback addresses: 127.0.0.2 is the
 * customer, 127.0.0.3 vendor A, 127.0.0.4 vendor B, 127.0.0.9 a stranger. Each scenario places calls
 * through Kamailio and then checks what Tandem recorded. Run by `npm run test:switch`
 * (scripts/test-switch.sh installs Kamailio and sipp when missing).
 */
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../apps/server/test/api/harness';
import {
  customerCall,
  lcrOverVendors,
  rebuildAfter,
  switchKey,
  switchRoute,
  termination,
  type Fixture,
} from '../../apps/server/test/api/routing-fixtures';
import { inviteOnce, Procs, run, waitForSip } from './sip';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CFG = path.join(HERE, '../kamailio/kamailio.cfg');
const SCENARIOS = path.join(HERE, 'scenarios');
const PROXY = { ip: '127.0.0.1', port: 5260 };
const CUSTOMER_IP = '127.0.0.2';
const VENDOR_IPS = ['127.0.0.3', '127.0.0.4'];

let h: Harness;
let admin: string;
let key: string;
let f: Fixture;
let port: number;
const procs = new Procs();

const db = () => h.built.services.db;

async function sleep(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

/** Rows of the CDRs whose DNIS starts with `prefix`, once `count` of them are stored. */
async function cdrsFor(prefix: string, count: number, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const rows = await db()
      .selectFrom('cdrs')
      .selectAll()
      .where('dnis', 'like', `${prefix}%`)
      .orderBy('call_id')
      .orderBy('attempt')
      .execute();
    if (rows.length >= count || Date.now() > until) return rows;
    await sleep(250);
  }
}

function startKamailio(): void {
  const runDir = mkdtempSync(path.join(os.tmpdir(), 'tandem-kamailio-'));
  procs.start(
    'kamailio',
    'kamailio',
    [
      '-f',
      CFG,
      '-DD',
      '-E',
      '-Y',
      runDir,
      '-A',
      `TANDEM_URL="http://127.0.0.1:${port}"`,
      '-A',
      `SWITCH_KEY="${key}"`,
      '-A',
      `LISTEN_ADDR=udp:${PROXY.ip}:${PROXY.port}`,
      '-A',
      'SWITCH_NAME="test"',
      '-A',
      'WORKERS=4',
    ],
    { ...process.env, TZ: 'UTC' },
  );
}

/** sipp as the customer: `calls` calls to `dnis` at `rate` per second, each talking `talkMs`. */
function customerCalls(dnis: string, calls: number, rate = 10, talkMs = 1000) {
  return run('sipp', [
    `${PROXY.ip}:${PROXY.port}`,
    '-sf',
    path.join(SCENARIOS, 'uac.xml'),
    '-s',
    dnis,
    '-i',
    CUSTOMER_IP,
    '-p',
    '5070',
    '-m',
    String(calls),
    '-r',
    String(rate),
    '-d',
    String(talkMs),
    '-nostdin',
    '-timeout',
    '60s',
    '-timeout_error',
  ]);
}

function vendor(ip: string, scenario: 'uas' | 'uas-503'): void {
  const args = ['-sf', path.join(SCENARIOS, `${scenario}.xml`)];
  procs.start(`vendor-${ip}`, 'sipp', [...args, '-i', ip, '-p', '5060', '-nostdin']);
}

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  await h.built.app.listen({ host: '127.0.0.1', port: 0 });
  port = (h.built.app.server.address() as AddressInfo).port;
  f = await termination(h);
  await db()
    .updateTable('trunk_hosts')
    .set({ host: CUSTOMER_IP, netmask: 32 })
    .where('trunk_id', '=', f.ingress)
    .execute();
  for (const [i, v] of f.vendors.entries())
    await db()
      .updateTable('trunk_hosts')
      .set({ host: VENDOR_IPS[i]!, port: 5060 })
      .where('trunk_id', '=', v.trunk)
      .execute();
  await lcrOverVendors(h, f);
  key = await switchKey(h, admin);
  await rebuildAfter(h, admin);
  startKamailio();
  await waitForSip(PROXY);
}, 60_000);

afterAll(async () => {
  if (process.env.SWITCH_LOG) writeFileSync(process.env.SWITCH_LOG, procs.output('kamailio', 200_000));
  await procs.stopAll();
  await h?.close();
});

/** Each carrier's balance equals its opening plus its ledger rows (money moved once). */
async function balancesMatchLedger(): Promise<void> {
  const r = await sql<{ client_id: number; balance: string; ledger: string }>`
    SELECT c.client_id, c.balance::text AS balance,
           COALESCE((SELECT SUM(l.amount) FROM ledger l WHERE l.client_id = c.client_id), 0)::text AS ledger
    FROM carriers c`.execute(db());
  for (const row of r.rows)
    expect(Number(row.balance), `carrier ${row.client_id}`).toBeCloseTo(Number(row.ledger), 6);
}

describe('Kamailio with the reference configuration, Tandem and sipp', () => {
  it("LCR: a customer's calls reach the cheapest vendor and come back as CDRs rated on both legs", async () => {
    // UK: vendor B (0.0250) is cheaper than A (0.0300)
    vendor(VENDOR_IPS[1]!, 'uas');
    await sleep(300);
    const r = await customerCalls('447700900123', 10, 10, 1000);
    expect(r.code, r.out.slice(-3000)).toBe(0);
    const rows = await cdrsFor('4477', 10);
    expect(rows).toHaveLength(10);
    for (const c of rows) {
      expect(c).toMatchObject({
        ingress_trunk_id: f.ingress,
        egress_trunk_id: f.vendors[1]!.trunk,
        egress_host: VENDOR_IPS[1],
        source_ip: CUSTOMER_IP,
        ani: '15550001111',
        attempt: 1,
        is_final_attempt: true,
        release_cause: 200,
        release_side: 'O',
        unpriced_reason: null,
      });
      expect(c.answer_time).not.toBeNull();
      expect(c.call_duration).toBeGreaterThanOrEqual(0);
      expect(c.call_duration).toBeLessThanOrEqual(2);
      expect(Number(c.ingress_rate)).toBe(0.05);
      expect(Number(c.egress_rate)).toBe(0.025);
      expect(c.pdd).toBeGreaterThanOrEqual(0);
    }
    await balancesMatchLedger();
  });

  it('fails over: vendor A answers 503, the call goes on to vendor B; two attempts, two CDRs', async () => {
    // USA: vendor A (0.0100) is cheaper than B (0.0150), but A refuses every call
    vendor(VENDOR_IPS[0]!, 'uas-503');
    await sleep(300);
    const r = await customerCalls('15551234567', 5, 5, 500);
    expect(r.code, r.out.slice(-3000)).toBe(0);
    const rows = await cdrsFor('1555', 10);
    expect(rows).toHaveLength(10);
    const calls = new Map<string, typeof rows>();
    for (const c of rows) calls.set(c.call_id, [...(calls.get(c.call_id) ?? []), c]);
    expect(calls.size).toBe(5);
    for (const attempts of calls.values()) {
      expect(
        attempts.map((a) => [
          a.attempt,
          a.egress_trunk_id,
          a.release_cause,
          a.release_side,
          a.is_final_attempt,
        ]),
      ).toEqual([
        [1, f.vendors[0]!.trunk, 503, 'T', false],
        [2, f.vendors[1]!.trunk, 200, 'O', true],
      ]);
      expect(attempts[0]!.answer_time).toBeNull();
      expect(Number(attempts[1]!.egress_rate)).toBe(0.015);
    }
    await balancesMatchLedger();
  });

  it('refuses an unknown source IP and a number without a rate with the codes the route API gives', async () => {
    const stranger = await inviteOnce('127.0.0.9', PROXY, '447700900123');
    const expected = (await switchRoute(h, customerCall('447700900123', { source_ip: '127.0.0.9' }), key))
      .body.payload;
    expect(expected.result).toBe('reject');
    expect(stranger.code).toBe(expected.reject_code);

    const noRate = await inviteOnce(CUSTOMER_IP, PROXY, '999123');
    const ans = (await switchRoute(h, customerCall('999123', { source_ip: CUSTOMER_IP }), key)).body.payload;
    expect(ans.result).toBe('reject');
    expect(noRate.code).toBe(ans.reject_code);
    // the known customer's refused call has its CDR (no vendor tried)
    const rows = await cdrsFor('999123', 1);
    expect(rows[0]).toMatchObject({
      egress_trunk_id: null,
      release_cause: ans.reject_code,
      release_side: 'S',
    });
  });
});
