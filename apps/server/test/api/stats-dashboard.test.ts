import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { api, Paged } from '@tandem/contract';
import type { z } from 'zod';
import {
  denied,
  fails,
  invalid,
  makeRestrictedAdmin,
  ok,
  holdRecurringJob,
  startHarness,
  startSmtp,
  type Harness,
} from './harness';
import { cdrOf, sendCdrs } from './cdr-fixtures';
import type { Fixture } from './routing-fixtures';
import { pickTotals, rawTotals, statsWorld } from './stats-fixtures';
import { refreshTrunkQos } from '../../src/modules/routing/qos';
import { DUE_JOB, queueDueSchedules } from '../../src/modules/stats/reports';

/**
 * The rest of issue 11 (docs/statistics.md): the dashboard's tabs (report, charts and peaks, client
 * QoS, alerts), the active call report, "View All Carriers" and "enable reporting grouping", the
 * channel report by e-mail and schedule, and the dynamic routes' ASR/ACD from the CDRs.
 */
type Report = z.output<typeof api.stats.summaryReport>;
type Charts = z.output<typeof api.dashboard.charts>;
type Peaks = z.output<typeof api.dashboard.peaks>;
type Qos = z.output<typeof api.dashboard.qos>;
type Alerts = z.output<typeof api.dashboard.alerts>;
type Active = z.output<typeof api.stats.activeCalls>;
type Options = z.output<typeof api.stats.reportOptions>;
type Schedule = api.reports.ScheduleRow;
type LogRow = api.reports.LogRow;

let h: Harness;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let admin: string;
let key: string;
let f: Fixture;
let g: Fixture;

const db = () => h.built.services.db;
const MIN = 60_000;
/** The CDRs of this file start relative to now (the dashboard's ranges end now). */
const now = Date.now();
const ago = (minutes: number) => new Date(now - minutes * MIN).toISOString();
const get = <T>(path: string, token: string, q: Record<string, string> = {}) =>
  h.call<T>('GET', `/api${path}?${new URLSearchParams(q).toString()}`, { token });

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms = 20_000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The same question of the raw CDRs started since `sinceMs` (the truth). */
const raw = (sinceMs: number, where = sql`true`) =>
  rawTotals(db(), sql`start_time >= ${new Date(sinceMs)} AND ${where}`);
const pick = pickTotals;

beforeAll(async () => {
  smtp = await startSmtp();
  h = await startHarness({
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp.port),
    SMTP_FROM: 'noc@tandem.test',
  });
  ({ admin, key, f, g } = await statsWorld(h));
  // the 5-minute sweep of due schedules would run them at the real now; the tests pick their own
  await holdRecurringJob(h, DUE_JOB);
  ok(
    await sendCdrs(h, key, 'd-1', [
      cdrOf(f, { duration: 60, start: ago(5) }),
      cdrOf(f, { duration: 0, start: ago(6) }),
      cdrOf(f, { duration: 120, start: ago(50) }),
      cdrOf(f, { duration: 30, vendor: 0, start: ago(50) }),
      cdrOf(f, { duration: 45, start: ago(180) }),
      cdrOf(f, { duration: 0, start: ago(181) }),
      cdrOf(f, { duration: 90, start: ago(60 * 30) }), // 30 hours ago: outside 24 hours
      cdrOf(g, { duration: 240, start: ago(20) }),
      cdrOf(g, { duration: 0, start: ago(200) }),
    ]),
  );
}, 240_000);
afterAll(async () => {
  await h?.close();
  await smtp.close();
});

