import { api, type ListQuery } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/connection';
import { likeContains, pageOf } from '../../db/paging';
import { actorOf } from '../../http/context';
import { implementCrud } from '../../http/crud';
import { duplicate, invalidField, notFound } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { countWhere, egressTrunks, mustExist, noteWriter, touchRoute, writerOf } from './common';

type ItemBody = z.output<typeof api.routing.staticItemBody>;
type StaticRoute = { static_route_id: number; name: string; defined_by: 'code' | 'code_name' | 'country' };

/** Static routes (generic CRUD) and their items: a code, code name or country with its ordered trunks. */
export function registerStaticRoutes(app: FastifyInstance, s: Services): void {
  const changed = () => s.configChanged.notify();

  implementCrud(app, s, api.routing.staticRoute, {
    table: 'static_routes',
    id: 'static_route_id',
    entity: 'static_route',
    label: 'Static Route',
    select: (db) =>
      db
        .selectFrom('static_routes as r')
        .select(['r.static_route_id', 'r.name', 'r.defined_by', 'r.route_by', 'r.updated_at', 'r.updated_by'])
        .select(
          sql<number>`(select count(*)::int from static_route_items i where i.static_route_id = r.static_route_id)`.as(
            'prefix_count',
          ),
        )
        .select(
          sql<number>`(select count(*)::int from routing_plan_rows p where p.static_route_id = r.static_route_id)`.as(
            'usage_count',
          ),
        ),
    selectId: 'r.static_route_id',
    sortable: {
      name: 'r.name',
      static_route_id: 'r.static_route_id',
      defined_by: 'r.defined_by',
      updated_at: 'r.updated_at',
      prefix_count: 'prefix_count',
      usage_count: 'usage_count',
    },
    defaultSort: 'name',
    filter: (qb, q) => {
      let r = q.name ? qb.where(sql.ref('r.name'), 'ilike', likeContains(q.name)) : qb;
      if (q.trunk_id)
        r = r.where(
          sql<boolean>`exists (select 1 from static_route_items i join static_route_item_trunks t on t.item_id = i.id where i.static_route_id = r.static_route_id and t.trunk_id = ${q.trunk_id})`,
        );
      return r;
    },
    unique: [{ column: 'name', field: 'name' }],
    validate: async (trx, body, before, ctx) => {
      noteWriter(body, ctx);
      // Items are written for the way the route is defined: changing it would orphan them.
      if (before && body.defined_by !== undefined && body.defined_by !== before.defined_by) {
        const items = await trx
          .selectFrom('static_route_items')
          .select('id')
          .where('static_route_id', '=', Number(before.static_route_id))
          .executeTakeFirst();
        if (items) throw invalidField('defined_by', 'invalidValue', ['defined_by']);
      }
    },
    toColumns: (b) => ({ ...b, updated_at: new Date(), updated_by: writerOf(b) }),
    usage: async (db, id) => [
      {
        what: 'routing plan row(s)',
        count: await countWhere(db, 'routing_plan_rows', 'static_route_id', id),
      },
    ],
    inUseKey: 'routingInUse',
    afterWrite: changed,
  });

  implement(app, s, api.routing.listStaticItems, async (ctx) => {
    await routeOf(s.db, ctx.params.id);
    let qb = s.db
      .selectFrom('static_route_items as i')
      .leftJoin('time_profiles as tp', 'tp.time_profile_id', 'i.time_profile_id')
      .select([
        'i.id',
        'i.static_route_id',
        'i.code',
        'i.code_name',
        'i.country',
        'i.strategy',
        'i.time_profile_id',
        'tp.name as time_profile_name',
      ])
      .select(
        sql<
          {
            trunk_id: number;
            trunk_name: string;
            carrier_name: string;
            is_active: boolean;
            percentage: string | null;
          }[]
        >`coalesce((
          select json_agg(json_build_object('trunk_id', t.trunk_id, 'trunk_name', t.name, 'carrier_name', c.name, 'is_active', t.is_active, 'percentage', it.percentage::text) order by it.ordering)
          from static_route_item_trunks it join trunks t on t.trunk_id = it.trunk_id join carriers c on c.client_id = t.carrier_id
          where it.item_id = i.id), '[]'::json)`.as('trunks'),
      )
      .where('i.static_route_id', '=', ctx.params.id);
    if (ctx.query.code) {
      const like = likeContains(ctx.query.code);
      qb = qb.where((eb) =>
        eb.or([
          eb('i.code', 'like', `${ctx.query.code}%`),
          eb('i.code_name', 'ilike', like),
          eb('i.country', 'ilike', like),
        ]),
      );
    }
    const page = await pageOf(
      qb,
      ctx.query as ListQuery,
      { code: 'i.code', code_name: 'i.code_name', country: 'i.country', strategy: 'i.strategy', id: 'i.id' },
      'code',
      'i.id',
    );
    return {
      items: page.items.map((i) => ({
        ...i,
        trunks: typeof i.trunks === 'string' ? (JSON.parse(i.trunks) as typeof i.trunks) : i.trunks,
      })),
      total: page.total,
    };
  });

  implement(app, s, api.routing.createStaticItem, async (ctx) => {
    const id = await s.db.transaction().execute(async (trx) => {
      const route = await routeOf(trx, ctx.params.id, true);
      await checkItem(trx, route, ctx.body, null);
      const item = await trx
        .insertInto('static_route_items')
        .values({ static_route_id: route.static_route_id, ...itemColumns(route, ctx.body) })
        .returning('id')
        .executeTakeFirstOrThrow();
      await writeTrunks(trx, item.id, ctx.body);
      await touchRoute(trx, ctx, 'static_routes', route.static_route_id);
      await s.audit.record(trx, actorOf(ctx), 'static_route_item', item.id, 'create', null, {
        static_route_id: route.static_route_id,
        ...ctx.body,
      });
      return item.id;
    });
    changed();
    return { object_id: id };
  });

  implement(app, s, api.routing.updateStaticItem, async (ctx) => {
    await s.db.transaction().execute(async (trx) => {
      const route = await routeOf(trx, ctx.params.id, true);
      const before = await trx
        .selectFrom('static_route_items')
        .selectAll()
        .where('id', '=', ctx.params.item_id)
        .where('static_route_id', '=', route.static_route_id)
        .executeTakeFirst();
      if (!before) throw notFound();
      await checkItem(trx, route, ctx.body, ctx.params.item_id);
      await trx
        .updateTable('static_route_items')
        .set(itemColumns(route, ctx.body))
        .where('id', '=', ctx.params.item_id)
        .execute();
      const trunksBefore = await trx
        .selectFrom('static_route_item_trunks')
        .select(['trunk_id', 'percentage'])
        .where('item_id', '=', ctx.params.item_id)
        .orderBy('ordering')
        .execute();
      await trx.deleteFrom('static_route_item_trunks').where('item_id', '=', ctx.params.item_id).execute();
      await writeTrunks(trx, ctx.params.item_id, ctx.body);
      await touchRoute(trx, ctx, 'static_routes', route.static_route_id);
      await s.audit.record(
        trx,
        actorOf(ctx),
        'static_route_item',
        ctx.params.item_id,
        'update',
        { ...before, trunks: trunksBefore },
        ctx.body,
      );
    });
    changed();
    return null;
  });

  implement(app, s, api.routing.deleteStaticItem, async (ctx) => {
    await s.db.transaction().execute(async (trx) => {
      const route = await routeOf(trx, ctx.params.id, true);
      const before = await trx
        .deleteFrom('static_route_items')
        .where('id', '=', ctx.params.item_id)
        .where('static_route_id', '=', route.static_route_id)
        .returningAll()
        .executeTakeFirst();
      if (!before) throw notFound();
      await touchRoute(trx, ctx, 'static_routes', route.static_route_id);
      await s.audit.record(
        trx,
        actorOf(ctx),
        'static_route_item',
        ctx.params.item_id,
        'delete',
        before,
        null,
      );
    });
    changed();
    return null;
  });
}

