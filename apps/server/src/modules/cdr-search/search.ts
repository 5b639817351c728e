import { api, type CdrFieldDef, type CdrFilter, type CdrRow } from '@tandem/contract';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/connection';
import { notFound } from '../../http/errors';
import { visibleFields, type CdrViewer } from './viewer';

const { CDR_COUNT_CAP } = api.cdrSearch;

/** An instant of a filter: without a zone it is UTC (the server's own zone must not matter). */
export function utcInstant(v: string): Date {
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(v);
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(v);
  return new Date(hasZone || dateOnly ? v : v.replace(' ', 'T') + 'Z');
}

/** SQL of one catalogue field, over `cdrs c` and the joins of `joinsFor`. */
function fieldSql(name: string): RawBuilder<unknown> {
  switch (name) {
    case 'ingress_client_name':
      return sql`ic.name`;
    case 'egress_client_name':
      return sql`ec.name`;
    case 'ingress_trunk_name':
      return sql`it.name`;
    case 'egress_trunk_name':
      return sql`et.name`;
    case 'ingress_rate_table_name':
      return sql`irt.name`;
    case 'egress_rate_table_name':
      return sql`ert.name`;
    default:
      return sql.ref(`c.${name}`);
  }
}

const JOINS: Record<string, RawBuilder<unknown>> = {
  ingress_client_name: sql`LEFT JOIN carriers ic ON ic.client_id = c.ingress_client_id`,
  egress_client_name: sql`LEFT JOIN carriers ec ON ec.client_id = c.egress_client_id`,
  ingress_trunk_name: sql`LEFT JOIN trunks it ON it.trunk_id = c.ingress_trunk_id`,
  egress_trunk_name: sql`LEFT JOIN trunks et ON et.trunk_id = c.egress_trunk_id`,
  ingress_rate_table_name: sql`LEFT JOIN rate_tables irt ON irt.rate_table_id = c.ingress_rate_table_id`,
  egress_rate_table_name: sql`LEFT JOIN rate_tables ert ON ert.rate_table_id = c.egress_rate_table_id`,
};

/** Escapes % and _ for LIKE 'prefix%'. */
const prefixLike = (s: string) => `${s.replace(/[\\%_]/g, (m) => '\\' + m)}%`;

/**
 * The WHERE conditions of a search: the viewer's tenancy first (a client: the calls it sent; a vendor:
 * the legs sent to it; an agent: its carriers' calls as customers), then the filters. A portal user's
 * filters on the other leg are not applied (they could only probe data it may not see).
 */
export function conditions(v: CdrViewer, q: Partial<CdrFilter>): RawBuilder<unknown>[] {
  const c: RawBuilder<unknown>[] = [];
  const vendor = v.type === 'vendor';
  const admin = v.type === 'admin';
  if (v.type === 'client') c.push(sql`c.ingress_client_id = ${v.clientId}`);
  if (vendor) c.push(sql`c.egress_client_id = ${v.clientId}`);
  if (v.type === 'agent')
    c.push(sql`c.ingress_client_id IN (SELECT client_id FROM carriers WHERE agent_id = ${v.agentId})`);
  if (q.start) c.push(sql`c.start_time >= ${utcInstant(q.start)}`);
  if (q.end) c.push(sql`c.start_time < ${utcInstant(q.end)}`);
  if (!vendor) {
    if (q.ingress_client_id !== undefined) c.push(sql`c.ingress_client_id = ${q.ingress_client_id}`);
    if (q.ingress_trunk_id !== undefined) c.push(sql`c.ingress_trunk_id = ${q.ingress_trunk_id}`);
    if (q.ani) c.push(sql`c.ani LIKE ${prefixLike(q.ani)}`);
  }
  if (admin || vendor) {
    if (q.egress_client_id !== undefined) c.push(sql`c.egress_client_id = ${q.egress_client_id}`);
    if (q.egress_trunk_id !== undefined) c.push(sql`c.egress_trunk_id = ${q.egress_trunk_id}`);
  }
  if (q.dnis)
    c.push(vendor ? sql`c.egress_dnis LIKE ${prefixLike(q.dnis)}` : sql`c.dnis LIKE ${prefixLike(q.dnis)}`);
  if (q.code)
    c.push(
      vendor ? sql`c.egress_code LIKE ${prefixLike(q.code)}` : sql`c.ingress_code LIKE ${prefixLike(q.code)}`,
    );
  if (q.country)
    c.push(
      vendor
        ? sql`lower(c.term_country) = ${q.country.toLowerCase()}`
        : sql`lower(c.orig_country) = ${q.country.toLowerCase()}`,
    );
  if (q.duration === 'non_zero') c.push(sql`c.call_duration > 0`);
  if (q.duration === 'zero') c.push(sql`c.call_duration = 0`);
  if (q.answered === true) c.push(sql`c.answer_time IS NOT NULL`);
  if (q.answered === false) c.push(sql`c.answer_time IS NULL`);
  if (q.release_cause !== undefined) c.push(sql`c.release_cause = ${q.release_cause}`);
  if (q.release_side) c.push(sql`c.release_side = ${q.release_side}`);
  // A call id is found through cdr_keys (its primary key) rather than by reading the range.
  if (q.call_id)
    c.push(
      sql`c.call_id = ${q.call_id} AND c.cdr_id IN (SELECT k.cdr_id FROM cdr_keys k WHERE k.call_id = ${q.call_id})`,
    );
  // DID traffic: the call came in on a DID vendor's trunk (docs/did.md); termination: any other.
  if (q.traffic === 'did')
    c.push(sql`c.ingress_trunk_id IN (SELECT trunk_id FROM trunks WHERE trunk_type2 = 'did')`);
  if (q.traffic === 'termination')
    c.push(
      sql`(c.ingress_trunk_id IS NULL OR c.ingress_trunk_id NOT IN (SELECT trunk_id FROM trunks WHERE trunk_type2 = 'did'))`,
    );
  // Whether a CDR was priced is the operator's matter (a portal user sees its own leg's cost).
  if (admin && q.unpriced === true) c.push(sql`c.unpriced_reason IS NOT NULL`);
  if (admin && q.unpriced === false) c.push(sql`c.unpriced_reason IS NULL`);
  return c;
}

