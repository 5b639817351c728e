import type { api } from '@tandem/contract';
import type { CdrIn } from '@tandem/contract';
import {
  formatMoney,
  parseMoney,
  rateCdr,
  type CdrRating,
  type Micros,
  type RoutingSnapshot,
} from '@tandem/domain';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/connection';
import { AppError } from '../../http/errors';
import { ErrorCode } from '@tandem/contract';
import { arrayLiteral, type ArrayItem } from '../../db/arrays';
import { copyRows, copyValue } from '../../db/copy';
import { mapInSlices, sliceUsed, yieldToLoop } from '../../event-loop';
import type { Services } from '../../services';
import type { LiveState } from '../routing/live-state';
import type { SnapshotService } from '../routing/snapshot-service';
import { moveBalances, type BalanceChange } from './ledger';
import { CdrPartitions, dayOf } from './partitions';
import { RATED_COLUMNS } from './rated-columns';
import { queueForSummaries, SummaryFolder } from '../stats/summaries';

export type CdrBatchResult = z.output<typeof api.cdr.cdrBatchResult>;
export type CdrSource = 'switch' | 'file' | 'demo';

/** One batch of a bulk ingest: its id (stable across reruns) and its CDRs (at most CDR_BATCH_MAX). */
export interface CdrChunk {
  readonly batch_id: string;
  readonly cdrs: readonly CdrIn[];
}

/** What a bulk ingest did, added up over its batches. */
export interface BulkTotals {
  batches: number;
  /** Batches stored before (same id): nothing done for them. */
  skipped_batches: number;
  received: number;
  stored: number;
  /** CDRs not stored because stored before (in a skipped batch or by call id and attempt). */
  duplicates: number;
  unpriced: number;
  revenue: Micros;
  cost: Micros;
}

/** After a batch committed: what moved, for whoever keeps live figures (routing, summaries...). */
export interface BatchCommitted {
  readonly balances: readonly { client_id: number; balance: Micros }[];
  /** Call ids whose final attempt was stored. */
  readonly finalCallIds: readonly string[];
}

const m6 = (v: Micros) => formatMoney(v, 6);

/**
 * CDR ingest (issue 10, DESIGN 6): a batch of CDRs from the switch, a file or the demo, rated on
 * both legs by the routing engine's snapshot at the rates in force at each call's start, stored with
 * what was used, and billed: one ledger row per carrier and side, the balances moved, in one
 * transaction with the CDRs, the batch row and the batch's entry in the summaries' queue
 * (decision 109). A batch id already stored changes nothing and
 * answers `duplicate`; a CDR whose (call_id, attempt) is stored is skipped and counted. After the
 * commit the new balances reach the routing engine's live state and the holds of finished calls end.
 */
export class CdrIngest {
  readonly partitions: CdrPartitions;
  private shortCharges: Map<number, Micros> | null = null;
  private readonly listeners: ((c: BatchCommitted) => void)[] = [];
  /**
   * The traffic summaries' fold that follows this ingest's batches (decision 109): soon after each
   * commit. Its owner starts and stops it (the server's CDR module, the standalone ingest).
   */
  readonly folder: SummaryFolder;
  /** Keep the traffic summaries in the batch's transaction (docs/statistics.md); off only in the benchmark's baseline. */
  static keepSummaries = true;

  constructor(
    private readonly s: Services,
    private readonly engine: SnapshotService,
    private readonly live: LiveState,
  ) {
    this.partitions = new CdrPartitions(s.db);
    this.folder = new SummaryFolder(
      s.db,
      (err) => s.log.warn({ err }, 'summary fold failed'),
      s.config.summaryFoldMs,
    );
    s.configChanged.subscribe(() => (this.shortCharges = null));
  }

  /** The routing engine's snapshot CDRs are rated with (503 until the first build is done). */
  snapshot(): RoutingSnapshot {
    const snapshot = this.engine.snapshot;
    if (snapshot === null) throw new AppError(ErrorCode.internal, 'engineNotReady', [], 503);
    return snapshot;
  }

  onCommitted(l: (c: BatchCommitted) => void): void {
    this.listeners.push(l);
  }

