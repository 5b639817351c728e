import type { RerateCarrier, RerateFigures, RerateFilter, RerateSample } from '@tandem/contract';
import {
  formatMoney,
  moneyOf,
  parseMoney,
  rateCdr,
  RerateTally,
  type CdrMoney,
  type CdrRating,
  type Micros,
  type RoutingSnapshot,
} from '@tandem/domain';
import { sql, type RawBuilder } from 'kysely';
import { arrayLiteral } from '../../db/arrays';
import type { Db } from '../../db/connection';
import { mapInSlices, sliceUsed, yieldToLoop } from '../../event-loop';
import type { Services } from '../../services';
import type { LiveState } from '../routing/live-state';
import type { SnapshotService } from '../routing/snapshot-service';
import { moveBalances } from './ledger';
import { analyzeStaleDays } from './partitions';
import { RATED_COLUMNS } from './rated-columns';
import {
  ratedSummary,
  stillQueued,
  summariesStatement,
  type SummaryCall,
  type SummaryCdr,
} from '../stats/summaries';

/** CDRs per chunk: one transaction each (CDR updates, ledger rows, the run's cursor). */
export const RERATE_CHUNK = 5_000;
/** Rows one query of a chunk reads (readChunk). */
const READ_PAGE = 1_000;
const SAMPLE = 20;

/** What a run needs besides the services: the routing engine's snapshot and live balances. */
export interface RerateDeps {
  readonly s: Services;
  readonly engine: SnapshotService;
  readonly live: LiveState;
  /** CDRs per chunk (default RERATE_CHUNK; tests use small chunks). */
  readonly chunk?: number;
  /** CDRs one query of a chunk reads (default READ_PAGE; tests use small pages). */
  readonly readPage?: number;
}

/** Called after each chunk with the CDRs gone through and the CDRs the filter matched. */
export type RerateProgress = (processed: number, matched: number) => void | Promise<void>;

const m6 = (v: Micros) => formatMoney(v, 6);

/** A stored CDR as the rerate reads it: what to rate it from and what it was rated as. */
interface StoredCdr {
  cdr_id: string;
  /** The batch that stored it (the summaries' queue is by batch). */
  batch_id: string;
  call_id: string;
  start_key: string;
  start_ms: number;
  ingress_trunk_id: number;
  egress_trunk_id: number | null;
  ani: string;
  dnis: string;
  lrn: string | null;
  call_duration: number;
  ingress_client_id: number | null;
  egress_client_id: number | null;
  routing_dnis: string | null;
  ingress_rate_table_id: number | null;
  ingress_code: string | null;
  ingress_code_name: string | null;
  orig_country: string | null;
  ingress_rate: string | null;
  ingress_setup_fee: string | null;
  ingress_rate_column: string | null;
  ingress_jurisdiction: string | null;
  ingress_billed_time: number;
  ingress_client_cost: string;
  short_call_charge: string;
  egress_rate_table_id: number | null;
  egress_code: string | null;
  egress_code_name: string | null;
  term_country: string | null;
  egress_rate: string | null;
  egress_setup_fee: string | null;
  egress_rate_column: string | null;
  egress_jurisdiction: string | null;
  egress_billed_time: number;
  egress_cost: string;
  unpriced_reason: string | null;
  /** The call's own fields the traffic summaries key and sum (not changed by a rerate). */
  answer_time: Date | null;
  release_cause: number;
  q850_cause: number | null;
  release_side: string;
  pdd: number;
  source_ip: string;
  egress_host: string | null;
}

const SELECT = sql.raw(`cdr_id::text AS cdr_id, batch_id, call_id, start_time::text AS start_key,
  (extract(epoch FROM start_time) * 1000)::float8 AS start_ms, ingress_trunk_id, egress_trunk_id, ani, dnis,
  lrn, call_duration, ingress_client_id, egress_client_id, routing_dnis, ingress_rate_table_id, ingress_code,
  ingress_code_name, orig_country, ingress_rate::text AS ingress_rate, ingress_setup_fee::text AS ingress_setup_fee,
  ingress_rate_column, ingress_jurisdiction, ingress_billed_time, ingress_client_cost::text AS ingress_client_cost,
  short_call_charge::text AS short_call_charge, egress_rate_table_id, egress_code, egress_code_name, term_country,
  egress_rate::text AS egress_rate, egress_setup_fee::text AS egress_setup_fee, egress_rate_column,
  egress_jurisdiction, egress_billed_time, egress_cost::text AS egress_cost, unpriced_reason,
  answer_time, release_cause, q850_cause, release_side, pdd, source_ip, egress_host`);

