import {
  MoneyReader,
  RateStore,
  writeRateRowChecked,
  type RateRow,
  type RateRowColumns,
  type RateRowConfig,
} from '@tandem/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { runStepsInSlices, sliceUsed, yieldToLoop } from '../../event-loop';

/**
 * The rate rows of every rate table, kept between snapshot builds so a rebuild reads only what
 * changed. Each table's rows live in columns (the domain's RateStore: typed arrays for the
 * amounts, counts and dates, shared strings for names), parsed and checked once when read: a
 * million cached rates are a few arrays, not a million objects for the garbage collector to
 * walk, and a snapshot build copies them without parsing (domain RateTableConfig.columns).
 *
 * What changed comes from rate_changes (statement triggers on rates, migration 0005): each change
 * names a rate row, or a whole table when one statement touched more than 1,000 rows, and the
 * writing transaction. The cache remembers the oldest transaction still running when it last read
 * (the snapshot's xmin): every change of a transaction at or above it is read again next time, so
 * a transaction that commits late is never missed. Applying a change is idempotent: the row is
 * re-read by id (gone = deleted).
 */
/** A rate row as read from the database: the domain's RateRowConfig (money as decimal text, dates as epoch ms) and its ids. */
interface DbRate extends RateRowConfig {
  readonly rate_id: number | string;
  readonly rate_table_id: number;
}

/** A row that failed its checks, as the build is told of it. */
type Problem = NonNullable<RateRowColumns['invalid']>;

/** One table's rows: rows 0 .. count-1 of `store`, with their rate ids. */
class TableRows {
  store: RateStore;
  count = 0;
  ids: Float64Array;
  /** rate_id -> row: made in pieces after a load (prepareIndex), for the single-row changes that follow. */
  private index: Map<number, number> | null = null;
  /** Rows that failed the checks (by rate_id): kept out of the store, reported to the build. */
  readonly invalid = new Map<number, Problem>();

  constructor(store = new RateStore(0)) {
    this.store = store;
    this.ids = new Float64Array(store.size);
  }

  /**
   * A table sized for the rows a load expects (counted first), so that a load of 600,000 rows does
   * not grow the columns by doubling: each growth copies them all in one go (150 ms at 600,000
   * rows). The columns are allocated a step at a time between yields: a full load's eleven tables
   * allocated in one go (about 50 MB, and the garbage collection it set off) held the server's
   * thread for 123 ms (issue 16).
   */
  static async sized(capacity: number): Promise<TableRows> {
    return new TableRows(await runStepsInSlices(RateStore.allocateSteps(capacity)));
  }

  columns(): RateRowColumns {
    const first = this.invalid.values().next();
    return { store: this.store, count: this.count, invalid: first.done ? null : first.value };
  }

  /**
   * Makes the rate_id index in pieces, giving the event loop a turn between them: for a table of
   * 700,000 rows it takes a few hundred milliseconds, which must not hold route answers.
   */
  async prepareIndex(): Promise<void> {
    if (this.index !== null) return;
    const index = new Map<number, number>();
    for (let i = 0; i < this.count; i++) {
      index.set(this.ids[i] as number, i);
      if ((i & 255) === 255 && sliceUsed()) {
        await yieldToLoop();
        // built meanwhile by a synchronous lookup (positions): keep that one
        if (this.index !== null) return;
      }
    }
    this.index = index;
  }

  private positions(): Map<number, number> {
    if (this.index === null) {
      const index = new Map<number, number>();
      for (let i = 0; i < this.count; i++) index.set(this.ids[i] as number, i);
      this.index = index;
    }
    return this.index;
  }

  has(rateId: number): boolean {
    return this.positions().has(rateId);
  }

  find(rateId: number): RateRow | undefined {
    const at = this.positions().get(rateId);
    return at === undefined ? undefined : this.store.row(at);
  }

  /**
   * Writes a row (new or replacing the one with its id); a row failing the checks is left out
   * and recorded. `bulk`: a full or whole-table load, whose ids are new to the table.
   */
  put(r: DbRate, money: MoneyReader, strings: Strings, bulk = false): void {
    const rateId = Number(r.rate_id);
    const index = bulk ? null : this.positions();
    let at = index?.get(rateId);
    const fresh = at === undefined;
    if (fresh) {
      if (this.count === this.store.size) this.grow();
      at = this.count;
    }
    const problem = writeRateRowChecked(this.store, at as number, r, money);
    if (problem !== null) {
      this.invalid.set(rateId, { code: r.code, ...problem });
      if (!fresh) this.remove(rateId);
      return;
    }
    this.store.codeName[at as number] = strings.of(r.code_name);
    this.store.country[at as number] = strings.of(r.country);
    this.invalid.delete(rateId);
    if (fresh) {
      this.ids[this.count] = rateId;
      index?.set(rateId, this.count);
      this.count++;
    }
  }

