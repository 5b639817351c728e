import type { ListQuery, Paged } from '@tandem/contract';
import { sql, type SelectQueryBuilder } from 'kysely';

/**
 * One page of a query plus the total: order_by is accepted only from `sortable` (API name -> SQL
 * column), with the id column as a stable tie-breaker.
 */
export async function pageOf<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  q: ListQuery,
  sortable: Record<string, string>,
  defaultSort: string,
  tieBreaker: string,
): Promise<Paged<O>> {
  const col = (q.order_by && sortable[q.order_by]) || sortable[defaultSort] || defaultSort;
  const dir = q.order_dir === 'desc' ? sql`desc` : sql`asc`;
  const countRow = await qb
    .clearSelect()
    .clearOrderBy()
    .select(sql<number>`count(*)`.as('total'))
    .executeTakeFirst();
  const items = await qb
    .orderBy(sql`${sql.ref(col)} ${dir}`)
    .orderBy(sql.ref(tieBreaker))
    .limit(q.per_page)
    .offset(q.page * q.per_page)
    .execute();
  return { items, total: Number((countRow as { total?: number } | undefined)?.total ?? 0) };
}

/** A list's query sorted newest first unless the user chose a column (logs, ledgers, runs). */
export const newestFirst = <Q extends ListQuery>(q: Q): Q => ({
  ...q,
  order_dir: q.order_by ? q.order_dir : 'desc',
});

/**
 * The rows of one page for a list that counts and sums in its own query (the finance lists): sorted
 * by `order_by` when it is one of `sortable` (API name -> SQL column) in `order_dir`, else newest
 * first; the id column `tieBreaker` (also the default sort) in the same direction.
 */
export function sortedRows<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  q: ListQuery,
  sortable: Record<string, string>,
  tieBreaker: string,
): Promise<O[]> {
  const col = (q.order_by && sortable[q.order_by]) || tieBreaker;
  const dir = newestFirst(q).order_dir === 'asc' ? sql`asc` : sql`desc`;
  return qb
    .orderBy(sql`${sql.ref(col)} ${dir}`)
    .orderBy(sql`${sql.ref(tieBreaker)} ${dir}`)
    .limit(q.per_page)
    .offset(q.page * q.per_page)
    .execute();
}

export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);
/** Escapes % and _ for a LIKE search. */
export const likeContains = (s: string) => `%${s.replace(/[\\%_]/g, (m) => '\\' + m)}%`;

type IsoTimes<T> = {
  [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K];
};
/** A selected row with its timestamps as ISO strings (UTC), as the API sends them. */
export function withIsoTimes<T extends object>(r: T): IsoTimes<T> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r)) out[k] = v instanceof Date ? v.toISOString() : v;
  return out as IsoTimes<T>;
}

/** Restricts a list to `column` in [from, to) when either bound is given (ISO instants). */
export function withinTime<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  column: string,
  from?: string,
  to?: string,
): SelectQueryBuilder<DB, TB, O> {
  let q = qb;
  if (from) q = q.where(sql.ref(column), '>=', new Date(from));
  if (to) q = q.where(sql.ref(column), '<', new Date(to));
  return q;
}