describe('dashboard tabs', () => {
  it('report tab: every customer or vendor of the range with totals equal to the CDRs', async () => {
    const since = Math.floor((now - 24 * 60 * MIN) / (15 * MIN)) * 15 * MIN;
    const truth = await raw(since);
    for (const by of ['customer', 'vendor', 'country', 'ingress_trunk', 'egress_trunk']) {
      const r = ok(
        await get<Report>('/stats/dashboard/report', admin, { range: 'last_24h', by, tz: '+0800' }),
      );
      expect(pick(r.totals)).toEqual(truth);
      expect(r.rows.reduce((n, x) => n + x.attempts, 0)).toBe(truth.attempts);
    }
    const byCustomer = ok(await get<Report>('/stats/dashboard/report', admin, { range: 'last_24h' }));
    expect(byCustomer.rows.map((x) => x.customer_id).sort()).toEqual([f.customer, g.customer].sort());
    const mine = byCustomer.rows.find((x) => x.customer_id === f.customer)!;
    expect(mine.attempts).toBe((await raw(since, sql`ingress_client_id = ${f.customer}`)).attempts);
    invalid(await get('/stats/dashboard/report', admin, { range: 'last_24h', by: 'planet' }), 'by');
  });

  it('charts tab: every figure per step, summing to the totals; channels from the switch reports', async () => {
    const c = ok(await get<Charts>('/stats/dashboard/charts', admin, { range: 'last_6h', tz: '+0000' }));
    expect(c.step_minutes).toBe(15);
    const since = Math.floor((now - 6 * 60 * MIN) / (15 * MIN)) * 15 * MIN;
    const truth = await raw(since);
    expect(c.series.reduce((n, p) => n + p.attempts, 0)).toBe(truth.attempts);
    expect(c.series.reduce((n, p) => n + p.duration, 0)).toBe(truth.duration);
    for (const p of c.series) expect(p.erlangs).toBe(Math.round((p.duration / 900) * 100) / 100);
    const money = c.series.reduce((n, p) => n + Number(p.revenue), 0);
    expect(money.toFixed(6)).toBe(truth.revenue);
    // every step is there, empty ones as zeros
    expect(c.series.length).toBeGreaterThanOrEqual(24);
    const week = ok(await get<Charts>('/stats/dashboard/charts', admin, { range: 'last_7d' }));
    expect(week.step_minutes).toBe(60);
  });

  it('peaks: 24 hours per hour, 7 days per day, the busiest hour and day', async () => {
    const p = ok(await get<Peaks>('/stats/dashboard/peaks', admin, { tz: '+0000' }));
    expect(p.hours).toHaveLength(24);
    expect(p.days).toHaveLength(7);
    const top = p.hours.reduce((b, x) => (x.attempts > b.attempts ? x : b));
    expect(p.busiest_hour).toBe(top.at);
    expect(p.days.reduce((n, x) => n + x.attempts, 0)).toBe((await raw(Date.parse(p.days[0]!.at))).attempts);
  });

  it('client QoS tabs: per trunk over the last 15 minutes, hour and 24 hours, exact to the CDRs', async () => {
    const q = ok(await get<Qos>('/stats/dashboard/qos', admin, { side: 'ingress' }));
    const row = q.rows.find((r) => r.trunk_id === f.ingress)!;
    expect(row.carrier_id).toBe(f.customer);
    const at = Date.parse(q.at);
    const count = async (minutes: number) =>
      (await raw(at - minutes * MIN, sql`ingress_trunk_id = ${f.ingress} AND start_time <= ${new Date(at)}`))
        .attempts;
    expect(row.m15.attempts).toBe(await count(15));
    expect(row.h1.attempts).toBe(await count(60));
    expect(row.h24.attempts).toBe(await count(1440));
    expect(row.m15).toMatchObject({ attempts: 2, answered: 1, asr: 50 });
    expect(q.totals.h24.attempts).toBe(q.rows.reduce((n, r) => n + r.h24.attempts, 0));
    const out = ok(await get<Qos>('/stats/dashboard/qos', admin, { side: 'egress' }));
    expect(out.rows.map((r) => r.trunk_id)).toContain(f.vendors[1]!.trunk);
    expect(out.rows.every((r) => r.trunk_id !== f.ingress)).toBe(true);
  });

  it('alert tab: rule events of the range, blocks in force, carriers below their balance lines', async () => {
    await db()
      .insertInto('monitoring_log')
      .values([
        {
          rule_kind: 'rule',
          rule_id: null,
          rule_name: 'ASR watch',
          event: 'triggered',
          trunk_id: f.vendors[0]!.trunk,
          subject: 'Vendor A out',
          at: new Date(now - 10 * MIN),
        },
        {
          rule_kind: 'rule',
          rule_id: null,
          rule_name: 'ASR watch',
          event: 'email_sent',
          trunk_id: f.vendors[0]!.trunk,
          subject: 'Vendor A out',
          at: new Date(now - 10 * MIN),
        },
        {
          rule_kind: 'fraud',
          rule_id: null,
          rule_name: 'Expensive',
          event: 'blocked',
          trunk_id: g.ingress,
          subject: 'Customer in2',
          at: new Date(now - 20 * MIN),
        },
        {
          rule_kind: 'fraud',
          rule_id: null,
          rule_name: 'Old',
          event: 'triggered',
          trunk_id: g.ingress,
          subject: 'x',
          at: new Date(now - 3 * 60 * MIN),
        },
      ])
      .execute();
    await db()
      .insertInto('monitoring_blocks')
      .values({
        rule_kind: 'fraud',
        rule_name: 'Expensive',
        subject: 'Customer in2',
        side: 'ingress',
        trunk_id: g.ingress,
      })
      .execute();
    await db()
      .insertInto('balance_alerts')
      .values({ client_id: g.customer, event: 'low_balance', below: true })
      .execute();
    const a = ok(await get<Alerts>('/stats/dashboard/alerts', admin, { range: 'last_1h' }));
    expect(a.counts).toEqual({ triggered: 1, email_sent: 1, blocked: 1 });
    expect(a.events.map((e) => e.event)).toEqual(['triggered', 'blocked']);
    expect(a.active_blocks).toBe(1);
    expect(a.balances).toEqual([expect.objectContaining({ carrier_id: g.customer, event: 'low_balance' })]);
    const day = ok(await get<Alerts>('/stats/dashboard/alerts', admin, { range: 'last_24h' }));
    expect(day.counts.triggered).toBe(2);
  });

  it('needs read on the dashboard; portal users have their own dashboards', async () => {
    const other = await makeRestrictedAdmin(h, admin, 'nodash', { '/statistics/summary_report': 'r' });
    for (const p of [
      '/stats/dashboard/report',
      '/stats/dashboard/charts',
      '/stats/dashboard/peaks',
      '/stats/dashboard/qos',
      '/stats/dashboard/alerts',
    ])
      denied(await get(p, other.token));
  });
});

