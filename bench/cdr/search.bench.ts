/**
 * CDR search (issue 10 section 4) on PostgreSQL: BENCH_CDRS generated CDRs (default 1,000,000) over
 * 30 day partitions, 200 customers, 50 vendors; the search's own code (searchPage, the same SQL the
 * API runs) for the searches a NOC makes, each the first page of 100 rows and the total capped at
 * 10,000, with the plan PostgreSQL chose (which index, rows read).
 * Baseline in the same run: the same deep page read by OFFSET (what page-number paging costs) and an
 * uncapped count.
 * Needs DATABASE_URL (a PostgreSQL server); prints JSON.
 */
import { randomBytes } from 'node:crypto';
import { api } from '@tandem/contract';
import { Kysely, PostgresDialect, sql, type CompiledQuery } from 'kysely';
import pg from 'pg';
import { migrateToLatest } from '../../apps/server/src/db/migrate';
import type { Database } from '../../apps/server/src/db/schema';
import { CdrPartitions, dayOf } from '../../apps/server/src/modules/cdr/partitions';
import { searchPage, chosenFields } from '../../apps/server/src/modules/cdr-search/search';
import type { CdrViewer } from '../../apps/server/src/modules/cdr-search/viewer';

const ROWS = Number(process.env.BENCH_CDRS ?? 1_000_000);
const DAYS = 30;
const DAY0 = Date.UTC(2026, 9, 1);

if (!process.env.DATABASE_URL) {
  console.log(JSON.stringify({ skipped: 'CDR search benchmark needs DATABASE_URL (PostgreSQL)' }));
  process.exit(0);
}

