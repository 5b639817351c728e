import {
  allows,
  api,
  type GroupBy,
  type Grants,
  type Language,
  type MailedReportName,
  type ReportColumn,
  type ReportDef,
  type ReportName,
} from '@tandem/contract';
import { nextRunAfter, periodBefore } from '@tandem/domain';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../../db/connection';
import { pageOf, newestFirst } from '../../db/paging';
import { actorOf, type Actor } from '../../http/context';
import { forbidden, invalidField, notFound } from '../../http/errors';
import { implement } from '../../http/register';
import { xlsxBuffer, type ExportColumn } from '../../jobs/exports';
import type { JobContext } from '../../jobs/queue';
import type { Services } from '../../services';
import { channelMail, channelUsage, registerChannelExport } from './channels';
import { viewerFor, viewerOfUser } from './options';
import { offsetMinutes, rangeOf, scopeOf, summaryReport, type Viewer } from './report';

/**
 * The report screens of Statistics (docs/statistics.md "Reports"): every one is a declaration in
 * the contract (api.reports.REPORTS) run by this one mechanism. From each declaration: its GET
 * call, its XLSX export kind `report.{name}`, its "send by e-mail now" call and its saved
 * schedules, mailed by durable jobs and logged in the scheduled report log.
 */
type Query = z.output<typeof api.stats.summaryQuery>;
type Answer = z.output<typeof api.stats.summaryReport>;
type Figures = z.output<typeof api.stats.figures>;
type Row = z.output<typeof api.stats.summaryRow>;

const defOf = (name: ReportName): ReportDef => api.reports.REPORTS[name];

/** Whether the viewer may run this report this way (grouping, cost); the range is checked by rangeOf. */
export function checkReport(
  viewer: Viewer,
  name: ReportName,
  q: Pick<Query, 'group_by'>,
  field = 'group_by',
): void {
  const def = defOf(name);
  if (def.costOnly && !viewer.costVisible) throw forbidden();
  const bad = q.group_by.find((g) => !def.groups.includes(g));
  if (bad !== undefined) throw invalidField(field, 'statsGroupNotAllowed', [bad]);
  // "Enable reporting grouping" off: the report's own grouping only.
  if (!viewer.grouping && q.group_by.join(',') !== def.defaults.join(','))
    throw invalidField(field, 'statsGroupingOff');
}

/** Runs a report for a viewer: the summary question with the report's checks and default order. */
export async function runReport(db: Db, viewer: Viewer, name: ReportName, q: Query): Promise<Answer> {
  checkReport(viewer, name, q);
  const def = defOf(name);
  const costOrder = def.order === 'cost' || def.order === 'profit';
  const order = q.order_by ?? (def.order && (!costOrder || viewer.costVisible) ? def.order : undefined);
  // A report of one kind of traffic (the DID reports) never shows the other, whatever is asked.
  return summaryReport(db, viewer, { ...q, order_by: order, traffic: def.traffic ?? q.traffic });
}

/** Whether this viewer's answers carry cost (admins with the permission; never vendors' own side). */
const costShown = (viewer: Viewer) => viewer.costVisible && viewer.type === 'admin';

/** The columns of a report's file for this viewer and grouping, headers in `lang`. */
export function columnsOf(name: ReportName, groups: readonly GroupBy[], viewer: Viewer, lang: Language) {
  const L = api.reports.COLUMN_LABELS;
  const figures = defOf(name).columns.filter(
    (c) => costShown(viewer) || !api.reports.COST_COLUMNS.includes(c),
  );
  const cols: ExportColumn[] = [
    ...groups.map((g) => ({ key: g, header: L[g][lang] })),
    ...figures.map((c) => ({
      key: c,
      header: c === 'revenue' && viewer.type === 'vendor' ? earned[lang] : L[c][lang],
      numeric: true,
    })),
  ];
  return cols;
}
const earned: Record<Language, string> = { en: 'Earned', de: 'Verdient', ch: '收益' };

const minutes = (s: number | null) => (s === null ? null : (s / 60).toFixed(2));
const ratio = (v: number | null) => (v === null ? null : v);