describe('active call report', () => {
  it("shows the switch's calls up per trunk and carrier, the call limits and today's peak", async () => {
    const empty = ok(await get<Active>('/stats/active_calls', admin));
    expect(empty).toMatchObject({ reported_at: null, total: 0, trunks: [] });
    await db().updateTable('trunks').set({ call_limit: 10 }).where('trunk_id', '=', f.ingress).execute();
    const report = (trunks: { trunk_id: number; calls: number }[]) =>
      h.call('POST', '/api/switch/calls', { body: { trunks }, headers: { 'x-switch-key': key } });
    ok(
      await report([
        { trunk_id: f.ingress, calls: 7 },
        { trunk_id: g.ingress, calls: 2 },
        { trunk_id: f.vendors[1]!.trunk, calls: 9 },
      ]),
    );
    ok(
      await report([
        { trunk_id: f.ingress, calls: 4 },
        { trunk_id: f.vendors[1]!.trunk, calls: 4 },
      ]),
    );
    const a = ok(await get<Active>('/stats/active_calls', admin, { tz: '+0000' }));
    expect(a.reported_at).not.toBeNull();
    expect(a.total).toBe(4); // ingress trunks only: each call once
    expect(a.peak_today).toBe(9); // the first report: 7 + 2 over the ingress trunks
    const trunk = a.trunks.find((t) => t.trunk_id === f.ingress)!;
    expect(trunk).toMatchObject({
      calls: 4,
      call_limit: 10,
      peak_today: 7,
      direction: 'ingress',
      carrier_id: f.customer,
    });
    expect(a.trunks.find((t) => t.trunk_id === g.ingress)).toMatchObject({ calls: 0, peak_today: 2 });
    expect(a.carriers.find((c) => c.carrier_id === f.customer)).toMatchObject({
      ingress_calls: 4,
      egress_calls: 0,
    });
    expect(a.carriers.find((c) => c.carrier_id === f.vendors[1]!.carrier)).toMatchObject({ egress_calls: 4 });
    // the peaks are written to the table (5-minute slots, trunk 0 the whole switch)
    await until('peaks written', async () => {
      const rows = await db().selectFrom('trunk_channel_peaks').selectAll().execute();
      return (
        rows.some((r) => r.trunk_id === 0 && r.peak === 9) &&
        rows.some((r) => r.trunk_id === f.ingress && r.peak === 7)
      );
    });
    const noc = await makeRestrictedAdmin(h, admin, 'noactive', { '/statistics/summary_report': 'r' });
    denied(await get('/stats/active_calls', noc.token));
  });
});

