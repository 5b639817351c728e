import {
  formatMoney,
  intervalOf,
  isNerEffective,
  isShortCall,
  NER_USER_CAUSES,
  NER_USER_Q850,
  SHORT_CALL_STAT_SECONDS,
  SUMMARY_INTERVAL_MS,
  parseMoney,
  type CdrRating,
  type Micros,
} from '@tandem/domain';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/connection';
import { arrayLiteral, arrayLiterals, type ArrayItem } from '../../db/arrays';
import { sliceUsed, yieldToLoop } from '../../event-loop';

/**
 * What the summaries need of a CDR: the columns of a `cdrs` row (so a rerate can pass the rows it
 * read, and the rows it is about to write, as they are). Money as the row's NUMERIC text or as
 * bigint micros.
 */
export interface SummaryCdr {
  start_time: Date | string;
  answer_time: Date | string | null;
  ingress_client_id: number | null;
  egress_client_id: number | null;
  ingress_trunk_id: number;
  egress_trunk_id: number | null;
  egress_code: string | null;
  term_country: string | null;
  release_cause: number;
  q850_cause?: number | null;
  release_side: string;
  call_duration: number;
  pdd: number;
  ingress_billed_time: number;
  egress_billed_time: number;
  /** Revenue = ingress_client_cost + short_call_charge. */
  ingress_client_cost: string | Micros;
  short_call_charge: string | Micros;
  egress_cost: string | Micros;
  unpriced_reason: string | null;
  /** The ingress host (where the call came from) and the egress host (where it went), for the host summaries. */
  source_ip: string;
  egress_host: string | null;
}

interface Group {
  key: string;
  bucket: number;
  ingress_client_id: number;
  egress_client_id: number;
  ingress_trunk_id: number;
  egress_trunk_id: number;
  egress_code: string;
  term_country: string;
  release_cause: number;
  release_side: string;
  non_zero: boolean;
  /** Only in the host summaries' groups ('' elsewhere). */
  source_ip: string;
  egress_host: string;
  attempts: number;
  answered: number;
  non_zero_calls: number;
  ner_calls: number;
  short_calls: number;
  unpriced: number;
  duration: number;
  ingress_billed_time: number;
  egress_billed_time: number;
  revenue: Micros;
  cost: Micros;
  pdd_sum: number;
  pdd_calls: number;
}

const ms = (t: Date | string) => (typeof t === 'string' ? Date.parse(t) : t.getTime());
const micros = (v: string | Micros) => (typeof v === 'string' ? parseMoney(v) : v);

/**
 * The figures of signed sets of CDR rows summed per summary key, in key order (so concurrent batches
 * lock rows in one order). `hosts`: per the host summaries' key instead (customer, vendor, trunks,
 * country, ingress and egress host; no code, cause or non-zero).
 */