/** One figure of a row as a file cell (minutes from seconds, money as exact text, share of the totals). */
function cell(c: ReportColumn, f: Figures, totals: Figures): unknown {
  switch (c) {
    case 'duration':
    case 'billed_time':
    case 'cost_billed_time':
      return minutes(f[c]);
    case 'share':
      return totals.attempts === 0 ? null : ((f.attempts / totals.attempts) * 100).toFixed(2);
    case 'asr':
    case 'acd':
    case 'aloc':
    case 'pdd':
    case 'ner':
      return ratio(f[c]);
    case 'attempts':
    case 'answered':
    case 'non_zero':
    case 'short_calls':
    case 'revenue':
    case 'cost':
    case 'profit':
    case 'margin':
      return f[c];
  }
}

function groupCell(g: GroupBy, r: Row): unknown {
  switch (g) {
    case 'customer':
      return r.customer ?? '';
    case 'vendor':
      return r.vendor ?? '';
    case 'ingress_trunk':
      return r.ingress_trunk ?? '';
    case 'egress_trunk':
      return r.egress_trunk ?? '';
    case 'code':
    case 'country':
    case 'ingress_host':
    case 'egress_host':
    case 'day':
    case 'hour':
    case 'release_cause':
      return r[g] ?? '';
  }
}

/** The rows of a report's file: one per group, then the totals row. */
export function sheetRows(
  name: ReportName,
  answer: Answer,
  groups: readonly GroupBy[],
  lang: Language,
): Record<string, unknown>[] {
  const figures = defOf(name).columns;
  const line = (f: Figures, group: (g: GroupBy) => unknown) => {
    const o: Record<string, unknown> = {};
    for (const g of groups) o[g] = group(g);
    for (const c of figures) o[c] = cell(c, f, answer.totals);
    return o;
  };
  const rows = groups.length ? answer.rows.map((r) => line(r, (g) => groupCell(g, r))) : [];
  const total = api.reports.COLUMN_LABELS.total[lang];
  rows.push(line(answer.totals, (g) => (g === groups[0] ? total : '')));
  return rows;
}

export const SEND_JOB = 'reports.send';
export const DUE_JOB = 'reports.due';

/** A report's run as the job mails it: the sheet (its last row the totals) and the totals for the mail's text. */
export interface MailedSheet {
  columns: ExportColumn[];
  rows: Record<string, unknown>[];
  lines: string[];
  /** False when part of the period is older than the figures. */
  complete: boolean;
}
/** The query of one run of a mailed report: its period in its zone, and its own filters. */
type RunQuery = { from: string; to: string; tz: string } & Record<string, unknown>;

/**
 * Every report that can be mailed or scheduled, the one way: how a stored query is read, what the
 * viewer must be allowed, and the sheet it makes (the declared reports and the channel report).
 */
export interface Mailed {
  label: string;
  func: string;
  portal?: readonly string[];
  parse(q: unknown): RunQuery;
  /** Refuses what the viewer may not run: grouping, cost, and with `range` the run's period. */
  check(viewer: Viewer, q: Record<string, unknown>, o?: { field?: string; range?: boolean }): void;
  sheet(s: Services, viewer: Viewer, lang: Language, q: RunQuery): Promise<MailedSheet>;
}

function summaryMailed(name: ReportName): Mailed {
  const def = defOf(name);
  return {
    label: def.label,
    func: def.func,
    portal: def.portal,
    parse: (q) => api.stats.summaryQuery.parse(q),
    check(viewer, q, { field = 'group_by', range = false } = {}) {
      const query = { group_by: [], ...q } as unknown as Query;
      checkReport(viewer, name, query, field);
      const scope = scopeOf(viewer);
      const bad = scope.allowedGroups && query.group_by.find((g) => !scope.allowedGroups!.includes(g));
      if (bad) throw invalidField(field, 'statsGroupNotAllowed', [bad]);
      if (range) rangeOf(query, scope);
    },
    async sheet(s, viewer, lang, q) {
      const query = q as Query;
      const answer = await runReport(s.db, viewer, name, query);
      const rows = sheetRows(name, answer, query.group_by, lang);
      const L = api.reports.COLUMN_LABELS;
      const t = answer.totals;
      return {
        columns: columnsOf(name, query.group_by, viewer, lang),
        rows,
        complete: answer.coverage.complete,
        lines: [
          `${L.attempts[lang]}: ${t.attempts}`,
          `${L.answered[lang]}: ${t.answered}`,
          `${L.duration[lang]}: ${minutes(t.duration)}`,
          `${viewer.type === 'vendor' ? earned[lang] : L.revenue[lang]}: ${t.revenue}`,
          ...(t.cost !== null ? [`${L.cost[lang]}: ${t.cost}`, `${L.profit[lang]}: ${t.profit}`] : []),
          `${L.asr[lang]}: ${t.asr ?? '–'}`,
          `${L.acd[lang]}: ${t.acd ?? '–'}`,
        ],
      };
    },
  };
}

