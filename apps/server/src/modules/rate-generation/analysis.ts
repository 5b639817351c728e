import { api, csvCell } from '@tandem/contract';
import { RATE_COLUMN_FALLBACK, codePrefixes, compareRates, type ComparedRow } from '@tandem/domain';
import type { FastifyInstance } from 'fastify';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/connection';
import { likeContains } from '../../db/paging';
import { actorOf } from '../../http/context';
import { invalidField, ruleBroken } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { atPlaces } from '../rates/rate-query';
import { targetTable } from './apply';
import { historyOf } from './history';

type Query = api.rateGeneration.AnalysisQuery;
type Row = api.rateGeneration.AnalysisRow;
type Change = api.rateGeneration.RateChange;
type Column = api.rates.RateColumn;

/**
 * A rate column as SQL over rows aliased `alias`: the first of the column's fallbacks the row has
 * (the engine's rule, domain RATE_COLUMN_FALLBACK), so both sides are priced as a call would be.
 */
function columnOf(alias: string, column: Column): RawBuilder<string> {
  return sql<string>`coalesce(${sql.join(RATE_COLUMN_FALLBACK[column].map((c) => sql.ref(`${alias}.${c}`)))})`;
}

/** A compared code as the query gives it (amounts as numeric text). */
interface JoinedRow {
  code: string;
  code_name: string;
  country: string;
  change: Change;
  current_rate: string | null;
  current_effective_date: Date | null;
  new_rate: string | null;
  difference: string | null;
  change_percent: string | null;
}
interface PrefixRow extends ComparedRow {
  effective_date: number;
  end_date: number | null;
}

const SORTABLE: Record<string, string> = {
  code: 'code',
  code_name: 'code_name',
  country: 'country',
  change: 'change',
  current_rate: 'current_rate',
  new_rate: 'new_rate',
  difference: 'difference',
  change_percent: 'change_percent',
};
/** Codes priced by prefix per round trip to the database (an export goes in chunks). */
const CHUNK = 2000;

/**
 * Every code of the run and of the table's rates in effect at `at`, side by side (a full join on
 * the code), with its change. The run's rates are taken at the table's decimal places, as the
 * apply writes them (rates/import/apply.ts rounds the same way). This is the one place the change
 * of a code is decided: the list, the summary and the export all read it.
 */
function compared(
  historyId: number,
  tableId: number,
  dp: number,
  at: Date,
  column: Column,
): RawBuilder<JoinedRow> {
  return sql<JoinedRow>`(
    SELECT coalesce(g.code, c.code) AS code,
      coalesce(nullif(g.code_name, ''), c.code_name, '') AS code_name,
      coalesce(nullif(g.country, ''), c.country, '') AS country,
      CASE WHEN c.code IS NULL THEN 'new' WHEN g.code IS NULL THEN 'ended'
        WHEN g.rate > c.rate THEN 'increase' WHEN g.rate < c.rate THEN 'decrease' ELSE 'unchanged' END AS change,
      c.rate::text AS current_rate,
      c.effective_date AS current_effective_date,
      g.rate::text AS new_rate,
      (g.rate - c.rate)::text AS difference,
      CASE WHEN c.rate > 0 THEN round((g.rate - c.rate) * 100 / c.rate, 2)::text END AS change_percent
    FROM (
      SELECT r.code, r.code_name, r.country, round(${columnOf('r', column)}, ${dp}::int) AS rate
      FROM rate_generation_rates r WHERE r.history_id = ${historyId}
    ) g
    FULL JOIN (
      SELECT DISTINCT ON (code) r.code, r.code_name, r.country, ${columnOf('r', column)} AS rate, r.effective_date
      FROM rates r
      WHERE rate_table_id = ${tableId} AND effective_date <= ${at} AND (end_date IS NULL OR end_date > ${at})
      ORDER BY code, effective_date DESC
    ) c ON c.code = g.code
  )`;
}

function filtersOf(q: Query): RawBuilder<boolean> {
  const parts: RawBuilder<unknown>[] = [sql`true`];
  if (q.change) parts.push(sql`a.change = ${q.change}`);
  if (q.code) parts.push(sql`a.code LIKE ${q.code.replace(/[\\%_]/g, '') + '%'}`);
  if (q.code_name) parts.push(sql`a.code_name ILIKE ${likeContains(q.code_name)}`);
  if (q.country) parts.push(sql`a.country ILIKE ${likeContains(q.country)}`);
  return sql<boolean>`${sql.join(parts, sql` AND `)}`;
}

/** The run (finished) and the table (of its type) an analysis compares, the column and the instant. */
async function subjectOf(db: Db, id: number, q: Query) {
  const h = await historyOf(db, id);
  if (h.status !== 'Finished') throw ruleBroken('generationNotFinishedAnalysis');
  const column = q.column ?? 'rate';
  if (column !== 'rate' && h.rate_table_type !== 'us_jurisdictional')
    throw invalidField('column', 'analysisColumnNotJurisdictional');
  const table = await targetTable(db, h.rate_table_type, q.rate_table_id);
  const at = q.at ? new Date(q.at) : new Date();
  return {
    h,
    table,
    at,
    column,
    source: compared(h.id, table.rate_table_id, table.decimal_places, at, column),
  };
}

