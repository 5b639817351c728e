import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { api } from '@tandem/contract';
import type { z } from 'zod';
import {
  SUMMARISE_CDRS,
  SUMMARISE_DAILY,
  SUMMARISE_HOURLY,
} from '../../src/db/migrations/0019_cdr_summaries';
import { SUMMARISE_DAILY_DETAIL } from '../../src/db/migrations/0035_cdr_summaries_daily_detail';
import { changeSummaries, type SummaryCdr } from '../../src/modules/stats/summaries';
import {
  denied,
  invalid,
  makeAgent,
  makeCarrierUser,
  makeRestrictedAdmin,
  ok,
  startHarness,
  type Harness,
} from './harness';
import { cdrOf, sendCdrs } from './cdr-fixtures';
import type { Fixture } from './routing-fixtures';
import { pickTotals, rawTotals, statsWorld } from './stats-fixtures';
import { foldSummaries } from '../../src/modules/stats/summaries';

type Report = z.output<typeof api.stats.summaryReport>;
type Dashboard = z.output<typeof api.stats.dashboard>;

let h: Harness;
let admin: string;
let key: string;
let f: Fixture;
let g: Fixture;

const db = () => h.built.services.db;
const report = (token: string, q: Record<string, string>) =>
  h.call<Report>('GET', `/api/stats/summary?${new URLSearchParams(q).toString()}`, { token });

const rawSums = (where = sql`true`) => rawTotals(db(), where);
const pick = pickTotals;

const DAY = { from: '2026-11-20 00:00', to: '2026-11-21 00:00' };

beforeAll(async () => {
  h = await startHarness();
  ({ admin, key, f, g } = await statsWorld(h));
  // Customer 1: two intervals, UK and US, answered, zero, short, busy, network failure; vendor B (1) and A (0).
  ok(
    await sendCdrs(h, key, 's-1', [
      cdrOf(f, { duration: 60, start: '2026-11-20T10:00:00Z' }),
      cdrOf(f, { duration: 0, start: '2026-11-20T10:05:00Z' }), // 486 busy
      cdrOf(f, { duration: 30, dnis: '12125550123', start: '2026-11-20T10:14:59Z' }),
      cdrOf(f, { duration: 3, start: '2026-11-20T10:15:00Z' }),
      { ...cdrOf(f, { duration: 0, start: '2026-11-20T10:20:00Z' }), release_cause: 503 },
      cdrOf(f, { duration: 125, vendor: 0, start: '2026-11-20T20:30:00Z' }),
    ]),
  );
  // Customer 2 (another carrier): its own traffic, never in customer 1's figures.
  ok(
    await sendCdrs(h, key, 's-2', [
      cdrOf(g, { duration: 90, start: '2026-11-20T10:02:00Z' }),
      cdrOf(g, { duration: 0, start: '2026-11-20T11:00:00Z' }),
    ]),
  );
  // A resent batch and a CDR sent again are not counted twice.
  const again = cdrOf(f, { duration: 45, start: '2026-11-20T12:00:00Z' });
  ok(await sendCdrs(h, key, 's-3', [again]));
  ok(await sendCdrs(h, key, 's-3', [again]));
  ok(
    await sendCdrs(h, key, 's-4', [
      again,
      cdrOf(f, { duration: 0, vendor: null, start: '2026-11-20T12:01:00Z' }),
    ]),
  );
});
afterAll(() => h.close());