  async ingest(batchId: string, cdrs: readonly CdrIn[], source: CdrSource): Promise<CdrBatchResult> {
    const snapshot = this.snapshot();
    const known = await this.s.db
      .selectFrom('cdr_batches')
      .selectAll()
      .where('batch_id', '=', batchId)
      .executeTakeFirst();
    if (known) return resultOf(known, true);

    const short = {
      seconds: (await this.s.settings.system()).short_call_seconds,
      charges: await this.shortCallCharges(),
    };
    const starts = cdrs.map((c) => Date.parse(c.start_time));
    // Rated in slices: a batch of 10,000 never holds the route API (issue 16).
    const ratings = await mapInSlices(cdrs, (c, i) =>
      rateCdr(
        snapshot,
        {
          ingress_trunk_id: c.ingress_trunk_id,
          egress_trunk_id: c.egress_trunk_id,
          ani: c.ani,
          dnis: c.dnis,
          lrn: c.lrn ?? null,
          start_ms: starts[i] as number,
          duration: c.duration,
        },
        short,
      ),
    );
    await this.partitions.ensure(starts.map(dayOf));

    const { result, committed } = await withRetry(() =>
      this.s.db.transaction().execute((trx) => this.store(trx, batchId, cdrs, ratings, source)),
    );
    if (committed !== null) this.afterCommit(committed);
    return result;
  }

  private async store(
    trx: Db,
    batchId: string,
    cdrs: readonly CdrIn[],
    ratings: readonly CdrRating[],
    source: CdrSource,
  ): Promise<{ result: CdrBatchResult; committed: BatchCommitted | null }> {
    const claimed = await sql<{ batch_id: string }>`
      INSERT INTO cdr_batches (batch_id, source, received) VALUES (${batchId}, ${source}, ${cdrs.length})
      ON CONFLICT (batch_id) DO NOTHING RETURNING batch_id`.execute(trx);
    if (claimed.rows.length === 0) {
      // Sent twice at once: the other one committed first.
      const prev = await trx
        .selectFrom('cdr_batches')
        .selectAll()
        .where('batch_id', '=', batchId)
        .executeTakeFirstOrThrow();
      return { result: resultOf(prev, true), committed: null };
    }

    // Claim each (call_id, attempt) once, in key order (two batches sharing calls never deadlock).
    const order = cdrs.map((_, i) => i).sort((a, b) => compareKey(cdrs[a]!, cdrs[b]!));
    const keys = await sql<{ call_id: string; attempt: number; cdr_id: number }>`
      INSERT INTO cdr_keys (call_id, attempt, start_time)
      SELECT * FROM unnest(${arrayLiteral(order.map((i) => cdrs[i]!.call_id))}::text[],
        ${arrayLiteral(order.map((i) => cdrs[i]!.attempt))}::int2[],
        ${arrayLiteral(order.map((i) => cdrs[i]!.start_time))}::timestamptz[])
      ON CONFLICT (call_id, attempt) DO NOTHING RETURNING call_id, attempt, cdr_id`.execute(trx);
    const ids = new Map(keys.rows.map((k) => [`${k.attempt}\u0000${k.call_id}`, k.cdr_id]));
    const stored: number[] = [];
    const cdrIds: number[] = [];
    for (let i = 0; i < cdrs.length; i++) {
      const key = `${cdrs[i]!.attempt}\u0000${cdrs[i]!.call_id}`;
      const id = ids.get(key);
      if (id === undefined) continue;
      ids.delete(key); // a key repeated inside the batch is stored once
      stored.push(i);
      cdrIds.push(id);
    }

    if (stored.length > 0) await insertCdrs(trx, batchId, cdrs, ratings, stored, cdrIds);
    // The traffic summaries: the batch's CDRs queued for the fold (migration 0038), in this transaction.
    if (CdrIngest.keepSummaries && stored.length > 0)
      await queueForSummaries(
        trx,
        batchId,
        cdrIds,
        stored.map((i) => cdrs[i]!.start_time),
      );

    // Ledger: per carrier and side, the batch's usage (customer pays revenue, vendor is owed cost).
    const usage = new Map<string, BalanceChange & { amount: Micros; cdr_count: number }>();
    const add = (client: number | null, side: 'customer' | 'vendor', amount: Micros) => {
      if (client === null) return;
      const k = `${side}:${client}`;
      const u = usage.get(k);
      if (u) {
        u.amount += amount;
        u.cdr_count++;
      } else
        usage.set(k, {
          client_id: client,
          kind: 'usage',
          side,
          ref: batchId,
          amount,
          cdr_count: 1,
          note: '',
        });
    };
    let revenue = 0n;
    let cost = 0n;
    let unpriced = 0;
    for (const i of stored) {
      const r = ratings[i]!;
      if (r.unpriced !== null) unpriced++;
      revenue += r.revenue;
      cost += r.cost;
      if (r.ingress.carrier_id !== null && (r.revenue !== 0n || cdrs[i]!.duration > 0))
        add(r.ingress.carrier_id, 'customer', -r.revenue);
      if (r.egress !== null && r.egress.carrier_id !== null && (r.cost !== 0n || cdrs[i]!.duration > 0))
        add(r.egress.carrier_id, 'vendor', r.cost);
    }
    const changes = [...usage.values()]
      .filter((u) => u.amount !== 0n)
      .map((u) => ({ ...u, note: `${u.cdr_count} CDRs of batch ${batchId}` }));
    const balances = await moveBalances(trx, changes);

    const row = {
      stored: stored.length,
      duplicates: cdrs.length - stored.length,
      unpriced,
      revenue: m6(revenue),
      cost: m6(cost),
    };
    await trx.updateTable('cdr_batches').set(row).where('batch_id', '=', batchId).execute();
    return {
      result: { batch_id: batchId, duplicate: false, received: cdrs.length, ...row },
      committed: {
        balances,
        finalCallIds: stored.filter((i) => cdrs[i]!.is_final_attempt).map((i) => cdrs[i]!.call_id),
      },
    };
  }