export async function aggregate(parts: readonly SignedRows[], hosts = false): Promise<Group[]> {
  const groups = new Map<string, Group>();
  for (const [rows, sign] of parts) {
    const s = BigInt(sign);
    for (const r of rows) {
      if (sliceUsed()) await yieldToLoop();
      addToGroup(groups, r, sign, s, hosts);
    }
  }
  return [...groups.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** CDR rows to add (1) to the summaries or take out (-1). */
export type SignedRows = readonly [rows: readonly SummaryCdr[], sign: 1 | -1];

function addToGroup(
  groups: Map<string, Group>,
  r: SummaryCdr,
  sign: 1 | -1,
  s: bigint,
  hosts: boolean,
): void {
  const bucket = intervalOf(ms(r.start_time));
  const g0 = {
    bucket,
    ingress_client_id: r.ingress_client_id ?? 0,
    egress_client_id: r.egress_client_id ?? 0,
    ingress_trunk_id: r.ingress_trunk_id,
    egress_trunk_id: r.egress_trunk_id ?? 0,
    egress_code: hosts ? '' : (r.egress_code ?? ''),
    term_country: r.term_country ?? '',
    release_cause: hosts ? 0 : r.release_cause,
    release_side: hosts ? '' : r.release_side,
    non_zero: hosts ? false : r.call_duration > 0,
    source_ip: hosts ? r.source_ip : '',
    egress_host: hosts ? (r.egress_host ?? '') : '',
  };
  const key = [
    String(bucket).padStart(15, '0'),
    g0.ingress_client_id,
    g0.egress_client_id,
    g0.ingress_trunk_id,
    g0.egress_trunk_id,
    g0.egress_code,
    g0.term_country,
    g0.release_cause,
    g0.release_side,
    g0.non_zero ? 1 : 0,
    g0.source_ip,
    g0.egress_host,
  ].join('\u0000');
  let g = groups.get(key);
  if (g === undefined) {
    g = {
      key,
      ...g0,
      attempts: 0,
      answered: 0,
      non_zero_calls: 0,
      ner_calls: 0,
      short_calls: 0,
      unpriced: 0,
      duration: 0,
      ingress_billed_time: 0,
      egress_billed_time: 0,
      revenue: 0n,
      cost: 0n,
      pdd_sum: 0,
      pdd_calls: 0,
    };
    groups.set(key, g);
  }
  const answered = r.answer_time !== null;
  g.attempts += sign;
  if (answered) g.answered += sign;
  if (r.call_duration > 0) g.non_zero_calls += sign;
  if (isNerEffective(answered, r.release_cause, r.q850_cause)) g.ner_calls += sign;
  if (isShortCall(r.call_duration)) g.short_calls += sign;
  if (r.unpriced_reason !== null) g.unpriced += sign;
  g.duration += sign * r.call_duration;
  g.ingress_billed_time += sign * r.ingress_billed_time;
  g.egress_billed_time += sign * r.egress_billed_time;
  g.revenue += s * (micros(r.ingress_client_cost) + micros(r.short_call_charge));
  g.cost += s * micros(r.egress_cost);
  g.pdd_sum += sign * r.pdd;
  if (r.pdd > 0) g.pdd_calls += sign;
}

const KEY_COLUMNS = [
  ['bucket', 'timestamptz'],
  ['ingress_client_id', 'int4'],
  ['egress_client_id', 'int4'],
  ['ingress_trunk_id', 'int4'],
  ['egress_trunk_id', 'int4'],
  ['egress_code', 'text'],
  ['term_country', 'text'],
  ['release_cause', 'int4'],
  ['release_side', 'text'],
  ['non_zero', 'bool'],
] as const;
/** Key of the host summaries (migration 0027): per 15 minutes, carriers, trunks, country and hosts. */
const HOST_KEY_COLUMNS = [
  ['bucket', 'timestamptz'],
  ['ingress_client_id', 'int4'],
  ['egress_client_id', 'int4'],
  ['ingress_trunk_id', 'int4'],
  ['egress_trunk_id', 'int4'],
  ['term_country', 'text'],
  ['source_ip', 'text'],
  ['egress_host', 'text'],
] as const;
const SUM_COLUMNS = [
  ['attempts', 'int8'],
  ['answered', 'int8'],
  ['non_zero_calls', 'int8'],
  ['ner_calls', 'int8'],
  ['short_calls', 'int8'],
  ['unpriced', 'int8'],
  ['duration', 'int8'],
  ['ingress_billed_time', 'int8'],
  ['egress_billed_time', 'int8'],
  ['revenue', 'numeric'],
  ['cost', 'numeric'],
  ['pdd_sum', 'int8'],
  ['pdd_calls', 'int8'],
] as const;

const HOURLY_KEYS = [
  'bucket',
  'ingress_client_id',
  'egress_client_id',
  'ingress_trunk_id',
  'egress_trunk_id',
  'term_country',
] as const;

/**
 * The 15-minute groups rolled up per `stepMs` (hour, day), in key order: by (customer, vendor,
 * trunks, country) for the hourly and daily roll-ups, or, with `detail`, by the 15-minute groups'
 * whole key (code, cause, side and non-zero too) for the daily detail table.
 */
async function rollUp(groups: readonly Group[], stepMs: number, detail = false): Promise<Group[]> {
  const out = new Map<string, Group>();
  for (const g of groups) {
    if (sliceUsed()) await yieldToLoop();
    const bucket = Math.floor(g.bucket / stepMs) * stepMs;
    const parts: (string | number)[] = [
      String(bucket).padStart(15, '0'),
      g.ingress_client_id,
      g.egress_client_id,
      g.ingress_trunk_id,
      g.egress_trunk_id,
    ];
    if (detail)
      parts.push(g.egress_code, g.term_country, g.release_cause, g.release_side, g.non_zero ? 1 : 0);
    else parts.push(g.term_country);
    const key = parts.join('\u0000');
    const h = out.get(key);
    if (h === undefined) {
      out.set(
        key,
        detail
          ? { ...g, key, bucket }
          : { ...g, key, bucket, egress_code: '', release_cause: 0, release_side: '', non_zero: false },
      );
      continue;
    }
    for (const [c] of SUM_COLUMNS) {
      if (c === 'revenue' || c === 'cost')
        h[c] += g[c]; // bigint micros
      else h[c] += g[c]; // counts and seconds
    }
  }
  return [...out.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** `INSERT INTO table (...) SELECT FROM unnest(arrays) ON CONFLICT (keys) DO UPDATE SET x = x + excluded.x`. */
async function upsert(
  table: string,
  keys: readonly ((typeof KEY_COLUMNS)[number] | (typeof HOST_KEY_COLUMNS)[number])[],
  groups: readonly Group[],
) {
  const columns = [...keys, ...SUM_COLUMNS];
  const values: Record<string, ArrayItem[]> = {};
  // Column by column, yielding when a slice is used (10,000 groups by 23 columns, issue 16).
  for (const [c] of keys) {
    values[c] = groups.map((g) => (c === 'bucket' ? new Date(g.bucket).toISOString() : (g[c] as ArrayItem)));
    if (sliceUsed()) await yieldToLoop();
  }
  for (const [c] of SUM_COLUMNS) {
    values[c] = groups.map((g) => (c === 'revenue' || c === 'cost' ? formatMoney(g[c], 6) : String(g[c])));
    if (sliceUsed()) await yieldToLoop();
  }
  // Text literals built column by column between yields (issue 16).
  const text = await arrayLiterals(values);
  const arrays = columns.map(([c, t]) => sql`${text[c]}::${sql.raw(t)}[]`);
  const all = columns.map(([c]) => sql.ref(c));
  return sql`INSERT INTO ${sql.table(table)} (${sql.join(all)})
    SELECT * FROM unnest(${sql.join(arrays)})
    ON CONFLICT (${sql.join(keys.map(([c]) => sql.ref(c)))}) DO UPDATE SET
    ${sql.join(SUM_COLUMNS.map(([c]) => sql`${sql.ref(c)} = ${sql.ref(`${table}.${c}`)} + ${sql.ref(`excluded.${c}`)}`))}`;
}

/**
 * Moves the traffic summaries by signed sets of CDR rows, inside the caller's transaction: a rerate
 * passes the old rows with -1 and the rewritten ones with +1, in the transaction that rewrites them,
 * and a CDR whose key did not change nets to its money's difference in one row. One statement per
 * call: the rows are summed per summary key here, then the tables (15-minute, hourly, daily, daily
 * detail, hosts) are upserted with `INSERT ... ON CONFLICT DO UPDATE SET x = x + excluded.x`, keys
 * in order.
 */
export async function changeSummaries(trx: Db, parts: readonly SignedRows[]): Promise<void> {
  await (await summariesStatement(parts))?.execute(trx);
}

/**
 * The statement changeSummaries runs (null: no rows), built without the database: the sums, roll-ups
 * and arrays are the server's work, so a caller can make it while an earlier transaction still holds
 * the summary rows (the rerate's pipeline) and run it when that one has committed.
 */
export async function summariesStatement(parts: readonly SignedRows[]): Promise<RawBuilder<unknown> | null> {
  if (parts.every(([rows]) => rows.length === 0)) return null;
  // Each step yields to the event loop (a batch of 10,000 CDRs is tens of milliseconds of sums).
  const groups = await aggregate(parts);
  const hourKeys = KEY_COLUMNS.filter(([c]) => (HOURLY_KEYS as readonly string[]).includes(c));
  const hours = await rollUp(groups, 3_600_000);
  const hosts = await aggregate(parts, true);
  const days = await rollUp(hours, 86_400_000);
  const detailDays = await rollUp(groups, 86_400_000, true);
  const fine = await upsert('cdr_summaries', KEY_COLUMNS, groups);
  const hourly = await upsert('cdr_summaries_hourly', hourKeys, hours);
  const host = await upsert('cdr_host_summaries', HOST_KEY_COLUMNS, hosts);
  const detail = await upsert('cdr_summaries_daily_detail', KEY_COLUMNS, detailDays);
  const daily = await upsert('cdr_summaries_daily', hourKeys, days);
  return sql`WITH fine AS (${fine}), hourly AS (${hourly}), hosts AS (${host}), detail AS (${detail}) ${daily}`;
}

/**
 * Queues a batch's stored CDRs for the summaries (migration 0038), in the batch's transaction: the
 * fold summarises them from the stored rows, found by their ids and start times (each an exact probe
 * of its day partition's (start_time, cdr_id) index).
 */
export async function queueForSummaries(
  trx: Db,
  batchId: string,
  cdrIds: readonly number[],
  startTimes: readonly string[],
): Promise<void> {
  await sql`INSERT INTO cdr_summary_queue (batch_id, cdr_ids, start_times, cdr_count)
    VALUES (${batchId}, ${arrayLiteral(cdrIds)}::int8[], ${arrayLiteral(startTimes)}::timestamptz[],
      ${cdrIds.length})`.execute(trx);
}

/**
 * CDRs one fold takes at most (whole batches, at least one): a fold holds its lock, which a
 * rerate's chunk waits for, about half a second at this size; a reader folds again until the queue
 * is empty.
 */
const FOLD_MAX_CDRS = 20_000;
const SUM_NAMES = SUM_COLUMNS.map(([c]) => c);
const KEY_NAMES = KEY_COLUMNS.map(([c]) => c);
const HOST_KEY_NAMES = HOST_KEY_COLUMNS.map(([c]) => c);
/** The UTC step of `seconds` a time column falls in (as the migrations' roll-ups). */
const stepOf = (seconds: number, column = 'bucket') =>
  `to_timestamp(floor(extract(epoch FROM ${column}) / ${seconds}) * ${seconds})`;
const list = (xs: readonly number[]) => xs.join(', ');

/**
 * One stored CDR's summary key and figures in SQL (alias c): the same as `addToGroup` makes of it
 * (the domain's NER causes and short call length; a test holds the two equal).
 */
const CDR_KEY: Record<string, string> = {
  bucket: stepOf(SUMMARY_INTERVAL_MS / 1000, 'c.start_time'),
  ingress_client_id: 'coalesce(c.ingress_client_id, 0)',
  egress_client_id: 'coalesce(c.egress_client_id, 0)',
  ingress_trunk_id: 'c.ingress_trunk_id',
  egress_trunk_id: 'coalesce(c.egress_trunk_id, 0)',
  egress_code: "coalesce(c.egress_code, '')",
  term_country: "coalesce(c.term_country, '')",
  release_cause: 'c.release_cause',
  release_side: 'c.release_side',
  non_zero: 'c.call_duration > 0',
  source_ip: 'c.source_ip',
  egress_host: "coalesce(c.egress_host, '')",
};
const CDR_FIGURES: Record<(typeof SUM_NAMES)[number], string> = {
  attempts: '1',
  answered: '(c.answer_time IS NOT NULL)::int',
  non_zero_calls: '(c.call_duration > 0)::int',
  ner_calls: `(c.answer_time IS NOT NULL OR c.release_cause IN (${list(NER_USER_CAUSES)})
    OR coalesce(c.q850_cause IN (${list(NER_USER_Q850)}), false))::int`,
  short_calls: `(c.call_duration > 0 AND c.call_duration < ${SHORT_CALL_STAT_SECONDS})::int`,
  unpriced: '(c.unpriced_reason IS NOT NULL)::int',
  duration: 'c.call_duration',
  ingress_billed_time: 'c.ingress_billed_time',
  egress_billed_time: 'c.egress_billed_time',
  revenue: 'c.ingress_client_cost + c.short_call_charge',
  cost: 'c.egress_cost',
  pdd_sum: 'c.pdd',
  pdd_calls: '(c.pdd > 0)::int',
};

/** The columns of a queued CDR the fold reads (those CDR_KEY and CDR_FIGURES use). */
const CDR_READ = [
  ...new Set(
    [...Object.values(CDR_KEY), ...Object.values(CDR_FIGURES)].flatMap((e) =>
      [...e.matchAll(/\bc\.([a-z_][a-z_0-9]*)/g)].map((m) => m[1]!),
    ),
  ),
].join(', ');

/** The queued CDRs (alias c) summed per `keys`. */
function summed(keys: readonly string[]): string {
  const n = keys.map((_, i) => i + 1).join(', ');
  return `SELECT ${[...keys.map((k) => `${CDR_KEY[k]} AS ${k}`), ...SUM_NAMES.map((f) => `sum(${CDR_FIGURES[f]}) AS ${f}`)].join(', ')}
    FROM queued c GROUP BY ${n}`;
}

/**
 * `INSERT INTO table SELECT keys, sums FROM source GROUP BY keys ORDER BY keys ON CONFLICT (keys)
 * DO UPDATE SET x = x + excluded.x`: summed groups into one table (in key order). `bucket`: the
 * expression of the bucket key (the 15-minute bucket itself, its hour or its day).
 */
function foldInto(table: string, keys: readonly string[], bucket: string, source: string): string {
  const n = keys.map((_, i) => i + 1).join(', ');
  const select = keys.map((k) => (k === 'bucket' ? `${bucket} AS bucket` : k));
  return `INSERT INTO ${table} (${[...keys, ...SUM_NAMES].join(', ')})
  SELECT ${[...select, ...SUM_NAMES.map((c) => `sum(${c})`)].join(', ')} FROM ${source}
  GROUP BY ${n} ORDER BY ${n}
  ON CONFLICT (${keys.join(', ')}) DO UPDATE SET ${SUM_NAMES.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ')}`;
}

/**
 * The fold in one statement: the queued batches (as many as FOLD_MAX_CDRS CDRs take, at least one)
 * with their CDRs read back by start time and id (one index probe each, in the day's partition),
 * summed into the 15-minute table, the daily detail, the hourly and daily roll-ups and the host
 * summaries; the batches deleted from the queue.
 */
const foldStatement = (maxCdrs: number) => `WITH pick AS (SELECT batch_id FROM (
    SELECT batch_id, sum(cdr_count) OVER (ORDER BY batch_id) - cdr_count AS before FROM cdr_summary_queue) x
  WHERE before < ${maxCdrs}),
q AS (DELETE FROM cdr_summary_queue WHERE batch_id IN (SELECT batch_id FROM pick) RETURNING cdr_ids, start_times, cdr_count),
queued AS MATERIALIZED (SELECT c.* FROM q CROSS JOIN LATERAL unnest(q.cdr_ids, q.start_times) AS k(id, st)
  CROSS JOIN LATERAL (SELECT ${CDR_READ} FROM cdrs WHERE start_time = k.st AND cdr_id = k.id) c),
g AS MATERIALIZED (${summed(KEY_NAMES)}),
fine AS (${foldInto('cdr_summaries', KEY_NAMES, 'bucket', 'g')}),
detail AS (${foldInto('cdr_summaries_daily_detail', KEY_NAMES, stepOf(86_400), 'g')}),
hourly AS (${foldInto('cdr_summaries_hourly', HOURLY_KEYS, stepOf(3_600), 'g')}),
daily AS (${foldInto('cdr_summaries_daily', HOURLY_KEYS, stepOf(86_400), 'g')}),
hosts AS (${foldInto('cdr_host_summaries', HOST_KEY_NAMES, 'bucket', `(${summed(HOST_KEY_NAMES)}) h`)})
SELECT (SELECT count(*) FROM q)::int AS batches, (SELECT count(*) FROM queued)::int AS cdrs,
  (SELECT coalesce(sum(cdr_count), 0) FROM q)::int AS picked`;
const FOLD = foldStatement(FOLD_MAX_CDRS);
/** pg_advisory_xact_lock key of the fold: one fold at a time across every server process. */
const FOLD_LOCK = 7_362_038;

/** What one fold moved. */
export interface Folded {
  batches: number;
  cdrs: number;
}

/**
 * The fold (migration 0038): summarises every batch queued so far from its stored CDRs into the
 * summary tables, in transactions of at most FOLD_MAX_CDRS CDRs (or all in the caller's, if `db` is
 * one), one fold at a time across processes (an advisory lock the rerate takes too). A queued batch
 * is deleted in the transaction that adds it to the tables, so it counts once whatever crashes or
 * retries (`maxCdrs`: a smaller transaction, for tests). Readers of the summaries call it first, so a report counts every CDR
 * committed before it was asked; the CDR module also folds in the background (SummaryFolder).
 */
export async function foldSummaries(db: Db, maxCdrs = FOLD_MAX_CDRS): Promise<Folded> {
  const statement = maxCdrs === FOLD_MAX_CDRS ? FOLD : foldStatement(maxCdrs);
  const run = async (trx: Db) => {
    await sql`SELECT pg_advisory_xact_lock(${FOLD_LOCK})`.execute(trx);
    const r = await sql<Folded & { picked: number }>`${sql.raw(statement)}`.execute(trx);
    return r.rows[0] ?? { batches: 0, cdrs: 0, picked: 0 };
  };
  const all: Folded = { batches: 0, cdrs: 0 };
  // Folds of at most FOLD_MAX_CDRS, each its own transaction (or all in the caller's), until one
  // finds the queue shorter than that: everything queued before the call is then folded.
  for (;;) {
    const f = db.isTransaction ? await run(db) : await db.transaction().execute(run);
    all.batches += f.batches;
    all.cdrs += f.cdrs;
    if (f.picked < maxCdrs) return all;
  }
}

/**
 * For a rerate's chunk, in its transaction, after it rewrote its CDRs: takes the fold's lock (held
 * to its commit) and answers which of the chunk's batches are still queued. Their CDRs are folded
 * from the rows as rewritten, after this commit, so the rerate moves the summaries only for the
 * others.
 */
export async function stillQueued(trx: Db, batchIds: readonly string[]): Promise<Set<string>> {
  await sql`SELECT pg_advisory_xact_lock(${FOLD_LOCK})`.execute(trx);
  const r = await sql<{ batch_id: string }>`
    SELECT batch_id FROM cdr_summary_queue WHERE batch_id = ANY(${arrayLiteral([...new Set(batchIds)])}::text[])`.execute(
    trx,
  );
  return new Set(r.rows.map((x) => x.batch_id));
}

/**
 * Folds the queued summaries in the background: `delayMs` after a batch commits (`soon`; at most one
 * fold at a time, the next one picking up whatever arrived meanwhile) and every max(1 s, 10 ×
 * delayMs) for what a rerate, another process or a crash left. `delayMs` 0: never in the
 * background (readers still fold before they read).
 */
export class SummaryFolder {
  private timer: NodeJS.Timeout | null = null;
  private sweep: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly onError: (err: unknown) => void,
    private readonly delayMs = 100,
  ) {}

  start(): void {
    if (this.delayMs === 0) return;
    this.stopped = false;
    this.sweep ??= setInterval(() => this.soon(), Math.max(1_000, 10 * this.delayMs));
    this.sweep.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.sweep) clearInterval(this.sweep);
    if (this.timer) clearTimeout(this.timer);
    this.sweep = this.timer = null;
    await this.running;
  }

  /** A fold within `delayMs` (batches arriving meanwhile are folded together). */
  soon(): void {
    if (this.stopped || this.delayMs === 0) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = foldSummaries(this.db)
        .then(
          () => undefined,
          (err: unknown) => this.onError(err),
        )
        .finally(() => {
          this.running = null;
          if (this.again) {
            this.again = false;
            this.soon();
          }
        });
    }, this.delayMs);
    this.timer.unref();
  }
}

