/**
 * Calls per second through Kamailio (switch/kamailio/kamailio.cfg) + Tandem, and the delay Tandem
 * adds per call, against a same-run baseline: the same Kamailio relaying straight to the vendor
 * without the route call (-A BENCH_DIRECT_TO). sipp places calls (INVITE, 200, ACK, BYE; no talk
 * time) at rising rates for 10 seconds each, the two modes alternating at each rate; per rate and
 * mode: calls made, failed, the INVITE-to-200 time (median and p99 from sipp's per-call trace).
 * Tandem runs in this process on PostgreSQL (DATABASE_URL, default the local server; a fresh
 * database), as the switch test does. Needs kamailio and sipp (npm run test:switch installs them).
 *
 *   npx tsx bench/switch/cps.ts [rates, e.g. 100,250,500,750,1000] [seconds per step]
 * Env BENCH_WORKERS: Kamailio's worker processes (default 8, as the reference configuration).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { startHarness } from '../../apps/server/test/api/harness';
import {
  lcrOverVendors,
  rebuildAfter,
  switchKey,
  termination,
} from '../../apps/server/test/api/routing-fixtures';
import { Procs, run, startKamailio, waitForSip } from '../../switch/test/sip';

process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
const here = import.meta.dirname;
const SCEN = path.join(here, '../../switch/test/scenarios');
const rates = (process.argv[2] ?? '100,250,500,750,1000').split(',').map(Number);
const seconds = Number(process.argv[3] ?? 10);

const procs = new Procs();
const h = await startHarness();
try {
  const admin = await h.setupAdmin();
  await h.built.app.listen({ host: '127.0.0.1', port: 0 });
  const port = (h.built.app.server.address() as AddressInfo).port;
  const db = h.built.services.db;
  const f = await termination(h);
  await db
    .updateTable('trunk_hosts')
    .set({ host: '127.0.0.2', netmask: 32 })
    .where('trunk_id', '=', f.ingress)
    .execute();
  // vendor B only (cheapest for the UK), the same vendor the baseline relays to
  await db
    .updateTable('trunk_hosts')
    .set({ host: '127.0.0.4', port: 5060 })
    .where('trunk_id', '=', f.vendors[1]!.trunk)
    .execute();
  await db
    .updateTable('trunk_hosts')
    .set({ host: '127.0.0.3', port: 5060 })
    .where('trunk_id', '=', f.vendors[0]!.trunk)
    .execute();
  await db
    .updateTable('carriers')
    .set({ unlimited_credit: true } as never)
    .where('client_id', '=', f.customer)
    .execute();
  await lcrOverVendors(h, f);
  const key = await switchKey(h, admin);
  await rebuildAfter(h, admin);

  const kamailio = (name: string, listen: number, extra: string[]) =>
    startKamailio(procs, name, {
      tandemPort: port,
      key,
      listen: `udp:127.0.0.1:${listen}`,
      defines: [`WORKERS=${process.env.BENCH_WORKERS ?? 8}`, ...extra],
    });
  kamailio('tandem', 5260, []);
  kamailio('direct', 5261, ['BENCH_DIRECT_TO="sip:447700900123@127.0.0.4:5060"']);
  procs.start('vendor', 'sipp', [
    '-sf',
    path.join(SCEN, 'uas.xml'),
    '-i',
    '127.0.0.4',
    '-p',
    '5060',
    '-nostdin',
    '-max_socket',
    '60000',
  ]);
  await waitForSip({ ip: '127.0.0.1', port: 5260 });
  await waitForSip({ ip: '127.0.0.1', port: 5261 });

  const results: Record<string, unknown>[] = [];
  for (const rate of rates) {
    for (const [mode, listen] of [
      ['direct', 5261],
      ['tandem', 5260],
    ] as const) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-sipp-'));
      const calls = rate * seconds;
      const t0 = Date.now();
      const r = await run(
        'sh',
        [
          '-c',
          [
            `cd ${dir} &&`,
            'sipp',
            `127.0.0.1:${listen}`,
            '-sf',
            path.join(SCEN, 'uac.xml'),
            '-s',
            '447700900123',
            '-i',
            '127.0.0.2',
            '-p',
            '5070',
            '-m',
            String(calls),
            '-r',
            String(rate),
            '-d',
            '0',
            '-l',
            String(rate * 4),
            '-nostdin',
            '-timeout',
            `${seconds * 4}s`,
            '-trace_rtt',
            '-rtt_freq',
            '1',
            '-trace_stat',
          ].join(' '),
        ],
        seconds * 6000,
      );
      const took = (Date.now() - t0) / 1000;
      const ok = Number(/Successful call\s+\|\s+\d+\s+\|\s+(\d+)/.exec(r.out)?.[1] ?? 0);
      const failed = Number(/Failed call\s+\|\s+\d+\s+\|\s+(\d+)/.exec(r.out)?.[1] ?? 0);
      const rttFile = fs.readdirSync(dir).find((x) => x.endsWith('_rtt.csv'));
      // sipp's RTT file: a header (Date_ms;response_time_ms;rtd_no), then one line per call
      const rttLines = rttFile ? fs.readFileSync(path.join(dir, rttFile), 'utf8').split('\n') : [];
      const rttCol = (rttLines[0] ?? '').split(';').findIndex((h) => h.startsWith('response_time'));
      if (rttFile && rttCol < 0) throw new Error(`no response time column in sipp's ${rttLines[0]}`);
      const rtts = rttLines
        .slice(1)
        .filter((l) => l.trim() !== '')
        .map((l) => Number(l.split(';')[rttCol]))
        .filter((x) => Number.isFinite(x))
        .sort((a, b) => a - b);
      const q = (p: number) =>
        rtts.length ? rtts[Math.min(rtts.length - 1, Math.floor(p * rtts.length))]! : null;
      const row = {
        rate,
        mode,
        calls,
        ok,
        failed,
        achieved_cps: +(ok / took).toFixed(0),
        setup_ms_p50: q(0.5),
        setup_ms_p99: q(0.99),
      };
      results.push(row);
      if (!ok) console.error(`sipp ${mode} at ${rate}/s made no call:\n${r.out.slice(-1500)}`);
      console.log(JSON.stringify(row));
      fs.rmSync(dir, { recursive: true, force: true });
      await new Promise((res) => setTimeout(res, 3000)); // let the vendor's timewaits end
    }
  }
  const stored = await db
    .selectFrom('cdrs')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  console.log(JSON.stringify({ cdrs_stored: Number(stored.n), cpus: os.cpus().length }));
  if (process.env.SWITCH_LOG) fs.writeFileSync(process.env.SWITCH_LOG, procs.output('tandem', 400_000));
} finally {
  await procs.stopAll();
  await h.close();
}
