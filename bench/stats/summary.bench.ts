/**
 * Statistics (issue 11): a 30-day summary report over many CDRs, and what keeping the summaries
 * costs the CDR ingest.
 *
 * 1. Report. BENCH_CDRS CDRs (default 2,000,000 on PostgreSQL, 200,000 on PGlite) are generated in
 *    SQL over 30 days, shaped like routed traffic: 50 customers each calling 20 of 60 countries
 *    (5 codes each, 300 in all), each code to its LCR vendor of 10 and 20 % to the next one, 45 %
 *    answered, causes mixed; then summarised with migration 0019's statements (the same sums the
 *    ingest keeps, 15-minute, hourly, daily and daily detail). Then the summary
 *    report for the 30 days is asked over HTTP (GET /api/stats/summary, grouped by customer, by
 *    day (hourly), by code and by cause (daily detail rows), and totals only), and, as the same-run baseline, the same question (grouped by customer)
 *    is asked of the raw CDRs in SQL. Both answers' attempts are checked equal.
 * 2. Ingest. Batches of 1,000 CDRs (SDF numbers, rated by the engine) through POST
 *    /api/switch/cdr, alternating batch by batch between summaries kept and not kept
 *    (CdrIngest.keepSummaries: kept, the batch queues its CDRs and the server's background fold sums
 *    them meanwhile, decision 109), so both modes see the same machine load: CDRs/s of each.
 *
 * 3. Dashboard. GET /api/stats/dashboard (the page's one data call: totals, calls over time, top
 *    customers, vendors and destinations): the first call after the summaries are written, then
 *    medians for the last 24 hours, 7 and 30 days, and the default last hour after the ingest;
 *    same-run baseline GET /api/user. Target (issue 11): the dashboard's first load under 500 ms.
 *
 * Runs on PGlite, and on PostgreSQL when DATABASE_URL is set (then PostgreSQL only).
 *   npx tsx bench/stats/summary.bench.ts        Target: 30-day report under 200 ms on PostgreSQL.
 */
import { sql } from 'kysely';
import {
  SUMMARISE_CDRS,
  SUMMARISE_DAILY,
  SUMMARISE_HOURLY,
} from '../../apps/server/src/db/migrations/0019_cdr_summaries';
import { SUMMARISE_DAILY_DETAIL } from '../../apps/server/src/db/migrations/0035_cdr_summaries_daily_detail';
import { CdrIngest } from '../../apps/server/src/modules/cdr/ingest';
import { configure, settled, startServer } from '../routing/setup';

const DAY = 86_400_000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (t0: number) => Math.round((performance.now() - t0) * 10) / 10;