  remove(rateId: number): void {
    this.invalid.delete(rateId);
    const index = this.positions();
    const at = index.get(rateId);
    if (at === undefined) return;
    const last = this.count - 1;
    index.delete(rateId);
    if (at < last) {
      this.store.copyRow(at, this.store, last);
      const moved = this.ids[last] as number;
      this.ids[at] = moved;
      index.set(moved, at);
    }
    this.count = last;
  }

  private grow(): void {
    const size = Math.max(1024, this.store.size * 2);
    this.store = this.store.resized(size, this.count);
    const ids = new Float64Array(size);
    ids.set(this.ids.subarray(0, this.count));
    this.ids = ids;
  }
}

/**
 * Rows read by one query of a load. The driver turns a page into objects in one go on this thread
 * (pg's row parser; PGlite's rows arrive by one message from its worker), and the page is then put in
 * the store: 2,000 rows keep each of those under ~10 ms, so route calls are answered between pages.
 * A yield follows each page: a promise chain of queries may never give timers and sockets a turn (a
 * driver answering from memory, or data already buffered).
 */
const PAGE = 2_000;
const COLUMNS =
  sql.raw(`rate_id, rate_table_id, code, code_name, country, rate::text AS rate, intra_rate::text AS intra_rate,
  inter_rate::text AS inter_rate, ij_rate::text AS ij_rate, local_rate::text AS local_rate, min_time, "interval", grace_time,
  setup_fee::text AS setup_fee, (extract(epoch FROM effective_date) * 1000)::float8 AS effective_date,
  (extract(epoch FROM end_date) * 1000)::float8 AS end_date`);

/** Names and countries repeat across rows: one string each, instead of one per row from the driver. */
class Strings {
  private readonly seen = new Map<string, string>();
  of(value: string | null | undefined): string | null {
    if (value == null) return null;
    const known = this.seen.get(value);
    if (known !== undefined) return known;
    if (this.seen.size < 200_000) this.seen.set(value, value);
    return value;
  }
}

export interface RateLoad {
  kind: 'full' | 'incremental';
  /** Rows read from the database by this load. */
  rows_read: number;
  /**
   * Incremental loads whose every change kept its row's table, code and dates: the new rows, which
   * the snapshot can take without a full build (domain patchRateRows). Null: rows came, went or
   * moved, or whole tables were read.
   */
  patches: { rate_table_id: number; row: RateRow }[] | null;
}

export class RateCache {
  private tables = new Map<number, TableRows>();
  /** xmin of the last load, as text (xid8); null before the first load. */
  private watermark: string | null = null;
  private lastPrune = 0;
  /** Changes at or above the watermark already applied: seq -> xid. */
  private applied = new Map<number, bigint>();
  private readonly strings = new Strings();

  constructor(
    private readonly db: Db,
    private readonly stopped: () => boolean = () => false,
  ) {}

  /** One table's rows in columns (none when the table has no rows). */
  columnsOf(rateTableId: number): RateRowColumns {
    return this.tables.get(rateTableId)?.columns() ?? { store: EMPTY, count: 0, invalid: null };
  }

