/**
 * Automatic invoicing (issue 12): one run of `billing.auto_invoice` over BENCH_CARRIERS carriers
 * (default 1,000) for a month whose traffic is BENCH_CDRS calls (default 10,000,000).
 *
 * The month (October 2026) is written straight into what an invoice reads: the hourly CDR summaries
 * (`cdr_summaries_hourly`, BENCH_ROWS_PER_HOUR rows per carrier and hour, default 3: vendor and
 * country mixes, the calls spread so they add up to BENCH_CDRS) and the ledger (a usage row per
 * carrier and day, for the balance at the period's start and end). Raw CDRs are not generated: an
 * automatic invoice without the CDR attachment never reads them (the monitoring benchmark does the
 * same). Carriers are monthly on four time zones (GMT-5, 0, +1, +8), started from 1 October, non-zero
 * invoices only, and every carrier has one extra charge in the month (so the charges run with it).
 *
 * Measured: the first run (every carrier's October invoice made, each one transaction with the
 * carrier locked), and a second run (every period invoiced: nothing to do). **Same-run baseline:**
 * one SQL statement summing the same summaries per carrier over its local month, the least work any
 * invoicing can do; the invoices' exact usage must equal it carrier by carrier.
 *
 *   npx tsx bench/billing/auto-invoice.bench.ts                         PGlite
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/billing/auto-invoice.bench.ts
 */
import { parseMoney } from '@tandem/domain';
import { sql } from 'kysely';
import { runAutoInvoices } from '../../apps/server/src/modules/billing/auto-invoice';
import { loadInvoiceDoc, renderInvoicePdf } from '../../apps/server/src/modules/billing/invoice-pdf';
import { startServer } from '../routing/setup';

// The server's own job runner off: its scheduled `billing.auto_invoice` would otherwise invoice the
// carriers at the real time as soon as their rows exist (before the month's traffic is written),
// and the measured run would find every period done.
process.env.JOBS_CONCURRENCY = '0';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (t0: number) => Math.round(performance.now() - t0);
const ZONES = ['+0000', '-0500', '+0100', '+0800'];

