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

export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);
/** Escapes % and _ for a LIKE search. */
export const likeContains = (s: string) => `%${s.replace(/[\\%_]/g, (m) => '\\' + m)}%`;