async function routeOf(db: Db, id: number, lock = false): Promise<StaticRoute> {
  let q = db
    .selectFrom('static_routes')
    .select(['static_route_id', 'name', 'defined_by'])
    .where('static_route_id', '=', id);
  if (lock) q = q.forUpdate();
  const route = await q.executeTakeFirst();
  if (!route) throw notFound();
  return route;
}

/** The field that names an item on a route defined by it. */
const keyField = (route: StaticRoute): 'code' | 'code_name' | 'country' => route.defined_by;

function itemColumns(route: StaticRoute, b: ItemBody) {
  const field = keyField(route);
  return {
    code: field === 'code' ? b.code : '',
    code_name: field === 'code_name' ? b.code_name : '',
    country: field === 'country' ? b.country : '',
    strategy: b.strategy,
    time_profile_id: b.time_profile_id,
  };
}

/** The item is named as the route is defined, unique within the route; trunks are egress trunks; the time profile exists. */
export async function checkItem(
  db: Db,
  route: StaticRoute,
  b: ItemBody,
  exceptId: number | null,
): Promise<void> {
  const field = keyField(route);
  const value = b[field];
  if (field !== 'code' && value === '') throw invalidField(field, 'required', [field]);
  let q = db
    .selectFrom('static_route_items')
    .select('id')
    .where('static_route_id', '=', route.static_route_id)
    .where(sql<string>`lower(${sql.ref(field)})`, '=', value.toLowerCase())
    .where(sql<boolean>`time_profile_id is not distinct from ${b.time_profile_id}::int`);
  if (exceptId !== null) q = q.where('id', '!=', exceptId);
  if (await q.executeTakeFirst())
    throw duplicate(
      field,
      field === 'code' ? 'Code' : field === 'code_name' ? 'Code name' : 'Country',
      value === '' ? '*' : value,
    );
  await mustExist(db, 'time_profiles', 'time_profile_id', b.time_profile_id, 'time_profile_id');
  await egressTrunks(
    db,
    b.trunks.map((t) => t.trunk_id),
    (i) => `trunks.${i}.trunk_id`,
  );
}

async function writeTrunks(db: Db, itemId: number, b: ItemBody): Promise<void> {
  await db
    .insertInto('static_route_item_trunks')
    .values(
      b.trunks.map((t, i) => ({
        item_id: itemId,
        trunk_id: t.trunk_id,
        ordering: i,
        percentage: b.strategy === 'percentage' ? t.percentage : null,
      })),
    )
    .execute();
}
