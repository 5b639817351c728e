import type { api } from '@tandem/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { likeContains, pageOf } from '../../db/paging';

type Query = {
  direction?: api.trunks.Direction;
  reason?: (typeof api.trunks.UNCLAIMED_REASONS)[number];
  name?: string;
  page: number;
  per_page: number;
  order_by?: string;
  order_dir: 'asc' | 'desc';
};

/** The reasons of api.trunks.UNCLAIMED_REASONS as SQL conditions on a trunk t of carrier c. */
const REASONS: Record<(typeof api.trunks.UNCLAIMED_REASONS)[number], string> = {
  carrier_inactive: `(not c.is_active or c.registration_status <> 'approved')`,
  no_rate_table: `(t.direction = 'ingress' and t.rate_table_id is null and not exists (select 1 from trunk_routing_rows r where r.trunk_id = t.trunk_id and r.rate_table_id is not null))`,
  no_routing_plan: `(t.direction = 'ingress' and t.routing_plan_id is null and not exists (select 1 from trunk_routing_rows r where r.trunk_id = t.trunk_id and r.routing_plan_id is not null))`,
  no_route: `(t.direction = 'egress' and not exists (select 1 from static_route_item_trunks s where s.trunk_id = t.trunk_id) and not exists (select 1 from dynamic_route_trunks d where d.trunk_id = t.trunk_id))`,
  no_host: `(t.auth_type = 'host' and not exists (select 1 from trunk_hosts h where h.trunk_id = t.trunk_id))`,
};

/** Termination > Unclaimed Trunks: every trunk with at least one reason, and its reasons. */
export async function listUnclaimed(db: Db, q: Query) {
  const reasons = Object.entries(REASONS).map(([k, cond]) => sql`case when ${sql.raw(cond)} then ${k} end`);
  let qb = db
    .selectFrom('trunks as t')
    .innerJoin('carriers as c', 'c.client_id', 't.carrier_id')
    .select(['t.trunk_id', 't.name', 't.direction', 't.is_active', 't.carrier_id', 'c.name as carrier_name'])
    .select(sql<string[]>`array_remove(array[${sql.join(reasons)}]::text[], null)`.as('reasons'))
    .where(sql.raw<boolean>(`(${Object.values(q.reason ? [REASONS[q.reason]] : REASONS).join(' or ')})`));
  if (q.direction) qb = qb.where('t.direction', '=', q.direction);
  if (q.name) qb = qb.where('t.name', 'ilike', likeContains(q.name));
  return pageOf(
    qb,
    q,
    { name: 't.name', carrier_name: 'c.name', direction: 't.direction', trunk_id: 't.trunk_id' },
    'name',
    't.trunk_id',
  );
}
