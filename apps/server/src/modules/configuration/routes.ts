import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { implementCrud } from '../../http/crud';
import { invalidField } from '../../http/errors';
import { likeContains } from '../../db/paging';
import type { Services } from '../../services';

/** Configuration area: payment terms and time profiles (plain resources on the generic CRUD). */
export function registerConfiguration(app: FastifyInstance, s: Services): void {
  implementCrud(app, s, api.configuration.paymentTerm, {
    table: 'payment_terms',
    id: 'payment_term_id',
    entity: 'payment_term',
    label: 'Payment Term',
    select: (db) =>
      db
        .selectFrom('payment_terms as p')
        .select([
          'p.payment_term_id',
          'p.name',
          'p.invoicing_cycle',
          'p.grace_days',
          'p.notify_days',
          'p.updated_at',
          'p.updated_by',
        ])
        .select(
          sql<number>`(select count(*)::int from carriers c where c.payment_term_id = p.payment_term_id)`.as(
            'usage_count',
          ),
        ),
    selectId: 'p.payment_term_id',
    sortable: {
      name: 'p.name',
      payment_term_id: 'p.payment_term_id',
      invoicing_cycle: 'p.invoicing_cycle',
      updated_at: 'p.updated_at',
      usage_count: 'usage_count',
    },
    defaultSort: 'name',
    filter: (qb, q) => (q.name ? qb.where(sql.ref('p.name'), 'ilike', likeContains(q.name)) : qb),
    unique: [{ column: 'name', field: 'name' }],
    toColumns: (b) => ({ ...b, updated_at: new Date() }),
    usage: async (db, id) => {
      const r = await db
        .selectFrom('carriers')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('payment_term_id', '=', id)
        .executeTakeFirstOrThrow();
      return [{ what: 'carrier(s)', count: Number(r.n) }];
    },
  });

  implementCrud(app, s, api.configuration.timeProfile, {
    table: 'time_profiles',
    id: 'time_profile_id',
    entity: 'time_profile',
    label: 'Time Profile',
    select: (db) =>
      db
        .selectFrom('time_profiles as t')
        .select([
          't.time_profile_id',
          't.name',
          't.type',
          't.start_week_day',
          't.end_week_day',
          't.start_time',
          't.end_time',
          't.updated_at',
        ])
        .select(
          sql<number>`((select count(*) from routing_plan_rows r where r.time_profile_id = t.time_profile_id) + (select count(*) from dynamic_routes d where d.time_profile_id = t.time_profile_id) + (select count(*) from static_route_items i where i.time_profile_id = t.time_profile_id))::int`.as(
            'usage_count',
          ),
        ),
    selectId: 't.time_profile_id',
    sortable: {
      name: 't.name',
      type: 't.type',
      time_profile_id: 't.time_profile_id',
      updated_at: 't.updated_at',
    },
    defaultSort: 'name',
    filter: (qb, q) => {
      let r = q.name ? qb.where(sql.ref('t.name'), 'ilike', likeContains(q.name)) : qb;
      if (q.type) r = r.where(sql.ref('t.type'), '=', q.type);
      return r;
    },
    unique: [{ column: 'name', field: 'name' }],
    validate: async (_trx, body, before) => {
      const issue = api.configuration.timeProfileIssues({ ...(before ?? {}), ...body })[0];
      if (issue) throw invalidField(issue.field, issue.key, [issue.field]);
    },
    toColumns: (b) => ({ ...b, updated_at: new Date() }),
    usage: async (db, id) => {
      const [plans, dyn, stat] = await Promise.all([
        db
          .selectFrom('routing_plan_rows')
          .select(sql<number>`count(*)::int`.as('n'))
          .where('time_profile_id', '=', id)
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('dynamic_routes')
          .select(sql<number>`count(*)::int`.as('n'))
          .where('time_profile_id', '=', id)
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('static_route_items')
          .select(sql<number>`count(*)::int`.as('n'))
          .where('time_profile_id', '=', id)
          .executeTakeFirstOrThrow(),
      ]);
      return [
        { what: 'routing plan row(s)', count: Number(plans.n) },
        { what: 'dynamic route(s)', count: Number(dyn.n) },
        { what: 'static route item(s)', count: Number(stat.n) },
      ];
    },
    // Routing plan rows, static items and dynamic routes follow time profiles: the engine rebuilds.
    afterWrite: () => s.configChanged.notify(),
  });
}