describe('traffic summaries', () => {
  it('are kept by the ingest: the report totals equal the sums of the CDRs they cover', async () => {
    const r = ok(await report(admin, DAY));
    expect(pick(r.totals)).toEqual(await rawSums());
    expect(r.totals.attempts).toBe(10);
    expect(r.totals.profit).toBe((Number(r.totals.revenue) - Number(r.totals.cost!)).toFixed(6));
    expect(r.rows).toHaveLength(1);
    expect(r.coverage).toMatchObject({
      from: '2026-11-20T00:00:00.000Z',
      to: '2026-11-21T00:00:00.000Z',
      complete: true,
      cost_visible: true,
      data_from: '2026-11-20T00:00:00.000Z',
    });
  });

  it('every group of a grouped report equals its CDRs, and the groups add up to the totals', async () => {
    const r = ok(await report(admin, { ...DAY, group_by: 'customer,vendor' }));
    expect(r.total_rows).toBe(r.rows.length);
    for (const row of r.rows) {
      const where =
        row.vendor_id === null
          ? sql`ingress_client_id = ${row.customer_id!} AND egress_client_id IS NULL`
          : sql`ingress_client_id = ${row.customer_id!} AND egress_client_id = ${row.vendor_id!}`;
      expect(pick(row)).toEqual(await rawSums(where));
    }
    expect(r.rows.reduce((s, x) => s + x.attempts, 0)).toBe(r.totals.attempts);
    const names = r.rows.map((x) => `${x.customer}/${x.vendor}`);
    expect(names).toContain('Customer/Vendor B');
    expect(names).toContain('Customer/null');
    const byCause = ok(
      await report(admin, { ...DAY, group_by: 'release_cause', customer_ids: String(f.customer) }),
    );
    expect(Object.fromEntries(byCause.rows.map((x) => [x.release_cause, x.attempts]))).toEqual({
      200: 5,
      486: 2,
      503: 1,
    });
  });

  it('a ragged range over days reads 15-minute, hourly and daily rows and still equals its CDRs', async () => {
    const q = { from: '2026-11-19 22:30', to: '2026-11-21 01:15', group_by: 'customer' };
    const r = ok(await report(admin, q));
    expect(pick(r.totals)).toEqual(await rawSums());
    for (const row of r.rows)
      expect(pick(row)).toEqual(await rawSums(sql`ingress_client_id = ${row.customer_id!}`));
    // the same in 15-minute rows only (a duration filter needs them): the same figures
    const fine = ok(await report(admin, { ...q, duration: 'non_zero' }));
    expect(fine.totals.revenue).toBe(r.totals.revenue);
    // code, cause and duration questions read the daily detail rows (the 15-minute key per UTC
    // day) for the whole day and 15-minute rows at the ends: each group still equals its CDRs
    const byCode = ok(await report(admin, { ...q, group_by: 'code,release_cause' }));
    expect(byCode.rows.length).toBeGreaterThan(2);
    for (const row of byCode.rows)
      expect(pick(row)).toEqual(
        await rawSums(
          sql`coalesce(egress_code, '') = ${row.code ?? ''} AND release_cause = ${row.release_cause!}`,
        ),
      );
    expect(pick(fine.totals)).toEqual(await rawSums(sql`call_duration > 0`));
    // 10:00-10:15 only: ragged both ends of one hour
    const quarter = ok(await report(admin, { from: '2026-11-20 10:00', to: '2026-11-20 10:15' }));
    expect(quarter.totals.attempts).toBe((await rawSums(sql`start_time < '2026-11-20T10:15:00Z'`)).attempts);
  });

  it('computes QoS from the sums: ASR, ACD, NER (busy counts, network failure does not), short calls', async () => {
    const r = ok(
      await report(admin, {
        from: '2026-11-20 10:00',
        to: '2026-11-20 10:30',
        customer_ids: String(f.customer),
      }),
    );
    // 5 attempts: 60 s, busy, 30 s, 3 s, 503
    expect(r.totals).toMatchObject({ attempts: 5, answered: 3, non_zero: 3, ner_calls: 4, short_calls: 1 });
    expect(r.totals.asr).toBe(60);
    expect(r.totals.ner).toBe(80);
    expect(r.totals.acd).toBe(0.52); // 93 s / 3
    expect(r.totals.pdd).toBe(1200);
  });

  it('filters by duration: non-zero and zero split the attempts', async () => {
    const all = ok(await report(admin, DAY)).totals;
    const nz = ok(await report(admin, { ...DAY, duration: 'non_zero' })).totals;
    const z = ok(await report(admin, { ...DAY, duration: 'zero' })).totals;
    expect(nz.attempts + z.attempts).toBe(all.attempts);
    expect(nz.attempts).toBe((await rawSums(sql`call_duration > 0`)).attempts);
    expect(z.duration).toBe(0);
    expect(nz.revenue).toBe(all.revenue);
  });

  it("groups by day and hour in the user's time zone", async () => {
    const utc = ok(await report(admin, { ...DAY, group_by: 'day', customer_ids: String(f.customer) }));
    expect(utc.rows.map((x) => x.day)).toEqual(['2026-11-20']);
    // three UTC days: whole UTC days are local days here, so the daily rows answer
    const days = ok(
      await report(admin, {
        from: '2026-11-19 00:00',
        to: '2026-11-22 00:00',
        group_by: 'day',
        customer_ids: String(f.customer),
      }),
    );
    expect(days.rows.map((x) => [x.day, x.attempts])).toEqual([['2026-11-20', 8]]);
    // +0800: the 20:30Z call is on the 21st; the range is 2026-11-20 08:00 to 2026-11-22 08:00 local
    const cn = ok(
      await report(admin, {
        from: '2026-11-20 08:00',
        to: '2026-11-22 08:00',
        tz: '+0800',
        group_by: 'day',
        customer_ids: String(f.customer),
      }),
    );
    expect(cn.rows.map((x) => [x.day, x.attempts])).toEqual([
      ['2026-11-20', 7],
      ['2026-11-21', 1],
    ]);
    const hours = ok(await report(admin, { ...DAY, group_by: 'hour', tz: '-0500' }));
    expect(hours.rows[0]!.hour).toBe('2026-11-20 05:00');
  });

  it('says so when the range starts before the oldest summarised data', async () => {
    const r = ok(await report(admin, { from: '2026-10-01 00:00', to: '2026-10-02 00:00' }));
    expect(r.coverage.complete).toBe(false);
    expect(r.coverage.data_from).toBe('2026-11-20T00:00:00.000Z');
    expect(r.totals.attempts).toBe(0);
    expect(r.totals.asr).toBeNull();
    expect(r.rows).toEqual([]);
    const partly = ok(await report(admin, { from: '2026-11-19 00:00', to: '2026-11-21 00:00' }));
    expect(partly.coverage.complete).toBe(false);
    expect(partly.totals.attempts).toBe(10);
  });

  it('a rerate moves them: -1 takes the old figures out, +1 puts the new ones in', async () => {
    const rows = (await db().selectFrom('cdrs').selectAll().execute()) as unknown as SummaryCdr[];
    const before = ok(await report(admin, DAY)).totals;
    await db()
      .transaction()
      .execute(async (trx) => {
        await changeSummaries(trx, [
          [rows, -1],
          [rows.map((r) => ({ ...r, egress_cost: (Number(r.egress_cost) + 0.001).toFixed(6) })), 1],
        ]);
      });
    const after = ok(await report(admin, DAY)).totals;
    expect(after.attempts).toBe(before.attempts);
    expect(after.revenue).toBe(before.revenue);
    expect(Number(after.cost)).toBeCloseTo(Number(before.cost) + 0.001 * rows.length, 9);
    // and back
    await db()
      .transaction()
      .execute(async (trx) => {
        await changeSummaries(trx, [
          [rows.map((r) => ({ ...r, egress_cost: (Number(r.egress_cost) + 0.001).toFixed(6) })), -1],
          [rows, 1],
        ]);
      });
    expect(ok(await report(admin, DAY)).totals).toEqual(before);
  });

  it("every summary table is exactly what the migrations' statements (0019, 0035) make of the stored CDRs (as for CDRs stored before it)", async () => {
    const KEY = sql`bucket, ingress_client_id, egress_client_id, ingress_trunk_id, egress_trunk_id, egress_code,
      term_country, release_cause, release_side, non_zero, attempts, answered, non_zero_calls, ner_calls,
      short_calls, unpriced, duration, ingress_billed_time, egress_billed_time, revenue, cost, pdd_sum, pdd_calls`;
    await foldSummaries(db());
    const kept =
      await sql`SELECT ${KEY} FROM cdr_summaries WHERE attempts <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10`.execute(
        db(),
      );
    expect(kept.rows.length).toBeGreaterThan(5);
    // Remade from the CDRs inside a transaction that is then rolled back (the kept summaries stay).
    const HOURLY = sql`bucket, ingress_client_id, egress_client_id, ingress_trunk_id, egress_trunk_id, term_country,
      attempts, answered, non_zero_calls, ner_calls, short_calls, unpriced, duration, ingress_billed_time,
      egress_billed_time, revenue, cost, pdd_sum, pdd_calls`;
    const keptHourly =
      await sql`SELECT ${HOURLY} FROM cdr_summaries_hourly WHERE attempts <> 0 ORDER BY 1, 2, 3, 4, 5, 6`.execute(
        db(),
      );
    let remade: unknown[] = [];
    let remadeHourly: unknown[] = [];
    let remadeDaily: unknown[] = [];
    let remadeDetail: unknown[] = [];
    const keptDetail =
      await sql`SELECT ${KEY} FROM cdr_summaries_daily_detail WHERE attempts <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10`.execute(
        db(),
      );
    const keptDaily =
      await sql`SELECT ${HOURLY} FROM cdr_summaries_daily WHERE attempts <> 0 ORDER BY 1, 2, 3, 4, 5, 6`.execute(
        db(),
      );
    await db()
      .transaction()
      .execute(async (trx) => {
        await sql`DELETE FROM cdr_summaries`.execute(trx);
        await sql.raw(SUMMARISE_CDRS).execute(trx);
        remade = (
          await sql`SELECT ${KEY} FROM cdr_summaries ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10`.execute(trx)
        ).rows;
        await sql`DELETE FROM cdr_summaries_hourly`.execute(trx);
        await sql.raw(SUMMARISE_HOURLY).execute(trx);
        remadeHourly = (
          await sql`SELECT ${HOURLY} FROM cdr_summaries_hourly ORDER BY 1, 2, 3, 4, 5, 6`.execute(trx)
        ).rows;
        await sql`DELETE FROM cdr_summaries_daily`.execute(trx);
        await sql.raw(SUMMARISE_DAILY).execute(trx);
        remadeDaily = (
          await sql`SELECT ${HOURLY} FROM cdr_summaries_daily ORDER BY 1, 2, 3, 4, 5, 6`.execute(trx)
        ).rows;
        await sql`DELETE FROM cdr_summaries_daily_detail`.execute(trx);
        await sql.raw(SUMMARISE_DAILY_DETAIL).execute(trx);
        remadeDetail = (
          await sql`SELECT ${KEY} FROM cdr_summaries_daily_detail ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10`.execute(
            trx,
          )
        ).rows;
        throw new Error('rollback');
      })
      .catch((e: Error) => {
        if (e.message !== 'rollback') throw e;
      });
    expect(remade).toEqual(kept.rows);
    expect(remadeHourly).toEqual(keptHourly.rows);
    expect(keptHourly.rows.length).toBeLessThan(kept.rows.length);
    expect(remadeDaily).toEqual(keptDaily.rows);
    expect(keptDaily.rows.length).toBeLessThan(keptHourly.rows.length);
    expect(remadeDetail).toEqual(keptDetail.rows);
    expect(keptDetail.rows.length).toBeGreaterThan(keptDaily.rows.length);
    expect(keptDetail.rows.length).toBeLessThan(kept.rows.length);
  });

  it('refuses a bad range or grouping with 110 naming the field', async () => {
    invalid(await report(admin, { from: '2026-11-21 00:00', to: '2026-11-20 00:00' }), 'to');
    invalid(await report(admin, { from: '2026-11-21', to: '2026-11-22 00:00' }), 'from');
    invalid(await report(admin, { ...DAY, group_by: 'customer,planet' }), 'group_by.1');
    invalid(await report(admin, { ...DAY, customer_ids: '1,x' }), 'customer_ids.1');
    invalid(await report(admin, { ...DAY, tz: '+0830' }), 'tz');
  });
});