  /**
   * Bulk ingest (file back-fill, demo traffic): a stream of batches, each through `ingest` (the
   * same rating, idempotency and ledger), one after the other. Each batch is its own transaction,
   * so a stop half-way keeps the batches done; sending the same batches again (same ids) bills
   * nothing twice, which makes a rerun resume. `onBatch` sees each batch's answer and the totals
   * so far (progress).
   */
  async ingestMany(
    batches: AsyncIterable<CdrChunk> | Iterable<CdrChunk>,
    source: CdrSource,
    onBatch?: (r: CdrBatchResult, totals: BulkTotals) => void,
  ): Promise<BulkTotals> {
    const t: BulkTotals = {
      batches: 0,
      skipped_batches: 0,
      received: 0,
      stored: 0,
      duplicates: 0,
      unpriced: 0,
      revenue: 0n,
      cost: 0n,
    };
    for await (const b of batches) {
      const r = await this.ingest(b.batch_id, b.cdrs, source);
      t.batches++;
      t.received += b.cdrs.length;
      if (r.duplicate) {
        // The whole batch was stored before (a rerun): every CDR in it counts as a duplicate now.
        t.skipped_batches++;
        t.duplicates += b.cdrs.length;
      } else {
        t.stored += r.stored;
        t.duplicates += r.duplicates;
        t.unpriced += r.unpriced;
        t.revenue += parseMoney(r.revenue);
        t.cost += parseMoney(r.cost);
      }
      onBatch?.(r, t);
    }
    return t;
  }

  private afterCommit(c: BatchCommitted): void {
    for (const b of c.balances) this.live.setBalance(b.client_id, b.balance);
    for (const id of c.finalCallIds) this.live.release(id);
    this.folder.soon();
    for (const l of this.listeners) l(c);
  }

  /** Customers with a short call charge (cached until the configuration changes). */
  private async shortCallCharges(): Promise<Map<number, Micros>> {
    if (this.shortCharges !== null) return this.shortCharges;
    const rows = await sql<{ client_id: number; charge: string }>`
      SELECT client_id, short_call_charge::text AS charge FROM carriers WHERE short_call_charge <> 0`.execute(
      this.s.db,
    );
    this.shortCharges = new Map(rows.rows.map((r) => [r.client_id, parseMoney(r.charge)]));
    return this.shortCharges;
  }
}