/** What a call's summary row takes from the call itself (not from its rating). */
export interface SummaryCall {
  start_time: Date | string;
  answer_time: Date | string | null;
  ingress_trunk_id: number;
  egress_trunk_id: number | null;
  release_cause: number;
  q850_cause: number | null;
  release_side: string;
  call_duration: number;
  pdd: number;
  source_ip: string;
  egress_host: string | null;
}

/** A call as rated by `r`, for the summaries (the ingest's new CDRs, the rerate's rewritten ones). */
export function ratedSummary(c: SummaryCall, r: CdrRating): SummaryCdr {
  // Every field named (no spread of `c`): a batch makes 10,000 of these, and a literal of one
  // shape is several times faster to build than a spread.
  return {
    start_time: c.start_time,
    answer_time: c.answer_time,
    ingress_client_id: r.ingress.carrier_id,
    egress_client_id: r.egress?.carrier_id ?? null,
    ingress_trunk_id: c.ingress_trunk_id,
    egress_trunk_id: c.egress_trunk_id,
    egress_code: r.egress?.code ?? null,
    term_country: r.egress?.country ?? null,
    release_cause: c.release_cause,
    q850_cause: c.q850_cause,
    release_side: c.release_side,
    call_duration: c.call_duration,
    pdd: c.pdd,
    ingress_billed_time: r.ingress.billed_seconds,
    egress_billed_time: r.egress?.billed_seconds ?? 0,
    ingress_client_cost: r.ingress.cost,
    short_call_charge: r.short_call_charge,
    egress_cost: r.cost,
    unpriced_reason: r.unpriced,
    source_ip: c.source_ip,
    egress_host: c.egress_host,
  };
}
