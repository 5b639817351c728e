/**
 * Rerate speed (issue 10 section 3): 100,000 CDRs (env CDRS) of one day ingested through
 * POST /api/switch/cdr (the SDF configuration of the routing benchmarks: a customer on the SDF deck
 * +25 %, 10 vendors), then the customer's rates raised 10 % and every CDR of the day rerated:
 * preview, apply (chunks of 5,000, each one transaction with its ledger rows), and a second run at
 * the same rates (nothing changes); the rerate starts once the summaries have folded the ingest
 * (its deltas are folded as it goes, by the server's background fold). Prints CDRs/s of each phase and the worst event-loop delay
 * seen while the apply ran. `DATABASE_URL=postgres://... npx tsx bench/cdr/rerate.bench.ts` for
 * PostgreSQL, PGlite otherwise.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'kysely';
import { RATED_COLUMNS } from '../../apps/server/src/modules/cdr/rated-columns';
import { foldSummaries } from '../../apps/server/src/modules/stats/summaries';
import { configure, settled, startServer } from '../routing/setup';
import { benchTrunks, cdrBatches } from './generate';

const CDRS = Number(process.env.CDRS ?? 100_000);
const BATCH = 10_000;
const DAY = Date.parse('2026-11-20T00:00:00Z');

async function main(): Promise<void> {
  const { built, base, token, dropDb } = await startServer(process.env.DATABASE_URL ?? null);
  const { key, customerTable, sdf } = await configure(built, base, token, 'sdf');
  // The engine must have the new trunks and tables before the first CDR, or every CDR is stored unpriced.
  await settled(base, token);
  const db = built.services.db;
  const trunks = await benchTrunks(db);
  const call = async (method: string, p: string, body?: unknown, headers: Record<string, string> = {}) => {
    const r = await fetch(base + p, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        'x-auth-token': token,
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const env = (await r.json()) as { success: boolean; payload: Record<string, unknown>; error: unknown };
    if (!env.success) throw new Error(`${method} ${p}: ${JSON.stringify(env.error)}`);
    return env.payload;
  };

  const t0 = performance.now();
  for (const batch of cdrBatches(
    sdf.map((d) => d.code),
    trunks,
    DAY,
    CDRS,
    BATCH,
  ))
    await call('POST', '/switch/cdr', batch, { 'x-switch-key': key });
  const ingestS = (performance.now() - t0) / 1000;
  console.log(`ingest ${CDRS} CDRs: ${ingestS.toFixed(1)} s (${Math.round(CDRS / ingestS)} CDRs/s)`);
  // the summaries fold the ingested batches in the background; the rerate is measured once they have
  const tf = performance.now();
  const folded = await foldSummaries(db);
  console.log(
    `summaries: the last ${folded.cdrs} CDRs folded ${((performance.now() - tf) / 1000).toFixed(1)} s after the ingest`,
  );
  // A rerate of priced CDRs whose rates rose (the case measured), not the pricing of unpriced ones.
  const unpriced = await sql<{
    n: string;
  }>`SELECT count(*)::text AS n FROM cdrs WHERE unpriced_reason IS NOT NULL`.execute(db);
  if (Number(unpriced.rows[0]!.n) > 0) throw new Error(`${unpriced.rows[0]!.n} CDRs were stored unpriced`);

  await sql`UPDATE rates SET rate = round(rate * 1.1, 4) WHERE rate_table_id = ${customerTable}`.execute(db);
  const before = Number((await call('GET', '/routing/engine/status')).version);
  built.services.configChanged.notify();
  for (;;) {
    const st = await call('GET', '/routing/engine/status');
    if (!st.building && Number(st.version) > before) break;
    await new Promise((r) => setTimeout(r, 100));
  }

  const filter = {
    start_time: new Date(DAY).toISOString(),
    end_time: new Date(DAY + 86_400_000).toISOString(),
  };
  const waitFor = async (id: number, state: string) => {
    for (;;) {
      const run = await call('GET', `/tools/rerate/${id}`);
      if (run.state === state) return run;
      if (run.state === 'failed') throw new Error(String(run.error));
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  for (const label of ['first run (rates +10 %)', 'second run (same rates)']) {
    const p0 = performance.now();
    const id = Number((await call('POST', '/tools/rerate/create', filter)).object_id);
    const previewed = await waitFor(id, 'previewed');
    const previewS = (performance.now() - p0) / 1000;
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const a0 = performance.now();
    await call('PATCH', `/tools/rerate/${id}/apply`);
    const applied = await waitFor(id, 'applied');
    const applyS = (performance.now() - a0) / 1000;
    lag.disable();
    const p = previewed.preview as { cdrs: number; changed: number };
    const r = applied.result as { cdrs: number; changed: number; new_revenue: string };
    console.log(
      `${label}: preview ${p.cdrs} CDRs (${p.changed} changed) ${previewS.toFixed(1)} s (${Math.round(p.cdrs / previewS)} CDRs/s); ` +
        `apply ${r.cdrs} CDRs (${r.changed} changed) ${applyS.toFixed(1)} s (${Math.round(r.cdrs / applyS)} CDRs/s); ` +
        `event loop delay max ${(lag.max / 1e6).toFixed(0)} ms, p99 ${(lag.percentile(99) / 1e6).toFixed(0)} ms`,
    );
  }
  // The floor of any apply that rewrites the CDRs in place (same run): the day's rows given a new
  // version of their rated columns by one plain UPDATE, no rating, no summaries, no ledger.
  await sql`VACUUM ANALYZE cdrs`.execute(db);
  const u0 = performance.now();
  const rewritten = await sql`
    UPDATE cdrs SET ${sql.join(RATED_COLUMNS.map(([c]) => sql`${sql.ref(c)} = ${sql.ref(c)}`))},
      rated_at = now(), rerated = rerated + 1
    WHERE start_time >= ${new Date(DAY)} AND start_time < ${new Date(DAY + 86_400_000)}`.execute(db);
  const updateS = (performance.now() - u0) / 1000;
  const n = Number(rewritten.numAffectedRows ?? 0);
  console.log(
    `floor: one UPDATE of the ${n} CDRs' rated columns ${updateS.toFixed(1)} s (${Math.round(n / updateS)} CDRs/s)`,
  );
  const check = await sql<{ n: string }>`
    SELECT count(*)::text AS n FROM carriers c
    WHERE c.balance <> (SELECT coalesce(sum(amount), 0) FROM ledger l WHERE l.client_id = c.client_id)`.execute(
    db,
  );
  console.log(`carriers whose balance differs from the ledger: ${check.rows[0]!.n}`);
  await built.app.close();
  await dropDb();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
