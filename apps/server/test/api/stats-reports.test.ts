import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { api, type Paged } from '@tandem/contract';
import type { z } from 'zod';
import {
  denied,
  invalid,
  makeCarrierUser,
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
import { DUE_JOB, queueDueSchedules } from '../../src/modules/stats/reports';
import { SUMMARISE_HOSTS } from '../../src/db/migrations/0027_report_schedules';
import { foldSummaries } from '../../src/modules/stats/summaries';

/**
 * The report screens of Statistics (issue 11, docs/statistics.md "Reports"): every declared report
 * answers totals equal to the CDRs it covers, hides cost without "view cost and rate in reports",
 * keeps portal users to their own traffic; its XLSX export, its e-mail and its saved schedules
 * (durable jobs, the scheduled report log).
 */
type Report = z.output<typeof api.stats.summaryReport>;
type Schedule = api.reports.ScheduleRow;
type LogRow = api.reports.LogRow;

let h: Harness;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let admin: string;
let f: Fixture;
let g: Fixture;
let key: string;

const db = () => h.built.services.db;
const DAY = { from: '2026-11-20 00:00', to: '2026-11-21 00:00' };
const get = (name: string, token: string, q: Record<string, string>) =>
  h.call<Report>('GET', `/api/stats/reports/${name}?${new URLSearchParams(q).toString()}`, { token });

async function until<T>(what: string, f: () => Promise<T | null | undefined | false>, ms = 20_000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const rawSums = (where = sql`true`) =>
  rawTotals(
    db(),
    sql`start_time >= '2026-11-20T00:00:00Z' AND start_time < '2026-11-21T00:00:00Z' AND ${where}`,
  );
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
    await sendCdrs(h, key, 'r-1', [
      cdrOf(f, { duration: 60, start: '2026-11-20T10:00:00Z' }),
      cdrOf(f, { duration: 0, start: '2026-11-20T10:05:00Z' }),
      cdrOf(f, { duration: 30, dnis: '12125550123', start: '2026-11-20T10:14:59Z' }),
      {
        ...cdrOf(f, { duration: 0, start: '2026-11-20T11:20:00Z' }),
        release_cause: 503,
        egress_host: '198.51.100.7',
      },
      cdrOf(f, { duration: 125, vendor: 0, start: '2026-11-20T20:30:00Z' }),
      cdrOf(g, { duration: 90, start: '2026-11-20T10:02:00Z' }),
      cdrOf(g, { duration: 0, start: '2026-11-20T11:00:00Z' }),
    ]),
  );
});
afterAll(async () => {
  await h.close();
  await smtp.close();
});

describe('every declared report', () => {
  it('answers totals equal to the CDRs, in groups that add up to them', async () => {
    const all = await rawSums();
    // The DID reports cover DID traffic only (calls in on a DID vendor's trunk, docs/did.md).
    const did = await rawSums(
      sql`ingress_trunk_id IN (SELECT trunk_id FROM trunks WHERE trunk_type2 = 'did')`,
    );
    for (const name of api.reports.REPORT_NAMES) {
      const def = api.reports.REPORTS[name];
      if (name === 'summary_report' || (def as { portal?: readonly string[] }).portal?.length === 2) continue;
      const truth = (def as { traffic?: string }).traffic === 'did' ? did : all;
      const r = ok(await get(name, admin, { ...DAY, group_by: def.defaults.join(',') }));
      expect(pick(r.totals), name).toEqual(truth);
      expect(
        r.rows.reduce((s, x) => s + x.attempts, 0),
        name,
      ).toBe(truth.attempts);
      expect(
        r.rows.reduce((s, x) => s + x.duration, 0),
        name,
      ).toBe(truth.duration);
    }
  });

  it('groups as declared: disconnect causes by cause (largest first), code based by country and code', async () => {
    const causes = ok(await get('disconnect_causes', admin, { ...DAY, group_by: 'release_cause' }));
    expect(causes.rows.map((x) => [x.release_cause, x.attempts])).toEqual([
      [200, 4],
      [486, 2],
      [503, 1],
    ]);
    const codes = ok(await get('code_based_report', admin, { ...DAY, group_by: 'country,code' }));
    for (const row of codes.rows)
      expect(row.attempts).toBe((await rawSums(sql`coalesce(egress_code, '') = ${row.code!}`)).attempts);
    invalid(await get('disconnect_causes', admin, { ...DAY, group_by: 'hour' }), 'group_by');
    invalid(await get('usage_report', admin, { from: '2026-11-21 00:00', to: '2026-11-20 00:00' }), 'to');
  });
});