/** The run's chunk number moved on under us: another worker runs it. */
class ChunkTaken extends Error {}

/** The money a stored CDR moved when it was rated. */
function storedMoney(c: StoredCdr): CdrMoney {
  return {
    customer_id: c.ingress_client_id,
    vendor_id: c.egress_client_id,
    revenue: parseMoney(c.ingress_client_cost) + parseMoney(c.short_call_charge),
    cost: parseMoney(c.egress_cost),
  };
}

const eqMoney = (a: string | null, b: Micros | null) =>
  a === null ? b === null : b !== null && parseMoney(a) === b;

/** Whether the new rating writes anything different into the CDR's rated fields. */
function ratedFieldsDiffer(c: StoredCdr, r: CdrRating): boolean {
  const i = r.ingress;
  const e = r.egress;
  return !(
    c.ingress_client_id === i.carrier_id &&
    c.egress_client_id === (e?.carrier_id ?? null) &&
    c.routing_dnis === i.number &&
    c.ingress_rate_table_id === i.rate_table_id &&
    c.ingress_code === i.code &&
    c.ingress_code_name === i.code_name &&
    c.orig_country === i.country &&
    eqMoney(c.ingress_rate, i.rate) &&
    eqMoney(c.ingress_setup_fee, i.setup_fee) &&
    c.ingress_rate_column === i.column &&
    c.ingress_jurisdiction === i.jurisdiction &&
    c.ingress_billed_time === i.billed_seconds &&
    eqMoney(c.ingress_client_cost, i.cost) &&
    eqMoney(c.short_call_charge, r.short_call_charge) &&
    c.egress_rate_table_id === (e?.rate_table_id ?? null) &&
    c.egress_code === (e?.code ?? null) &&
    c.egress_code_name === (e?.code_name ?? null) &&
    c.term_country === (e?.country ?? null) &&
    eqMoney(c.egress_rate, e?.rate ?? null) &&
    eqMoney(c.egress_setup_fee, e?.setup_fee ?? null) &&
    c.egress_rate_column === (e?.column ?? null) &&
    c.egress_jurisdiction === (e?.jurisdiction ?? null) &&
    c.egress_billed_time === (e?.billed_seconds ?? 0) &&
    eqMoney(c.egress_cost, r.cost) &&
    c.unpriced_reason === r.unpriced
  );
}

/** The WHERE clause of a run's filter (without the cursor). */
function filterSql(f: RerateFilter): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [
    sql`start_time >= ${f.start_time}::timestamptz`,
    sql`start_time < ${f.end_time}::timestamptz`,
  ];
  if (f.customer_ids.length) parts.push(sql`ingress_client_id = ANY(${f.customer_ids}::int4[])`);
  if (f.vendor_ids.length) parts.push(sql`egress_client_id = ANY(${f.vendor_ids}::int4[])`);
  if (f.ingress_trunk_ids.length) parts.push(sql`ingress_trunk_id = ANY(${f.ingress_trunk_ids}::int4[])`);
  if (f.egress_trunk_ids.length) parts.push(sql`egress_trunk_id = ANY(${f.egress_trunk_ids}::int4[])`);
  if (f.code !== '') parts.push(sql`coalesce(routing_dnis, dnis) LIKE ${f.code + '%'}`);
  if (f.unpriced_only) parts.push(sql`unpriced_reason IS NOT NULL`);
  return sql.join(parts, sql` AND `);
}

interface Cursor {
  start: string | null;
  id: string | null;
}

