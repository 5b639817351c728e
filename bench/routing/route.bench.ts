/**
 * POST /api/switch/route over HTTP on loopback: the call a SIP proxy makes for every new call,
 * against GET /api/health of the same server measured just before (the same-run baseline). The
 * configuration is realistic (setup.ts): the SDF deck as the customer's rate table and as 10 vendor
 * tables, an LCR dynamic route over the 10 vendors. The load comes from a second process
 * (bench/http/load.ts), bounded in count and time. Runs on PGlite, and on PostgreSQL when
 * DATABASE_URL is set (the route API reads no database: the figures should match).
 *
 *   npx tsx bench/routing/route.bench.ts
 * Env: BENCH_COUNT (default 40000), BENCH_SECONDS (8), BENCH_CONNECTIONS (8).
 * Target: at least 5,000 answers per second with p99 under 5 ms.
 *
 * Then loop detection (issue 15) off and on alternately, 3 rounds of half the load each: a loop
 * rule on the customer's ingress trunk (every call counted per ANI and DNIS; the limit high enough
 * that none is refused), with 50 active fraud blocks on other trunks throughout.
 */
import { configure, load, machine, routeBodies, settled, startServer } from './setup';

const COUNT = Number(process.env.BENCH_COUNT ?? 40000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);

async function run(label: string, databaseUrl: string | null) {
  const { built, base, token, dropDb } = await startServer(databaseUrl);
  try {
    const t0 = performance.now();
    const { key, sdf, ingress } = await configure(built, base, token, 'sdf');
    const status = await settled(base, token);
    const setupMs = Math.round(performance.now() - t0);
    const bodies = routeBodies(
      sdf.map((d) => d.code),
      5000,
    );
    const headers = { 'x-switch-key': key };
    // What the answers look like (share routed, routes per answer), from a sample.
    let routed = 0;
    let routes = 0;
    for (const b of bodies.slice(0, 500)) {
      const r = (await fetch(`${base}/switch/route`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(b),
      }).then((x) => x.json())) as { payload: { result: string; routes: unknown[] } };
      if (r.payload.result === 'route') routed++;
      routes += r.payload.routes.length;
    }
    await load(`${base}/health`, COUNT / 4, SECONDS / 2, CONNECTIONS); // warm-up
    const baseline = await load(`${base}/health`, COUNT, SECONDS, CONNECTIONS);
    await load(`${base}/switch/route`, COUNT / 4, SECONDS / 2, CONNECTIONS, { bodies, headers }); // warm-up
    const route = await load(`${base}/switch/route`, COUNT, SECONDS, CONNECTIONS, { bodies, headers });

    // Monitoring on: a loop rule over the ingress trunk, 50 blocks of other trunks.
    const res = await fetch(`${base}/monitoring/loop_detection/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-auth-token': token },
      body: JSON.stringify({
        rule_name: 'Bench loops',
        trunk_ids: [ingress],
        max_calls: 100_000,
        window_seconds: 10,
        block_seconds: 60,
      }),
    });
    if (!res.ok) throw new Error(`loop rule: ${res.status} ${await res.text()}`);
    await built.services.db
      .insertInto('monitoring_blocks')
      .values(
        Array.from({ length: 50 }, (_, i) => ({
          rule_kind: 'fraud' as const,
          rule_id: null,
          rule_name: 'bench',
          subject: `trunk:${100_000 + i}`,
          side: 'ingress' as const,
          trunk_id: 100_000 + i,
        })),
      )
      .execute();
    const ruleId = ((await res.json()) as { payload: { object_id: number } }).payload.object_id;
    // Loop detection off and on alternately (same load each way on a busy machine): 3 rounds.
    const toggle = async (on: boolean) => {
      await fetch(`${base}/monitoring/loop_detection/${ruleId}/${on ? 'activate' : 'deactivate'}`, {
        method: 'PATCH',
        headers: { 'x-auth-token': token },
      });
      await new Promise((r) => setTimeout(r, 1500)); // the monitoring sync (every second)
    };
    const rounds: { off: Awaited<ReturnType<typeof load>>; on: Awaited<ReturnType<typeof load>> }[] = [];
    for (let k = 0; k < 3; k++) {
      await toggle(false);
      const off = await load(`${base}/switch/route`, COUNT / 2, SECONDS / 2, CONNECTIONS, {
        bodies,
        headers,
      });
      await toggle(true);
      const on = await load(`${base}/switch/route`, COUNT / 2, SECONDS / 2, CONNECTIONS, { bodies, headers });
      rounds.push({ off, on });
    }
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
    const monitored = {
      loop_off_rps: rounds.map((r) => Math.round(r.off.rps)),
      loop_on_rps: rounds.map((r) => Math.round(r.on.rps)),
      loop_off_p99_ms: rounds.map((r) => Math.round(r.off.p99_ms * 100) / 100),
      loop_on_p99_ms: rounds.map((r) => Math.round(r.on.p99_ms * 100) / 100),
      median_ratio_on_to_off:
        Math.round((med(rounds.map((r) => r.on.rps)) / med(rounds.map((r) => r.off.rps))) * 1000) / 1000,
    };
    return {
      database: label,
      setup_ms: setupMs,
      snapshot: { rates: status.counts.rates, build_ms: status.build_ms, load_ms: status.load_ms },
      sample: { routed_share: routed / 500, mean_routes: routes / 500 },
      baseline_health: baseline,
      switch_route: route,
      ratio_to_baseline: Math.round((route.rps / baseline.rps) * 1000) / 1000,
      loop_detection_rounds: monitored,
      meets_target: route.rps >= 5000 && route.p99_ms < 5 && route.failed === 0,
    };
  } finally {
    await built.close();
    await dropDb();
  }
}

const results = [await run('pglite', null)];
if (process.env.DATABASE_URL) results.push(await run('postgresql', process.env.DATABASE_URL));
console.log(
  JSON.stringify(
    { bench: 'POST /api/switch/route', machine: machine(), connections: CONNECTIONS, results },
    null,
    2,
  ),
);