const base = process.env.DATABASE_URL;
const dbName = `tandem_bench_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`CREATE DATABASE ${dbName}`);
const u = new URL(base);
u.pathname = '/' + dbName;
const pool = new pg.Pool({ connectionString: u.toString(), max: 2 });
pool.on('error', () => {}); // the database is dropped at the end
const captured: { q: CompiledQuery | null } = { q: null };
const db = new Kysely<Database>({
  dialect: new PostgresDialect({ pool }),
  log: (e) => {
    if (e.level === 'query') captured.q = e.query;
  },
});

const out: Record<string, unknown> = { rows: ROWS, days: DAYS, customers: 200, vendors: 50 };
try {
  await migrateToLatest(db);
  const parts = new CdrPartitions(db);
  await parts.ensure(Array.from({ length: DAYS }, (_, i) => dayOf(DAY0 + i * 86_400_000)));
  let t = performance.now();
  // one attempt every DAYS*86400/ROWS seconds; customers 1..200 (trunks 1..400), vendors 1001..1050
  await sql`INSERT INTO cdrs (cdr_id, batch_id, call_id, attempt, is_final_attempt, start_time, answer_time,
      end_time, call_duration, pdd, ingress_trunk_id, egress_trunk_id, ingress_client_id, egress_client_id,
      source_ip, ani, dnis, egress_dnis, release_cause, release_side, ingress_code, orig_country,
      ingress_client_cost, egress_code, term_country, egress_cost, profit)
    SELECT g, 'bench', 'call-' || g, 1, true, st, CASE WHEN g % 3 <> 0 THEN st + interval '3 s' END,
      st + interval '60 s', CASE WHEN g % 3 <> 0 THEN (g % 300) ELSE 0 END, 1200,
      1 + g % 400, 2001 + g % 100, 1 + (g % 400) / 2, 1001 + g % 50, '10.0.0.1',
      '1555' || lpad((g % 10000000)::text, 7, '0'),
      (ARRAY['44','1','49','33','86'])[1 + g % 5] || lpad((g % 100000000)::text, 9, '0'),
      (ARRAY['44','1','49','33','86'])[1 + g % 5] || lpad((g % 100000000)::text, 9, '0'),
      CASE WHEN g % 3 <> 0 THEN 200 ELSE 486 END, CASE WHEN g % 3 <> 0 THEN 'O' ELSE 'T' END,
      (ARRAY['44','1','49','33','86'])[1 + g % 5], (ARRAY['UK','USA','Germany','France','China'])[1 + g % 5],
      0.05, (ARRAY['44','1','49','33','86'])[1 + g % 5], (ARRAY['UK','USA','Germany','France','China'])[1 + g % 5],
      0.03, 0.02
    FROM (SELECT g, ${new Date(DAY0)}::timestamptz + (g::float8 * ${(DAYS * 86400) / ROWS}) * interval '1 s' AS st
          FROM generate_series(0, ${ROWS - 1}::int) g) x`.execute(db);
  // every stored CDR has its key (the ingest writes both)
  await sql`INSERT INTO cdr_keys (call_id, attempt, cdr_id, start_time)
    SELECT call_id, attempt, cdr_id, start_time FROM cdrs`.execute(db);
  out.generate_s = +((performance.now() - t) / 1000).toFixed(1);
  t = performance.now();
  await sql`ANALYZE cdrs`.execute(db);
  out.analyze_s = +((performance.now() - t) / 1000).toFixed(1);

  const adminViewer: CdrViewer = { type: 'admin', clientId: -1, agentId: -1, costs: true, lang: 'en' };
  const fields = await chosenFields(db, adminViewer, [...api.cdrSearch.CDR_ADMIN_DEFAULT_FIELDS]);
  const day = (n: number) => new Date(DAY0 + n * 86_400_000).toISOString();
  const searches: Record<string, Record<string, unknown>> = {
    'everything, one day': { start: day(10), end: day(11) },
    'one customer, one day': { start: day(10), end: day(11), ingress_client_id: 77 },
    'one vendor, 7 days': { start: day(10), end: day(17), egress_client_id: 1020 },
    'one ingress trunk, one day': { start: day(10), end: day(11), ingress_trunk_id: 154 },
    'one customer, 30 days, DNIS prefix 4477, non-zero': {
      start: day(0),
      end: day(30),
      ingress_client_id: 77,
      dnis: '4477',
      duration: 'non_zero',
    },
    'everything, 30 days, call id': { start: day(0), end: day(30), call_id: 'call-123456' },
  };
  const results: Record<string, unknown>[] = [];
  const explain = async (q: CompiledQuery) => {
    const r = await pool.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${q.sql}`, q.parameters as unknown[]);
    return r.rows.map((x: Record<string, string>) => x['QUERY PLAN']).join('\n');
  };
  // Index names of the plan, a partition's own (cdrs_20261011_start_time_cdr_id_idx) as one name.
  const indexesOf = (plan: string) => [
    ...new Set([...plan.matchAll(/using (\w+)/gi)].map((m) => m[1]!.replace(/^cdrs_\d{8}_/, 'cdrs_<day>_'))),
  ];
  for (const [name, f] of Object.entries(searches)) {
    const q = { ...f, per_page: 100, order_dir: 'desc' as const };
    await searchPage(db, adminViewer, q, fields); // warm
    const t0 = performance.now();
    const p = await searchPage(db, adminViewer, q, fields, { count: false });
    const firstPageMs = performance.now() - t0;
    const pageSql = captured.q!;
    const t1 = performance.now();
    const withCount = await searchPage(db, adminViewer, q, fields);
    const withCountMs = performance.now() - t1;
    const plan = await explain(pageSql);
    results.push({
      search: name,
      rows: p.items.length,
      total: withCount.total_capped ? '10,000+' : withCount.total,
      first_page_ms: +firstPageMs.toFixed(1),
      first_page_with_count_ms: +withCountMs.toFixed(1),
      indexes: indexesOf(plan),
      seq_scan: /Seq Scan/.test(plan),
    });
  }
  out.searches = results;

  // Deep page: page 1000 of 100 (rows 99,900..100,000 newest first) by keyset, against OFFSET.
  const skip = Math.min(99_900, Math.floor(ROWS / 200) * 100);
  const deepFilter = { start: day(0), end: day(30) };
  const pos = await sql<{ pos: string; id: number }>`SELECT to_char(start_time AT TIME ZONE 'UTC',
      'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS pos, cdr_id AS id FROM cdrs
      WHERE start_time >= ${new Date(deepFilter.start)} AND start_time < ${new Date(deepFilter.end)}
      ORDER BY start_time DESC, cdr_id DESC OFFSET ${skip - 1} LIMIT 1`.execute(db);
  const after = `${pos.rows[0]!.pos}~${pos.rows[0]!.id}`;
  const q = { ...deepFilter, per_page: 100, order_dir: 'desc' as const, after };
  await searchPage(db, adminViewer, q, fields, { count: false });
  let t0 = performance.now();
  const deep = await searchPage(db, adminViewer, q, fields, { count: false });
  const keysetMs = performance.now() - t0;
  const deepPlan = await explain(captured.q!);
  t0 = performance.now();
  const offsetRows = await sql`SELECT cdr_id FROM cdrs WHERE start_time >= ${new Date(deepFilter.start)}
      AND start_time < ${new Date(deepFilter.end)} ORDER BY start_time DESC, cdr_id DESC OFFSET ${skip} LIMIT 100`.execute(
    db,
  );
  const offsetMs = performance.now() - t0;
  out.deep_page = {
    page: skip / 100 + 1,
    keyset_ms: +keysetMs.toFixed(1),
    offset_baseline_ms: +offsetMs.toFixed(1),
    same_rows:
      JSON.stringify(deep.items.map((r) => Number(r.cdr_id))) ===
      JSON.stringify(offsetRows.rows.map((r) => Number((r as { cdr_id: string }).cdr_id))),
    indexes: indexesOf(deepPlan),
  };
  t0 = performance.now();
  const n = await sql<{ n: number }>`SELECT count(*)::int AS n FROM cdrs
      WHERE start_time >= ${new Date(deepFilter.start)} AND start_time < ${new Date(deepFilter.end)}`.execute(
    db,
  );
  out.uncapped_count_baseline = { rows: n.rows[0]!.n, ms: +(performance.now() - t0).toFixed(1) };
} finally {
  await db.destroy();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
}
console.log(JSON.stringify(out, null, 2));