const MAILED = Object.fromEntries([
  ...api.reports.REPORT_NAMES.map((n) => [n, summaryMailed(n)] as const),
  [api.reports.CHANNEL_REPORT, channelMail],
]) as Record<MailedReportName, Mailed>;

/** Whether a viewer of a user with these grants may open the report's screen now. */
const mayRead = (m: Mailed, viewer: Viewer, grants: Grants) =>
  viewer.type === 'admin' ? allows(grants, m.func, 'read') : (m.portal ?? []).includes(viewer.type);

interface SendPayload {
  logId: number;
  name: MailedReportName;
  userId: number;
  query: RunQuery;
  to: string[];
}

/** The job that runs a report as its owner and mails it as XLSX; its log row says how it went. */
async function send(s: Services, p: SendPayload, ctx: JobContext): Promise<unknown> {
  const m = MAILED[p.name];
  const fail = async (error: string) => {
    await s.db
      .updateTable('scheduled_report_log')
      .set({ status: 'failed', error })
      .where('id', '=', p.logId)
      .execute();
    return { error };
  };
  const who = await viewerOfUser(s, p.userId);
  if (!who) return fail('The owner of this report is no longer an active user');
  if (!mayRead(m, who.viewer, who.grants)) return fail('The owner of this report may no longer read it');
  let sheet: MailedSheet;
  try {
    m.check(who.viewer, p.query, { range: true });
    sheet = await m.sheet(s, who.viewer, who.lang, p.query);
  } catch (e) {
    // A permission or option lost since the schedule was saved: the report is not sent.
    return fail(e instanceof Error ? e.message : String(e));
  }
  const file = await xlsxBuffer(m.label, sheet.columns, sheet.rows, { boldLast: true });
  const range = `${p.query.from} – ${p.query.to} (GMT ${p.query.tz})`;
  const count = sheet.rows.length - 1;
  const lines = [
    `${m.label}, ${range}`,
    '',
    ...sheet.lines,
    '',
    `${count} rows and the totals are in the attached file.`,
    ...(sheet.complete
      ? []
      : ['', 'Part of this period is older than the traffic summaries: it has no figures.']),
  ];
  const error = await s.mailer.deliver({
    to: p.to.join(', '),
    subject: `${m.label} ${range}`,
    text: lines.join('\n'),
    kind: 'scheduled_report',
    attachments: [
      {
        filename: `${p.name}-${p.query.from.slice(0, 10)}.xlsx`,
        content: file,
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      },
    ],
  });
  if (error) {
    if (ctx.attempt < 3) throw new Error(error); // retried by the job runner
    return fail(error);
  }
  await s.db
    .updateTable('scheduled_report_log')
    .set({ status: 'sent', error: '', row_count: count, sent_at: new Date() })
    .where('id', '=', p.logId)
    .execute();
  return { rows: count, bytes: file.length };
}

