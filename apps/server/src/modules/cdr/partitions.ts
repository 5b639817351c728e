import { sql } from 'kysely';
import type { Db } from '../../db/connection';

/**
 * CDRs are partitioned by UTC day of start time (migration 0012): one table `cdrs_YYYYMMDD` per day.
 * The ingest makes the partitions a batch needs before its transaction (outside it: DDL would lock
 * the parent for the whole batch), the daily job makes the next days ahead and drops the days past
 * the retention. Partitions known to exist are cached per process.
 */
const DAY_MS = 86_400_000;

export const partitionName = (dayMs: number): string =>
  `cdrs_${new Date(dayMs).toISOString().slice(0, 10).replaceAll('-', '')}`;

/** The UTC day (epoch ms of its midnight) of an instant. */
export const dayOf = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

/** The first day kept under a retention of `retentionDays` (days before it go); null when 0 keeps all. */
export const retentionCutoffDay = (nowMs: number, retentionDays: number): number | null =>
  retentionDays > 0 ? dayOf(nowMs) - retentionDays * DAY_MS : null;

/**
 * Brings the planner's statistics up to date on the day partitions of [fromMs, toMs) that were never
 * analysed (an empty one costs a millisecond) or changed by more than a tenth since (autovacuum lags behind a bulk ingest: a day just
 * filled can have none). Without them PostgreSQL guessed a 5,000-row keyset step over a million
 * fresh CDRs as 645 rows, read the rest of the day and sorted it for every step (a rerate's chunks
 * became quadratic: 326 ms a step instead of 6). Returns the partitions analysed.
 */
export async function analyzeStaleDays(db: Db, fromMs: number, toMs: number): Promise<string[]> {
  const names: string[] = [];
  for (let d = dayOf(fromMs); d < toMs; d += DAY_MS) names.push(partitionName(d));
  if (names.length === 0 || names.length > 400) return [];
  // reltuples < 0: never analysed nor vacuumed (immediate, unlike the activity counters, which
  // reach pg_stat_user_tables up to a second after a commit)
  const r = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_class c LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
    WHERE c.relname = ANY(${names}::text[]) AND c.relkind = 'r'
      AND (c.reltuples < 0 OR (s.n_mod_since_analyze > 1000 AND s.n_mod_since_analyze > s.n_live_tup / 10))`.execute(
    db,
  );
  const stale = r.rows.map((x) => x.name).filter((n) => /^cdrs_\d{8}$/.test(n));
  for (const name of stale) await sql.raw(`ANALYZE ${name}`).execute(db);
  return stale;
}

export class CdrPartitions {
  private readonly known = new Set<number>();
  private loaded = false;

  constructor(private readonly db: Db) {}

  /** Makes sure a partition exists for every day in `days` (epoch ms of UTC midnights). */
  async ensure(days: Iterable<number>): Promise<void> {
    const missing = [...new Set(days)].filter((d) => !this.known.has(d));
    if (missing.length === 0) return;
    if (!this.loaded) {
      for (const d of await this.list()) this.known.add(d);
      this.loaded = true;
    }
    for (const day of missing.sort((a, b) => a - b)) {
      if (this.known.has(day)) continue;
      await this.create(day);
      this.known.add(day);
    }
  }

  /** Days with a partition, ascending; with `withSize`, each with its size on disk (bytes, with indexes). */
  async list(): Promise<number[]>;
  async list(opts: { withSize: true }): Promise<{ day: number; bytes: number }[]>;
  async list(opts?: { withSize: true }): Promise<number[] | { day: number; bytes: number }[]> {
    const r = await sql<{ name: string; bytes: string | null }>`
      SELECT c.relname AS name, ${sql.raw(opts?.withSize ? 'pg_total_relation_size(c.oid)::text' : 'NULL')} AS bytes
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
      WHERE p.relname = 'cdrs' ORDER BY c.relname`.execute(this.db);
    const held = r.rows.flatMap((x) => {
      const m = /^cdrs_(\d{4})(\d{2})(\d{2})$/.exec(x.name);
      return m
        ? [{ day: Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])), bytes: Number(x.bytes ?? 0) }]
        : [];
    });
    return opts?.withSize ? held : held.map((x) => x.day);
  }

  private async create(day: number): Promise<void> {
    const name = partitionName(day);
    const from = new Date(day).toISOString();
    const to = new Date(day + DAY_MS).toISOString();
    try {
      await sql
        .raw(`CREATE TABLE IF NOT EXISTS ${name} PARTITION OF cdrs FOR VALUES FROM ('${from}') TO ('${to}')`)
        .execute(this.db);
    } catch (err) {
      // Another process made it between our look and our create.
      if (!(await this.list()).includes(day)) throw err;
    }
  }

  /** Partitions from today to `daysAhead` days ahead (the daily job). */
  async makeAhead(nowMs: number, daysAhead: number): Promise<number> {
    const days: number[] = [];
    for (let i = 0; i <= daysAhead; i++) days.push(dayOf(nowMs) + i * DAY_MS);
    const before = this.known.size;
    await this.ensure(days);
    return this.known.size - before;
  }

  /** Drops the partitions of days entirely older than `retentionDays` (0 keeps everything). */
  async dropOlderThan(nowMs: number, retentionDays: number): Promise<string[]> {
    const cutoff = retentionCutoffDay(nowMs, retentionDays);
    if (cutoff === null) return [];
    const dropped: string[] = [];
    for (const day of await this.list()) {
      if (day >= cutoff) continue;
      const name = partitionName(day);
      await this.db.transaction().execute(async (trx) => {
        await sql.raw(`ALTER TABLE cdrs DETACH PARTITION ${name}`).execute(trx);
        await sql.raw(`DROP TABLE ${name}`).execute(trx);
        await sql`DELETE FROM cdr_keys WHERE start_time >= ${new Date(day)} AND start_time < ${new Date(day + DAY_MS)}`.execute(
          trx,
        );
      });
      this.known.delete(day);
      dropped.push(name);
    }
    return dropped;
  }
}