async function run(label: string, databaseUrl: string | null) {
  const cdrCount = Number(process.env.BENCH_CDRS ?? (databaseUrl ? 2_000_000 : 200_000));
  const { built, base, token, dropDb } = await startServer(databaseUrl);
  const db = built.services.db;
  try {
    const { key, sdf } = await configure(built, base, token, 'sdf');
    await settled(base, token);

    // ---- 1. Report over 30 days of generated CDRs (ending at today's UTC midnight).
    const end = Math.floor(Date.now() / DAY) * DAY;
    const start = end - 30 * DAY;
    const perDay = Math.ceil(cdrCount / 30);
    const t0 = performance.now();
    for (let d = 0; d < 30; d++) {
      const day = start + d * DAY;
      const name = `cdrs_${new Date(day).toISOString().slice(0, 10).replaceAll('-', '')}`;
      await sql
        .raw(
          `CREATE TABLE IF NOT EXISTS ${name} PARTITION OF cdrs FOR VALUES FROM ('${new Date(day).toISOString()}') TO ('${new Date(day + DAY).toISOString()}')`,
        )
        .execute(db);
      const a = 1_000_000_000 + d * perDay;
      await sql`
        INSERT INTO cdrs (cdr_id, batch_id, call_id, attempt, is_final_attempt, start_time, answer_time, end_time,
          call_duration, pdd, ingress_trunk_id, egress_trunk_id, ingress_client_id, egress_client_id, source_ip,
          ani, dnis, release_cause, release_side, egress_code, term_country, ingress_billed_time, ingress_client_cost,
          egress_billed_time, egress_cost, profit)
        SELECT g, 'bench', 'bench-' || g, 1, true, st, CASE WHEN ans THEN st + interval '3 seconds' END,
          st + make_interval(secs => dur + 5), dur, 500 + h % 3000, 3000 + cust, 4000 + vend,
          1000 + cust, 2000 + vend, '198.51.100.7', '15550001111', '44' || code || '1234567',
          CASE WHEN ans THEN 200 WHEN h % 7 = 0 THEN 486 WHEN h % 7 = 1 THEN 487 WHEN h % 7 = 2 THEN 503
            WHEN h % 7 = 3 THEN 480 ELSE 404 END,
          CASE WHEN ans THEN 'O' ELSE 'T' END, '44' || code, 'C' || country,
          dur, round(dur * 0.0100 / 60, 6), dur, round(dur * 0.0070 / 60, 6),
          round(dur * 0.0100 / 60, 6) - round(dur * 0.0070 / 60, 6)
        FROM (SELECT g, st, h, cust, country, country * 5 + (h / 1000) % 5 AS code,
            (country + CASE WHEN h % 5 = 0 THEN 1 ELSE 0 END) % 10 AS vend,
            h % 100 < 45 AS ans, CASE WHEN h % 100 < 45 THEN 1 + h % 600 ELSE 0 END AS dur
          FROM (SELECT g, st, h, h % 50 AS cust, (h % 50 * 7 + (h / 50) % 20) % 60 AS country
            FROM (SELECT g, ${new Date(day).toISOString()}::timestamptz + ((g * 7919) % 86400) * interval '1 second' AS st,
              (g * 2654435761) % 1000003 AS h FROM generate_series(${a}::int8, ${a + perDay - 1}::int8) g) z) y) x`.execute(
        db,
      );
    }
    const generateMs = ms(t0);
    const t1 = performance.now();
    await sql.raw(SUMMARISE_CDRS).execute(db);
    await sql.raw(SUMMARISE_HOURLY).execute(db);
    await sql.raw(SUMMARISE_DAILY).execute(db);
    await sql.raw(SUMMARISE_DAILY_DETAIL).execute(db);
    await sql`ANALYZE cdr_summaries_daily`.execute(db);
    await sql`ANALYZE cdr_summaries_daily_detail`.execute(db);
    await sql`ANALYZE cdr_summaries_hourly`.execute(db);
    await sql`ANALYZE cdrs`.execute(db);
    await sql`ANALYZE cdr_summaries`.execute(db);
    const summariseMs = ms(t1);
    const count = async (table: string) =>
      Number(
        (await sql<{ n: string }>`SELECT count(*)::text AS n FROM ${sql.table(table)}`.execute(db)).rows[0]!
          .n,
      );
    const summaryRows = await count('cdr_summaries');
    const hourlyRows = await count('cdr_summaries_hourly');
    const dailyRows = await count('cdr_summaries_daily');
    const dailyDetailRows = await count('cdr_summaries_daily_detail');

    const iso = (t: number) => new Date(t).toISOString().slice(0, 16).replace('T', ' ');
    const report = async (group: string) => {
      const q = new URLSearchParams({
        from: iso(start),
        to: iso(end),
        ...(group ? { group_by: group } : {}),
      });
      const t = performance.now();
      const r = (await fetch(`${base}/stats/summary?${q.toString()}`, {
        headers: { 'x-auth-token': token },
      }).then((x) => x.json())) as {
        success: boolean;
        payload: { totals: { attempts: number }; rows: unknown[] };
      };
      if (!r.success) throw new Error(JSON.stringify(r));
      return { ms: ms(t), attempts: r.payload.totals.attempts, rows: r.payload.rows.length };
    };
    const timed = async (f: () => Promise<{ ms: number }>, n: number) => {
      await f();
      await f();
      const xs: number[] = [];
      for (let i = 0; i < n; i++) xs.push((await f()).ms);
      return { median_ms: median(xs), max_ms: Math.max(...xs) };
    };
    // The dashboard (its page's one data call): the first call after the summaries were written
    // (nothing cached), then medians per quick range. The default range (last hour) is timed after
    // the ingest below, which puts its traffic in the last hour.
    const dash = async (range: string) => {
      const t = performance.now();
      const r = (await fetch(`${base}/stats/dashboard?range=${range}`, {
        headers: { 'x-auth-token': token },
      }).then((x) => x.json())) as { success: boolean; payload: { totals: { attempts: number } } };
      if (!r.success) throw new Error(JSON.stringify(r));
      return { ms: ms(t), attempts: r.payload.totals.attempts };
    };
    const dashboardFirst = await dash('last_30d');
    const dashboardResult = {
      first_call_last_30d: dashboardFirst,
      last_24h: await timed(() => dash('last_24h'), 10),
      last_7d: await timed(() => dash('last_7d'), 10),
      last_30d: await timed(() => dash('last_30d'), 10),
    };
    const byCustomer = await report('customer');
    const raw = async () => {
      const t = performance.now();
      const r = await sql<{ attempts: string }>`
        SELECT ingress_client_id, count(*)::text AS attempts, count(answer_time), sum(call_duration),
          sum(ingress_billed_time), sum(ingress_client_cost + short_call_charge), sum(egress_cost), sum(pdd)
        FROM cdrs WHERE start_time >= ${new Date(start).toISOString()}::timestamptz
          AND start_time < ${new Date(end).toISOString()}::timestamptz
        GROUP BY 1`.execute(db);
      return { ms: ms(t), attempts: r.rows.reduce((s, x) => s + Number(x.attempts), 0) };
    };
    const rawOnce = await raw();
    if (rawOnce.attempts !== byCustomer.attempts)
      throw new Error(`summary ${byCustomer.attempts} attempts, raw CDRs ${rawOnce.attempts}`);
    const reportResult = {
      cdrs: cdrCount,
      generate_ms: generateMs,
      summarise_ms: summariseMs,
      summary_rows: summaryRows,
      hourly_rows: hourlyRows,
      daily_rows: dailyRows,
      daily_detail_rows: dailyDetailRows,
      report_by_code: await timed(() => report('code'), 5),
      report_by_cause: await timed(() => report('release_cause'), 5),
      report_by_customer: await timed(() => report('customer'), 10),
      report_by_day: await timed(() => report('day'), 10),
      report_totals: await timed(() => report(''), 10),
      baseline_raw_cdrs_by_customer: await timed(raw, 3),
      attempts_agree: byCustomer.attempts,
    };

    // ---- 2. Ingest with and without summaries, alternating batch by batch.
    const batches = Number(process.env.BENCH_BATCHES ?? 10);
    const size = 1000;
    const codes = sdf.filter((r) => r.code.length >= 3).map((r) => r.code);
    let seq = 0;
    const now = Date.now();
    const batch = () =>
      Array.from({ length: size }, (_, i) => {
        const s = now - 3_600_000 + ((seq * 7 + i) % 3_000_000);
        const answered = (seq + i) % 100 < 45;
        const duration = answered ? 1 + ((seq + i) % 600) : 0;
        const answer = answered ? s + 3000 : null;
        seq++;
        return {
          call_id: `ingest-${seq}`,
          attempt: 1,
          is_final_attempt: true,
          start_time: new Date(s).toISOString(),
          answer_time: answer === null ? null : new Date(answer).toISOString(),
          end_time: new Date((answer ?? s + 5000) + duration * 1000).toISOString(),
          duration,
          ingress_trunk_id: ingressTrunk,
          egress_trunk_id: vendorTrunks[seq % vendorTrunks.length]!,
          source_ip: '198.51.100.7',
          ani: '15550001111',
          dnis: `${codes[(seq * 31) % codes.length]}1234567`.slice(0, 15),
          release_cause: answered ? 200 : 486,
          release_side: answered ? 'O' : 'T',
          pdd_ms: 1500,
        };
      });
    const ingressTrunk = (
      await db
        .selectFrom('trunks')
        .select('trunk_id')
        .where('direction', '=', 'ingress')
        .executeTakeFirstOrThrow()
    ).trunk_id;
    const vendorTrunks = (
      await db.selectFrom('trunks').select('trunk_id').where('direction', '=', 'egress').execute()
    ).map((t) => t.trunk_id);
    const send = async (keep: boolean) => {
      CdrIngest.keepSummaries = keep;
      const body = JSON.stringify({ batch_id: `bench-${keep}-${seq}`, cdrs: batch() });
      const t = performance.now();
      const r = (await fetch(`${base}/switch/cdr`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-switch-key': key },
        body,
      }).then((x) => x.json())) as { success: boolean; payload: { stored: number } };
      if (!r.success || r.payload.stored !== size) throw new Error(JSON.stringify(r));
      return performance.now() - t;
    };
    await send(true); // warm-up (partitions, caches)
    await send(false);
    const withS: number[] = [];
    const withoutS: number[] = [];
    for (let i = 0; i < batches; i++) {
      withS.push(await send(true));
      withoutS.push(await send(false));
    }
    CdrIngest.keepSummaries = true;
    const rate = (xs: number[]) => Math.round((size * 1000) / median(xs));
    const ingestResult = {
      batch_size: size,
      batches_each: batches,
      with_summaries_cdrs_per_s: rate(withS),
      without_summaries_cdrs_per_s: rate(withoutS),
      with_summaries_batch_ms: Math.round(median(withS)),
      without_summaries_batch_ms: Math.round(median(withoutS)),
    };
    const dashboard = { ...dashboardResult, last_1h_after_ingest: await timed(() => dash('last_1h'), 10) };
    // Same-run baseline for the dashboard: the lightest signed-in call (GET /api/user).
    const user = async () => {
      const t = performance.now();
      await fetch(`${base}/user`, { headers: { 'x-auth-token': token } }).then((x) => x.json());
      return { ms: ms(t) };
    };
    const baselineUser = await timed(user, 10);
    console.log(
      JSON.stringify(
        {
          database: label,
          report: reportResult,
          dashboard: { ...dashboard, baseline_get_user: baselineUser },
          ingest: ingestResult,
        },
        null,
        2,
      ),
    );
  } finally {
    await built.close();
    await dropDb();
  }
}

const url = process.env.DATABASE_URL ?? null;
await run(url ? 'postgresql' : 'pglite', url);