/** Logs a report to mail and queues its job, in the caller's transaction. */
async function queueSend(
  s: Services,
  trx: Db,
  p: Omit<SendPayload, 'logId'> & {
    owner: string;
    scheduleId: number | null;
    scheduleName: string;
    key?: string;
  },
): Promise<number> {
  const log = await trx
    .insertInto('scheduled_report_log')
    .values({
      schedule_id: p.scheduleId,
      schedule_name: p.scheduleName,
      report: p.name,
      user_id: p.userId,
      owner: p.owner,
      period_from: p.query.from,
      period_to: p.query.to,
      recipients: JSON.stringify(p.to),
      job_id: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const job = await s.jobs.enqueue<SendPayload>(
    SEND_JOB,
    { logId: log.id, name: p.name, userId: p.userId, query: p.query, to: p.to },
    { db: trx, key: p.key, user: { user_id: p.scheduleId === null ? p.userId : null, name: p.owner } },
  );
  await trx.updateTable('scheduled_report_log').set({ job_id: job.id }).where('id', '=', log.id).execute();
  return job.id;
}

type ScheduleRecord = {
  id: number;
  report: string;
  name: string;
  frequency: 'daily' | 'weekly' | 'monthly';
  hour: number;
  tz: string;
  recipients: string;
  query: string;
  active: boolean;
  user_id: number;
  owner: string;
  next_run_at: Date;
  last_run_at: Date | null;
  created_at: Date;
};

const scheduleOut = (r: ScheduleRecord): api.reports.ScheduleRow => ({
  id: r.id,
  report: r.report,
  name: r.name,
  frequency: r.frequency,
  hour: r.hour,
  tz: r.tz,
  to: JSON.parse(r.recipients) as string[],
  query: JSON.parse(r.query) as Record<string, unknown>,
  active: r.active,
  owner: r.owner,
  next_run_at: r.next_run_at.toISOString(),
  last_run_at: r.last_run_at ? r.last_run_at.toISOString() : null,
  created_at: r.created_at.toISOString(),
});

/** The full report query of a schedule's run over a period. */
function queryOf(r: ScheduleRecord, period: { from: string; to: string }): RunQuery {
  const saved = JSON.parse(r.query) as Record<string, unknown>;
  return MAILED[r.report as MailedReportName].parse({ ...saved, from: period.from, to: period.to, tz: r.tz });
}

/**
 * Queues the runs of the schedules that are due at `now` (the recurring job `reports.due`): each
 * one's log row and job, and its next run moved forward, in one transaction with the row locked
 * (SKIP LOCKED: two processes never queue one run twice; the job key guards a retry too). A run
 * late by hours still covers the period before its slot; missed slots run once, not once each.
 */
export async function queueDueSchedules(s: Services, now = Date.now()): Promise<number> {
  return s.db.transaction().execute(async (trx) => {
    const due = (await trx
      .selectFrom('report_schedules')
      .selectAll()
      .where('active', '=', true)
      .where('next_run_at', '<=', new Date(now))
      .orderBy('next_run_at')
      .limit(200)
      .forUpdate()
      .skipLocked()
      .execute()) as ScheduleRecord[];
    for (const r of due) {
      const off = offsetMinutes(r.tz);
      const slot = r.next_run_at.getTime();
      const name = r.report;
      if (api.reports.isMailedReport(name)) {
        await queueSend(s, trx, {
          name,
          userId: r.user_id,
          owner: r.owner,
          scheduleId: r.id,
          scheduleName: r.name,
          query: queryOf(r, periodBefore(r.frequency, slot, off)),
          to: JSON.parse(r.recipients) as string[],
          key: `report-schedule:${r.id}@${new Date(slot).toISOString()}`,
        });
      }
      await trx
        .updateTable('report_schedules')
        .set({
          next_run_at: new Date(nextRunAfter(r.frequency, r.hour, off, Math.max(now, slot))),
          last_run_at: new Date(now),
        })
        .where('id', '=', r.id)
        .execute();
    }
    return due.length;
  });
}

/** Saves a schedule of a report for its owner, its first run the next slot from now. */
export async function saveSchedule(
  db: Db,
  owner: { user_id: number; name: string },
  name: MailedReportName,
  b: z.output<typeof api.reports.scheduleBody> & { query: Record<string, unknown> },
): Promise<ScheduleRecord> {
  return (await db
    .insertInto('report_schedules')
    .values({
      report: name,
      name: b.name,
      frequency: b.frequency,
      hour: b.hour,
      tz: b.tz,
      recipients: JSON.stringify(b.to),
      query: JSON.stringify(b.query),
      user_id: owner.user_id,
      owner: owner.name,
      next_run_at: new Date(nextRunAfter(b.frequency, b.hour, offsetMinutes(b.tz), Date.now())),
    })
    .returningAll()
    .executeTakeFirstOrThrow()) as ScheduleRecord;
}

/** A schedule the actor may change: its own, or any for admins with write on the scheduled report log. */
async function ownSchedule(
  db: Db,
  actor: Actor,
  id: number,
  level: 'read' | 'write',
): Promise<ScheduleRecord> {
  const r = (await db.selectFrom('report_schedules').selectAll().where('id', '=', id).executeTakeFirst()) as
    ScheduleRecord | undefined;
  const all = actor.type === 'admin' && allows(actor.grants, api.reports.LOG_FUNC, level);
  if (!r || (r.user_id !== actor.user.user_id && !all)) throw notFound();
  return r;
}

export function registerReports(app: FastifyInstance, s: Services): void {
  s.jobs.define<SendPayload>(SEND_JOB, (p, ctx) => send(s, p, ctx), { maxAttempts: 3, backoffMs: 30_000 });
  s.jobs.define(DUE_JOB, async () => ({ queued: await queueDueSchedules(s) }));
  s.jobs.every(DUE_JOB, { everyMinutes: 5 });

  /** "Send by e-mail now": the page's query, checked as the job will run it. */
  const emailNow = async (ctx: { actor: Actor; name: MailedReportName; query: RunQuery; to: string[] }) => {
    const viewer = await viewerFor(s.db, ctx.actor);
    MAILED[ctx.name].check(viewer, ctx.query, { range: true });
    const jobId = await s.db.transaction().execute((trx) =>
      queueSend(s, trx, {
        name: ctx.name,
        userId: ctx.actor.user.user_id,
        owner: ctx.actor.user.name,
        scheduleId: null,
        scheduleName: '',
        query: ctx.query,
        to: ctx.to,
      }),
    );
    s.jobs.runner.wake();
    return { job_id: jobId };
  };
  const schedule = async (
    actor: Actor,
    name: MailedReportName,
    b: z.output<typeof api.reports.scheduleBody> & { query: Record<string, unknown> },
  ) => {
    MAILED[name].check(await viewerFor(s.db, actor), b.query, { field: 'query.group_by' });
    return scheduleOut(await saveSchedule(s.db, actor.user, name, b));
  };

  for (const name of api.reports.REPORT_NAMES) {
    const calls = api.reports.calls[name];
    if (name !== 'summary_report')
      implement(app, s, calls.get, async (ctx) =>
        runReport(s.db, await viewerFor(s.db, actorOf(ctx)), name, ctx.query),
      );
    implement(app, s, calls.email, (ctx) =>
      emailNow({ actor: actorOf(ctx), name, query: ctx.body.query, to: ctx.body.to }),
    );
    implement(app, s, calls.schedule, (ctx) => schedule(actorOf(ctx), name, ctx.body));
  }
  const channel = api.reports.channelCalls;
  implement(app, s, channel.email, (ctx) =>
    emailNow({
      actor: actorOf(ctx),
      name: api.reports.CHANNEL_REPORT,
      query: ctx.body.query,
      to: ctx.body.to,
    }),
  );
  implement(app, s, channel.schedule, (ctx) => schedule(actorOf(ctx), api.reports.CHANNEL_REPORT, ctx.body));

  implement(app, s, api.reports.listSchedules, async (ctx) => {
    const actor = actorOf(ctx);
    let qb = s.db.selectFrom('report_schedules').selectAll();
    if (ctx.query.mine || !(actor.type === 'admin' && allows(actor.grants, api.reports.LOG_FUNC, 'read')))
      qb = qb.where('user_id', '=', actor.user.user_id);
    if (ctx.query.report) qb = qb.where('report', '=', ctx.query.report);
    const page = await pageOf(
      qb,
      ctx.query,
      { name: 'name', report: 'report', next_run_at: 'next_run_at', created_at: 'created_at' },
      'created_at',
      'id',
    );
    return { items: (page.items as ScheduleRecord[]).map(scheduleOut), total: page.total };
  });

  implement(app, s, api.reports.setScheduleActive, async (ctx) => {
    const r = await ownSchedule(s.db, actorOf(ctx), ctx.params.id, 'write');
    const next = ctx.body.active
      ? new Date(nextRunAfter(r.frequency, r.hour, offsetMinutes(r.tz), Date.now()))
      : r.next_run_at;
    const row = (await s.db
      .updateTable('report_schedules')
      .set({ active: ctx.body.active, next_run_at: next })
      .where('id', '=', r.id)
      .returningAll()
      .executeTakeFirstOrThrow()) as ScheduleRecord;
    return scheduleOut(row);
  });

  implement(app, s, api.reports.deleteSchedule, async (ctx) => {
    const r = await ownSchedule(s.db, actorOf(ctx), ctx.params.id, 'write');
    await s.db.deleteFrom('report_schedules').where('id', '=', r.id).execute();
    return { id: r.id };
  });

  implement(app, s, api.reports.runSchedule, async (ctx) => {
    const r = await ownSchedule(s.db, actorOf(ctx), ctx.params.id, 'write');
    const name = r.report;
    if (!api.reports.isMailedReport(name)) throw notFound();
    const now = Date.now();
    const jobId = await s.db.transaction().execute((trx) =>
      queueSend(s, trx, {
        name,
        userId: r.user_id,
        owner: r.owner,
        scheduleId: r.id,
        scheduleName: r.name,
        query: queryOf(r, periodBefore(r.frequency, now, offsetMinutes(r.tz))),
        to: JSON.parse(r.recipients) as string[],
      }),
    );
    s.jobs.runner.wake();
    return { job_id: jobId };
  });

  implement(app, s, api.reports.listLog, async (ctx) => {
    let qb = s.db.selectFrom('scheduled_report_log').selectAll();
    if (ctx.query.status) qb = qb.where('status', '=', ctx.query.status);
    if (ctx.query.report) qb = qb.where('report', '=', ctx.query.report);
    const page = await pageOf(
      qb,
      newestFirst(ctx.query),
      { created_at: 'created_at', report: 'report', status: 'status', owner: 'owner' },
      'created_at',
      'id',
    );
    return {
      items: page.items.map((r) => ({
        id: r.id,
        schedule_id: r.schedule_id,
        schedule_name: r.schedule_name,
        report: r.report,
        owner: r.owner,
        period_from: r.period_from,
        period_to: r.period_to,
        to: JSON.parse(r.recipients) as string[],
        status: r.status,
        rows: r.row_count,
        error: r.error,
        job_id: r.job_id,
        created_at: r.created_at.toISOString(),
        sent_at: r.sent_at ? r.sent_at.toISOString() : null,
      })),
      total: page.total,
    };
  });

  implement(app, s, api.reports.getChannelUsage, async (ctx) =>
    channelUsage(s.db, await viewerFor(s.db, actorOf(ctx)), ctx.query),
  );
  registerReportExports(s);
  registerChannelExport(s);
}

/** Export kinds `report.{name}`: the report as XLSX or CSV in the export log (POST /export/create). */
function registerReportExports(s: Services): void {
  for (const name of api.reports.REPORT_NAMES) {
    const def = defOf(name);
    s.exports.register<Query, { viewer: Viewer; lang: Language; groups: GroupBy[] }>(`report.${name}`, {
      permission: { func: def.func, level: 'read', portal: def.portal },
      filter: api.stats.summaryQuery,
      fileName: name,
      sheet: def.label,
      async prepare(filter, actor, lang) {
        const viewer = await viewerFor(s.db, actor);
        checkReport(viewer, name, filter);
        rangeOf(filter, scopeOf(viewer));
        return { viewer, lang, groups: filter.group_by };
      },
      columns: ({ viewer, lang, groups }) => columnsOf(name, groups, viewer, lang),
      async *pages(filter, _user, { viewer, lang }) {
        const answer = await runReport(s.db, viewer, name, filter);
        yield sheetRows(name, answer, filter.group_by, lang);
      },
    });
  }
}