function compareKey(a: CdrIn, b: CdrIn): number {
  return a.call_id < b.call_id ? -1 : a.call_id > b.call_id ? 1 : a.attempt - b.attempt;
}

function resultOf(
  b: {
    batch_id: string;
    received: number;
    stored: number;
    duplicates: number;
    unpriced: number;
    revenue: string;
    cost: string;
  },
  duplicate: boolean,
): CdrBatchResult {
  return {
    batch_id: b.batch_id,
    duplicate,
    received: b.received,
    stored: b.stored,
    duplicates: b.duplicates,
    unpriced: b.unpriced,
    revenue: formatMoney(parseMoney(b.revenue), 6),
    cost: formatMoney(parseMoney(b.cost), 6),
  };
}

/** Deadlock or serialization failure: the whole batch is tried again (it changed nothing). */
async function withRetry<T>(run: () => Promise<T>, attempts = 3): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await run();
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (i >= attempts || (code !== '40P01' && code !== '40001')) throw err;
    }
  }
}

/** The CDR's own columns as sent (the rated ones: RATED_COLUMNS; cdr_id and batch_id first). */
const COLUMNS: readonly (readonly [column: string, value: (c: CdrIn) => ArrayItem])[] = [
  ['call_id', (c) => c.call_id],
  ['attempt', (c) => c.attempt],
  ['is_final_attempt', (c) => c.is_final_attempt],
  ['start_time', (c) => c.start_time],
  ['answer_time', (c) => c.answer_time],
  ['end_time', (c) => c.end_time],
  ['call_duration', (c) => c.duration],
  ['pdd', (c) => c.pdd_ms],
  ['ring_time', (c) => c.ring_time_ms],
  ['ingress_trunk_id', (c) => c.ingress_trunk_id],
  ['egress_trunk_id', (c) => c.egress_trunk_id],
  ['source_ip', (c) => c.source_ip],
  ['egress_host', (c) => c.egress_host],
  ['ani', (c) => c.ani],
  ['dnis', (c) => c.dnis],
  ['egress_dnis', (c) => c.egress_dnis],
  ['lrn', (c) => c.lrn],
  ['release_cause', (c) => c.release_cause],
  ['q850_cause', (c) => c.q850_cause],
  ['release_side', (c) => c.release_side],
  ['codec', (c) => c.codec],
];
const CDR_COLUMNS = ['cdr_id', 'batch_id', ...COLUMNS.map(([c]) => c), ...RATED_COLUMNS.map(([c]) => c)];

/**
 * The batch's new CDRs by one COPY (copy.ts): a line per CDR, built slice by slice (a batch of
 * 10,000 never holds the route API, issue 16). COPY is PostgreSQL's fastest way in: 2.5 times the
 * rows per second of the `INSERT ... SELECT FROM unnest(arrays)` it replaced, in the ingest
 * benchmark's same-run baselines (docs/performance.md, decision 110).
 */
async function insertCdrs(
  trx: Db,
  batchId: string,
  cdrs: readonly CdrIn[],
  ratings: readonly CdrRating[],
  stored: readonly number[],
  cdrIds: readonly number[],
): Promise<void> {
  const batch = copyValue(batchId);
  const lines = new Array<string>(stored.length + 1);
  for (let j = 0; j < stored.length; j++) {
    if (sliceUsed()) await yieldToLoop();
    const c = cdrs[stored[j]!]!;
    const r = ratings[stored[j]!]!;
    let line = `${cdrIds[j]}\t${batch}`;
    for (const [, value] of COLUMNS) line += `\t${copyValue(value(c))}`;
    for (const [, , value] of RATED_COLUMNS) line += `\t${copyValue(value(r))}`;
    lines[j] = line;
  }
  lines[stored.length] = '';
  await copyRows('cdrs', CDR_COLUMNS, lines.join('\n')).execute(trx);
}
