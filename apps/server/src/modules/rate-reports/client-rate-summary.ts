import type { api } from '@tandem/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { iso, pageOf } from '../../db/paging';
import { trunkTables } from './trunk-tables';

type Query = api.rateReports.ClientRateSummaryQuery;
type Row = api.rateReports.ClientRateSummaryRow;

interface TableStats {
  rate_table_id: number;
  rate_count: number;
  current_codes: number;
  last_effective_date: Date | null;
  pending_increases: number;
  pending_decreases: number;
  pending_new: number;
  next_change_date: Date | null;
}

/**
 * The figures of some rate tables at the database's now(): rows, codes in effect, when the prices
 * in effect started, and each code's next pending row against the same code's row in effect
 * (higher: increase, lower: decrease, none in effect: new; same price: not counted).
 */
async function tableStats(db: Db, ids: number[]): Promise<Map<number, TableStats>> {
  if (!ids.length) return new Map();
  const r = await sql<TableStats>`
    WITH cur AS (
      SELECT DISTINCT ON (r.rate_table_id, r.code) r.rate_table_id, r.code, r.rate, r.effective_date
      FROM rates r
      WHERE r.rate_table_id = ANY(${ids}::bigint[]) AND r.effective_date <= now() AND (r.end_date IS NULL OR r.end_date > now())
      ORDER BY r.rate_table_id, r.code, r.effective_date DESC
    ), nxt AS (
      SELECT DISTINCT ON (r.rate_table_id, r.code) r.rate_table_id, r.code, r.rate, r.effective_date
      FROM rates r
      WHERE r.rate_table_id = ANY(${ids}::bigint[]) AND r.effective_date > now()
      ORDER BY r.rate_table_id, r.code, r.effective_date
    ), pending AS (
      SELECT n.rate_table_id,
        count(*) FILTER (WHERE c.rate IS NOT NULL AND n.rate > c.rate)::int AS pending_increases,
        count(*) FILTER (WHERE c.rate IS NOT NULL AND n.rate < c.rate)::int AS pending_decreases,
        count(*) FILTER (WHERE c.rate IS NULL)::int AS pending_new,
        min(n.effective_date) AS next_change_date
      FROM nxt n LEFT JOIN cur c ON c.rate_table_id = n.rate_table_id AND c.code = n.code
      GROUP BY n.rate_table_id
    ), totals AS (
      SELECT r.rate_table_id, count(*)::int AS rate_count FROM rates r
      WHERE r.rate_table_id = ANY(${ids}::bigint[]) GROUP BY r.rate_table_id
    ), effective AS (
      SELECT rate_table_id, count(*)::int AS current_codes, max(effective_date) AS last_effective_date
      FROM cur GROUP BY rate_table_id
    )
    SELECT t.id AS rate_table_id, coalesce(totals.rate_count, 0) AS rate_count,
      coalesce(effective.current_codes, 0) AS current_codes, effective.last_effective_date,
      coalesce(pending.pending_increases, 0) AS pending_increases, coalesce(pending.pending_decreases, 0) AS pending_decreases,
      coalesce(pending.pending_new, 0) AS pending_new, pending.next_change_date
    FROM unnest(${ids}::bigint[]) AS t(id)
    LEFT JOIN totals ON totals.rate_table_id = t.id
    LEFT JOIN effective ON effective.rate_table_id = t.id
    LEFT JOIN pending ON pending.rate_table_id = t.id`.execute(db);
  return new Map(r.rows.map((s) => [Number(s.rate_table_id), s]));
}

const SORTABLE = {
  carrier_name: 'x.carrier_name',
  trunk_name: 'x.trunk_name',
  tech_prefix: 'x.tech_prefix',
  rate_table_name: 'x.rate_table_name',
  updated_at: 'x.rate_table_updated_at',
};

/** Termination > Client Rate Summary: one row per rate table an ingress trunk prices with. */
export async function clientRateSummary(db: Db, q: Query): Promise<{ items: Row[]; total: number }> {
  let qb = db.selectFrom(trunkTables.as('x')).selectAll().where('x.direction', '=', 'ingress');
  if (q.carrier_id) qb = qb.where('x.carrier_id', '=', q.carrier_id);
  if (q.trunk_id) qb = qb.where('x.trunk_id', '=', q.trunk_id);
  if (q.rate_table_id) qb = qb.where('x.rate_table_id', '=', q.rate_table_id);
  if (q.is_active !== undefined) qb = qb.where('x.trunk_is_active', '=', q.is_active);
  const page = await pageOf(qb, q, SORTABLE, 'carrier_name', 'x.ordinal');
  const ids = [...new Set(page.items.flatMap((r) => (r.rate_table_id === null ? [] : [r.rate_table_id])))];
  const stats = await tableStats(db, ids);
  return {
    total: page.total,
    items: page.items.map((r): Row => {
      const s = r.rate_table_id === null ? undefined : stats.get(Number(r.rate_table_id));
      return {
        key: r.key,
        carrier_id: r.carrier_id,
        carrier_name: r.carrier_name,
        carrier_is_active: r.carrier_is_active,
        trunk_id: r.trunk_id,
        trunk_name: r.trunk_name,
        trunk_is_active: r.trunk_is_active,
        tech_prefix: r.tech_prefix,
        product_name: r.product_name,
        rate_table_id: r.rate_table_id === null ? null : Number(r.rate_table_id),
        rate_table_name: r.rate_table_name,
        currency: r.currency,
        rate_count: s?.rate_count ?? 0,
        current_codes: s?.current_codes ?? 0,
        last_effective_date: iso(s?.last_effective_date),
        updated_at: iso(r.rate_table_updated_at),
        pending_increases: s?.pending_increases ?? 0,
        pending_decreases: s?.pending_decreases ?? 0,
        pending_new: s?.pending_new ?? 0,
        next_change_date: iso(s?.next_change_date),
      };
    }),
  };
}
