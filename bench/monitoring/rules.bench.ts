/**
 * Monitoring (issue 15): one evaluation pass of 1,000 rules over the last hour of traffic, read
 * from the 15-minute summaries (what the job `monitoring.evaluate` does every minute).
 *
 * The last hour holds BENCH_CDRS calls (default 10,000,000) as summary rows: 1,000 customer
 * ingress trunks x 10 vendor egress trunks x 10 codes x 2 causes x 4 buckets (800,000 rows, the
 * attempts of each row summing to BENCH_CDRS), written straight into cdr_summaries (the CDRs
 * themselves are not generated: the pass reads none when the window starts on a bucket boundary,
 * which `now` does here; the raw edge of an unaligned window is at most 15 minutes of CDRs on the
 * start_time index).
 *
 * Rules: 500 fraud rules (revenue and minutes per hour, each on 2 ingress trunks), 400 monitoring
 * rules without codes (ASR and PDD over 60 minutes, 300 on egress and 100 on ingress trunks), 100
 * with included codes. A second pass right after shows the steady state (nothing fires twice).
 *
 * Same-run baseline: the hour's summaries read and summed per trunk (each side) and per egress trunk
 * and code, one SQL statement each: what the pass cannot do without.
 *
 *   npx tsx bench/monitoring/rules.bench.ts        Target: a full pass under 5 s.
 * Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { sql } from 'kysely';
import { evaluatePass } from '../../apps/server/src/modules/monitoring/evaluate';
import { machine, startServer } from '../routing/setup';

const CDRS = Number(process.env.BENCH_CDRS ?? 10_000_000);
const BUCKET = 15 * 60_000;

async function run(label: string, databaseUrl: string | null) {
  const { built, dropDb } = await startServer(databaseUrl);
  const s = built.services;
  const db = s.db;
  try {
    const now = Math.floor(Date.now() / BUCKET) * BUCKET;
    const from = new Date(now - 4 * BUCKET).toISOString();
    const rows = 1000 * 10 * 10 * 2 * 4;
    const per = Math.max(1, Math.round(CDRS / rows));
    const t0 = performance.now();
    // Trunks 1..1000 ingress, 2001..2010 egress; codes 441..450; causes 200 (answered) and 486.
    // In chunks of 20,000 rows: PGlite is one connection, and the server's pollers wait for it.
    const P = sql.lit(per);
    for (let b = 0; b < 4; b++)
      for (let t0k = 0; t0k < 1000; t0k += 100)
        await sql`
      INSERT INTO cdr_summaries (bucket, ingress_client_id, egress_client_id, ingress_trunk_id, egress_trunk_id,
        egress_code, term_country, release_cause, release_side, non_zero, attempts, answered, non_zero_calls,
        ner_calls, short_calls, unpriced, duration, ingress_billed_time, egress_billed_time, revenue, cost,
        pdd_sum, pdd_calls)
      SELECT ${from}::timestamptz + (${sql.lit(b)} * interval '15 minutes'), t % 50 + 1, 100 + v, t, 2000 + v,
        (440 + c)::text, 'GB', cause, 'O', cause = 200,
        ${P}, CASE WHEN cause = 200 THEN ${P} ELSE 0 END, CASE WHEN cause = 200 THEN ${P} ELSE 0 END,
        ${P}, 0, 0, CASE WHEN cause = 200 THEN ${P} * 90 ELSE 0 END, 0, 0,
        CASE WHEN cause = 200 THEN ${P} * 0.0750 ELSE 0 END, CASE WHEN cause = 200 THEN ${P} * 0.0450 ELSE 0 END,
        ${P} * 2500, ${P}
      FROM generate_series(${sql.lit(t0k + 1)}, ${sql.lit(t0k + 100)}) t, generate_series(1, 10) v,
        generate_series(1, 10) c, unnest(ARRAY[200, 486]) cause`.execute(db);
    const loadMs = Math.round(performance.now() - t0);

    const stamp = { updated_at: new Date(), updated_by: 'bench' };
    await db
      .insertInto('fraud_rules')
      .values(
        Array.from({ length: 500 }, (_, i) => ({
          rule_name: `bench fraud ${i}`,
          trunk_ids: JSON.stringify([2 * i + 1, 2 * i + 2]),
          hour_revenue: i % 2 ? '50' : '5000', // half of them fire
          hour_minutes: '100000',
          block: true,
          unblock_after_minutes: 30,
          ...stamp,
        })),
      )
      .execute();
    await db
      .insertInto('monitoring_rules')
      .values(
        Array.from({ length: 500 }, (_, i) => {
          const egress = i < 300 || i >= 400;
          return {
            rule_name: `bench rule ${i}`,
            side: egress ? ('egress' as const) : ('ingress' as const),
            trunk_ids: JSON.stringify(egress ? [2001 + (i % 10)] : [1 + ((i * 7) % 1000)]),
            code_mode: i >= 400 ? ('include' as const) : ('all' as const),
            codes: JSON.stringify(i >= 400 ? ['441', '442', '443'] : []),
            asr_below: i % 3 ? '40' : '60', // a third fire (ASR is 50 %)
            pdd_above: '5000',
            min_attempts: 10,
            sample_minutes: 60,
            every_minutes: 5,
            action_block: 'none' as const,
            ...stamp,
          };
        }),
      )
      .execute();

    const passes = [];
    for (let k = 0; k < 2; k++) {
      const t = performance.now();
      const r = await evaluatePass(s, { force: true, now: new Date(now) });
      passes.push({ ms: Math.round(performance.now() - t), ...r });
    }
    // Same-run baseline: the least any pass can read, the hour's summaries summed per trunk on each
    // side and per egress trunk and code, one statement each (median of 3, after the passes).
    const baselineRun = async () => {
      const t = performance.now();
      await sql`SELECT ingress_trunk_id, sum(attempts), sum(answered), sum(duration), sum(revenue), sum(pdd_sum)
        FROM cdr_summaries WHERE bucket >= ${from}::timestamptz GROUP BY 1`.execute(db);
      await sql`SELECT egress_trunk_id, sum(attempts), sum(answered), sum(duration), sum(cost), sum(pdd_sum)
        FROM cdr_summaries WHERE bucket >= ${from}::timestamptz GROUP BY 1`.execute(db);
      await sql`SELECT egress_trunk_id, egress_code, sum(attempts), sum(answered), sum(pdd_sum)
        FROM cdr_summaries WHERE bucket >= ${from}::timestamptz GROUP BY 1, 2`.execute(db);
      return Math.round(performance.now() - t);
    };
    const baselines = [await baselineRun(), await baselineRun(), await baselineRun()].sort((a, b) => a - b);
    const count = await sql<{ n: number }>`SELECT count(*)::int AS n FROM monitoring_blocks`.execute(db);
    return {
      database: label,
      summary_rows_last_hour: rows,
      cdrs_represented: rows * per,
      load_ms: loadMs,
      rules: 1000,
      first_pass: passes[0],
      second_pass: passes[1],
      baseline_three_summary_reads_ms: baselines[1],
      blocks: count.rows[0]!.n,
      meets_target: passes[0]!.ms < 5000,
    };
  } finally {
    await built.close();
    await dropDb();
  }
}

const results = [await run('pglite', null)];
if (process.env.DATABASE_URL) results.push(await run('postgresql', process.env.DATABASE_URL));
console.log(JSON.stringify({ bench: 'monitoring pass: 1,000 rules', machine: machine(), results }, null, 2));
