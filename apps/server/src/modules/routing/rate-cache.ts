import type { RateRowConfig } from '@tandem/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';

/**
 * The rate rows of every rate table, kept between snapshot builds so a rebuild reads only what
 * changed. The rows are the driver's own result objects, selected in the domain's RateRowConfig
 * shape (money as decimal text, dates as epoch ms), so no second object is made per row.
 *
 * What changed comes from rate_changes (statement triggers on rates, migration 0005): each change
 * names a rate row, or a whole table when one statement touched more than 1,000 rows, and the
 * writing transaction. The cache remembers the oldest transaction still running when it last read
 * (the snapshot's xmin): every change of a transaction at or above it is read again next time, so
 * a transaction that commits late is never missed. Applying a change is idempotent: the row is
 * re-read by id (gone = deleted).
 */
export interface CachedRate extends RateRowConfig {
  readonly rate_id: number;
  readonly rate_table_id: number;
}

interface TableRows {
  rows: CachedRate[];
  /** rate_id -> position in rows (built page by page while loading, so a later change finds its row at once). */
  index: Map<number, number> | null;
}

const PAGE = 20_000;
/**
 * Lets other work run between pages: PGlite runs a query in this thread and its promise chain
 * may never give timers and sockets a turn, so a long load would otherwise hold every request.
 */
export const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const COLUMNS =
  sql.raw(`rate_id, rate_table_id, code, code_name, country, rate::text AS rate, intra_rate::text AS intra_rate,
  inter_rate::text AS inter_rate, ij_rate::text AS ij_rate, local_rate::text AS local_rate, min_time, "interval", grace_time,
  setup_fee::text AS setup_fee, (extract(epoch FROM effective_date) * 1000)::float8 AS effective_date,
  (extract(epoch FROM end_date) * 1000)::float8 AS end_date`);

export interface RateLoad {
  kind: 'full' | 'incremental';
  /** Rows read from the database by this load. */
  rows_read: number;
  /**
   * Incremental loads whose every change kept its row's table, code and dates: the new rows, which
   * the snapshot can take without a full build (domain patchRateRows). Null: rows came, went or
   * moved, or whole tables were read.
   */
  patches: { rate_table_id: number; row: CachedRate }[] | null;
}

export class RateCache {
  private tables = new Map<number, TableRows>();
  /** xmin of the last load, as text (xid8); null before the first load. */
  private watermark: string | null = null;
  private lastPrune = 0;
  /** Changes at or above the watermark already applied: seq -> xid. */
  private applied = new Map<number, bigint>();

  constructor(
    private readonly db: Db,
    private readonly stopped: () => boolean = () => false,
  ) {}

  /** Rows of one table (empty when the table has none). */
  rowsOf(rateTableId: number): readonly CachedRate[] {
    return this.tables.get(rateTableId)?.rows ?? [];
  }

  get rowCount(): number {
    let n = 0;
    for (const t of this.tables.values()) n += t.rows.length;
    return n;
  }

  /** Brings the cache up to date with the database. */
  async refresh(): Promise<RateLoad> {
    if (this.watermark === null) return this.fullLoad();
    const watermark = await this.currentXmin();
    const changes = (
      await sql<{ seq: number; xid: string; rate_table_id: number; rate_id: number | null }>`
        SELECT seq, xid::text AS xid, rate_table_id, rate_id FROM rate_changes WHERE xid >= ${this.watermark}::xid8 ORDER BY seq`.execute(
        this.db,
      )
    ).rows.filter((c) => !this.applied.has(Number(c.seq)));
    if (changes.some((c) => c.rate_table_id === 0 && c.rate_id === null)) return this.fullLoad();

    const whole = new Set(changes.filter((c) => c.rate_id === null).map((c) => c.rate_table_id));
    let patches: RateLoad['patches'] = whole.size ? null : [];
    const ids = [
      ...new Set(
        changes
          .filter((c) => c.rate_id !== null && !whole.has(c.rate_table_id))
          .map((c) => Number(c.rate_id)),
      ),
    ];
    let read = 0;
    for (const t of whole) read += await this.loadTable(t);
    if (ids.length) {
      // Where each changed row lived before, from the change log (its table at the time).
      const formerTables = new Map<number, Set<number>>();
      for (const c of changes) {
        if (c.rate_id === null) continue;
        const set = formerTables.get(Number(c.rate_id)) ?? new Set<number>();
        set.add(c.rate_table_id);
        formerTables.set(Number(c.rate_id), set);
      }
      for (let i = 0; i < ids.length; i += 10_000) {
        const chunk = ids.slice(i, i + 10_000);
        const fresh = (
          await sql<CachedRate>`SELECT ${COLUMNS} FROM rates WHERE rate_id = ANY(${chunk}::bigint[])`.execute(
            this.db,
          )
        ).rows;
        read += fresh.length;
        const byId = new Map(fresh.map((r) => [Number(r.rate_id), r]));
        for (const rateId of chunk) {
          const row = byId.get(rateId);
          const before = [...(formerTables.get(rateId) ?? [])]
            .map((t) => this.find(t, rateId))
            .filter((r) => r !== undefined);
          if (patches !== null && (!row || before.length !== 1 || !sameKey(before[0]!, row))) patches = null;
          for (const t of formerTables.get(rateId) ?? []) if (!whole.has(t)) this.remove(t, rateId);
          if (row && !whole.has(row.rate_table_id)) {
            this.put(row);
            patches?.push({ rate_table_id: row.rate_table_id, row });
          }
        }
      }
    }
    this.advance(watermark, changes);
    await this.prune();
    return { kind: 'incremental', rows_read: read, patches };
  }

