import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { actorOf } from '../../http/context';
import { duplicate, invalidField } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { mustExist } from './common';
import { refreshTrunkQos } from './qos';
import { checkPool } from './dynamic-routes';
import { checkRow } from './plans';
import { checkItem } from './static-routes';

/**
 * Routing > Wizard: a routing plan (new or existing), a new static or dynamic route, the prefix row
 * that sends the plan's calls to it, and the plan on ingress trunks, in one transaction.
 */
export function registerRoutingWizard(app: FastifyInstance, s: Services): void {
  implement(app, s, api.routing.routingWizard, async (ctx) => {
    const b = ctx.body;
    const actor = actorOf(ctx);
    const who = actor.user.name;
    const result = await s.db.transaction().execute(async (trx) => {
      let planId = b.route_plan_id;
      if (planId === null) {
        await unique(trx, 'routing_plans', b.plan_name, 'plan_name', 'Routing Plan');
        planId = (
          await trx
            .insertInto('routing_plans')
            .values({ name: b.plan_name, updated_by: who })
            .returning('route_plan_id')
            .executeTakeFirstOrThrow()
        ).route_plan_id;
        await s.audit.record(trx, actor, 'routing_plan', planId, 'create', null, { name: b.plan_name });
      } else
        await mustExist(trx, 'routing_plans', 'route_plan_id', planId, 'route_plan_id', 'routeNotDefined');

      let staticId: number | null = null;
      let dynamicId: number | null = null;
      if (b.route_type === 'static') {
        await unique(trx, 'static_routes', b.route_name, 'route_name', 'Static Route');
        const route = await trx
          .insertInto('static_routes')
          .values({ name: b.route_name, defined_by: b.defined_by, route_by: b.route_by, updated_by: who })
          .returning(['static_route_id', 'name', 'defined_by'])
          .executeTakeFirstOrThrow();
        staticId = route.static_route_id;
        const item = b.item!;
        await checkItem(trx, route, item, null);
        const row = await trx
          .insertInto('static_route_items')
          .values({
            static_route_id: staticId,
            code: b.defined_by === 'code' ? item.code : '',
            code_name: b.defined_by === 'code_name' ? item.code_name : '',
            country: b.defined_by === 'country' ? item.country : '',
            strategy: item.strategy,
            time_profile_id: item.time_profile_id,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('static_route_item_trunks')
          .values(
            item.trunks.map((t, i) => ({
              item_id: row.id,
              trunk_id: t.trunk_id,
              ordering: i,
              percentage: item.strategy === 'percentage' ? t.percentage : null,
            })),
          )
          .execute();
        await s.audit.record(trx, actor, 'static_route', staticId, 'create', null, {
          name: b.route_name,
          defined_by: b.defined_by,
          route_by: b.route_by,
          item,
        });
      } else {
        await unique(trx, 'dynamic_routes', b.route_name, 'route_name', 'Dynamic Route');
        await checkPool(trx, b.trunks);
        dynamicId = (
          await trx
            .insertInto('dynamic_routes')
            .values({
              name: b.route_name,
              rule: b.rule,
              qos_cycle_minutes: b.qos_cycle_minutes,
              time_profile_id: null,
              updated_by: who,
            })
            .returning('dynamic_route_id')
            .executeTakeFirstOrThrow()
        ).dynamic_route_id;
        const pool = b.trunks;
        await trx
          .insertInto('dynamic_route_trunks')
          .values(pool.map((t) => ({ dynamic_route_id: dynamicId!, ...t })))
          .execute();
        await refreshTrunkQos(trx);
        await s.audit.record(trx, actor, 'dynamic_route', dynamicId, 'create', null, {
          name: b.route_name,
          rule: b.rule,
          trunks: pool,
        });
      }

      const rowBody = {
        prefix: b.prefix,
        ani_prefix: b.ani_prefix,
        dnis_min_length: b.dnis_min_length,
        dnis_max_length: b.dnis_max_length,
        ani_min_length: null,
        ani_max_length: null,
        route_type: b.route_type,
        static_route_id: staticId,
        dynamic_route_id: dynamicId,
        time_profile_id: b.time_profile_id,
      };
      await checkRow(trx, planId, rowBody, null);
      const row = await trx
        .insertInto('routing_plan_rows')
        .values({ route_plan_id: planId, ...rowBody })
        .returning('id')
        .executeTakeFirstOrThrow();
      await s.audit.record(trx, actor, 'routing_plan_row', row.id, 'create', null, {
        route_plan_id: planId,
        ...rowBody,
      });

      if (b.ingress_trunk_ids.length) {
        const trunks = await trx
          .selectFrom('trunks')
          .select(['trunk_id', 'name', 'direction', 'routing_plan_id'])
          .where('trunk_id', 'in', b.ingress_trunk_ids)
          .execute();
        for (const [i, id] of b.ingress_trunk_ids.entries()) {
          const t = trunks.find((x) => x.trunk_id === id);
          if (!t) throw invalidField(`ingress_trunk_ids.${i}`, 'invalidValue', ['ingress_trunk_ids']);
          if (t.direction !== 'ingress')
            throw invalidField(`ingress_trunk_ids.${i}`, 'trunkWrongType', [t.name, 'ingress']);
          await trx
            .updateTable('trunks')
            .set({ routing_plan_id: planId, updated_at: new Date() })
            .where('trunk_id', '=', id)
            .execute();
          await s.audit.record(
            trx,
            actor,
            'trunk',
            id,
            'update',
            { routing_plan_id: t.routing_plan_id },
            { routing_plan_id: planId },
          );
        }
      }
      return {
        route_plan_id: planId,
        row_id: row.id,
        static_route_id: staticId,
        dynamic_route_id: dynamicId,
      };
    });
    s.configChanged.notify();
    return result;
  });
}

async function unique(
  db: Db,
  table: 'routing_plans' | 'static_routes' | 'dynamic_routes',
  name: string,
  field: string,
  label: string,
): Promise<void> {
  const row = await db
    .selectFrom(table)
    .select(sql<number>`1`.as('x'))
    .where(sql`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst();
  if (row) throw duplicate(field, label, name);
}
