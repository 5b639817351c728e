import type { CdrIn } from '@tandem/contract';
import {
  formatMoney,
  intervalOf,
  isNerEffective,
  isShortCall,
  parseMoney,
  type CdrRating,
  type Micros,
} from '@tandem/domain';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/connection';
import { arrayLiterals, type ArrayItem } from '../../db/arrays';
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

/** `INSERT INTO table (...) SELECT FROM unnest(arrays)`: a batch's groups appended to a pending table. */
async function append(
  table: 'cdr_summaries_pending' | 'cdr_host_summaries_pending',
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
  return sql`INSERT INTO ${sql.table(table)} (${sql.join(columns.map(([c]) => sql.ref(c)))})
    SELECT * FROM unnest(${sql.join(arrays)})`;
}

/**
 * Adds CDRs to the traffic summaries (sign 1) or takes them out (sign -1), inside the caller's
 * transaction: the CDR ingest calls it with the CDRs it stores. See changeSummaries.
 */
export async function addToSummaries(trx: Db, rows: readonly SummaryCdr[], sign: 1 | -1): Promise<void> {
  await changeSummaries(trx, [[rows, sign]]);
}

/**
 * Moves the traffic summaries by signed sets of CDR rows, inside the caller's transaction: a rerate
 * passes the old rows with -1 and the rewritten ones with +1, in the transaction that rewrites them,
 * and a CDR whose key did not change nets to its money's difference in one row. The rows are summed
 * here per 15-minute key and per host key, and appended to the pending tables (migration 0038) in
 * one statement: no key, no index, no conflict, so concurrent batches never wait for each other's
 * summary rows. `foldSummaries` moves them into the summary tables.
 */
export async function changeSummaries(trx: Db, parts: readonly SignedRows[]): Promise<void> {
  await (await summariesStatement(parts))?.execute(trx);
}

/**
 * The statement changeSummaries runs (null: no rows), built without the database: the sums and
 * arrays are the server's work, so a caller can make it ahead and run it in the transaction that
 * writes the CDRs (the rerate's pipeline).
 */
export async function summariesStatement(parts: readonly SignedRows[]): Promise<RawBuilder<unknown> | null> {
  if (parts.every(([rows]) => rows.length === 0)) return null;
  // Each step yields to the event loop (a batch of 10,000 CDRs is tens of milliseconds of sums).
  const groups = await aggregate(parts);
  const hosts = await aggregate(parts, true);
  const fine = await append('cdr_summaries_pending', KEY_COLUMNS, groups);
  const host = await append('cdr_host_summaries_pending', HOST_KEY_COLUMNS, hosts);
  return sql`WITH fine AS (${fine}) ${host}`;
}

const SUM_NAMES = SUM_COLUMNS.map(([c]) => c);
/** The UTC hour or day a 15-minute bucket falls in (as the migrations' roll-ups). */
const stepOf = (seconds: number) =>
  `to_timestamp(floor(extract(epoch FROM bucket) / ${seconds}) * ${seconds})`;

/**
 * `INSERT INTO table SELECT keys, sums FROM source GROUP BY keys ORDER BY keys ON CONFLICT (keys)
 * DO UPDATE SET x = x + excluded.x`: the pending deltas summed into one table (in key order).
 * `bucket`: the expression of the bucket key (the 15-minute bucket itself, its hour or its day).
 */
function foldInto(table: string, keys: readonly string[], bucket: string, source: string): string {
  const n = keys.map((_, i) => i + 1).join(', ');
  const select = keys.map((k) => (k === 'bucket' ? `${bucket} AS bucket` : k));
  return `INSERT INTO ${table} (${[...keys, ...SUM_NAMES].join(', ')})
  SELECT ${[...select, ...SUM_NAMES.map((c) => `sum(${c})`)].join(', ')} FROM ${source}
  GROUP BY ${n} ORDER BY ${n}
  ON CONFLICT (${keys.join(', ')}) DO UPDATE SET ${SUM_NAMES.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ')}`;
}