  /** Forgets tables that no longer exist. */
  retain(rateTableIds: ReadonlySet<number>): void {
    for (const id of this.tables.keys()) if (!rateTableIds.has(id)) this.tables.delete(id);
  }

  private async fullLoad(): Promise<RateLoad> {
    const watermark = await this.currentXmin();
    const tables = new Map<number, TableRows>();
    let last = 0;
    let read = 0;
    for (;;) {
      if (this.stopped()) throw new Error('stopped');
      const page = (
        await sql<CachedRate>`SELECT ${COLUMNS} FROM rates WHERE rate_id > ${last} ORDER BY rate_id LIMIT ${PAGE}`.execute(
          this.db,
        )
      ).rows;
      for (const r of page) {
        let t = tables.get(r.rate_table_id);
        if (!t) tables.set(r.rate_table_id, (t = { rows: [], index: new Map() }));
        t.index!.set(Number(r.rate_id), t.rows.length);
        t.rows.push(r);
      }
      read += page.length;
      await yieldToLoop();
      if (page.length < PAGE) break;
      last = Number(page[page.length - 1]!.rate_id);
    }
    this.tables = tables;
    this.applied.clear();
    // Changes of transactions still running when the load began are applied (again) next time.
    this.watermark = watermark;
    return { kind: 'full', rows_read: read, patches: null };
  }

  private async loadTable(rateTableId: number): Promise<number> {
    const rows: CachedRate[] = [];
    const index = new Map<number, number>();
    let last = 0;
    for (;;) {
      if (this.stopped()) throw new Error('stopped');
      const page = (
        await sql<CachedRate>`SELECT ${COLUMNS} FROM rates WHERE rate_table_id = ${rateTableId} AND rate_id > ${last} ORDER BY rate_id LIMIT ${PAGE}`.execute(
          this.db,
        )
      ).rows;
      for (const r of page) {
        index.set(Number(r.rate_id), rows.length);
        rows.push(r);
      }
      await yieldToLoop();
      if (page.length < PAGE) break;
      last = Number(page[page.length - 1]!.rate_id);
    }
    if (rows.length) this.tables.set(rateTableId, { rows, index });
    else this.tables.delete(rateTableId);
    return rows.length;
  }

  private indexOf(t: TableRows): Map<number, number> {
    if (t.index === null) {
      const index = new Map<number, number>();
      t.rows.forEach((r, i) => index.set(Number(r.rate_id), i));
      t.index = index;
    }
    return t.index;
  }

  private find(rateTableId: number, rateId: number): CachedRate | undefined {
    const t = this.tables.get(rateTableId);
    if (!t) return undefined;
    const at = this.indexOf(t).get(rateId);
    return at === undefined ? undefined : t.rows[at];
  }

  private remove(rateTableId: number, rateId: number): void {
    const t = this.tables.get(rateTableId);
    if (!t) return;
    const index = this.indexOf(t);
    const at = index.get(rateId);
    if (at === undefined) return;
    const lastRow = t.rows.pop()!;
    index.delete(rateId);
    if (at < t.rows.length) {
      t.rows[at] = lastRow;
      index.set(Number(lastRow.rate_id), at);
    }
  }

  private put(row: CachedRate): void {
    let t = this.tables.get(row.rate_table_id);
    if (!t) this.tables.set(row.rate_table_id, (t = { rows: [], index: new Map() }));
    const index = this.indexOf(t);
    const rateId = Number(row.rate_id);
    const at = index.get(rateId);
    if (at !== undefined) t.rows[at] = row;
    else {
      index.set(rateId, t.rows.length);
      t.rows.push(row);
    }
  }

  private advance(watermark: string, changes: { seq: number; xid: string }[]): void {
    for (const c of changes) this.applied.set(Number(c.seq), BigInt(c.xid));
    // Changes below the new watermark will never be read again.
    const floor = BigInt(watermark);
    for (const [seq, xid] of this.applied) if (xid < floor) this.applied.delete(seq);
    this.watermark = watermark;
  }

  /** At most hourly: forgets changes older than a day (every running server has read them long since). */
  private async prune(): Promise<void> {
    if (Date.now() - this.lastPrune < 3_600_000) return;
    this.lastPrune = Date.now();
    await sql`DELETE FROM rate_changes WHERE at < now() - interval '1 day'`.execute(this.db);
  }

  private async currentXmin(): Promise<string> {
    const r = await sql<{
      xmin: string;
    }>`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin`.execute(this.db);
    return r.rows[0]!.xmin;
  }
}

/** Same table, code and dates: only values changed. */
function sameKey(a: CachedRate, b: CachedRate): boolean {
  return (
    a.rate_table_id === b.rate_table_id &&
    a.code === b.code &&
    (a.effective_date ?? null) === (b.effective_date ?? null) &&
    (a.end_date ?? null) === (b.end_date ?? null)
  );
}
