import { api, type ListQuery } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/connection';
import { likeContains, pageOf } from '../../db/paging';
import { actorOf } from '../../http/context';
import { implementCrud } from '../../http/crud';
import { duplicate, notFound } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { countWhere, mustExist, noteWriter, touchRoute, writerOf } from './common';

type PrefixRow = z.output<typeof api.routing.prefixRowBody>;

/** Routing plans (generic CRUD) and their prefix rows, usage details. */
export function registerPlans(app: FastifyInstance, s: Services): void {
  const changed = () => s.configChanged.notify();

  implementCrud(app, s, api.routing.routingPlan, {
    table: 'routing_plans',
    id: 'route_plan_id',
    entity: 'routing_plan',
    label: 'Routing Plan',
    select: (db) =>
      db
        .selectFrom('routing_plans as p')
        .select(['p.route_plan_id', 'p.name', 'p.updated_at', 'p.updated_by'])
        .select(
          sql<number>`(select count(*)::int from routing_plan_rows r where r.route_plan_id = p.route_plan_id)`.as(
            'prefix_count',
          ),
        )
        .select(sql<number>`(${planUsageSql(sql.ref('p.route_plan_id'))})`.as('usage_count')),
    selectId: 'p.route_plan_id',
    sortable: {
      name: 'p.name',
      route_plan_id: 'p.route_plan_id',
      updated_at: 'p.updated_at',
      prefix_count: 'prefix_count',
      usage_count: 'usage_count',
    },
    defaultSort: 'name',
    filter: (qb, q) => {
      let r = q.name ? qb.where(sql.ref('p.name'), 'ilike', likeContains(q.name)) : qb;
      if (q.static_route_id)
        r = r.where(
          sql<boolean>`exists (select 1 from routing_plan_rows x where x.route_plan_id = p.route_plan_id and x.static_route_id = ${q.static_route_id})`,
        );
      if (q.dynamic_route_id)
        r = r.where(
          sql<boolean>`exists (select 1 from routing_plan_rows x where x.route_plan_id = p.route_plan_id and x.dynamic_route_id = ${q.dynamic_route_id})`,
        );
      return r;
    },
    unique: [{ column: 'name', field: 'name' }],
    validate: async (_trx, body, _before, ctx) => noteWriter(body, ctx),
    toColumns: (b) => ({ ...b, updated_at: new Date(), updated_by: writerOf(b) }),
    usage: async (db, id) => [
      { what: 'ingress trunk(s)', count: await countWhere(db, 'trunks', 'routing_plan_id', id) },
      {
        what: 'trunk routing row(s)',
        count: await countWhere(db, 'trunk_routing_rows', 'routing_plan_id', id),
      },
      { what: 'product(s)', count: await countWhere(db, 'products', 'routing_plan_id', id) },
    ],
    inUseKey: 'routingInUse',
    afterWrite: changed,
  });

  implement(app, s, api.routing.listPlanRows, async (ctx) => {
    await planOf(s.db, ctx.params.id);
    let qb = rowQuery(s.db).where('r.route_plan_id', '=', ctx.params.id);
    if (ctx.query.prefix) qb = qb.where('r.prefix', 'like', `${ctx.query.prefix}%`);
    const page = await pageOf(
      qb,
      ctx.query as ListQuery,
      { prefix: 'r.prefix', ani_prefix: 'r.ani_prefix', route_type: 'r.route_type', id: 'r.id' },
      'prefix',
      'r.id',
    );
    return page;
  });

  implement(app, s, api.routing.createPlanRow, async (ctx) => {
    const id = await s.db.transaction().execute(async (trx) => {
      await planOf(trx, ctx.params.id, true);
      await checkRow(trx, ctx.params.id, ctx.body, null);
      const row = await trx
        .insertInto('routing_plan_rows')
        .values({ route_plan_id: ctx.params.id, ...columns(ctx.body) })
        .returning('id')
        .executeTakeFirstOrThrow();
      await touchRoute(trx, ctx, 'routing_plans', ctx.params.id);
      await s.audit.record(trx, actorOf(ctx), 'routing_plan_row', row.id, 'create', null, {
        route_plan_id: ctx.params.id,
        ...ctx.body,
      });
      return row.id;
    });
    changed();
    return { object_id: id };
  });

  implement(app, s, api.routing.updatePlanRow, async (ctx) => {
    await s.db.transaction().execute(async (trx) => {
      await planOf(trx, ctx.params.id, true);
      const before = await trx
        .selectFrom('routing_plan_rows')
        .selectAll()
        .where('id', '=', ctx.params.row_id)
        .where('route_plan_id', '=', ctx.params.id)
        .executeTakeFirst();
      if (!before) throw notFound();
      await checkRow(trx, ctx.params.id, ctx.body, ctx.params.row_id);
      await trx
        .updateTable('routing_plan_rows')
        .set(columns(ctx.body))
        .where('id', '=', ctx.params.row_id)
        .execute();
      await touchRoute(trx, ctx, 'routing_plans', ctx.params.id);
      await s.audit.record(
        trx,
        actorOf(ctx),
        'routing_plan_row',
        ctx.params.row_id,
        'update',
        before,
        ctx.body,
      );
    });
    changed();
    return null;
  });

  implement(app, s, api.routing.deletePlanRow, async (ctx) => {
    await s.db.transaction().execute(async (trx) => {
      await planOf(trx, ctx.params.id, true);
      const before = await trx
        .deleteFrom('routing_plan_rows')
        .where('id', '=', ctx.params.row_id)
        .where('route_plan_id', '=', ctx.params.id)
        .returningAll()
        .executeTakeFirst();
      if (!before) throw notFound();
      await touchRoute(trx, ctx, 'routing_plans', ctx.params.id);
      await s.audit.record(trx, actorOf(ctx), 'routing_plan_row', ctx.params.row_id, 'delete', before, null);
    });
    changed();
    return null;
  });

  implement(app, s, api.routing.planUsage, async (ctx) => {
    const plan = await planOf(s.db, ctx.params.id);
    const id = ctx.params.id;
    const [trunks, rows, products] = await Promise.all([
      s.db
        .selectFrom('trunks as t')
        .innerJoin('carriers as c', 'c.client_id', 't.carrier_id')
        .select(['t.trunk_id', 't.name', 't.carrier_id', 'c.name as carrier_name', 't.tech_prefix'])
        .where('t.routing_plan_id', '=', id)
        .orderBy('t.name')
        .execute(),
      s.db
        .selectFrom('trunk_routing_rows as r')
        .innerJoin('trunks as t', 't.trunk_id', 'r.trunk_id')
        .innerJoin('carriers as c', 'c.client_id', 't.carrier_id')
        .select(['r.id', 't.trunk_id', 't.name', 't.carrier_id', 'c.name as carrier_name', 'r.tech_prefix'])
        .where('r.routing_plan_id', '=', id)
        .orderBy('t.name')
        .execute(),
      s.db
        .selectFrom('products')
        .select(['id', 'name', 'tech_prefix'])
        .where('routing_plan_id', '=', id)
        .orderBy('name')
        .execute(),
    ]);
    return {
      plan: { route_plan_id: plan.route_plan_id, name: plan.name },
      items: [
        ...trunks.map((t) => ({
          kind: 'ingress_trunk' as const,
          id: t.trunk_id,
          name: t.name,
          trunk_id: t.trunk_id,
          carrier_id: t.carrier_id,
          carrier_name: t.carrier_name,
          tech_prefix: t.tech_prefix,
        })),
        ...rows.map((r) => ({
          kind: 'trunk_routing_row' as const,
          id: r.id,
          name: r.name,
          trunk_id: r.trunk_id,
          carrier_id: r.carrier_id,
          carrier_name: r.carrier_name,
          tech_prefix: r.tech_prefix,
        })),
        ...products.map((p) => ({
          kind: 'product' as const,
          id: p.id,
          name: p.name,
          trunk_id: null,
          carrier_id: null,
          carrier_name: null,
          tech_prefix: p.tech_prefix,
        })),
      ],
    };
  });
}

