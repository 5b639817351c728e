import type { api } from '@tandem/contract';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/connection';
import { likeContains } from '../../db/paging';
import type { Actor } from '../../http/context';
import { serializeRow, type CrudTable } from '../../http/crud';
import { invalidField } from '../../http/errors';
import type { Services } from '../../services';

const ids = (db: Db, table: 'carriers' | 'agents', col: 'client_id' | 'agent_id', list: number[]) =>
  list.length
    ? db.selectFrom(table).select(sql.ref(col).as('id')).where(sql.ref(col), 'in', list).execute()
    : Promise.resolve([]);

/**
 * The products a portal user may read: the public ones and those assigned to its carrier (a
 * client) or to it (an agent, who sells them to its clients). Also decides which rate tables an
 * agent may view (agent portal > Products > View Rates).
 */
export const productVisible = (actor: Actor, alias = 'p'): RawBuilder<boolean> => {
  const p = sql.ref(`${alias}.id`);
  const scope = sql.ref(`${alias}.scope`);
  return actor.type === 'agent'
    ? sql<boolean>`(${scope} = 'public' or exists (select 1 from product_agents pa where pa.product_id = ${p} and pa.agent_id = ${actor.agentId ?? -1}))`
    : sql<boolean>`(${scope} = 'public' or exists (select 1 from product_carriers pc where pc.product_id = ${p} and pc.carrier_id = ${actor.clientId ?? -1}))`;
};

/**
 * Termination > Products: a routing plan and rate table under a tech prefix, public or private with
 * carrier and agent assignment. Clients read the public ones and those assigned to them. A change of
 * plan or rate table reaches the trunk routing rows made from the product.
 */
export function productTable(s: Services): CrudTable<typeof api.carriers.product> {
  return {
    table: 'products',
    id: 'id',
    entity: 'product',
    label: 'Product',
    select: (db) =>
      db
        .selectFrom('products as p')
        .leftJoin('routing_plans as rp', 'rp.route_plan_id', 'p.routing_plan_id')
        .leftJoin('rate_tables as rt', 'rt.rate_table_id', 'p.rate_table_id')
        .select([
          'p.id',
          'p.name',
          'p.routing_plan_id',
          'p.rate_table_id',
          'p.tech_prefix',
          'p.description',
          'p.scope',
          'p.updated_at',
          'rp.name as routing_plan_name',
          'rt.name as rate_table_name',
        ])
        .select([
          sql<
            number[]
          >`coalesce((select jsonb_agg(pc.carrier_id order by pc.carrier_id) from product_carriers pc where pc.product_id = p.id), '[]'::jsonb)`.as(
            'carrier_ids',
          ),
          sql<
            number[]
          >`coalesce((select jsonb_agg(pa.agent_id order by pa.agent_id) from product_agents pa where pa.product_id = p.id), '[]'::jsonb)`.as(
            'agent_ids',
          ),
          sql<number>`(select count(distinct r.trunk_id)::int from trunk_routing_rows r where r.product_id = p.id)`.as(
            'trunk_count',
          ),
        ]),
    selectId: 'p.id',
    sortable: {
      name: 'p.name',
      id: 'p.id',
      scope: 'p.scope',
      tech_prefix: 'p.tech_prefix',
      updated_at: 'p.updated_at',
      trunk_count: 'trunk_count',
    },
    defaultSort: 'name',
    filter: (qb, q) => {
      let r = q.name ? qb.where(sql.ref('p.name'), 'ilike', likeContains(q.name)) : qb;
      if (q.scope) r = r.where(sql.ref('p.scope'), '=', q.scope);
      if (q.carrier_id)
        r = r.where(
          sql<boolean>`exists (select 1 from product_carriers pc where pc.product_id = p.id and pc.carrier_id = ${q.carrier_id})`,
        );
      return r;
    },
    scope: (qb, actor) => (actor.type === 'admin' ? qb : qb.where(productVisible(actor))),
    // A portal user sees what it may buy or sell, not who else has it or how it is routed.
    toRow: (r, actor) =>
      actor.type === 'admin'
        ? serializeRow(r)
        : {
            ...serializeRow(r),
            carrier_ids: [],
            agent_ids: [],
            routing_plan_id: null,
            routing_plan_name: null,
            trunk_count: 0,
          },
    unique: [{ column: 'name', field: 'name' }],
    toColumns: (b) => {
      const { carrier_ids: _c, agent_ids: _a, ...rest } = b;
      return { ...rest, updated_at: new Date() };
    },
    validate: async (trx, body) => {
      if (
        body.routing_plan_id !== undefined &&
        !(await trx
          .selectFrom('routing_plans')
          .select('route_plan_id')
          .where('route_plan_id', '=', body.routing_plan_id as number)
          .executeTakeFirst())
      )
        throw invalidField('routing_plan_id', 'invalidValue', ['routing_plan_id']);
      if (
        body.rate_table_id !== undefined &&
        !(await trx
          .selectFrom('rate_tables')
          .select('rate_table_id')
          .where('rate_table_id', '=', body.rate_table_id as number)
          .executeTakeFirst())
      )
        throw invalidField('rate_table_id', 'invalidValue', ['rate_table_id']);
      for (const [field, table, col] of [
        ['carrier_ids', 'carriers', 'client_id'],
        ['agent_ids', 'agents', 'agent_id'],
      ] as const) {
        const list = [...new Set((body[field] as number[] | undefined) ?? [])];
        if ((await ids(trx, table, col, list)).length !== list.length)
          throw invalidField(field, 'invalidValue', [field]);
      }
    },
    children: async (trx, id, body) => {
      if (body.carrier_ids) {
        await trx.deleteFrom('product_carriers').where('product_id', '=', id).execute();
        const list = [...new Set(body.carrier_ids as number[])];
        if (list.length)
          await trx
            .insertInto('product_carriers')
            .values(list.map((carrier_id) => ({ product_id: id, carrier_id })))
            .execute();
      }
      if (body.agent_ids) {
        await trx.deleteFrom('product_agents').where('product_id', '=', id).execute();
        const list = [...new Set(body.agent_ids as number[])];
        if (list.length)
          await trx
            .insertInto('product_agents')
            .values(list.map((agent_id) => ({ product_id: id, agent_id })))
            .execute();
      }
      const set: { rate_table_id?: number; routing_plan_id?: number } = {};
      if (body.rate_table_id !== undefined) set.rate_table_id = body.rate_table_id as number;
      if (body.routing_plan_id !== undefined) set.routing_plan_id = body.routing_plan_id as number;
      if (Object.keys(set).length)
        await trx.updateTable('trunk_routing_rows').set(set).where('product_id', '=', id).execute();
    },
    usage: async (db, id) => {
      const r = await db
        .selectFrom('trunk_routing_rows')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('product_id', '=', id)
        .executeTakeFirst();
      return [{ what: 'trunk routing row(s)', count: Number(r?.n ?? 0) }];
    },
    afterWrite: () => s.configChanged.notify(),
  };
}