async function readChunk(
  db: Db,
  f: RerateFilter,
  cursor: Cursor,
  lock: boolean,
  size: number,
  page = READ_PAGE,
): Promise<StoredCdr[]> {
  // Read in pages of READ_PAGE (the same rows, in the same order and transaction): the driver parses
  // a page in one go on the server's thread, and 5,000 rows at once held it for over 100 ms.
  const out: StoredCdr[] = [];
  const at: Cursor = { ...cursor };
  while (out.length < size) {
    const n = Math.min(page, size - out.length);
    const after =
      at.start === null
        ? sql`true`
        : // the start bound alone lets the (start_time) index skip the chunks done; the pair breaks ties
          sql`start_time >= ${at.start}::timestamptz
          AND (start_time, cdr_id) > (${at.start}::timestamptz, ${at.id}::int8)`;
    const rows = (
      await sql<StoredCdr>`
      SELECT ${SELECT} FROM cdrs WHERE ${filterSql(f)} AND ${after}
      ORDER BY start_time, cdr_id LIMIT ${n} ${lock ? sql`FOR UPDATE` : sql``}`.execute(db)
    ).rows;
    for (const r of rows) out.push(r);
    if (rows.length < n) break;
    const last = rows[rows.length - 1]!;
    at.start = last.start_key;
    at.id = last.cdr_id;
    await yieldToLoop();
  }
  return out;
}

/**
 * Figures of a phase as the run stores them (contract RerateFigures, amounts as text), to which
 * each chunk's tally is added.
 */
class Figures {
  readonly tally = new RerateTally();
  priced = 0;
  rewritten = 0;
  readonly sample: RerateSample[] = [];
  private base: RerateFigures | null = null;

  constructor(private readonly names: Map<number, string>) {}

  /** Starts from what a run stored (a resumed apply). */
  static from(stored: RerateFigures | null, names: Map<number, string>): Figures {
    const f = new Figures(names);
    if (stored === null) return f;
    f.priced = stored.priced;
    f.rewritten = stored.changed;
    f.sample.push(...stored.sample);
    f.base = stored;
    return f;
  }
  note(c: StoredCdr, r: CdrRating, old: CdrMoney): void {
    this.rewritten++;
    if (c.unpriced_reason !== null && r.unpriced === null) this.priced++;
    if (this.sample.length < SAMPLE)
      this.sample.push({
        cdr_id: Number(c.cdr_id),
        call_id: c.call_id,
        start_time: new Date(c.start_ms).toISOString(),
        customer_id: r.ingress.carrier_id,
        vendor_id: r.egress?.carrier_id ?? null,
        old_revenue: m6(old.revenue),
        new_revenue: m6(r.revenue),
        old_cost: m6(old.cost),
        new_cost: m6(r.cost),
        old_unpriced: c.unpriced_reason,
        new_unpriced: r.unpriced,
        old_rate: c.ingress_rate === null ? null : m6(parseMoney(c.ingress_rate)),
        new_rate: r.ingress.rate === null ? null : m6(r.ingress.rate),
      });
  }

  carrierIds(): number[] {
    return this.tally.carriers().map((c) => c.client_id);
  }

  toJson(): RerateFigures {
    const t = this.tally;
    const b = this.base;
    const add = (a: string | undefined, v: Micros) => m6((a === undefined ? 0n : parseMoney(a)) + v);
    const carriers = new Map<number, RerateCarrier>();
    for (const c of b?.carriers ?? []) carriers.set(c.client_id, c);
    for (const c of t.carriers()) {
      const prev = carriers.get(c.client_id);
      const oldRevenue = add(prev?.old_revenue, c.old_revenue);
      const newRevenue = add(prev?.new_revenue, c.new_revenue);
      const oldCost = add(prev?.old_cost, c.old_cost);
      const newCost = add(prev?.new_cost, c.new_cost);
      carriers.set(c.client_id, {
        client_id: c.client_id,
        name: this.names.get(c.client_id) ?? prev?.name ?? `#${c.client_id}`,
        customer_cdrs: (prev?.customer_cdrs ?? 0) + c.customer_cdrs,
        vendor_cdrs: (prev?.vendor_cdrs ?? 0) + c.vendor_cdrs,
        old_revenue: oldRevenue,
        new_revenue: newRevenue,
        old_cost: oldCost,
        new_cost: newCost,
        difference: m6(
          parseMoney(oldRevenue) - parseMoney(newRevenue) + parseMoney(newCost) - parseMoney(oldCost),
        ),
      });
    }
    return {
      cdrs: (b?.cdrs ?? 0) + t.cdrs,
      changed: this.rewritten,
      priced: this.priced,
      old_revenue: add(b?.old_revenue, t.oldRevenue),
      new_revenue: add(b?.new_revenue, t.newRevenue),
      old_cost: add(b?.old_cost, t.oldCost),
      new_cost: add(b?.new_cost, t.newCost),
      carriers: [...carriers.values()].sort((x, y) => x.client_id - y.client_id),
      sample: this.sample,
    };
  }
}