describe('permissions and tenancy', () => {
  it('cost, profit and margin only with "view cost and rate in reports"', async () => {
    const noCost = await makeRestrictedAdmin(h, admin, 'noc', {
      '/statistics/summary_report': 'r',
      'statistics:view_all_carriers': 'r',
    });
    const r = ok(await report(noCost.token, { ...DAY, group_by: 'vendor' }));
    expect(r.coverage.cost_visible).toBe(false);
    for (const x of [r.totals, ...r.rows]) {
      expect(x.cost).toBeNull();
      expect(x.profit).toBeNull();
      expect(x.margin).toBeNull();
      expect(x.cost_billed_time).toBeNull();
    }
    expect(r.totals.revenue).toBe(ok(await report(admin, DAY)).totals.revenue);
    invalid(await report(noCost.token, { ...DAY, group_by: 'vendor', order_by: 'profit' }), 'order_by');
    const finance = await makeRestrictedAdmin(h, admin, 'finance', {
      '/statistics/summary_report': 'r',
      'finance:view_cost_and_rate': 'r',
    });
    expect(ok(await report(finance.token, DAY)).totals.cost).not.toBeNull();
    const other = await makeRestrictedAdmin(h, admin, 'other', { '/configuration/roles': 'r' });
    denied(await report(other.token, DAY));
  });

  it('a client user sees only its own traffic, whatever ids it sends, and cannot group by vendor', async () => {
    const c = await makeCarrierUser(h, admin, 'Portalc');
    await db().updateTable('users').set({ client_id: f.customer }).where('name', '=', c.login).execute();
    const token = await h.signIn(c.login, 'Client#2026');
    const own = await rawSums(sql`ingress_client_id = ${f.customer}`);
    const r = ok(await report(token, DAY));
    expect(r.totals).toMatchObject({
      attempts: own.attempts,
      revenue: own.revenue,
      cost: null,
      profit: null,
    });
    const sneaky = ok(await report(token, { ...DAY, customer_ids: String(g.customer) }));
    expect(sneaky.totals.attempts).toBe(0);
    invalid(await report(token, { ...DAY, group_by: 'vendor' }), 'group_by');
    const byTrunk = ok(await report(token, { ...DAY, group_by: 'ingress_trunk' }));
    expect(byTrunk.rows.map((x) => x.ingress_trunk_id)).toEqual([f.ingress]);
    const dash = ok(await h.call<Dashboard>('GET', '/api/stats/dashboard?range=last_60d', { token }));
    expect(dash.top_vendors).toEqual([]);
    expect(dash.top_customers).toEqual([]);
  });

  it('a vendor user sees its side: its calls and what it earned, never the customer revenue', async () => {
    const v = await makeCarrierUser(h, admin, 'Portalv', { client_type: 'vendor' });
    const vendor = f.vendors[1]!.carrier;
    await db().updateTable('users').set({ client_id: vendor }).where('name', '=', v.login).execute();
    const token = await h.signIn(v.login, 'Client#2026');
    const side = await rawSums(sql`egress_client_id = ${vendor}`);
    const r = ok(await report(token, DAY));
    expect(r.totals).toMatchObject({ attempts: side.attempts, revenue: side.cost, cost: null });
    invalid(await report(token, { ...DAY, group_by: 'customer' }), 'group_by');
  });

  it("an agent sees its clients' traffic only", async () => {
    const a = await makeAgent(h, admin, 'Agenta');
    await db()
      .updateTable('carriers')
      .set({ agent_id: a.agentId })
      .where('client_id', '=', g.customer)
      .execute();
    const r = ok(await report(a.token, { ...DAY, group_by: 'customer' }));
    expect(r.rows.map((x) => x.customer_id)).toEqual([g.customer]);
    expect(r.totals.attempts).toBe((await rawSums(sql`ingress_client_id = ${g.customer}`)).attempts);
    expect(r.totals.cost).toBeNull();
  });
});

