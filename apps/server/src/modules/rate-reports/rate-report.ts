import type { api } from '@tandem/contract';
import { codePrefixes, compareRates, type ComparedRow } from '@tandem/domain';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/connection';
import { likeContains } from '../../db/paging';
import { atPlaces } from '../rates/rate-query';
import { trunkTables } from './trunk-tables';

type Query = api.rateReports.RateReportQuery;
type Column = api.rateReports.RateReportColumn;
type Row = api.rateReports.RateReportRow;

interface ReadRow extends ComparedRow {
  rate_table_id: number;
  code_name: string;
  country: string;
  effective_date: number;
  end_date: number | null;
}

/** Codes priced per round trip to the database (an export of a whole deck goes in chunks). */
const CHUNK = 2000;

/** The compared columns: each carrier's rate tables in the report's currency (clients first). */
async function columnsOf(db: Db, q: Query): Promise<Column[]> {
  let qb = db
    .selectFrom(trunkTables.as('x'))
    .select(['x.direction', 'x.carrier_id', 'x.carrier_name', 'x.rate_table_id', 'x.rate_table_name'])
    .select(['x.decimal_places'])
    .select(sql<string[]>`array_agg(DISTINCT x.trunk_name ORDER BY x.trunk_name)`.as('trunk_names'))
    .where('x.rate_table_id', 'is not', null)
    .where('x.currency', '=', q.currency)
    .groupBy(['x.direction', 'x.carrier_id', 'x.carrier_name', 'x.rate_table_id', 'x.rate_table_name'])
    .groupBy('x.decimal_places')
    .orderBy('x.direction', 'desc')
    .orderBy('x.carrier_name')
    .orderBy('x.rate_table_name');
  if (!q.include_inactive) qb = qb.where('x.trunk_is_active', '=', true);
  if (q.carrier_id) qb = qb.where('x.carrier_id', '=', q.carrier_id);
  if (q.side) qb = qb.where('x.direction', '=', q.side === 'client' ? 'ingress' : 'egress');
  return (await qb.execute()).map((c) => ({
    side: c.direction === 'ingress' ? 'client' : 'vendor',
    carrier_id: c.carrier_id,
    carrier_name: c.carrier_name,
    rate_table_id: Number(c.rate_table_id),
    rate_table_name: c.rate_table_name ?? '',
    trunk_names: c.trunk_names,
    decimal_places: c.decimal_places ?? 4,
  }));
}

/**
 * The report's codes: the codes in effect at `at` in the compared tables that match the filters
 * (code prefixes, code name, country); with codes and no name or country filter, each given code
 * is a row too (a full number is priced even when no table has it as a code).
 */
function codeSet(tables: number[], q: Query, at: Date): RawBuilder<{ code: string }> {
  const given = q.codes ?? [];
  const parts: RawBuilder<unknown>[] = [
    sql`r.rate_table_id = ANY(${tables}::bigint[])`,
    sql`r.effective_date <= ${at} AND (r.end_date IS NULL OR r.end_date > ${at})`,
  ];
  if (given.length) parts.push(sql`r.code LIKE ANY(${given.map((c) => c + '%')}::text[])`);
  if (q.code_name) parts.push(sql`r.code_name ILIKE ${likeContains(q.code_name)}`);
  if (q.country) parts.push(sql`r.country ILIKE ${likeContains(q.country)}`);
  const fromTables = sql`SELECT r.code FROM rates r WHERE ${sql.join(parts, sql` AND `)}`;
  return given.length && !q.code_name && !q.country
    ? sql`(${fromTables} UNION SELECT unnest(${given}::text[]))`
    : sql`(${fromTables} GROUP BY r.code)`;
}

/** The rows that can price `codes`: every row (any date) of the tables whose code prefixes one of them. */
async function candidateRows(db: Db, tables: number[], codes: string[]): Promise<ReadRow[]> {
  const r = await sql<ReadRow>`
    SELECT rate_table_id, code, code_name, country, rate::text AS rate,
      (extract(epoch FROM effective_date) * 1000)::float8 AS effective_date,
      (extract(epoch FROM end_date) * 1000)::float8 AS end_date
    FROM rates WHERE rate_table_id = ANY(${tables}::bigint[]) AND code = ANY(${codePrefixes(codes)}::text[])`.execute(
    db,
  );
  return r.rows;
}

/** Prices codes in the columns: the engine's longest-prefix rule (domain compareRates), amounts at each table's places. */
async function priceCodes(db: Db, columns: Column[], codes: string[], at: Date): Promise<Row[]> {
  const tableIds = [...new Set(columns.map((c) => c.rate_table_id))];
  const byTable = new Map<number, ReadRow[]>(tableIds.map((id) => [id, []]));
  for (const r of await candidateRows(db, tableIds, codes)) byTable.get(Number(r.rate_table_id))?.push(r);
  const compared = compareRates(
    codes,
    columns.map((c) => ({ side: c.side, rows: byTable.get(c.rate_table_id) ?? [] })),
    at.getTime(),
  );
  const dp = new Map(columns.map((c) => [c.rate_table_id, c.decimal_places]));
  const shown = (r: ReadRow | undefined) =>
    r ? atPlaces(r.rate, dp.get(Number(r.rate_table_id)) ?? 4) : null;
  return compared.map((c) => ({
    code: c.code,
    code_name: c.best?.code_name ?? '',
    country: c.best?.country ?? '',
    rates: c.rows.map((r) =>
      r ? { rate: shown(r)!, code: r.code, effective_date: new Date(r.effective_date).toISOString() } : null,
    ),
    client_min: shown(c.client_min),
    client_max: shown(c.client_max),
    vendor_min: shown(c.vendor_min),
    vendor_max: shown(c.vendor_max),
  }));
}

/** Termination > Rate Report: a page of codes, priced in every compared table at one instant. */
export async function rateReport(db: Db, q: Query) {
  const at = q.at ? new Date(q.at) : new Date();
  const columns = await columnsOf(db, q);
  const head = { columns, at: at.toISOString(), currency: q.currency };
  const tables = [...new Set(columns.map((c) => c.rate_table_id))];
  if (!tables.length) return { ...head, items: [], total: 0 };
  const set = codeSet(tables, q, at);
  const dir = q.order_dir === 'desc' ? sql`DESC` : sql`ASC`;
  // One pass over the code set gives the page and the total; a page past the end counts apart.
  const rows = (
    await sql<{ code: string; total: number }>`SELECT s.code, count(*) OVER ()::int AS total FROM ${set} s
      ORDER BY s.code ${dir} LIMIT ${q.per_page} OFFSET ${q.page * q.per_page}`.execute(db)
  ).rows;
  const total = rows.length
    ? Number(rows[0]!.total)
    : Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${set} s`.execute(db)).rows[0]?.n ?? 0);
  const codes = rows.map((r) => r.code);
  const items: Row[] = [];
  for (let i = 0; i < codes.length; i += CHUNK)
    items.push(...(await priceCodes(db, columns, codes.slice(i, i + CHUNK), at)));
  return { ...head, items, total };
}
