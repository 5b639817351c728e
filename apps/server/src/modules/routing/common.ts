import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { Ctx } from '../../http/context';
import { invalidField } from '../../http/errors';

/**
 * Helpers shared by the routing resources: who writes (for updated_by), existence checks of the
 * rows a route or prefix row points to, counts for the delete refusal.
 */

/** Name of the user behind a request, for updated_by columns. */
const writerName = (ctx: Ctx<unknown, unknown, unknown>) => ctx.actor?.user.name ?? 'system';

/** Name of the user behind a request body (set in validate, read in toColumns of the generic CRUD). */
const writers = new WeakMap<object, string>();
export function noteWriter(body: object, ctx: Ctx<unknown, unknown, unknown>): void {
  writers.set(body, writerName(ctx));
}
export function writerOf(body: object): string {
  return writers.get(body) ?? 'system';
}

export async function countWhere(
  db: Db,
  table: 'trunks' | 'trunk_routing_rows' | 'products' | 'routing_plan_rows',
  column: string,
  id: number,
): Promise<number> {
  const r = await db
    .selectFrom(table)
    .select(sql<number>`count(*)::int`.as('n'))
    .where(sql.ref(column), '=', id)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/**
 * Refuses a reference to a row that does not exist, naming the field (`label` in the message, the
 * field by default). The row is locked against a concurrent delete until the writing transaction ends.
 */
export async function mustExist(
  db: Db,
  table:
    | 'static_routes'
    | 'dynamic_routes'
    | 'time_profiles'
    | 'routing_plans'
    | 'rate_tables'
    | 'products'
    | 'digital_maps',
  column: string,
  id: number | null | undefined,
  field: string,
  key: 'routeNotDefined' | 'invalidValue' = 'invalidValue',
  label = field,
): Promise<void> {
  if (id == null) return;
  const row = await db
    .selectFrom(table)
    .select(sql.ref(column).as('id'))
    .where(sql.ref(column), '=', id)
    .forShare()
    .executeTakeFirst();
  if (!row) throw invalidField(field, key, [label]);
}

/** The egress trunks among `ids` that exist: refuses an unknown trunk or one that is not egress. */
export async function egressTrunks(
  db: Db,
  ids: readonly number[],
  field: (i: number) => string,
): Promise<void> {
  if (!ids.length) return;
  const rows = await db
    .selectFrom('trunks')
    .select(['trunk_id', 'name', 'direction'])
    .where('trunk_id', 'in', [...ids])
    .execute();
  const byId = new Map(rows.map((r) => [r.trunk_id, r]));
  for (const [i, id] of ids.entries()) {
    const t = byId.get(id);
    if (!t) throw invalidField(field(i), 'routeNotDefined', [field(i)]);
    if (t.direction !== 'egress') throw invalidField(field(i), 'trunkWrongType', [t.name, 'egress']);
  }
}

const ROUTE_KEYS = {
  dynamic_routes: 'dynamic_route_id',
  static_routes: 'static_route_id',
  routing_plans: 'route_plan_id',
} as const;

/** Stamps a route or plan as changed by this request when one of its rows (trunks, items, prefixes) changed. */
export async function touchRoute(
  db: Db,
  ctx: Ctx<unknown, unknown, unknown>,
  table: keyof typeof ROUTE_KEYS,
  id: number,
): Promise<void> {
  await db
    .updateTable(table)
    .set({ updated_at: new Date(), updated_by: writerName(ctx) })
    .where(ROUTE_KEYS[table], '=', id)
    .execute();
}
