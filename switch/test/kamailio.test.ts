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
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
import { REJECT, toMicros } from '@tandem/domain';
import { moveBalances } from '../../apps/server/src/modules/cdr/ledger';
import { inviteOnce, Procs, run, startKamailio, waitForSip } from './sip';

const HERE = path.dirname(fileURLToPath(import.meta.url));
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
/** Scenario files written for this run. */
const scratch = mkdtempSync(path.join(os.tmpdir(), 'tandem-switch-test-'));

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

/**
 * sipp as the customer: `calls` calls to `dnis` at `rate` per second, each talking `talkMs`, at most
 * `limit` at once, from SIP port `port` (another one for calls placed beside a running sipp).
 */
function customerCalls(dnis: string, calls: number, rate = 10, talkMs = 1000, limit = 100, port = 5070) {
  return run('sipp', [
    `${PROXY.ip}:${PROXY.port}`,
    '-sf',
    path.join(SCENARIOS, 'uac.xml'),
    '-s',
    dnis,
    '-i',
    CUSTOMER_IP,
    '-p',
    String(port),
    '-m',
    String(calls),
    '-r',
    String(rate),
    '-d',
    String(talkMs),
    '-l',
    String(limit),
    '-nostdin',
    '-timeout',
    '60s',
    '-timeout_error',
  ]);
}

/**
 * Waits until Tandem counts no call up: the switch's calls-up report (every second) covers every call
 * routed so far and they all ended. A call routed less than a report ago still counts (the route API
 * cannot know it ended), so a test of a call limit starts from here, not from "the last call hung up".
 */
async function noCallsUp(timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await h.call('GET', '/api/monitoring/live_event', { token: admin });
    const total = (r.body as { payload: { calls: { total: number } } }).payload.calls.total;
    if (total === 0) return;
    if (Date.now() > until) throw new Error(`${total} calls still up after ${timeoutMs} ms`);
    await sleep(200);
  }
}

async function balanceOf(carrierId: number): Promise<string> {
  const r = await sql<{
    b: string;
  }>`SELECT balance::text AS b FROM carriers WHERE client_id = ${carrierId}`.execute(db());
  return r.rows[0]!.b;
}

/** Tandem stops answering (its port closes), as when the server is down. */
async function stopTandem(): Promise<void> {
  const server = h.built.app.server;
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Tandem is back on the same port. */
async function startTandem(): Promise<void> {
  await new Promise<void>((resolve) => h.built.app.server.listen(port, '127.0.0.1', () => resolve()));
}

/** What each vendor address runs now ('uas' answers, a code answers every call with it). */
const vendorRuns = new Map<string, string>();

/** Vendor sipp on `ip`: 'uas' answers every call; `{ code, reason }` refuses every call with it. */
async function vendor(ip: string, scenario: 'uas' | { code: number; reason: string }): Promise<void> {
  const name = typeof scenario === 'string' ? scenario : `${scenario.code} ${scenario.reason}`;
  if (vendorRuns.get(ip) === name) return;
  await procs.stop(`vendor-${ip}`);
  let file = path.join(SCENARIOS, 'uas.xml');
  if (typeof scenario !== 'string') {
    file = path.join(scratch, `uas-${scenario.code}.xml`);
    const template = readFileSync(path.join(SCENARIOS, 'uas-fail.xml'), 'utf8');
    writeFileSync(
      file,
      template.replaceAll('%CODE%', String(scenario.code)).replaceAll('%REASON%', scenario.reason),
    );
  }
  const p = procs.start(`vendor-${ip}`, 'sipp', ['-sf', file, '-i', ip, '-p', '5060', '-nostdin']);
  await sleep(300);
  if (p.exitCode !== null) throw new Error(`vendor sipp on ${ip} ended: ${procs.output(`vendor-${ip}`)}`);
  vendorRuns.set(ip, name);
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
  startKamailio(procs, 'kamailio', {
    tandemPort: port,
    key,
    listen: `udp:${PROXY.ip}:${PROXY.port}`,
    defines: ['SWITCH_NAME="test"', 'WORKERS=4'],
  });
  await waitForSip(PROXY);
}, 60_000);