/** New codes: the table's longest code prefixing each, in effect at `at` (domain compareRates). */
async function prefixRates(
  db: Db,
  tableId: number,
  codes: string[],
  at: Date,
  column: Column,
): Promise<Map<string, PrefixRow | undefined>> {
  const out = new Map<string, PrefixRow | undefined>();
  for (let i = 0; i < codes.length; i += CHUNK) {
    const chunk = codes.slice(i, i + CHUNK);
    const rows = (
      await sql<PrefixRow>`
        SELECT r.code, ${columnOf('r', column)}::text AS rate,
          (extract(epoch FROM r.effective_date) * 1000)::float8 AS effective_date,
          (extract(epoch FROM r.end_date) * 1000)::float8 AS end_date
        FROM rates r WHERE r.rate_table_id = ${tableId} AND r.code = ANY(${codePrefixes(chunk)}::text[])`.execute(
        db,
      )
    ).rows;
    const priced = compareRates(chunk, [{ side: 'client', rows }], at.getTime());
    for (const c of priced) out.set(c.code, c.rows[0]);
  }
  return out;
}

/** Amounts at the table's places, times as ISO text, and the prefix price of new codes. */
async function shown(
  db: Db,
  tableId: number,
  dp: number,
  rows: JoinedRow[],
  at: Date,
  column: Column,
): Promise<Row[]> {
  const fresh = rows.filter((r) => r.change === 'new').map((r) => r.code);
  const prefix = fresh.length
    ? await prefixRates(db, tableId, fresh, at, column)
    : new Map<string, undefined>();
  const money = (v: string | null) => (v === null ? null : atPlaces(v, dp));
  return rows.map((r) => {
    const p = prefix.get(r.code);
    return {
      code: r.code,
      code_name: r.code_name,
      country: r.country,
      change: r.change,
      current_rate: money(r.current_rate),
      current_effective_date: r.current_effective_date
        ? new Date(r.current_effective_date).toISOString()
        : null,
      new_rate: money(r.new_rate),
      difference: money(r.difference),
      change_percent: r.change_percent,
      prefix_code: p?.code ?? null,
      prefix_rate: p ? atPlaces(p.rate, dp) : null,
    };
  });
}

const orderOf = (q: Query) => {
  const col = sql.ref(`a.${SORTABLE[q.order_by ?? ''] ?? 'code'}`);
  return sql`${col} ${q.order_dir === 'desc' ? sql`DESC NULLS LAST` : sql`ASC NULLS LAST`}, a.code`;
};

/** Tools > Rate Generation > History > Analysis: a finished run against a rate table, paged, and its CSV. */
export function registerAnalysis(app: FastifyInstance, s: Services): void {
  implement(app, s, api.rateGeneration.analyse, async (ctx) => {
    const q = ctx.query;
    const { table, at, column, source } = await subjectOf(s.db, ctx.params.id, q);
    const counts = (
      await sql<{
        change: Change;
        n: number;
      }>`SELECT a.change, count(*)::int AS n FROM ${source} a GROUP BY a.change`.execute(s.db)
    ).rows;
    const summary = { new: 0, increase: 0, decrease: 0, unchanged: 0, ended: 0, total: 0 };
    for (const c of counts) {
      summary[c.change] = Number(c.n);
      summary.total += Number(c.n);
    }
    const where = filtersOf(q);
    const page = (
      await sql<JoinedRow & { total: number }>`SELECT a.*, count(*) OVER ()::int AS total FROM ${source} a
        WHERE ${where} ORDER BY ${orderOf(q)} LIMIT ${q.per_page} OFFSET ${q.page * q.per_page}`.execute(s.db)
    ).rows;
    const total = page.length
      ? Number(page[0]!.total)
      : Number(
          (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${source} a WHERE ${where}`.execute(s.db))
            .rows[0]?.n ?? 0,
        );
    return {
      rate_table: {
        rate_table_id: table.rate_table_id,
        name: table.name,
        decimal_places: table.decimal_places,
      },
      at: at.toISOString(),
      column,
      summary,
      items: await shown(s.db, table.rate_table_id, table.decimal_places, page, at, column),
      total,
    };
  });

  implement(app, s, api.rateGeneration.exportAnalysis, async (ctx) => {
    const q = ctx.query;
    const { h, table, at, column, source } = await subjectOf(s.db, ctx.params.id, q);
    const rows = (
      await sql<JoinedRow>`SELECT a.* FROM ${source} a WHERE ${filtersOf(q)} ORDER BY ${orderOf(q)}`.execute(
        s.db,
      )
    ).rows;
    const items = await shown(s.db, table.rate_table_id, table.decimal_places, rows, at, column);
    const header = [
      'code',
      'code_name',
      'country',
      'change',
      'current_rate',
      'current_effective_date',
      'new_rate',
      'difference',
      'change_percent',
      'prefix_code',
      'prefix_rate',
    ] as const;
    const lines = items.map((r) => header.map((k) => csvCell(r[k])).join(','));
    const fileName = `rate_generation_${h.id}_analysis_${table.name.replace(/[^\w.-]+/g, '_')}${column === 'rate' ? '' : `_${column}`}.csv`;
    const actor = actorOf(ctx);
    await s.db
      .insertInto('export_log')
      .values({
        user_id: actor.user.user_id,
        user_name: actor.user.name,
        client_id: null,
        entity: 'rate_generation_analysis',
        file_name: fileName,
        status: 'finished',
      })
      .execute();
    ctx.reply
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('content-type', 'text/csv; charset=utf-8')
      .send([header.join(','), ...lines].join('\r\n') + '\r\n');
    return null;
  });
}