  get rowCount(): number {
    let n = 0;
    for (const t of this.tables.values()) n += t.count;
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
      for (const t of new Set(changes.map((c) => c.rate_table_id))) {
        if (!whole.has(t)) await this.tables.get(t)?.prepareIndex();
      }
      // Where each changed row lived before, from the change log (its table at the time).
      const formerTables = new Map<number, Set<number>>();
      for (const c of changes) {
        if (c.rate_id === null) continue;
        const set = formerTables.get(Number(c.rate_id)) ?? new Set<number>();
        set.add(c.rate_table_id);
        formerTables.set(Number(c.rate_id), set);
      }
      const money = new MoneyReader();
      for (let i = 0; i < ids.length; i += 10_000) {
        const chunk = ids.slice(i, i + 10_000);
        const fresh = (
          await sql<DbRate>`SELECT ${COLUMNS} FROM rates WHERE rate_id = ANY(${chunk}::bigint[])`.execute(
            this.db,
          )
        ).rows;
        read += fresh.length;
        const byId = new Map(fresh.map((r) => [Number(r.rate_id), r]));
        for (const rateId of chunk) {
          const row = byId.get(rateId);
          // A value-only change: the row was in its own table alone, with the same code and dates.
          const heldBy = [...(formerTables.get(rateId) ?? [])].filter((t) => this.tables.get(t)?.has(rateId));
          const before = row && heldBy.length === 1 && heldBy[0] === row.rate_table_id;
          if (
            patches !== null &&
            (!before || !sameKey(this.tables.get(row.rate_table_id)!.find(rateId)!, row))
          )
            patches = null;
          for (const t of formerTables.get(rateId) ?? []) {
            if (t !== row?.rate_table_id && !whole.has(t)) this.tables.get(t)?.remove(rateId);
          }
          if (row && !whole.has(row.rate_table_id)) {
            const table = this.tableOf(row.rate_table_id);
            table.put(row, money, this.strings);
            const now = table.find(rateId);
            if (now === undefined) patches = null;
            else patches?.push({ rate_table_id: row.rate_table_id, row: now });
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

  private tableOf(rateTableId: number): TableRows {
    let t = this.tables.get(rateTableId);
    if (!t) this.tables.set(rateTableId, (t = new TableRows()));
    return t;
  }

  private async fullLoad(): Promise<RateLoad> {
    const watermark = await this.currentXmin();
    const tables = new Map<number, TableRows>();
    for (const { rate_table_id, n } of (
      await sql<{
        rate_table_id: number;
        n: number;
      }>`SELECT rate_table_id, count(*)::int AS n FROM rates GROUP BY rate_table_id`.execute(this.db)
    ).rows)
      tables.set(rate_table_id, await TableRows.sized(n));
    const money = new MoneyReader();
    let last = 0;
    let read = 0;
    for (;;) {
      if (this.stopped()) throw new Error('stopped');
      const page = (
        await sql<DbRate>`SELECT ${COLUMNS} FROM rates WHERE rate_id > ${last} ORDER BY rate_id LIMIT ${PAGE}`.execute(
          this.db,
        )
      ).rows;
      for (const r of page) {
        let t = tables.get(r.rate_table_id);
        if (!t) tables.set(r.rate_table_id, (t = new TableRows()));
        t.put(r, money, this.strings, true);
      }
      read += page.length;
      await yieldToLoop();
      if (page.length < PAGE) break;
      last = Number(page[page.length - 1]!.rate_id);
    }
    // The rate_id index, so that the next single-row change is applied at once.
    for (const t of tables.values()) await t.prepareIndex();
    this.tables = tables;
    this.applied.clear();
    // Changes of transactions still running when the load began are applied (again) next time.
    this.watermark = watermark;
    return { kind: 'full', rows_read: read, patches: null };
  }

  private async loadTable(rateTableId: number): Promise<number> {
    // Dropped first: the old rows need not live beside the new ones while these are read.
    this.tables.delete(rateTableId);
    const counted = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM rates WHERE rate_table_id = ${rateTableId}`.execute(this.db);
    const table = await TableRows.sized(counted.rows[0]?.n ?? 0);
    const money = new MoneyReader();
    let last = 0;
    let read = 0;
    for (;;) {
      if (this.stopped()) throw new Error('stopped');
      const page = (
        await sql<DbRate>`SELECT ${COLUMNS} FROM rates WHERE rate_table_id = ${rateTableId} AND rate_id > ${last} ORDER BY rate_id LIMIT ${PAGE}`.execute(
          this.db,
        )
      ).rows;
      for (const r of page) table.put(r, money, this.strings, true);
      read += page.length;
      await yieldToLoop();
      if (page.length < PAGE) break;
      last = Number(page[page.length - 1]!.rate_id);
    }
    await table.prepareIndex();
    if (table.count || table.invalid.size) this.tables.set(rateTableId, table);
    return read;
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

const EMPTY = new RateStore(0);

/** Same code and dates: only values changed. */
function sameKey(a: RateRow, b: DbRate): boolean {
  return (
    a.code === b.code &&
    (a.effective_date ?? null) === (b.effective_date ?? null) &&
    (a.end_date ?? null) === (b.end_date ?? null)
  );
}