afterAll(async () => {
  if (process.env.SWITCH_LOG) writeFileSync(process.env.SWITCH_LOG, procs.output('kamailio', 200_000));
  await procs.stopAll();
  rmSync(scratch, { recursive: true, force: true });
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
    await vendor(VENDOR_IPS[1]!, 'uas');
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
    await vendor(VENDOR_IPS[0]!, { code: 503, reason: 'Service Unavailable' });
    await vendor(VENDOR_IPS[1]!, 'uas');
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

  it("follows the vendor trunk's failover rules in the route answer: a code to return is not retried, a code to fail over on is", async () => {
    // USA: vendor A first, then B. Vendor A's trunk sends a 503 back to the caller as 480 with a
    // clause of its own, and fails over on 486 (which the built-in rule sends back)
    const a = f.vendors[0]!.trunk;
    await db()
      .updateTable('trunks')
      .set({
        failover_rules: JSON.stringify([
          { sip_code: 503, action: 'return', return_code: 480, return_clause: 'Vendor Unavailable' },
          { sip_code: 486, action: 'next' },
        ]),
      })
      .where('trunk_id', '=', a)
      .execute();
    await rebuildAfter(h, admin);
    try {
      await vendor(VENDOR_IPS[0]!, { code: 503, reason: 'Service Unavailable' });
      await vendor(VENDOR_IPS[1]!, 'uas');
      const refused = await inviteOnce(CUSTOMER_IP, PROXY, '15552000001');
      expect(refused).toEqual({ code: 480, reason: 'Vendor Unavailable' });
      await cdrsFor('15552000001', 1);
      await sleep(1500); // a second attempt's CDR would be here by now
      const one = await cdrsFor('15552000001', 2, 0);
      expect(one.map((c) => [c.attempt, c.egress_trunk_id, c.release_cause, c.is_final_attempt])).toEqual([
        [1, a, 503, true],
      ]);

      await vendor(VENDOR_IPS[0]!, { code: 486, reason: 'Busy Here' });
      const r = await customerCalls('15552000002', 2, 2, 300);
      expect(r.code, r.out.slice(-3000)).toBe(0);
      const rows = await cdrsFor('15552000002', 4);
      const calls = new Map<string, typeof rows>();
      for (const c of rows) calls.set(c.call_id, [...(calls.get(c.call_id) ?? []), c]);
      expect(calls.size).toBe(2);
      for (const attempts of calls.values())
        expect(
          attempts.map((c) => [
            c.attempt,
            c.egress_trunk_id,
            c.release_cause,
            c.release_side,
            c.is_final_attempt,
          ]),
        ).toEqual([
          [1, a, 486, 'T', false],
          [2, f.vendors[1]!.trunk, 200, 'O', true],
        ]);
    } finally {
      await db().updateTable('trunks').set({ failover_rules: '[]' }).where('trunk_id', '=', a).execute();
      await rebuildAfter(h, admin);
    }
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

  it('refuses a blocked number with the code configured for it, and the call has its CDR', async () => {
    const post = (p: string, body: unknown, method = 'POST') =>
      h.call(method, `/api${p}`, { token: admin, body });
    expect(
      (await post('/routing/block_list/create', { field: 'dnis', match: 'prefix', number: '447999' })).body,
    ).toMatchObject({ success: true });
    expect(
      (
        await post(
          '/routing/default_error_response',
          { responses: [{ reason: 'dnis_blocked', code: 603, clause: 'Declined' }] },
          'PUT',
        )
      ).body,
    ).toMatchObject({ success: true });
    await rebuildAfter(h, admin);
    const blocked = await inviteOnce(CUSTOMER_IP, PROXY, '447999000001');
    expect(blocked).toEqual({ code: 603, reason: 'Declined' });
    const rows = await cdrsFor('447999000001', 1);
    expect(rows[0]).toMatchObject({ egress_trunk_id: null, release_cause: 603, release_side: 'S' });
    // a number beside it still goes through
    await vendor(VENDOR_IPS[1]!, 'uas');
    const r = await customerCalls('447998000001', 1, 1, 200);
    expect(r.code, r.out.slice(-3000)).toBe(0);
  });

  it("holds the customer trunk's call limit: with two calls up a third is refused, then fits once one ended", async () => {
    await vendor(VENDOR_IPS[1]!, 'uas');
    await db().updateTable('trunks').set({ call_limit: 2 }).where('trunk_id', '=', f.ingress).execute();
    await rebuildAfter(h, admin);
    await noCallsUp();
    try {
      const long = customerCalls('447733000001', 2, 10, 7000); // two calls of 7 s
      // both up; past the 3 s the route API counts a routed call on its own, so only Kamailio's
      // calls-up reports (every second) hold them now
      await sleep(4000);
      const third = await inviteOnce(CUSTOMER_IP, PROXY, '447733000002');
      const expected = REJECT.TRUNK_CALL_LIMIT;
      expect(third.code).toBe(expected.code);
      const r = await long;
      expect(r.code, r.out.slice(-3000)).toBe(0);
      await noCallsUp(); // the report after they ended
      const after = await customerCalls('447733000003', 1, 1, 200);
      expect(after.code, after.out.slice(-3000)).toBe(0);
      const rows = await cdrsFor('44773300000', 4);
      expect(rows.map((c) => [c.dnis, c.release_cause]).sort()).toEqual([
        ['447733000001', 200],
        ['447733000001', 200],
        ['447733000002', expected.code],
        ['447733000003', 200],
      ]);
    } finally {
      await db().updateTable('trunks').set({ call_limit: null }).where('trunk_id', '=', f.ingress).execute();
      await rebuildAfter(h, admin);
    }
  });

  it("holds a vendor trunk's call limit: with two calls up on vendor B, the next call goes to vendor A", async () => {
    // UK: vendor B is the cheaper; its trunk takes two calls at once
    await vendor(VENDOR_IPS[0]!, 'uas');
    await vendor(VENDOR_IPS[1]!, 'uas');
    const b = f.vendors[1]!.trunk;
    await db().updateTable('trunks').set({ call_limit: 2 }).where('trunk_id', '=', b).execute();
    await rebuildAfter(h, admin);
    await noCallsUp();
    try {
      const long = customerCalls('447744000001', 2, 10, 7000);
      await sleep(4000); // reported by Kamailio, as above
      const third = await customerCalls('447744000002', 1, 1, 300, 1, 5071);
      expect(third.code, third.out.slice(-3000)).toBe(0);
      const r = await long;
      expect(r.code, r.out.slice(-3000)).toBe(0);
      const rows = await cdrsFor('44774400000', 3);
      expect(rows.map((c) => [c.dnis, c.egress_trunk_id, c.release_cause]).sort()).toEqual(
        [
          ['447744000001', b, 200],
          ['447744000001', b, 200],
          ['447744000002', f.vendors[0]!.trunk, 200],
        ].sort(),
      );
    } finally {
      await db().updateTable('trunks').set({ call_limit: null }).where('trunk_id', '=', b).execute();
      await rebuildAfter(h, admin);
    }
  });

  it('stops calls cleanly while Tandem is down, and the spooled CDRs arrive once when it is back', async () => {
    await vendor(VENDOR_IPS[1]!, 'uas');
    const calls = customerCalls('447711000001', 4, 4, 3000);
    await sleep(1500); // the four calls are up
    await stopTandem();
    const t0 = Date.now();
    const refused = await inviteOnce(CUSTOMER_IP, PROXY, '447711000002');
    expect(refused.code).toBe(503);
    expect(Date.now() - t0).toBeLessThan(3000);
    const r = await calls; // they end while Tandem is down: their CDRs wait in the spool
    expect(r.code, r.out.slice(-3000)).toBe(0);
    await sleep(2500); // a few failed flushes
    expect(await cdrsFor('447711000001', 4, 0)).toHaveLength(0);
    await startTandem();
    const rows = await cdrsFor('447711000001', 4);
    expect(rows).toHaveLength(4);
    await sleep(2000); // any batch sent again is a duplicate, not a second bill
    expect(await cdrsFor('447711000001', 5, 0)).toHaveLength(4);
    // billed once: the customer's usage in the ledger is exactly what its CDRs cost
    const r2 = await sql<{ usage: string; cost: string }>`
      SELECT (SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE client_id = ${f.customer} AND kind = 'usage')::text AS usage,
             (SELECT COALESCE(SUM(ingress_client_cost), 0) FROM cdrs WHERE ingress_trunk_id = ${f.ingress})::text AS cost`.execute(
      db(),
    );
    expect(toMicros(r2.rows[0]!.usage)).toBe(-toMicros(r2.rows[0]!.cost));
    await balancesMatchLedger();
  });

  it("a prepaid customer's calls stop when its credit is spent, and no call costs more than it had", async () => {
    // Germany at 6.00 a minute (0.10 a second) for the customer; 0.50 of credit buys 5 seconds
    await db()
      .insertInto('rates')
      .values([
        {
          rate_table_id: f.customerTable,
          code: '49',
          rate: '6.0000',
          code_name: 'DE',
          country: '',
          effective_date: new Date('2020-01-01T00:00:00Z'),
        },
        ...f.vendors.map((v) => ({
          rate_table_id: v.table,
          code: '49',
          rate: '3.0000',
          code_name: 'DE',
          country: '',
          effective_date: new Date('2020-01-01T00:00:00Z'),
        })),
      ])
      .execute();
    const before = await balanceOf(f.customer);
    await db()
      .updateTable('carriers')
      .set({ mode: 'prepaid', credit_limit: '0', allowed_credit: '0' })
      .where('client_id', '=', f.customer)
      .execute();
    await db()
      .transaction()
      .execute(async (trx) => {
        await moveBalances(trx, [
          {
            client_id: f.customer,
            kind: 'adjustment',
            ref: 'switch-test-topup',
            amount: toMicros('0.5') - toMicros(before),
          },
        ]);
      });
    await rebuildAfter(h, admin);
    expect(await balanceOf(f.customer)).toBe('0.500000');
    // ten calls one after the other, each wanting 2 seconds: 2.00 of calls against 0.50
    await customerCalls('4930123456', 10, 2, 2000, 1);
    await sleep(2500);
    // a call refused while an earlier call's hold was still on the credit may leave a second's
    // worth unspent: the customer calls again until the credit is gone
    for (let i = 0; i < 3 && toMicros(await balanceOf(f.customer)) >= toMicros('0.1'); i++) {
      await customerCalls('4930123456', 2, 1, 2000, 1);
      await sleep(2500);
    }
    const rows = await cdrsFor('4930', 1);
    const answered = rows.filter((c) => c.answer_time !== null);
    expect(answered.length).toBeGreaterThan(0);
    const spent = rows.reduce((sum, c) => sum + toMicros(String(c.ingress_client_cost)), 0n);
    const after = toMicros(await balanceOf(f.customer));
    expect(after).toBeGreaterThanOrEqual(0n);
    expect(after).toBeLessThan(toMicros('0.1')); // not even one more billed second
    expect(spent).toBe(toMicros('0.5') - after);
    const last = (await switchRoute(h, customerCall('4930123456', { source_ip: CUSTOMER_IP }), key)).body
      .payload;
    expect(last.reject_reason).toBe('insufficient_balance');
    await balancesMatchLedger();
  });

  it('numbers its CDR batches 1, 2, 3, ... (ids stay short however long the switch runs)', async () => {
    const r = await sql<{ batch_id: string }>`SELECT batch_id FROM cdr_batches`.execute(db());
    const seqs = r.rows.map((row) => {
      const m = /^test-\d+-\d+-(\d+)$/.exec(row.batch_id);
      expect(m, row.batch_id).not.toBeNull();
      return Number(m![1]);
    });
    expect(seqs.length).toBeGreaterThan(10);
    // every batch this run sent is here, numbered from 1 without gaps
    expect(seqs.sort((a, b) => a - b)).toEqual(seqs.map((_, i) => i + 1));
  });
});
