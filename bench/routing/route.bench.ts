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
 */
import { configure, load, machine, routeBodies, settled, startServer } from './setup';

const COUNT = Number(process.env.BENCH_COUNT ?? 40000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);

async function run(label: string, databaseUrl: string | null) {
  const { built, base, token, dropDb } = await startServer(databaseUrl);
  try {
    const t0 = performance.now();
    const { key, sdf } = await configure(built, base, token, 'sdf');
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
    return {
      database: label,
      setup_ms: setupMs,
      snapshot: { rates: status.counts.rates, build_ms: status.build_ms, load_ms: status.load_ms },
      sample: { routed_share: routed / 500, mean_routes: routes / 500 },
      baseline_health: baseline,
      switch_route: route,
      ratio_to_baseline: Math.round((route.rps / baseline.rps) * 1000) / 1000,
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