/**
 * Runs one rerate (the body of its background job; safe to call again at any time):
 * - previewing: reads the filter's CDRs in chunks, rates each with the current snapshot (or the
 *   named tables), sums old and new figures per carrier and keeps a sample of changed CDRs; then
 *   'previewed'. Nothing is written but the run's progress and figures.
 * - applying: from the run's cursor, each chunk of up to RERATE_CHUNK CDRs is one transaction: the
 *   CDRs locked and rerated, those whose rated fields changed rewritten, each carrier's balance
 *   moved by the chunk's exact difference through moveBalances (kind 'rerate', ref
 *   `rerate-<run>-<chunk>`), the run's cursor, chunk number and figures advanced. A crash loses at
 *   most the chunk in flight (rolled back whole); calling again resumes after the last committed
 *   chunk. A second worker on the same run fails on the chunk number and rolls back.
 * - any other state: nothing to do.
 */
export async function runRerate(deps: RerateDeps, runId: number, progress?: RerateProgress): Promise<void> {
  const { s } = deps;
  const run = await s.db
    .selectFrom('rerate_runs')
    .select(['state', 'filter', 'created_by', 'applied_by', 'result', 'chunk', 'matched'])
    .select(sql<string | null>`cursor_start::text`.as('cursor_start'))
    .select(sql<string | null>`cursor_id::text`.as('cursor_id'))
    .where('run_id', '=', runId)
    .executeTakeFirst();
  if (!run || (run.state !== 'previewing' && run.state !== 'applying')) return;
  try {
    const snapshot = await snapshotOf(deps);
    const filter = run.filter as RerateFilter;
    // fresh days may have no planner statistics yet: each keyset chunk would read the rest of the day
    await analyzeStaleDays(s.db, Date.parse(filter.start_time), Date.parse(filter.end_time));
    if (run.state === 'previewing') await preview(deps, runId, filter, snapshot, progress);
    else
      await apply(
        deps,
        runId,
        filter,
        snapshot,
        run.applied_by ?? run.created_by,
        {
          chunk: run.chunk,
          cursor: { start: run.cursor_start, id: run.cursor_id },
          result: (run.result as RerateFigures | null) ?? null,
          matched: run.matched,
        },
        progress,
      );
  } catch (err) {
    // Another worker applied this chunk first (everything here rolled back): it carries the run on.
    if (err instanceof ChunkTaken) return;
    s.log.error({ err, runId }, 'rerate run failed');
    await s.db
      .updateTable('rerate_runs')
      .set({
        state: 'failed',
        error: err instanceof Error ? err.message : String(err),
        finished_at: new Date(),
      })
      .where('run_id', '=', runId)
      .execute();
  }
}