describe('host based report', () => {
  it('groups by ingress and egress host from the host summaries, equal to the CDRs', async () => {
    const r = ok(await get('host_based_report', admin, { ...DAY, group_by: 'ingress_host,egress_host' }));
    expect(r.rows.length).toBeGreaterThan(0);
    for (const row of r.rows)
      expect(row.attempts).toBe(
        (
          await rawSums(
            sql`source_ip = ${row.ingress_host!} AND coalesce(egress_host, '') = ${row.egress_host!}`,
          )
        ).attempts,
      );
    invalid(await get('host_based_report', admin, { ...DAY, group_by: 'ingress_host', code: '44' }), 'code');
    invalid(
      await get('host_based_report', admin, { ...DAY, group_by: 'ingress_host', duration: 'non_zero' }),
      'duration',
    );
  });

  it("the host summaries are exactly what migration 0027's statement makes of the stored CDRs", async () => {
    const COLS = sql`bucket, ingress_client_id, egress_client_id, ingress_trunk_id, egress_trunk_id, term_country,
      source_ip, egress_host, attempts, answered, non_zero_calls, ner_calls, short_calls, unpriced, duration,
      ingress_billed_time, egress_billed_time, revenue, cost, pdd_sum, pdd_calls`;
    await foldSummaries(db());
    const kept = (
      await sql`SELECT ${COLS} FROM cdr_host_summaries WHERE attempts <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8`.execute(
        db(),
      )
    ).rows;
    let remade: unknown[] = [];
    await db()
      .transaction()
      .execute(async (trx) => {
        await sql`DELETE FROM cdr_host_summaries`.execute(trx);
        await sql.raw(SUMMARISE_HOSTS).execute(trx);
        remade = (
          await sql`SELECT ${COLS} FROM cdr_host_summaries ORDER BY 1, 2, 3, 4, 5, 6, 7, 8`.execute(trx)
        ).rows;
        throw new Error('rollback');
      })
      .catch((e: Error) => {
        if (e.message !== 'rollback') throw e;
      });
    expect(kept.length).toBeGreaterThan(2);
    expect(remade).toEqual(kept);
  });
});

describe('daily channel usage', () => {
  type Channels = z.output<typeof api.reports.channelReport>;
  const channels = (token: string, q: Record<string, string>) =>
    h.call<Channels>('GET', `/api/stats/channels?${new URLSearchParams(q).toString()}`, { token });

  it('peaks per day and trunk from call start and end, in the user zone, with calls carried over midnight', async () => {
    ok(
      await sendCdrs(h, key, 'ch-1', [
        cdrOf(f, { duration: 597, start: '2026-11-22T10:00:00Z' }), // 10:00-10:10
        cdrOf(f, { duration: 57, start: '2026-11-22T10:05:00Z' }), // 10:05-10:06
        cdrOf(f, { duration: 657, start: '2026-11-22T10:09:00Z' }), // 10:09-10:20
        cdrOf(f, { duration: 2397, start: '2026-11-22T23:50:00Z' }), // 23:50-00:30
      ]),
    );
    const utc = ok(
      await channels(admin, {
        from: '2026-11-22 00:00',
        to: '2026-11-24 00:00',
        trunk_ids: String(f.ingress),
      }),
    );
    expect(utc.rows.map((x) => [x.day, x.trunk_id, x.peak, x.calls])).toEqual([
      ['2026-11-22', f.ingress, 2, 4],
      ['2026-11-23', f.ingress, 1, 0],
    ]);
    expect(utc.rows[0]!.peak_at).toBe('2026-11-22T10:05:00.000Z');
    expect(utc.peak).toBe(2);
    const cn = ok(
      await channels(admin, {
        from: '2026-11-22 08:00',
        to: '2026-11-24 08:00',
        tz: '+0800',
        trunk_ids: String(f.ingress),
      }),
    );
    expect(cn.rows.map((x) => [x.day, x.peak, x.calls])).toEqual([
      ['2026-11-22', 2, 3],
      ['2026-11-23', 1, 1],
    ]);
    const egress = ok(
      await channels(admin, { from: '2026-11-22 00:00', to: '2026-11-23 00:00', direction: 'egress' }),
    );
    expect(egress.rows.map((x) => x.trunk_id)).toEqual([f.vendors[1]!.trunk]);
    invalid(await channels(admin, { from: '2026-10-01 00:00', to: '2026-11-22 00:00' }), 'to');
    const c = await makeCarrierUser(h, admin, 'Chanc');
    denied(await channels(c.token, { from: '2026-11-22 00:00', to: '2026-11-23 00:00' }));
  });
});