const KEY_NAMES = KEY_COLUMNS.map(([c]) => c);
const HOST_KEY_NAMES = HOST_KEY_COLUMNS.map(([c]) => c);
/** The 15-minute deltas into the 15-minute table, the daily detail, the hourly and the daily roll-ups. */
const FOLD_FINE = `WITH moved AS (DELETE FROM cdr_summaries_pending RETURNING *),
g AS MATERIALIZED (SELECT ${[...KEY_NAMES, ...SUM_NAMES.map((c) => `sum(${c}) AS ${c}`)].join(', ')}
  FROM moved GROUP BY ${KEY_NAMES.map((_, i) => i + 1).join(', ')}),
fine AS (${foldInto('cdr_summaries', KEY_NAMES, 'bucket', 'g')}),
detail AS (${foldInto('cdr_summaries_daily_detail', KEY_NAMES, stepOf(86_400), 'g')}),
hourly AS (${foldInto('cdr_summaries_hourly', HOURLY_KEYS, stepOf(3_600), 'g')}),
daily AS (${foldInto('cdr_summaries_daily', HOURLY_KEYS, stepOf(86_400), 'g')})
SELECT count(*)::int AS n FROM moved`;
const FOLD_HOSTS = `WITH moved AS (DELETE FROM cdr_host_summaries_pending RETURNING *),
hosts AS (${foldInto('cdr_host_summaries', HOST_KEY_NAMES, 'bucket', 'moved')})
SELECT count(*)::int AS n FROM moved`;
/** pg_advisory_xact_lock key of the fold: one fold at a time across every server process. */
const FOLD_LOCK = 7_362_038;

/**
 * The fold (migration 0038): moves every pending summary delta committed so far into the summary
 * tables, in one transaction (the caller's, if `db` is one), one fold at a time across processes
 * (an advisory lock). A delta is deleted in the transaction that adds it to the tables, so each is
 * counted once whatever crashes or retries. Readers of the summaries call it first, so a report
 * counts every CDR committed before it was asked; the CDR module also folds in the background
 * (SummaryFolder). Returns the number of deltas moved.
 */
export async function foldSummaries(db: Db): Promise<number> {
  const run = async (trx: Db) => {
    await sql`SELECT pg_advisory_xact_lock(${FOLD_LOCK})`.execute(trx);
    const fine = await sql<{ n: number }>`${sql.raw(FOLD_FINE)}`.execute(trx);
    const hosts = await sql<{ n: number }>`${sql.raw(FOLD_HOSTS)}`.execute(trx);
    return (fine.rows[0]?.n ?? 0) + (hosts.rows[0]?.n ?? 0);
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/**
 * Folds the pending summaries in the background: soon after a batch commits (`soon`, at most one
 * fold at a time, the next one picking up whatever arrived meanwhile) and every `everyMs` (deltas a
 * rerate, another process or a crash left).
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
    private readonly everyMs = 1_000,
  ) {}

  start(): void {
    this.stopped = false;
    this.sweep ??= setInterval(() => this.soon(0), this.everyMs);
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
  soon(delayMs = this.delayMs): void {
    if (this.stopped) return;
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
    }, delayMs);
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

/** A CDR as the ingest stores it (the contract's CDR and its rating), for addToSummaries. */
export function summaryOf(c: CdrIn, r: CdrRating): SummaryCdr {
  return ratedSummary(
    {
      start_time: c.start_time,
      answer_time: c.answer_time,
      ingress_trunk_id: c.ingress_trunk_id,
      egress_trunk_id: c.egress_trunk_id,
      release_cause: c.release_cause,
      q850_cause: c.q850_cause ?? null,
      release_side: c.release_side,
      call_duration: c.duration,
      pdd: c.pdd_ms,
      source_ip: c.source_ip,
      egress_host: c.egress_host ?? null,
    },
    r,
  );
}
