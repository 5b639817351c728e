/**
 * Snapshot rebuild after one rate change with 700,000 codes loaded, answers served throughout.
 *
 * Configuration (setup.ts): the customer's rate table is a generated US NPA-NXX deck of 700,000
 * codes; 10 vendors carry the SDF deck (about 27,500 codes each): about 975,000 rate rows. After the
 * first (full) load, one rate of the customer's table is changed in the database and the change is
 * signalled as every writer does (configChanged). The snapshot service then reads only the changed
 * row (rate_changes) and rebuilds the snapshot while route calls keep coming from a second process.
 *
 * Reported: the rebuild time (signal to new snapshot in service, with its load and build parts), the
 * route latency while it ran (max, p99) against the same load without a rebuild (the baseline), and
 * that the new rate is in the answers afterwards. A value-only change is patched into the snapshot
 * in service (domain patchRateRows); for comparison a structural change (a new code) follows: one
 * row read, the whole snapshot built. Runs on PGlite, and on PostgreSQL when
 * DATABASE_URL is set.
 *
 *   npx tsx bench/routing/rebuild.bench.ts        Target: rebuild under 2 s, answers throughout.
 */
import { sql } from 'kysely';
import { configure, load, machine, routeBodies, settled, startServer, usCodes } from './setup';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);

async function run(label: string, databaseUrl: string | null) {
  const { built, base, token, dropDb } = await startServer(databaseUrl);
  try {
    const t0 = performance.now();
    const { key, customerTable } = await configure(built, base, token, 'us700k');
    const first = await settled(base, token);
    const setupMs = Math.round(performance.now() - t0);
    const bodies = routeBodies(usCodes(), 5000);
    const headers = { 'x-switch-key': key };
    const route = (dnis: string) =>
      fetch(`${base}/switch/route`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ source_ip: '198.51.100.7', ani: '15550001111', dnis }),
      }).then(
        (r) =>
          r.json() as Promise<{
            payload: { result: string; ingress: { rate: string; code: string } | null };
          }>,
      );

    await load(`${base}/switch/route`, 1e9, 2, CONNECTIONS, { bodies, headers }); // warm-up
    const baseline = await load(`${base}/switch/route`, 1e9, SECONDS, CONNECTIONS, { bodies, headers });

    // The row to change: the code the probe number matches in the customer's table.
    const probe = '12125551234';
    const before = await route(probe);
    const code = before.payload.ingress?.code ?? '1212555';
    const db = built.services.db;
    const during = load(`${base}/switch/route`, 1e9, SECONDS, CONNECTIONS, { bodies, headers });
    await new Promise((r) => setTimeout(r, (SECONDS * 1000) / 3));
    await sql`UPDATE rates SET rate = 0.0777 WHERE rate_table_id = ${customerTable} AND code = ${code}`.execute(
      db,
    );
    const signalled = performance.now();
    built.services.configChanged.notify();
    const rebuilt = await settled(base, token, first.version);
    const rebuildMs = Math.round(performance.now() - signalled);
    const withRebuild = await during;
    const after = await route(probe);

    // A structural change (a new code in the 700,000-code table): read incrementally, built in full.
    const during2 = load(`${base}/switch/route`, 1e9, SECONDS, CONNECTIONS, { bodies, headers });
    await new Promise((r) => setTimeout(r, (SECONDS * 1000) / 3));
    await sql`INSERT INTO rates (rate_table_id, code, code_name, rate, effective_date) VALUES (${customerTable}, '1212555123', 'USA', 0.0888, '2020-01-01')`.execute(
      db,
    );
    const signalled2 = performance.now();
    built.services.configChanged.notify();
    const structural = await settled(base, token, rebuilt.version);
    const structuralMs = Math.round(performance.now() - signalled2);
    const withBuild = await during2;
    const afterInsert = await route('12125551234');

    return {
      database: label,
      setup_ms: setupMs,
      rates_loaded: first.counts.rates,
      first_load: { load_ms: first.load_ms, build_ms: first.build_ms },
      rate_change: {
        total_ms: rebuildMs,
        debounce_ms: 200,
        load_kind: rebuilt.load_kind,
        load_ms: rebuilt.load_ms,
        apply_ms: rebuilt.build_ms,
      },
      route_calls_without_rebuild: baseline,
      route_calls_during_rate_change: withRebuild,
      rate_before: before.payload.ingress?.rate,
      rate_after: after.payload.ingress?.rate,
      new_code: {
        total_ms: structuralMs,
        load_kind: structural.load_kind,
        load_ms: structural.load_ms,
        build_ms: structural.build_ms,
        rate_after: afterInsert.payload.ingress?.rate,
      },
      route_calls_during_full_build: withBuild,
      meets_target: rebuildMs < 2000 && withRebuild.failed === 0 && after.payload.ingress?.rate === '0.0777',
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
    {
      bench: 'routing snapshot rebuild after one rate change',
      machine: machine(),
      connections: CONNECTIONS,
      results,
    },
    null,
    2,
  ),
);