/** SQL counting what uses a plan: ingress trunks, trunk routing rows and products. */
export function planUsageSql(id: ReturnType<typeof sql.ref>) {
  return sql<number>`(select count(*) from trunks t where t.routing_plan_id = ${id}) + (select count(*) from trunk_routing_rows r where r.routing_plan_id = ${id}) + (select count(*) from products x where x.routing_plan_id = ${id})`;
}

async function planOf(db: Db, id: number, lock = false) {
  let q = db.selectFrom('routing_plans').select(['route_plan_id', 'name']).where('route_plan_id', '=', id);
  if (lock) q = q.forUpdate();
  const plan = await q.executeTakeFirst();
  if (!plan) throw notFound();
  return plan;
}

function rowQuery(db: Db) {
  return db
    .selectFrom('routing_plan_rows as r')
    .leftJoin('static_routes as sr', 'sr.static_route_id', 'r.static_route_id')
    .leftJoin('dynamic_routes as dr', 'dr.dynamic_route_id', 'r.dynamic_route_id')
    .leftJoin('time_profiles as tp', 'tp.time_profile_id', 'r.time_profile_id')
    .select([
      'r.id',
      'r.route_plan_id',
      'r.prefix',
      'r.ani_prefix',
      'r.dnis_min_length',
      'r.dnis_max_length',
      'r.ani_min_length',
      'r.ani_max_length',
      'r.route_type',
      'r.static_route_id',
      'r.dynamic_route_id',
      'r.time_profile_id',
      'tp.name as time_profile_name',
    ])
    .select(
      sql<string | null>`case when r.route_type = 'static' then sr.name else dr.name end`.as('route_name'),
    );
}