/** The fields asked for that the viewer may see (all it may see when none are asked for). */
export async function chosenFields(db: Db, v: CdrViewer, asked?: readonly string[]): Promise<CdrFieldDef[]> {
  const visible = await visibleFields(db, v);
  if (!asked?.length) return visible;
  const byName = new Map(visible.map((f) => [f.name, f]));
  return asked.flatMap((n) => byName.get(n) ?? []);
}

/** The keyset position of a row's start time, in full microseconds (a JavaScript Date keeps milliseconds only). */
const position = (startTime: RawBuilder<unknown>) =>
  sql`to_char(${startTime} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The joins the fields need (carrier, trunk and rate table names). */
function joinsFor(fields: readonly CdrFieldDef[]): RawBuilder<unknown> {
  const joins = fields.flatMap((f) => JOINS[f.name] ?? []);
  return joins.length ? sql.join(joins, sql` `) : sql``;
}

function selectList(fields: readonly CdrFieldDef[]): {
  select: RawBuilder<unknown>;
  joins: RawBuilder<unknown>;
} {
  const cols = [
    sql`c.cdr_id AS "_cdr_id"`,
    sql`c.call_id AS "_call_id"`,
    sql`${position(sql`c.start_time`)} AS "_pos"`,
    ...fields.map((f) => sql`${fieldSql(f.name)} AS ${sql.ref(f.name)}`),
  ];
  return { select: sql.join(cols), joins: joinsFor(fields) };
}

type RawRow = Record<string, unknown> & { _cdr_id: number; _call_id: string; _pos: string };

/** A stored row as the API sends it: times as ISO UTC, NUMERIC as exact strings. */
function rowOut(r: RawRow, fields: readonly CdrFieldDef[]): CdrRow {
  const out: CdrRow = { cdr_id: Number(r._cdr_id), call_id: r._call_id };
  for (const f of fields) {
    const val = r[f.name];
    out[f.name] =
      val === null || val === undefined
        ? null
        : val instanceof Date
          ? val.toISOString()
          : typeof val === 'bigint'
            ? Number(val)
            : (val as string | number | boolean);
  }
  return out;
}

const cursorOf = (r: RawRow) => `${r._pos}~${r._cdr_id}`;
function parseCursor(c: string): { ts: string; id: string } {
  const [ts, id] = c.split('~') as [string, string];
  return { ts, id };
}

/**
 * The keyset of a page: the search's conditions plus "after (or before) the cursor" on
 * (start_time, cdr_id), and the direction the index is read in.
 */
function keyset(q: CdrPageQuery, conds: RawBuilder<unknown>[]) {
  const desc = q.order_dir === 'desc';
  const backwards = q.before !== undefined && q.after === undefined;
  const cursor = backwards ? q.before : q.after;
  const where = [...conds];
  if (cursor) {
    const { ts, id } = parseCursor(cursor);
    // forwards in desc order, or backwards in asc order: rows before the cursor
    const less = desc !== backwards;
    const pos = sql`(${ts}::timestamptz, ${id}::bigint)`;
    where.push(less ? sql`(c.start_time, c.cdr_id) < ${pos}` : sql`(c.start_time, c.cdr_id) > ${pos}`);
  }
  const scanDesc = desc !== backwards;
  return {
    cursor,
    backwards,
    whereSql: where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``,
    dir: scanDesc ? sql`DESC` : sql`ASC`,
    /** The other way round (the page's last row is the first in this order). */
    reverse: scanDesc ? sql`ASC` : sql`DESC`,
  };
}

/**
 * One field's CSV cell built by the database, as `csvCell` writes what `rowOut` gives (times in
 * ISO UTC with milliseconds, numbers and NUMERIC as their text, booleans as true/false).
 */
function csvCellSql(f: CdrFieldDef): RawBuilder<unknown> {
  const v = fieldSql(f.name);
  if (f.type === 'time')
    return sql`coalesce(to_char(${v} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), '')`;
  if (f.type === 'bool') return sql`coalesce(${v}::text, '')`;
  return sql`csv_cell(${v}::text)`;
}

/**
 * One page of a search as CSV text, the lines built by the database (csv_cell, migration 0037):
 * `text` is `rows` lines, each ended by CRLF, in the search's order; `next` the cursor after the last
 * (null: no more rows). A page reaches this thread as one string, not a row object per CDR, so a
 * million-CDR CSV leaves the garbage collector next to nothing (docs/performance.md, issue 16).
 */
export async function csvTextPage(
  db: Db,
  v: CdrViewer,
  q: CdrPageQuery,
  fields: readonly CdrFieldDef[],
): Promise<{ text: string; rows: number; next: string | null }> {
  const { whereSql, dir, reverse } = keyset({ ...q, before: undefined }, conditions(v, q));
  const line = sql.join(
    fields.map((f) => csvCellSql(f)),
    sql` || ',' || `,
  );
  const res = await sql<{ text: string | null; rows: number; last: string | null }>`
    WITH p AS MATERIALIZED (
      SELECT ${line} AS line, c.start_time, c.cdr_id FROM cdrs c ${joinsFor(fields)}
      ${whereSql} ORDER BY c.start_time ${dir}, c.cdr_id ${dir} LIMIT ${q.per_page})
    SELECT (SELECT string_agg(line || E'\r\n', '' ORDER BY start_time ${dir}, cdr_id ${dir}) FROM p) AS text,
      (SELECT count(*)::int FROM p) AS rows,
      (SELECT ${position(sql`start_time`)} || '~' || cdr_id
        FROM p ORDER BY start_time ${reverse}, cdr_id ${reverse} LIMIT 1) AS last`.execute(db);
  const r = res.rows[0];
  const rows = Number(r?.rows ?? 0);
  return { text: r?.text ?? '', rows, next: rows === q.per_page ? (r?.last ?? null) : null };
}

export interface CdrPageQuery extends Partial<CdrFilter> {
  per_page: number;
  order_dir: 'asc' | 'desc';
  after?: string;
  before?: string;
}

/**
 * One page of a search, keyset paged on (start_time, cdr_id): the query reads the index range after
 * (or before) the cursor and stops after per_page + 1 rows, so page 1000 costs what page 1 does.
 */
export async function searchPage(
  db: Db,
  v: CdrViewer,
  q: CdrPageQuery,
  fields: readonly CdrFieldDef[],
  opts: { count?: boolean } = {},
) {
  const conds = conditions(v, q);
  const { cursor, backwards, whereSql, dir } = keyset(q, conds);
  const { select, joins } = selectList(fields);
  const res = await sql<RawRow>`SELECT ${select} FROM cdrs c ${joins} ${whereSql}
    ORDER BY c.start_time ${dir}, c.cdr_id ${dir} LIMIT ${q.per_page + 1}`.execute(db);
  let rows = res.rows;
  const more = rows.length > q.per_page;
  rows = rows.slice(0, q.per_page);
  if (backwards) rows.reverse();
  const first = rows[0];
  const last = rows[rows.length - 1];
  const next = last && (backwards || more) ? cursorOf(last) : null;
  const prev = first && (backwards ? more : cursor !== undefined) ? cursorOf(first) : null;

  let total = 0;
  let capped = false;
  if (opts.count !== false) {
    const condSql = conds.length ? sql`WHERE ${sql.join(conds, sql` AND `)}` : sql``;
    const n = await sql<{ n: number }>`SELECT count(*)::int AS n FROM
      (SELECT 1 FROM cdrs c ${condSql} LIMIT ${CDR_COUNT_CAP + 1}) x`.execute(db);
    total = Number(n.rows[0]?.n ?? 0);
    capped = total > CDR_COUNT_CAP;
    if (capped) total = CDR_COUNT_CAP;
  }
  return {
    items: rows.map((r) => rowOut(r, fields)),
    fields: fields.map((f) => f.name),
    next,
    prev,
    total,
    total_capped: capped,
    /** For the CSV writer: the raw position of the last row. */
    lastCursor: last ? cursorOf(last) : null,
  };
}

/** Every attempt of one call the viewer may see, with every field it may see; none: not found. */
export async function callAttempts(db: Db, v: CdrViewer, callId: string, only: Partial<CdrFilter> = {}) {
  const fields = await visibleFields(db, v);
  const { select, joins } = selectList(fields);
  const conds = [sql`k.call_id = ${callId}`, ...conditions(v, only)];
  const res = await sql<RawRow>`SELECT ${select} FROM cdr_keys k
    JOIN cdrs c ON c.cdr_id = k.cdr_id AND c.start_time = k.start_time ${joins}
    WHERE ${sql.join(conds, sql` AND `)} ORDER BY k.attempt`.execute(db);
  if (!res.rows.length) throw notFound();
  return {
    call_id: callId,
    fields: fields.map((f) => f.name),
    attempts: res.rows.map((r) => rowOut(r, fields)),
  };
}