describe('View All Carriers and report grouping', () => {
  it('a role without "View All Carriers" sees only the carriers of its user, none listed none seen', async () => {
    const sales = await makeRestrictedAdmin(h, admin, 'sales', {
      '/statistics/summary_report': 'r',
      '/statistics/dashboard': 'r',
    });
    const q = { range: 'last_24h', by: 'customer' };
    const nothing = ok(await get<Report>('/stats/dashboard/report', sales.token, q));
    expect(nothing.totals.attempts).toBe(0);
    const opts = ok(
      await h.call<Options>('PATCH', `/api/stats/options/${sales.userId}`, {
        token: admin,
        body: { carrier_ids: [g.customer] },
      }),
    );
    expect(opts).toEqual({ report_grouping: true, carrier_ids: [g.customer], view_all_carriers: false });
    const r = ok(await get<Report>('/stats/dashboard/report', sales.token, q));
    expect(r.rows.map((x) => x.customer_id)).toEqual([g.customer]);
    const since = Math.floor((now - 24 * 60 * MIN) / (15 * MIN)) * 15 * MIN;
    expect(r.totals.attempts).toBe((await raw(since, sql`ingress_client_id = ${g.customer}`)).attempts);
    // the same in the summary report, whatever customer ids it sends
    const day = {
      from: new Date(now - 24 * 60 * MIN).toISOString().slice(0, 16).replace('T', ' '),
      to: new Date(now + 60 * MIN).toISOString().slice(0, 16).replace('T', ' '),
    };
    const s = ok(
      await get<Report>('/stats/summary', sales.token, { ...day, customer_ids: String(f.customer) }),
    );
    expect(s.totals.attempts).toBe(0);
    // a vendor of the list: its side of the calls
    ok(
      await h.call('PATCH', `/api/stats/options/${sales.userId}`, {
        token: admin,
        body: { carrier_ids: [f.vendors[0]!.carrier] },
      }),
    );
    const v = ok(
      await get<Report>('/stats/dashboard/report', sales.token, { range: 'last_24h', by: 'vendor' }),
    );
    expect(v.rows.map((x) => x.vendor_id)).toEqual([f.vendors[0]!.carrier]);
    // with the permission: every carrier
    const all = await makeRestrictedAdmin(h, admin, 'sales_all', {
      '/statistics/dashboard': 'r',
      'statistics:view_all_carriers': 'r',
    });
    expect(ok(await get<Report>('/stats/dashboard/report', all.token, q)).rows).toHaveLength(2);
    expect(ok(await get<Options>('/stats/options', all.token)).view_all_carriers).toBe(true);
    // the options are set by admins with write on users only, and name the field of a bad carrier
    denied(
      await h.call('PATCH', `/api/stats/options/${sales.userId}`, {
        token: sales.token,
        body: { carrier_ids: [] },
      }),
    );
    invalid(
      await h.call('PATCH', `/api/stats/options/${sales.userId}`, {
        token: admin,
        body: { carrier_ids: [999999] },
      }),
      'carrier_ids.0',
    );
    fails(await h.call('GET', '/api/stats/options/999999', { token: admin }), 150);
  });

  it('"enable reporting grouping" off: a report keeps its own grouping, schedules too', async () => {
    const noc = await makeRestrictedAdmin(h, admin, 'nogroup', {
      '/statistics/usage_report': 'r',
      'statistics:view_all_carriers': 'r',
    });
    ok(
      await h.call('PATCH', `/api/stats/options/${noc.userId}`, {
        token: admin,
        body: { report_grouping: false },
      }),
    );
    expect(ok(await get<Options>('/stats/options', noc.token)).report_grouping).toBe(false);
    const day = { from: '2026-11-20 00:00', to: '2026-11-21 00:00' };
    ok(await get('/stats/reports/usage_report', noc.token, { ...day, group_by: 'customer' }));
    invalid(await get('/stats/reports/usage_report', noc.token, { ...day, group_by: 'vendor' }), 'group_by');
    invalid(
      await h.call('POST', '/api/stats/reports/usage_report/schedules', {
        token: noc.token,
        body: { name: 'x', frequency: 'daily', to: ['a@b.test'], query: { group_by: ['country'] } },
      }),
      'query.group_by',
    );
  });
});