function columns(b: PrefixRow) {
  return {
    prefix: b.prefix,
    ani_prefix: b.ani_prefix,
    dnis_min_length: b.dnis_min_length,
    dnis_max_length: b.dnis_max_length,
    ani_min_length: b.ani_min_length,
    ani_max_length: b.ani_max_length,
    route_type: b.route_type,
    static_route_id: b.route_type === 'static' ? b.static_route_id : null,
    dynamic_route_id: b.route_type === 'dynamic' ? b.dynamic_route_id : null,
    time_profile_id: b.time_profile_id,
  };
}

/** The route and time profile exist; no other row of the plan has the same prefix, ANI prefix, lengths and time profile. */
export async function checkRow(db: Db, planId: number, b: PrefixRow, exceptId: number | null): Promise<void> {
  if (b.route_type === 'static')
    await mustExist(
      db,
      'static_routes',
      'static_route_id',
      b.static_route_id,
      'static_route_id',
      'routeNotDefined',
    );
  else
    await mustExist(
      db,
      'dynamic_routes',
      'dynamic_route_id',
      b.dynamic_route_id,
      'dynamic_route_id',
      'routeNotDefined',
    );
  await mustExist(db, 'time_profiles', 'time_profile_id', b.time_profile_id, 'time_profile_id');
  let q = db
    .selectFrom('routing_plan_rows')
    .select('id')
    .where('route_plan_id', '=', planId)
    .where('prefix', '=', b.prefix)
    .where('ani_prefix', '=', b.ani_prefix)
    .where(sql<boolean>`dnis_min_length is not distinct from ${b.dnis_min_length}::int`)
    .where(sql<boolean>`dnis_max_length is not distinct from ${b.dnis_max_length}::int`)
    .where(sql<boolean>`ani_min_length is not distinct from ${b.ani_min_length}::int`)
    .where(sql<boolean>`ani_max_length is not distinct from ${b.ani_max_length}::int`)
    .where(sql<boolean>`time_profile_id is not distinct from ${b.time_profile_id}::int`);
  if (exceptId !== null) q = q.where('id', '!=', exceptId);
  if (await q.executeTakeFirst()) throw duplicate('prefix', 'Prefix', b.prefix === '' ? '*' : b.prefix);
}