async function snapshotOf(deps: RerateDeps): Promise<RoutingSnapshot> {
  for (let i = 0; i < 600; i++) {
    const snap = deps.engine.snapshot;
    if (snap !== null) return snap;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('The routing engine has no snapshot');
}

async function shortCall(s: Services): Promise<{ seconds: number; charges: Map<number, Micros> }> {
  const rows = await sql<{ client_id: number; charge: string }>`
    SELECT client_id, short_call_charge::text AS charge FROM carriers WHERE short_call_charge <> 0`.execute(
    s.db,
  );
  return {
    seconds: (await s.settings.system()).short_call_seconds,
    charges: new Map(rows.rows.map((r) => [r.client_id, parseMoney(r.charge)])),
  };
}

async function carrierNames(db: Db): Promise<Map<number, string>> {
  const rows = await db.selectFrom('carriers').select(['client_id', 'name']).execute();
  return new Map(rows.map((r) => [r.client_id, r.name]));
}

async function countMatched(db: Db, f: RerateFilter): Promise<number> {
  const r = await sql<{ n: string }>`SELECT count(*)::text AS n FROM cdrs WHERE ${filterSql(f)}`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}

/** Rates a chunk's CDRs, yielding the event loop every 1,000 CDRs. */
async function rateAll(
  snapshot: RoutingSnapshot,
  f: RerateFilter,
  short: { seconds: number; charges: Map<number, Micros> },
  rows: readonly StoredCdr[],
): Promise<CdrRating[]> {
  const tables = { ingress: f.ingress_rate_table_id, egress: f.egress_rate_table_id };
  return mapInSlices(rows, (c) =>
    rateCdr(
      snapshot,
      {
        ingress_trunk_id: c.ingress_trunk_id,
        egress_trunk_id: c.egress_trunk_id,
        ani: c.ani,
        dnis: c.dnis,
        lrn: c.lrn,
        start_ms: c.start_ms,
        duration: c.call_duration,
      },
      short,
      tables,
    ),
  );
}

async function preview(
  deps: RerateDeps,
  runId: number,
  f: RerateFilter,
  snapshot: RoutingSnapshot,
  progress?: RerateProgress,
): Promise<void> {
  const db = deps.s.db;
  const matched = await countMatched(db, f);
  await db.updateTable('rerate_runs').set({ matched, processed: 0 }).where('run_id', '=', runId).execute();
  const short = await shortCall(deps.s);
  const figures = new Figures(await carrierNames(db));
  const size = deps.chunk ?? RERATE_CHUNK;
  const cursor: Cursor = { start: null, id: null };
  let processed = 0;
  for (;;) {
    const rows = await readChunk(db, f, cursor, false, size, deps.readPage);
    if (rows.length === 0) break;
    const ratings = await rateAll(snapshot, f, short, rows);
    for (let i = 0; i < rows.length; i++) {
      if (sliceUsed()) await yieldToLoop();
      const c = rows[i]!;
      const r = ratings[i]!;
      const old = storedMoney(c);
      figures.tally.add(old, moneyOf(r));
      if (ratedFieldsDiffer(c, r)) figures.note(c, r, old);
    }
    const last = rows[rows.length - 1]!;
    cursor.start = last.start_key;
    cursor.id = last.cdr_id;
    processed += rows.length;
    await db.updateTable('rerate_runs').set({ processed }).where('run_id', '=', runId).execute();
    await progress?.(processed, matched);
    if (rows.length < size) break;
    await yieldToLoop();
  }
  await db
    .updateTable('rerate_runs')
    .set({ state: 'previewed', preview: JSON.stringify(figures.toJson()), finished_at: new Date() })
    .where('run_id', '=', runId)
    .where('state', '=', 'previewing')
    .execute();
}

/**
 * Applies a run from its cursor, each chunk one transaction (runRerate), two chunks in flight: while
 * one chunk writes its summaries, balances and the run's row and commits, the next one is already
 * read (its own CDRs, locked), rated, its CDRs rewritten and its summaries' statement built. The next
 * chunk writes what chunks share (summary rows, carriers' balances, the run's row) only after the one
 * before committed, so chunks commit in order, a failed chunk rolls the next back with it, and the
 * figures each commits are the sums up to it. Nothing a chunk holds before that wait is needed by the
 * chunk before (its CDRs are its own), so the two never wait on each other's locks. On PGlite (one
 * session) the next chunk starts only when the one before committed and its progress was told.
 */
async function apply(
  deps: RerateDeps,
  runId: number,
  f: RerateFilter,
  snapshot: RoutingSnapshot,
  by: string,
  at: { chunk: number; cursor: Cursor; result: RerateFigures | null; matched: number },
  progress?: RerateProgress,
): Promise<void> {
  const { s, live } = deps;
  const short = await shortCall(s);
  const names = await carrierNames(s.db);
  const size = deps.chunk ?? RERATE_CHUNK;
  let chunk = at.chunk;
  const cursor = { ...at.cursor };
  // the chunk ahead: resolves when it committed (and its progress was told), with its figures
  let ahead: Promise<RerateFigures> = Promise.resolve(at.result ?? new Figures(names).toJson());
  const inFlight: Promise<unknown>[] = [];
  const stop: { failed: boolean; error?: unknown } = { failed: false };
  try {
    for (;;) {
      // a chunk failed (rolled back, and the one after it with it): the run stops there
      if (stop.failed) throw stop.error;
      const mine = chunk;
      const before = ahead;
      let readDone!: (rows: StoredCdr[]) => void;
      const read = new Promise<StoredCdr[]>((resolve) => (readDone = resolve));
      const from = { ...cursor };
      const tx = s.db.transaction().execute(async (trx) => {
        const rows = await readChunk(trx, f, from, true, size, deps.readPage);
        readDone(rows);
        if (rows.length === 0) return null;
        const ratings = await rateAll(snapshot, f, short, rows);
        const changed = await mapInSlices(rows, (c, i) => ratedFieldsDiffer(c, ratings[i]!));
        const list = rows.flatMap((c, i) => (changed[i] ? [[c, ratings[i]!] as const] : []));
        // this chunk's own rows, and the server's share of the summaries, before the wait
        const moves = list.length ? await rewriteCdrs(trx, list) : null;
        const prev = await before;
        const figures = Figures.from(prev, names);
        await mapInSlices(rows, (c, i) => {
          const r = ratings[i]!;
          const old = storedMoney(c);
          figures.tally.add(old, moneyOf(r));
          if (changed[i]) figures.note(c, r, old);
        });
        if (moves)
          await (
            await moves(
              await stillQueued(
                trx,
                list.map(([c]) => c.batch_id),
              ),
            )
          )?.execute(trx);
        const ref = `rerate-${runId}-${mine}`;
        const moved = await moveBalances(
          trx,
          figures.tally.changes().map((c) => ({
            client_id: c.client_id,
            kind: 'rerate' as const,
            side: c.side,
            ref,
            amount: c.amount,
            cdr_count: c.cdrs,
            note: `Rerate run ${runId}, chunk ${mine + 1}: ${c.cdrs} CDRs`,
            created_by: by,
          })),
        );
        const last = rows[rows.length - 1]!;
        const json = figures.toJson();
        const advanced = await sql`
          UPDATE rerate_runs SET chunk = chunk + 1, cursor_start = ${last.start_key}::timestamptz,
            cursor_id = ${last.cdr_id}::int8, processed = ${json.cdrs}, result = ${JSON.stringify(json)}::jsonb
          WHERE run_id = ${runId} AND chunk = ${mine} AND state = 'applying'`.execute(trx);
        if (Number(advanced.numAffectedRows ?? 0) !== 1) throw new ChunkTaken();
        return { moved, json };
      });
      inFlight.push(tx);
      // the chunk failed before its rows were read: no next chunk
      const rows = await Promise.race([read, tx.then(() => [] as StoredCdr[])]);
      const committed = tx.then(async (done): Promise<RerateFigures> => {
        if (done === null) return before;
        for (const b of done.moved) live.setBalance(b.client_id, b.balance);
        await progress?.(done.json.cdrs, at.matched);
        return done.json;
      });
      // handled here at once (the next chunk awaits it only later): a failure stops the loop
      committed.catch((error: unknown) => {
        if (stop.failed) return;
        stop.failed = true;
        stop.error = error;
      });
      inFlight.push(committed);
      ahead = committed;
      if (rows.length < size) break;
      // PGlite is one session: the next chunk would hold it while this one's progress is told, and
      // gains nothing there. One chunk at a time, as the doc above says.
      if (s.dbKind !== 'postgres') await committed.catch(() => undefined);
      const last = rows[rows.length - 1]!;
      cursor.start = last.start_key;
      cursor.id = last.cdr_id;
      chunk++;
      await yieldToLoop();
    }
    const done = await ahead;
    await s.db
      .updateTable('rerate_runs')
      .set({ state: 'applied', finished_at: new Date(), result: JSON.stringify(done) })
      .where('run_id', '=', runId)
      .where('state', '=', 'applying')
      .execute();
  } finally {
    // a chunk that failed fails the one after it at its wait: let both end before the run does
    await Promise.allSettled(inFlight);
  }
}

/** A stored CDR's call fields, as the traffic summaries take them. */
function callOf(c: StoredCdr): SummaryCall {
  return {
    start_time: new Date(c.start_ms),
    answer_time: c.answer_time,
    ingress_trunk_id: c.ingress_trunk_id,
    egress_trunk_id: c.egress_trunk_id,
    release_cause: c.release_cause,
    q850_cause: c.q850_cause,
    release_side: c.release_side,
    call_duration: c.call_duration,
    pdd: c.pdd,
    source_ip: c.source_ip,
    egress_host: c.egress_host,
  };
}

/** A stored CDR's summary figures as it was rated (named fields: spreading a driver row is slow). */
function storedSummary(c: StoredCdr): SummaryCdr {
  return {
    start_time: new Date(c.start_ms),
    answer_time: c.answer_time,
    ingress_client_id: c.ingress_client_id,
    egress_client_id: c.egress_client_id,
    ingress_trunk_id: c.ingress_trunk_id,
    egress_trunk_id: c.egress_trunk_id,
    egress_code: c.egress_code,
    term_country: c.term_country,
    release_cause: c.release_cause,
    q850_cause: c.q850_cause,
    release_side: c.release_side,
    call_duration: c.call_duration,
    pdd: c.pdd,
    ingress_billed_time: c.ingress_billed_time,
    egress_billed_time: c.egress_billed_time,
    ingress_client_cost: c.ingress_client_cost,
    short_call_charge: c.short_call_charge,
    egress_cost: c.egress_cost,
    unpriced_reason: c.unpriced_reason,
    source_ip: c.source_ip,
    egress_host: c.egress_host,
  };
}

/**
 * Writes the new rated fields of the changed CDRs of a chunk (one UPDATE ... FROM unnest) and builds
 * the statement that moves the traffic summaries with them, for the same transaction: each CDR's
 * figures as stored out (-1), as rerated in (+1); a CDR whose key did not change nets to its money's
 * difference. The caller asks for it (apply: after the chunk before committed) with the batches the
 * fold has still to summarise (stillQueued): their CDRs are left out, as the fold reads them as
 * rewritten. The usual case, none, is built here ahead.
 */
async function rewriteCdrs(
  trx: Db,
  list: readonly (readonly [StoredCdr, CdrRating])[],
): Promise<(queued: ReadonlySet<string>) => Promise<RawBuilder<unknown> | null>> {
  const before = await mapInSlices(list, ([c]) => storedSummary(c));
  const after = await mapInSlices(list, ([c, r]) => ratedSummary(callOf(c), r));
  const moves = (keep: (i: number) => boolean) =>
    summariesStatement([
      [before.filter((_, i) => keep(i)), -1],
      [after.filter((_, i) => keep(i)), 1],
    ]);
  const all = await moves(() => true);
  await updateCdrs(trx, list);
  return async (queued) => (queued.size === 0 ? all : moves((i) => !queued.has(list[i]![0].batch_id)));
}

async function updateCdrs(trx: Db, list: readonly (readonly [StoredCdr, CdrRating])[]): Promise<void> {
  // Each column as an array literal (db/arrays.ts): cheaper than the driver's own serialising; the
  // columns of a 5,000-CDR chunk are built one by one, yielding when a slice is used (issue 16).
  const arrays = [
    sql`${arrayLiteral(list.map(([c]) => c.cdr_id))}::int8[]`,
    sql`${arrayLiteral(list.map(([c]) => c.start_key))}::timestamptz[]`,
  ];
  for (const [, type, value] of RATED_COLUMNS) {
    arrays.push(sql`${arrayLiteral(list.map(([, r]) => value(r)))}::${sql.raw(type)}[]`);
    if (sliceUsed()) await yieldToLoop();
  }
  const names = ['id', 'st', ...RATED_COLUMNS.map(([c]) => c)];
  await sql`
    UPDATE cdrs SET ${sql.join(RATED_COLUMNS.map(([c]) => sql`${sql.ref(c)} = ${sql.ref(`v.${c}`)}`))},
      rated_at = now(), rerated = cdrs.rerated + 1
    FROM unnest(${sql.join(arrays)}) AS v(${sql.join(names.map((c) => sql.ref(c)))})
    WHERE cdrs.cdr_id = v.id AND cdrs.start_time = v.st`.execute(trx);
}