describe('permissions and tenancy', () => {
  it('cost only with "view cost and rate in reports"; profitability analysis needs it', async () => {
    const noc = await makeRestrictedAdmin(h, admin, 'rnoc', {
      '/statistics/usage_report': 'r',
      '/statistics/profitability_analysis': 'r',
    });
    const r = ok(await get('usage_report', noc.token, { ...DAY, group_by: 'vendor' }));
    expect(r.coverage.cost_visible).toBe(false);
    for (const x of [r.totals, ...r.rows])
      expect([x.cost, x.profit, x.cost_billed_time]).toEqual([null, null, null]);
    denied(await get('profitability_analysis', noc.token, DAY));
    denied(await get('qos_summary', noc.token, DAY));
    const fin = await makeRestrictedAdmin(h, admin, 'rfin', {
      '/statistics/profitability_analysis': 'r',
      'finance:view_cost_and_rate': 'r',
      'statistics:view_all_carriers': 'r',
    });
    const p = ok(await get('profitability_analysis', fin.token, { ...DAY, group_by: 'customer' }));
    expect(p.totals.cost).toBe((await rawSums()).cost);
    // sorted by profit, largest first
    const profits = p.rows.map((x) => Number(x.profit));
    expect([...profits].sort((a, b) => b - a)).toEqual(profits);
  });

  it('portal reports: a client sees only its own traffic, a vendor its side; admin screens are refused', async () => {
    const c = await makeCarrierUser(h, admin, 'Repc');
    await db().updateTable('users').set({ client_id: f.customer }).where('name', '=', c.login).execute();
    const token = await h.signIn(c.login, 'Client#2026');
    const own = await rawSums(sql`ingress_client_id = ${f.customer}`);
    const r = ok(
      await get('termination_report', token, { ...DAY, group_by: 'day', customer_ids: String(g.customer) }),
    );
    expect(r.totals).toMatchObject({ attempts: 0 });
    const mine = ok(await get('termination_report', token, { ...DAY, group_by: 'day' }));
    expect(mine.totals).toMatchObject({ attempts: own.attempts, revenue: own.revenue, cost: null });
    const causes = ok(await get('disconnection_cause_report', token, { ...DAY, group_by: 'release_cause' }));
    expect(causes.rows.reduce((s, x) => s + x.attempts, 0)).toBe(own.attempts);
    invalid(await get('termination_report', token, { ...DAY, group_by: 'customer' }), 'group_by');
    denied(await get('usage_report', token, DAY));

    const v = await makeCarrierUser(h, admin, 'Repv', { client_type: 'vendor' });
    const vendor = f.vendors[1]!.carrier;
    await db().updateTable('users').set({ client_id: vendor }).where('name', '=', v.login).execute();
    const vt = await h.signIn(v.login, 'Client#2026');
    const side = await rawSums(sql`egress_client_id = ${vendor}`);
    const vr = ok(await get('termination_report', vt, DAY));
    expect(vr.totals).toMatchObject({ attempts: side.attempts, revenue: side.cost, cost: null });
  });
});