async function run(label: string, databaseUrl: string | null) {
  const carriers = Number(process.env.BENCH_CARRIERS ?? 1000);
  const cdrs = Number(process.env.BENCH_CDRS ?? 10_000_000);
  const perHour = Number(process.env.BENCH_ROWS_PER_HOUR ?? 3);
  const { built, dropDb } = await startServer(databaseUrl);
  const s = built.services;
  const db = s.db;
  try {
    const t0 = performance.now();
    const term = await db
      .insertInto('payment_terms')
      .values({ name: 'Bench monthly', invoicing_cycle: 'monthly', grace_days: 15 } as never)
      .returning('payment_term_id')
      .executeTakeFirstOrThrow();
    await sql`
      INSERT INTO carriers (name, client_type, mode, credit_limit, payment_term_id, time_zone, auto_invoice,
        non_zero_invoices_only, generate_at, updated_at)
      SELECT 'Bench carrier ' || g, 'client', 'postpaid', 1000000, ${term.payment_term_id},
        (${ZONES}::text[])[1 + g % 4], true, true, 0, now()
      FROM generate_series(1, ${carriers}) g`.execute(db);
    const ids = await db
      .selectFrom('carriers')
      .select('client_id')
      .where('auto_invoice', '=', true)
      .execute();
    // Started from local midnight of 1 October in each carrier's zone.
    await sql`
      INSERT INTO auto_invoices (client_id, side, first_period_from, updated_by)
      SELECT client_id, 'customer',
        '2026-10-01T00:00:00Z'::timestamptz - (substr(time_zone, 1, 3) || ' hours')::interval, 'bench'
      FROM carriers WHERE auto_invoice`.execute(db);
    // Hourly summaries from 30 September 12:00 to 1 November 12:00 UTC (every zone's October and a margin).
    const hours = 32 * 24;
    const calls = Math.max(1, Math.round(cdrs / (carriers * hours * perHour)));
    await sql`
      INSERT INTO cdr_summaries_hourly (bucket, ingress_client_id, egress_client_id, ingress_trunk_id,
        egress_trunk_id, term_country, attempts, answered, non_zero_calls, duration, ingress_billed_time,
        egress_billed_time, revenue, cost)
      SELECT '2026-09-30T12:00:00Z'::timestamptz + h * interval '1 hour', c.client_id, 900000 + k,
        800000 + c.client_id, 700000 + k, 'Country ' || ((c.client_id * 7 + k) % 60),
        ${calls}, ${calls}, ${calls}, ${calls} * (60 + (h + k) % 240), ${calls} * (60 + (h + k) % 240),
        ${calls} * (60 + (h + k) % 240),
        round(${calls} * (60 + (h + k) % 240) * (0.010000 + (c.client_id % 17) * 0.000731) / 60, 6),
        round(${calls} * (60 + (h + k) % 240) * 0.007000 / 60, 6)
      FROM carriers c, generate_series(0, ${hours - 1}) h, generate_series(0, ${perHour - 1}) k
      WHERE c.auto_invoice`.execute(db);
    // A usage ledger row per carrier and day (the balances at the period's ends come from the ledger).
    await sql`
      INSERT INTO ledger (client_id, created_at, kind, side, ref, amount, balance_before, balance_after, cdr_count)
      SELECT c.client_id, '2026-09-30T12:00:00Z'::timestamptz + d * interval '1 day', 'usage', 'customer',
        'bench-' || d, -5, -5 * d, -5 * d - 5, 100
      FROM carriers c, generate_series(0, 31) d WHERE c.auto_invoice`.execute(db);
    // One extra charge per carrier, dated 15 October: charged by the run, shown on the invoice.
    await sql`
      INSERT INTO extra_charges (client_id, name, amount, frequency, start_date, created_by)
      SELECT client_id, 'Port fee', 25, 'once', '2026-10-15', 'bench' FROM carriers WHERE auto_invoice`.execute(
      db,
    );
    await sql`ANALYZE`.execute(db);
    const setupMs = ms(t0);
    const rows = Number(
      (await sql<{ n: string }>`SELECT count(*)::text AS n FROM cdr_summaries_hourly`.execute(db)).rows[0]!.n,
    );

    // Same-run baseline: every carrier's usage of its local October in one statement.
    const baseline = async () => {
      const t = performance.now();
      const r = await sql<{ client_id: number; usage: string }>`
        SELECT c.client_id, coalesce(sum(s.revenue), 0)::text AS usage
        FROM carriers c JOIN auto_invoices a ON a.client_id = c.client_id
        LEFT JOIN cdr_summaries_hourly s ON s.ingress_client_id = c.client_id
          AND s.bucket >= a.first_period_from AND s.bucket < a.first_period_from + interval '31 days'
        GROUP BY c.client_id`.execute(db);
      return { ms: ms(t), usage: new Map(r.rows.map((x) => [x.client_id, x.usage])) };
    };
    const base = [await baseline(), await baseline(), await baseline()];

    const now = new Date('2026-11-02T12:00:00Z');
    const t1 = performance.now();
    const first = await runAutoInvoices(s, { now, send: false, by: 'bench' });
    const firstMs = ms(t1);
    const t2 = performance.now();
    const second = await runAutoInvoices(s, { now, send: false, by: 'bench' });
    const secondMs = ms(t2);

    // Exactness: each invoice's usage is the baseline's sum; its charge is on it; one ledger row each.
    const invoices = await db
      .selectFrom('invoices')
      .select(['client_id', 'usage_exact', 'extra_charges'])
      .where('origin', '=', 'auto')
      .execute();
    const expected = base[0]!.usage;
    let mismatched = 0;
    for (const i of invoices) {
      const want = expected.get(i.client_id);
      if (
        want === undefined ||
        parseMoney(i.usage_exact) !== parseMoney(want) ||
        parseMoney(i.extra_charges) !== parseMoney('25')
      )
        mismatched++;
    }
    const chargeRows = Number(
      (
        await sql<{ n: string }>`SELECT count(*)::text AS n FROM ledger WHERE kind = 'extra_charge'`.execute(
          db,
        )
      ).rows[0]!.n,
    );
    // The PDF each invoice becomes when it is mailed or downloaded (not part of the run above, which
    // does not mail): 20 of them rendered one after another, median.
    const pdfIds = (
      await db.selectFrom('invoices').select('invoice_id').where('origin', '=', 'auto').limit(20).execute()
    ).map((r) => r.invoice_id);
    const pdfMs: number[] = [];
    let pdfBytes = 0;
    for (const id of pdfIds) {
      const t = performance.now();
      const pdf = await renderInvoicePdf(await loadInvoiceDoc(db, id, 'Bench operator'));
      pdfMs.push(ms(t));
      pdfBytes = pdf.length;
    }
    const result = {
      database: label,
      carriers: ids.length,
      calls: calls * carriers * hours * perHour,
      summary_rows: rows,
      setup_ms: setupMs,
      first_run: { ...first, ms: firstMs, invoices_per_s: Math.round((first.created * 1000) / firstMs) },
      second_run: { ...second, ms: secondMs },
      baseline_one_statement_ms: median(base.map((b) => b.ms)),
      ratio_first_run_to_baseline: Math.round((firstMs / median(base.map((b) => b.ms))) * 10) / 10,
      invoices: invoices.length,
      invoices_not_matching_baseline: mismatched,
      extra_charge_ledger_rows: chargeRows,
      pdf_one_invoice_ms_median: median(pdfMs),
      pdf_bytes: pdfBytes,
    };
    console.log(JSON.stringify(result, null, 2));
    if (invoices.length !== ids.length || mismatched || chargeRows !== ids.length)
      throw new Error('auto invoicing did not make one exact invoice per carrier');
  } finally {
    await built.close();
    await dropDb();
  }
}

const url = process.env.DATABASE_URL ?? null;
await run(url ? 'postgresql' : 'pglite', url);
