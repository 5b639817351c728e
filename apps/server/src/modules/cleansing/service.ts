import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import {
  api,
  type CdrPartition,
  type CleansingLog,
  type CleansingSettings,
  type CleansingState,
} from '@tandem/contract';
import { yieldToLoop } from '../../event-loop';
import type { JobContext } from '../../jobs/queue';
import { describeSchedule, nextSlot, type Schedule } from '../../jobs/schedule';
import type { Services } from '../../services';
import { dayOf, partitionName, retentionCutoffDay, type CdrPartitions } from '../cdr/partitions';
import { foldSummaries } from '../stats/summaries';

/**
 * DB Cleansing (docs/cdr.md "Retention"): one daily job keeps the database's size flat. It makes the
 * CDR day partitions ahead, drops the days past `cdr_retention_days`, deletes the operational logs
 * past `log_retention_days` and the export files past `export_retention_days`. `cleansingState`
 * counts what the next run removes with the same cut-offs the run uses (`cutoffs`), so the preview
 * on the page and the run cannot disagree.
 */
export const CLEANSING_SCHEDULE: Schedule = { daily: '01:00' };
/** Days of CDR partitions made ahead of today (the ingest makes any it still lacks). */
export const PARTITION_DAYS_AHEAD = 7;
/** Rows one delete statement removes: a slice of work, so a year of minute jobs never holds the database. */
const DELETE_CHUNK = 2_000;
const DAY_MS = 86_400_000;

/**
 * The logs under the log retention: table, time column, and which rows are never removed (a job
 * still pending or running; a job an export row still points at, so its file stays downloadable).
 */
const LOG_TABLES: Record<CleansingLog, { table: string; at: string; key: string; keep?: string }> = {
  signin_history: { table: 'signin_history', at: 'created_at', key: 'id' },
  retrieve_password_log: { table: 'retrieve_password_log', at: 'created_at', key: 'id' },
  email_log: { table: 'email_log', at: 'created_at', key: 'id' },
  scheduler_log: {
    table: 'jobs',
    at: 'created_at',
    key: 'id',
    keep: `status IN ('pending', 'running') OR EXISTS (SELECT 1 FROM export_log e WHERE e.job_id = jobs.id)`,
  },
  monitoring_log: { table: 'monitoring_log', at: 'at', key: 'id' },
  scheduled_report_log: { table: 'scheduled_report_log', at: 'created_at', key: 'id' },
};

export interface Cutoffs {
  /** Partitions of days before this (UTC midnight, ms) are dropped; null keeps all. */
  cdrDay: number | null;
  log: Date | null;
  export: Date | null;
}

export function cutoffs(settings: CleansingSettings, nowMs: number): Cutoffs {
  const before = (days: number) => (days > 0 ? new Date(nowMs - days * DAY_MS) : null);
  return {
    cdrDay: retentionCutoffDay(nowMs, settings.cdr_retention_days),
    log: before(settings.log_retention_days),
    export: before(settings.export_retention_days),
  };
}