describe('outputs', () => {
  it('exports a report to XLSX: the groups and a totals row equal to the CDRs', async () => {
    const filter = { ...DAY, group_by: ['customer'] };
    const started = ok(
      await h.call<{ object_id: number; job_id: number }>('POST', '/api/export/create', {
        token: admin,
        body: { kind: 'report.usage_report', filter, format: 'xlsx' },
      }),
    );
    await until('export', async () => {
      const j = await db()
        .selectFrom('jobs')
        .select('status')
        .where('id', '=', started.job_id)
        .executeTakeFirst();
      return j?.status === 'finished';
    });
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(h.built.services.exports.filePath(started.object_id, 'xlsx'));
    const sheet = book.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header.slice(0, 3)).toEqual(['Customer', 'Attempts', 'Answered']);
    const last = (sheet.getRow(sheet.rowCount).values as unknown[]).slice(1);
    const truth = await rawSums();
    expect(last[0]).toBe('Total');
    expect(last[1]).toBe(truth.attempts);
    expect(last[header.indexOf('Revenue')]).toBe(Number(truth.revenue));
    expect(sheet.rowCount).toBe(1 + 2 + 1); // header, two customers, totals
    // refused without the screen's permission, and cost columns absent without the cost permission
    const noc = await makeRestrictedAdmin(h, admin, 'xnoc', { '/statistics/qos_summary': 'r' });
    denied(
      await h.call('POST', '/api/export/create', {
        token: noc.token,
        body: { kind: 'report.usage_report', filter, format: 'xlsx' },
      }),
    );
    invalid(
      await h.call('POST', '/api/export/create', {
        token: admin,
        body: { kind: 'report.usage_report', filter: { ...DAY, group_by: ['planet'] } },
      }),
      'filter.group_by.0',
    );
  });

  it('mails a report now as an XLSX attachment and logs it in the scheduled report log', async () => {
    const before = smtp.mails.length;
    const r = ok(
      await h.call<{ job_id: number }>('POST', '/api/stats/reports/qos_summary/email', {
        token: admin,
        body: { query: { ...DAY, group_by: ['customer'] }, to: ['noc@carrier.test'] },
      }),
    );
    await until('mail', async () => smtp.mails.length > before);
    const mail = smtp.mails.at(-1)!;
    expect(mail.to).toEqual(['noc@carrier.test']);
    expect(mail.subject).toContain('QoS Summary 2026-11-20 00:00');
    expect(mail.raw).toContain('qos_summary-2026-11-20.xlsx');
    const log = ok(await h.call<Paged<LogRow>>('GET', '/api/log/scheduled_report_log', { token: admin }));
    await until('log sent', async () => {
      const l = ok(await h.call<Paged<LogRow>>('GET', '/api/log/scheduled_report_log', { token: admin }));
      return l.items.find((x) => x.job_id === r.job_id && x.status === 'sent');
    });
    expect(log.total).toBeGreaterThan(0);
    invalid(
      await h.call('POST', '/api/stats/reports/qos_summary/email', {
        token: admin,
        body: { query: DAY, to: [] },
      }),
      'to',
    );
  });

  it('a saved schedule runs once when due (durable job), mails the period before it, and moves on', async () => {
    const created = ok(
      await h.call<Schedule>('POST', '/api/stats/reports/daily_usage_detail_report/schedules', {
        token: admin,
        body: {
          name: 'Daily usage',
          frequency: 'daily',
          hour: 6,
          tz: '+0000',
          to: ['finance@carrier.test'],
          query: { group_by: ['day', 'customer'] },
        },
      }),
    );
    expect(created.next_run_at.slice(11)).toBe('06:00:00.000Z');
    // due at 2026-11-21 06:00: it covers 2026-11-20
    await db()
      .updateTable('report_schedules')
      .set({ next_run_at: new Date('2026-11-21T06:00:00Z') })
      .where('id', '=', created.id)
      .execute();
    const before = smtp.mails.length;
    expect(await queueDueSchedules(h.built.services, Date.parse('2026-11-21T06:03:00Z'))).toBe(1);
    expect(await queueDueSchedules(h.built.services, Date.parse('2026-11-21T06:04:00Z'))).toBe(0);
    await until('scheduled mail', async () =>
      smtp.mails.slice(before).find((m) => m.to.includes('finance@carrier.test')),
    );
    const row = await until('log row', async () => {
      const l = ok(await h.call<Paged<LogRow>>('GET', '/api/log/scheduled_report_log', { token: admin }));
      return l.items.find((x) => x.schedule_id === created.id && x.status === 'sent');
    });
    expect(row).toMatchObject({ period_from: '2026-11-20 00:00', period_to: '2026-11-21 00:00', rows: 2 });
    const s = await db()
      .selectFrom('report_schedules')
      .select('next_run_at')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(s.next_run_at.toISOString()).toBe('2026-11-22T06:00:00.000Z');
  });

  it('schedules belong to their owner: a client schedules its own report and sees only its schedules', async () => {
    const c = await makeCarrierUser(h, admin, 'Schedc');
    const mine = ok(
      await h.call<Schedule>('POST', '/api/stats/reports/termination_report/schedules', {
        token: c.token,
        body: { name: 'Weekly', frequency: 'weekly', to: ['me@schedc.test'], query: { group_by: ['day'] } },
      }),
    );
    const list = ok(await h.call<Paged<Schedule>>('GET', '/api/stats/schedules/list', { token: c.token }));
    expect(list.items.map((x) => x.id)).toEqual([mine.id]);
    const all = ok(await h.call<Paged<Schedule>>('GET', '/api/stats/schedules/list', { token: admin }));
    expect(all.items.length).toBeGreaterThanOrEqual(2);
    const other = all.items.find((x) => x.id !== mine.id)!;
    expect((await h.call('DELETE', `/api/stats/schedules/${other.id}`, { token: c.token })).status).toBe(404);
    invalid(
      await h.call('POST', '/api/stats/reports/termination_report/schedules', {
        token: c.token,
        body: { name: 'x', frequency: 'daily', to: ['me@schedc.test'], query: { group_by: ['vendor'] } },
      }),
      'query.group_by',
    );
    denied(
      await h.call('POST', '/api/stats/reports/usage_report/schedules', {
        token: c.token,
        body: { name: 'x', frequency: 'daily', to: ['me@schedc.test'] },
      }),
    );
    const paused = ok(
      await h.call<Schedule>('PATCH', `/api/stats/schedules/${mine.id}`, {
        token: c.token,
        body: { active: false },
      }),
    );
    expect(paused.active).toBe(false);
    ok(await h.call('DELETE', `/api/stats/schedules/${mine.id}`, { token: c.token }));
    denied(await h.call('GET', '/api/log/scheduled_report_log', { token: c.token }));
  });
});
