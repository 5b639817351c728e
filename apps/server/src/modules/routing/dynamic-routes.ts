import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/connection';
import { iso, likeContains } from '../../db/paging';
import { actorOf } from '../../http/context';
import { implementCrud } from '../../http/crud';
import { duplicate, invalidField, notFound } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { countWhere, egressTrunks, mustExist, noteWriter, touchRoute, writerOf } from './common';
import { refreshTrunkQos } from './qos';

type PoolEntry = z.output<typeof api.routing.dynamicTrunkBody>;

/** Dynamic routes (generic CRUD, with the egress pool as child rows), trunk priorities and QoS overrides. */
export function registerDynamicRoutes(app: FastifyInstance, s: Services): void {
  const changed = () => s.configChanged.notify();

  implementCrud(app, s, api.routing.dynamicRoute, {
    table: 'dynamic_routes',
    id: 'dynamic_route_id',
    entity: 'dynamic_route',
    label: 'Dynamic Route',
    select: (db) =>
      db
        .selectFrom('dynamic_routes as d')
        .leftJoin('time_profiles as tp', 'tp.time_profile_id', 'd.time_profile_id')
        .select([
          'd.dynamic_route_id',
          'd.name',
          'd.rule',
          'd.time_profile_id',
          'tp.name as time_profile_name',
          'd.qos_cycle_minutes',
          'd.updated_at',
          'd.updated_by',
        ])
        .select(
          sql<number>`(select count(*)::int from dynamic_route_trunks t where t.dynamic_route_id = d.dynamic_route_id)`.as(
            'trunk_count',
          ),
        )
        .select(
          sql<number>`(select count(*)::int from routing_plan_rows p where p.dynamic_route_id = d.dynamic_route_id)`.as(
            'usage_count',
          ),
        ),
    selectId: 'd.dynamic_route_id',
    sortable: {
      name: 'd.name',
      dynamic_route_id: 'd.dynamic_route_id',
      rule: 'd.rule',
      updated_at: 'd.updated_at',
      trunk_count: 'trunk_count',
      usage_count: 'usage_count',
    },
    defaultSort: 'name',
    filter: (qb, q) => {
      let r = q.name ? qb.where(sql.ref('d.name'), 'ilike', likeContains(q.name)) : qb;
      if (q.rule) r = r.where(sql.ref('d.rule'), '=', q.rule);
      if (q.trunk_id)
        r = r.where(
          sql<boolean>`exists (select 1 from dynamic_route_trunks t where t.dynamic_route_id = d.dynamic_route_id and t.trunk_id = ${q.trunk_id})`,
        );
      return r;
    },
    unique: [{ column: 'name', field: 'name' }],
    validate: async (trx, body, _before, ctx) => {
      noteWriter(body, ctx);
      await mustExist(
        trx,
        'time_profiles',
        'time_profile_id',
        body.time_profile_id as number | null | undefined,
        'time_profile_id',
      );
      const pool = body.trunks as PoolEntry[] | undefined;
      if (pool) await checkPool(trx, pool);
    },
    toColumns: (b) => {
      const { trunks: _pool, ...rest } = b;
      return { ...rest, updated_at: new Date(), updated_by: writerOf(b) };
    },
    children: async (trx, id, body) => {
      const pool = body.trunks as PoolEntry[] | undefined;
      if (pool !== undefined) {
        await trx.deleteFrom('dynamic_route_trunks').where('dynamic_route_id', '=', id).execute();
        if (pool.length)
          await trx
            .insertInto('dynamic_route_trunks')
            .values(pool.map((t) => ({ dynamic_route_id: id, ...t })))
            .execute();
      }
      // figures over the (new) cycle for the (new) pool, from the samples already reported
      if (pool !== undefined || body.qos_cycle_minutes !== undefined) await refreshTrunkQos(trx);
    },
    usage: async (db, id) => [
      {
        what: 'routing plan row(s)',
        count: await countWhere(db, 'routing_plan_rows', 'dynamic_route_id', id),
      },
    ],
    inUseKey: 'routingInUse',
    afterWrite: changed,
  });

  implement(app, s, api.routing.listDynamicTrunks, async (ctx) => {
    await routeOf(s.db, ctx.params.id);
    const rows = await s.db
      .selectFrom('dynamic_route_trunks as d')
      .innerJoin('trunks as t', 't.trunk_id', 'd.trunk_id')
      .innerJoin('carriers as c', 'c.client_id', 't.carrier_id')
      .leftJoin('rate_tables as rt', 'rt.rate_table_id', 't.rate_table_id')
      .innerJoin('dynamic_routes as r', 'r.dynamic_route_id', 'd.dynamic_route_id')
      .leftJoin('trunk_qos as q', (j) =>
        j.onRef('q.trunk_id', '=', 'd.trunk_id').onRef('q.cycle_minutes', '=', 'r.qos_cycle_minutes'),
      )
      .select([
        'd.trunk_id',
        't.name as trunk_name',
        't.carrier_id',
        'c.name as carrier_name',
        't.is_active',
        'c.is_active as carrier_is_active',
        'rt.name as rate_table_name',
        'd.priority',
        'd.call_limit',
        'd.cps_limit',
        'q.updated_at as qos_updated_at',
        'q.attempts as qos_attempts',
      ])
      .select(sql<string | null>`q.asr::text`.as('asr'))
      .select(sql<string | null>`q.acd::text`.as('acd'))
      .select(sql<string | null>`d.override_asr::text`.as('override_asr'))
      .select(sql<string | null>`d.override_acd::text`.as('override_acd'))
      .where('d.dynamic_route_id', '=', ctx.params.id)
      .orderBy(sql`d.priority nulls last`)
      .orderBy('t.name')
      .execute();
    return { items: rows.map((r) => ({ ...r, qos_updated_at: iso(r.qos_updated_at) })), total: rows.length };
  });

  implement(app, s, api.routing.addDynamicTrunk, async (ctx) => {
    await s.db.transaction().execute(async (trx) => {
      await routeOf(trx, ctx.params.id, true);
      await checkPool(trx, [ctx.body], () => 'trunk_id');
      const exists = await trx
        .selectFrom('dynamic_route_trunks')
        .select('trunk_id')
        .where('dynamic_route_id', '=', ctx.params.id)
        .where('trunk_id', '=', ctx.body.trunk_id)
        .executeTakeFirst();
      if (exists) throw duplicate('trunk_id', 'Trunk', String(ctx.body.trunk_id));
      await trx
        .insertInto('dynamic_route_trunks')
        .values({ dynamic_route_id: ctx.params.id, ...ctx.body })
        .execute();
      await refreshTrunkQos(trx);
      await touchRoute(trx, ctx, 'dynamic_routes', ctx.params.id);
      await s.audit.record(
        trx,
        actorOf(ctx),
        'dynamic_route_trunk',
        `${ctx.params.id}:${ctx.body.trunk_id}`,
        'create',
        null,
        ctx.body,
      );
    });
    changed();
    return { object_id: ctx.body.trunk_id };
  });

  implement(app, s, api.routing.updateDynamicTrunk, async (ctx) => {
    await s.db.transaction().execute(async (trx) => {
      await routeOf(trx, ctx.params.id, true);
      const before = await poolEntry(trx, ctx.params.id, ctx.params.trunk_id);
      if (Object.keys(ctx.body).length)
        await trx
          .updateTable('dynamic_route_trunks')
          .set(ctx.body)
          .where('dynamic_route_id', '=', ctx.params.id)
          .where('trunk_id', '=', ctx.params.trunk_id)
          .execute();
      await touchRoute(trx, ctx, 'dynamic_routes', ctx.params.id);
      await s.audit.record(
        trx,
        actorOf(ctx),
        'dynamic_route_trunk',
        `${ctx.params.id}:${ctx.params.trunk_id}`,
        'update',
        before,
        ctx.body,
      );
    });
    changed();
    return null;
  });

  implement(app, s, api.routing.removeDynamicTrunk, async (ctx) => {
    await s.db.transaction().execute(async (trx) => {
      await routeOf(trx, ctx.params.id, true);
      const before = await poolEntry(trx, ctx.params.id, ctx.params.trunk_id);
      await trx
        .deleteFrom('dynamic_route_trunks')
        .where('dynamic_route_id', '=', ctx.params.id)
        .where('trunk_id', '=', ctx.params.trunk_id)
        .execute();
      await touchRoute(trx, ctx, 'dynamic_routes', ctx.params.id);
      await s.audit.record(
        trx,
        actorOf(ctx),
        'dynamic_route_trunk',
        `${ctx.params.id}:${ctx.params.trunk_id}`,
        'delete',
        before,
        null,
      );
    });
    changed();
    return null;
  });

  implement(app, s, api.routing.setDynamicOverride, async (ctx) => {
    await s.db.transaction().execute(async (trx) => {
      await routeOf(trx, ctx.params.id, true);
      const before = [];
      for (const [i, t] of ctx.body.trunks.entries()) {
        const row = await trx
          .selectFrom('dynamic_route_trunks')
          .select(['trunk_id'])
          .select(sql<string | null>`override_asr::text`.as('override_asr'))
          .select(sql<string | null>`override_acd::text`.as('override_acd'))
          .where('dynamic_route_id', '=', ctx.params.id)
          .where('trunk_id', '=', t.trunk_id)
          .executeTakeFirst();
        if (!row) throw invalidField(`trunks.${i}.trunk_id`, 'invalidValue', ['trunk_id']);
        before.push(row);
        await trx
          .updateTable('dynamic_route_trunks')
          .set({ override_asr: t.override_asr, override_acd: t.override_acd })
          .where('dynamic_route_id', '=', ctx.params.id)
          .where('trunk_id', '=', t.trunk_id)
          .execute();
      }
      await touchRoute(trx, ctx, 'dynamic_routes', ctx.params.id);
      await s.audit.record(
        trx,
        actorOf(ctx),
        'dynamic_route',
        ctx.params.id,
        'override',
        before,
        ctx.body.trunks,
      );
    });
    changed();
    return null;
  });
}

async function routeOf(db: Db, id: number, lock = false) {
  let q = db
    .selectFrom('dynamic_routes')
    .select(['dynamic_route_id', 'name'])
    .where('dynamic_route_id', '=', id);
  if (lock) q = q.forUpdate();
  const route = await q.executeTakeFirst();
  if (!route) throw notFound();
  return route;
}

async function poolEntry(db: Db, routeId: number, trunkId: number) {
  const row = await db
    .selectFrom('dynamic_route_trunks')
    .select(['trunk_id', 'priority', 'call_limit', 'cps_limit'])
    .where('dynamic_route_id', '=', routeId)
    .where('trunk_id', '=', trunkId)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** Pool entries name distinct egress trunks. */
export async function checkPool(
  db: Db,
  pool: readonly PoolEntry[],
  field = (i: number) => `trunks.${i}.trunk_id`,
): Promise<void> {
  const seen = new Set<number>();
  for (const [i, t] of pool.entries()) {
    if (seen.has(t.trunk_id)) throw duplicate(field(i), 'Trunk', String(t.trunk_id));
    seen.add(t.trunk_id);
  }
  await egressTrunks(
    db,
    pool.map((t) => t.trunk_id),
    field,
  );
}