describe('GET /stats/dashboard', () => {
  it('shows the last hour: totals, a point per 15 minutes (empty ones as zeros) and the top lists', async () => {
    const now = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 60_000).toISOString();
    ok(
      await sendCdrs(h, key, 'd-1', [
        cdrOf(f, { duration: 60, start: now }),
        cdrOf(f, { duration: 0, start: now }),
        cdrOf(g, { duration: 120, start: now }),
      ]),
    );
    const d = ok(await h.call<Dashboard>('GET', '/api/stats/dashboard', { token: admin }));
    expect(d.step_minutes).toBe(15);
    expect(d.totals.attempts).toBe(3);
    expect(d.totals.asr).toBe(66.67);
    expect(d.series.reduce((s, p) => s + p.attempts, 0)).toBe(3);
    expect(d.series.length).toBeGreaterThanOrEqual(4);
    expect(d.series.some((p) => p.attempts === 0 && p.asr === null)).toBe(true);
    expect(d.top_customers.map((x) => [x.customer, x.attempts])).toEqual([
      ['Customer', 2],
      ['Customer2', 1],
    ]);
    expect(d.top_vendors.length).toBeGreaterThan(0);
    expect(d.top_destinations.map((x) => x.country)).toEqual(['']);
    const month = ok(
      await h.call<Dashboard>('GET', '/api/stats/dashboard?range=last_30d&top=10', { token: admin }),
    );
    expect(month.step_minutes).toBe(1440);
    expect(month.totals.attempts).toBeGreaterThanOrEqual(3);
    invalid(await h.call('GET', '/api/stats/dashboard?range=last_3y', { token: admin }), 'range');
    invalid(await h.call('GET', '/api/stats/dashboard?top=7', { token: admin }), 'top');
  });
});