export async function retentions(s: Services): Promise<CleansingSettings> {
  const sys = await s.settings.system();
  return {
    cdr_retention_days: sys.cdr_retention_days,
    log_retention_days: sys.log_retention_days,
    export_retention_days: sys.export_retention_days,
  };
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const iso = (d: Date | string | null | undefined) => (d == null ? null : new Date(d).toISOString());
const num = (v: unknown) => Number(v ?? 0);

/** What the page shows: every partition, log and the exports, with what the next run removes. */
export async function cleansingState(
  s: Services,
  partitions: CdrPartitions,
  nowMs = Date.now(),
): Promise<CleansingState> {
  const settings = await retentions(s);
  const cut = cutoffs(settings, nowMs);
  const today = dayOf(nowMs);

  const held = await partitions.list({ withSize: true });
  // The daily summaries count every CDR of a day exactly (once the queued batches are folded):
  // no count over a partition of millions of rows.
  await foldSummaries(s.db);
  const counts = new Map<number, number>();
  if (held.length > 0) {
    const r = await s.db
      .selectFrom('cdr_summaries_daily')
      .select(['bucket', (eb) => eb.fn.sum<string>('attempts').as('n')])
      .where('bucket', '>=', new Date(held[0]!.day))
      .groupBy('bucket')
      .execute();
    for (const x of r) counts.set(dayOf(new Date(x.bucket).getTime()), num(x.n));
  }
  const list: CdrPartition[] = held
    .map(({ day, bytes }) => {
      const name = partitionName(day);
      const state: CdrPartition['state'] =
        cut.cdrDay !== null && day < cut.cdrDay ? 'drops' : day > today ? 'ahead' : 'kept';
      return { day: isoDay(day), name, cdrs: counts.get(day) ?? 0, bytes, state };
    })
    .reverse();
  const dropping = list.filter((p) => p.state === 'drops');
  const sum = (xs: CdrPartition[], k: 'cdrs' | 'bytes') => xs.reduce((a, p) => a + p[k], 0);

  const logs: CleansingState['logs'] = [];
  for (const [log, t] of Object.entries(LOG_TABLES) as [CleansingLog, (typeof LOG_TABLES)[CleansingLog]][]) {
    const removable = t.keep ? `NOT (${t.keep})` : 'true';
    const r = await sql<{ rows: string; drops: string; oldest: Date | null }>`
      SELECT count(*)::text AS rows, min(${sql.ref(t.at)}) AS oldest,
        count(*) FILTER (WHERE ${sql.ref(t.at)} < ${cut.log ?? new Date(0)} AND ${sql.raw(removable)})::text AS drops
      FROM ${sql.table(t.table)}`.execute(s.db);
    const x = r.rows[0]!;
    logs.push({ log, rows: num(x.rows), drops: cut.log ? num(x.drops) : 0, oldest: iso(x.oldest) });
  }

  const ex = await sql<{
    rows: string;
    bytes: string;
    drops: string;
    drop_bytes: string;
    oldest: Date | null;
  }>`
    SELECT count(*)::text AS rows, coalesce(sum(size_bytes), 0)::text AS bytes, min(created_at) AS oldest,
      count(*) FILTER (WHERE created_at < ${cut.export ?? new Date(0)})::text AS drops,
      coalesce(sum(size_bytes) FILTER (WHERE created_at < ${cut.export ?? new Date(0)}), 0)::text AS drop_bytes
    FROM export_log`.execute(s.db);
  const e = ex.rows[0]!;

  const last = await s.db
    .selectFrom('jobs')
    .select(['id', 'status', 'started_at', 'finished_at', 'progress_message', 'error', 'result'])
    .where('kind', '=', api.cleansing.CLEANSING_JOB)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();

  return {
    settings,
    now: new Date(nowMs).toISOString(),
    schedule: describeSchedule(CLEANSING_SCHEDULE),
    next_run_at: new Date(nextSlot(CLEANSING_SCHEDULE, nowMs)).toISOString(),
    last_run: last
      ? {
          job_id: Number(last.id),
          status: last.status,
          started_at: iso(last.started_at),
          finished_at: iso(last.finished_at),
          progress_message: last.progress_message,
          error: last.error,
          done: last.status === 'finished' ? summaryOf(last.result) : null,
        }
      : null,
    cdr_cutoff: cut.cdrDay === null ? null : isoDay(cut.cdrDay),
    partitions: list,
    cdr_totals: {
      partitions: list.length,
      cdrs: sum(list, 'cdrs'),
      bytes: sum(list, 'bytes'),
      drop_partitions: dropping.length,
      drop_cdrs: sum(dropping, 'cdrs'),
      drop_bytes: sum(dropping, 'bytes'),
    },
    log_cutoff: iso(cut.log),
    logs,
    export_cutoff: iso(cut.export),
    exports: {
      rows: num(e.rows),
      drops: cut.export ? num(e.drops) : 0,
      oldest: iso(e.oldest),
      bytes: num(e.bytes),
      drop_bytes: cut.export ? num(e.drop_bytes) : 0,
    },
  };
}

export interface CleansingResult {
  partitions_made: number;
  partitions_dropped: string[];
  logs_deleted: Partial<Record<CleansingLog, number>>;
  exports_deleted: number;
  retention: CleansingSettings;
}

/** A finished run's result as counts (null for a result of another shape, as the old cdr.partitions'). */
function summaryOf(result: unknown): NonNullable<CleansingState['last_run']>['done'] {
  const r = result as Partial<CleansingResult> | null;
  if (!r || !Array.isArray(r.partitions_dropped) || typeof r.partitions_made !== 'number') return null;
  return {
    partitions_made: r.partitions_made,
    partitions_dropped: r.partitions_dropped.length,
    log_entries_deleted: Object.values(r.logs_deleted ?? {}).reduce((a, b) => a + (b ?? 0), 0),
    exports_deleted: r.exports_deleted ?? 0,
  };
}

/**
 * One run: partitions ahead, then each removal with the run's cut-offs. Every step is idempotent
 * and commits on its own (a partition with its keys in one transaction, a log in chunks), so a run
 * taken over after a crash repeats what was left. Deletes go in chunks with a yield between them:
 * a first run over a year of logs holds neither the database nor the call path.
 */
export async function runCleansing(
  s: Services,
  partitions: CdrPartitions,
  ctx: Pick<JobContext, 'progress' | 'signal'>,
  nowMs = Date.now(),
): Promise<CleansingResult> {
  const settings = await retentions(s);
  const cut = cutoffs(settings, nowMs);
  const steps = 3 + Object.keys(LOG_TABLES).length;
  let step = 0;
  const progress = (message: string) => ctx.progress({ done: step++, total: steps, message });

  progress('making partitions ahead');
  const made = await partitions.makeAhead(nowMs, PARTITION_DAYS_AHEAD);
  ctx.signal.throwIfAborted();
  progress(`dropping CDR days older than ${settings.cdr_retention_days} days`);
  const dropped = await partitions.dropOlderThan(nowMs, settings.cdr_retention_days);

  const logsDeleted: CleansingResult['logs_deleted'] = {};
  for (const [log, t] of Object.entries(LOG_TABLES) as [CleansingLog, (typeof LOG_TABLES)[CleansingLog]][]) {
    ctx.signal.throwIfAborted();
    progress(`${log}: deleting entries older than ${settings.log_retention_days} days`);
    if (!cut.log) continue;
    let n = 0;
    for (;;) {
      const r = await sql`
        DELETE FROM ${sql.table(t.table)} WHERE ${sql.ref(t.key)} IN (
          SELECT ${sql.ref(t.key)} FROM ${sql.table(t.table)}
          WHERE ${sql.ref(t.at)} < ${cut.log} ${sql.raw(t.keep ? `AND NOT (${t.keep})` : '')}
          LIMIT ${DELETE_CHUNK})`.execute(s.db);
      const k = Number(r.numAffectedRows ?? 0);
      n += k;
      if (k < DELETE_CHUNK) break;
      ctx.signal.throwIfAborted();
      await yieldToLoop();
    }
    logsDeleted[log] = n;
  }

  ctx.signal.throwIfAborted();
  progress(`deleting exports older than ${settings.export_retention_days} days`);
  const exportsDeleted = cut.export ? await deleteExports(s, cut.export) : 0;
  progress(
    `${made} partitions made, ${dropped.length} dropped, ${Object.values(logsDeleted).reduce((a, b) => a + (b ?? 0), 0)} log entries and ${exportsDeleted} exports deleted`,
  );
  return {
    partitions_made: made,
    partitions_dropped: dropped,
    logs_deleted: logsDeleted,
    exports_deleted: exportsDeleted,
    retention: settings,
  };
}

/** Export rows older than `before` with their files (the file first: a row never outlives a file it names). */
async function deleteExports(s: Services, before: Date): Promise<number> {
  let n = 0;
  for (;;) {
    const rows = await s.db
      .selectFrom('export_log')
      .select(['id', 'path'])
      .where('created_at', '<', before)
      .orderBy('id')
      .limit(DELETE_CHUNK)
      .execute();
    if (rows.length === 0) return n;
    for (const r of rows) {
      if (!r.path) continue;
      const file = path.join(s.exports.dir, path.basename(r.path));
      fs.rmSync(file, { force: true });
      fs.rmSync(`${file}.part`, { force: true });
    }
    await s.db
      .deleteFrom('export_log')
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    n += rows.length;
    if (rows.length < DELETE_CHUNK) return n;
    await yieldToLoop();
  }
}