describe('channel report by e-mail and schedule', () => {
  const period = () => {
    const d = new Date(now);
    const day = d.toISOString().slice(0, 10);
    return { from: `${new Date(now - 86_400_000).toISOString().slice(0, 10)} 00:00`, to: `${day} 23:00` };
  };

  it('mails the daily channel usage report now as XLSX and logs it', async () => {
    const before = smtp.mails.length;
    const r = ok(
      await h.call<{ job_id: number }>('POST', '/api/stats/channels/email', {
        token: admin,
        body: { query: { ...period(), direction: 'ingress' }, to: ['noc@carrier.test'] },
      }),
    );
    const mail = await until('mail', async () =>
      smtp.mails.slice(before).find((m) => m.subject.startsWith('Daily Channel Usage Report')),
    );
    expect(mail.raw).toContain('daily_channel_usage_report-');
    expect(mail.raw).toContain('Peak channels');
    await until('log sent', async () => {
      const l = ok(await h.call<Paged<LogRow>>('GET', '/api/log/scheduled_report_log', { token: admin }));
      return l.items.find(
        (x) => x.job_id === r.job_id && x.status === 'sent' && x.report === 'daily_channel_usage_report',
      );
    });
    invalid(
      await h.call('POST', '/api/stats/channels/email', {
        token: admin,
        body: { query: { from: '2026-01-01 00:00', to: '2026-03-01 00:00' }, to: ['a@b.test'] },
      }),
      'to',
    );
  });

  it('a channel report schedule runs when due; the schedules list filters by report and owner', async () => {
    const s = ok(
      await h.call<Schedule>('POST', '/api/stats/channels/schedules', {
        token: admin,
        body: {
          name: 'Channels daily',
          frequency: 'daily',
          hour: 6,
          to: ['ops@carrier.test'],
          query: { direction: 'egress' },
        },
      }),
    );
    expect(s.report).toBe('daily_channel_usage_report');
    const list = ok(
      await get<Paged<Schedule>>('/stats/schedules/list', admin, {
        report: 'daily_channel_usage_report',
        mine: 'true',
      }),
    );
    expect(list.items.map((x) => x.id)).toEqual([s.id]);
    await db()
      .updateTable('report_schedules')
      .set({ next_run_at: new Date(now - MIN) })
      .where('id', '=', s.id)
      .execute();
    const before = smtp.mails.length;
    expect(await queueDueSchedules(h.built.services, now)).toBe(1);
    await until('scheduled channel mail', async () =>
      smtp.mails.slice(before).find((m) => m.to.includes('ops@carrier.test')),
    );
    const noc = await makeRestrictedAdmin(h, admin, 'nochan', { '/statistics/summary_report': 'r' });
    denied(
      await h.call('POST', '/api/stats/channels/schedules', {
        token: noc.token,
        body: { name: 'x', frequency: 'daily', to: ['a@b.test'] },
      }),
    );
  });
});

describe('dynamic routes: ASR/ACD from the CDRs', () => {
  it('a trunk with CDRs in the QoS cycle takes its figures from them; one without keeps the switch samples', async () => {
    // vendor B (index 1) of customer 1 has CDRs within the last hour: 60 s answered, 0 s, 120 s answered
    const trunkB = f.vendors[1]!.trunk;
    const trunkA2 = g.vendors[0]!.trunk; // no CDR: the switch's samples
    ok(
      await h.call('POST', '/api/switch/qos', {
        body: { samples: [{ trunk_id: trunkA2, attempts: 10, answered: 4, billed_seconds: 400 }] },
        headers: { 'x-switch-key': key },
      }),
    );
    await db()
      .transaction()
      .execute((trx) => refreshTrunkQos(trx));
    const rows = await db().selectFrom('trunk_qos').selectAll().execute();
    const b = rows.find((r) => r.trunk_id === trunkB)!;
    const truth = await sql<{ attempts: number; answered: number; duration: number }>`
      SELECT count(*)::int AS attempts, count(answer_time)::int AS answered, coalesce(sum(call_duration), 0)::int AS duration
      FROM cdrs WHERE egress_trunk_id = ${trunkB} AND start_time > ${new Date(Date.now() - 60 * MIN)}`.execute(
      db(),
    );
    const t = truth.rows[0]!;
    expect(b).toMatchObject({
      source: 'cdr',
      attempts: t.attempts,
      answered: t.answered,
      billed_seconds: t.duration,
    });
    expect(Number(b.asr)).toBe(Math.round((t.answered * 10000) / t.attempts) / 100);
    expect(Number(b.acd)).toBe(Math.round((t.duration * 100) / t.answered) / 100);
    expect(rows.find((r) => r.trunk_id === trunkA2)).toMatchObject({
      source: 'switch',
      attempts: 10,
      answered: 4,
    });
    // a refresh with nothing new changes nothing
    expect(
      await db()
        .transaction()
        .execute((trx) => refreshTrunkQos(trx)),
    ).toBe(false);
  });

  it('CDRs arriving refresh the figures on their own, and the dynamic route page shows them', async () => {
    const trunkB2 = g.vendors[1]!.trunk;
    ok(
      await sendCdrs(h, key, 'd-qos', [
        cdrOf(g, { duration: 30, start: ago(2) }),
        cdrOf(g, { duration: 0, start: ago(3) }),
      ]),
    );
    const row = await until(
      'figures from the new CDRs',
      async () => {
        const r = await db()
          .selectFrom('trunk_qos')
          .selectAll()
          .where('trunk_id', '=', trunkB2)
          .executeTakeFirst();
        return r && r.source === 'cdr' && Number(r.attempts) >= 3 ? r : null;
      },
      30_000,
    );
    expect(Number(row.attempts)).toBe(3); // one CDR 20 minutes ago (setup) and the two new ones
  });
});
