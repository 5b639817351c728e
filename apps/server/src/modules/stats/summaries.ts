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
 * Adds CDRs to the traffic summaries (sign 1) or takes them out (sign -1), inside the caller's
 * transaction: the CDR ingest calls it with the CDRs it stores. See changeSummaries.
 */
export async function addToSummaries(trx: Db, rows: readonly SummaryCdr[], sign: 1 | -1): Promise<void> {
  await changeSummaries(trx, [[rows, sign]]);
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
