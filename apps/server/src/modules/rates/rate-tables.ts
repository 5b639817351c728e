import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { likeContains } from '../../db/paging';
import { actorOf } from '../../http/context';
import { implementCrud, type UsageCount } from '../../http/crud';
import { invalidField } from '../../http/errors';
import type { Services } from '../../services';

const n = sql<number>`count(*)::int`.as('n');

/** What uses a rate table: trunks, products, trunk routing rows (products on a trunk), auto import rules. */
export async function rateTableUsage(db: Db, id: number): Promise<UsageCount[]> {
  const [trunks, products, rows, rules] = await Promise.all([
    db.selectFrom('trunks').select(n).where('rate_table_id', '=', id).executeTakeFirstOrThrow(),
    db.selectFrom('products').select(n).where('rate_table_id', '=', id).executeTakeFirstOrThrow(),
    db.selectFrom('trunk_routing_rows').select(n).where('rate_table_id', '=', id).executeTakeFirstOrThrow(),
    db
      .selectFrom('auto_rate_import_rules')
      .select(n)
      .where('rate_table_id', '=', id)
      .executeTakeFirstOrThrow(),
  ]);
  return [
    { what: 'trunk(s)', count: Number(trunks.n) },
    { what: 'product(s)', count: Number(products.n) },
    { what: 'trunk routing row(s)', count: Number(rows.n) },
    { what: 'auto rate import rule(s)', count: Number(rules.n) },
  ];
}

/** Routing > Rate Table: the tables (A-Z, US jurisdictional, US non-jurisdictional) on the generic CRUD. */
export function registerRateTables(app: FastifyInstance, s: Services): void {
  implementCrud(app, s, api.rates.rateTable, {
    table: 'rate_tables',
    id: 'rate_table_id',
    entity: 'rate_table',
    label: 'Rate Table',
    select: (db) =>
      db
        .selectFrom('rate_tables as t')
        .leftJoin('code_decks as d', 'd.code_deck_id', 't.code_deck_id')
        .select([
          't.rate_table_id',
          't.name',
          't.code_deck_id',
          'd.name as code_deck_name',
          't.currency',
          't.billing_method',
          't.rate_type',
          't.require_setup_fee',
          't.require_local_rate',
          't.jurisdiction_country',
          't.decimal_places',
          't.updated_at',
          't.updated_by',
        ])
        .select(
          sql<number>`(select count(*)::int from rates r where r.rate_table_id = t.rate_table_id)`.as(
            'rate_count',
          ),
        )
        .select(
          sql<number>`((select count(*) from trunks x where x.rate_table_id = t.rate_table_id) + (select count(*) from products p where p.rate_table_id = t.rate_table_id)
            + (select count(*) from trunk_routing_rows w where w.rate_table_id = t.rate_table_id) + (select count(*) from auto_rate_import_rules a where a.rate_table_id = t.rate_table_id))::int`.as(
            'usage_count',
          ),
        ),
    selectId: 't.rate_table_id',
    sortable: {
      name: 't.name',
      rate_table_id: 't.rate_table_id',
      rate_type: 't.rate_type',
      currency: 't.currency',
      code_deck_name: 'd.name',
      updated_at: 't.updated_at',
      rate_count: 'rate_count',
      usage_count: 'usage_count',
    },
    defaultSort: 'name',
    filter: (qb, q) => {
      let r = q.name ? qb.where(sql.ref('t.name'), 'ilike', likeContains(q.name)) : qb;
      if (q.rate_type) r = r.where(sql.ref('t.rate_type'), '=', q.rate_type);
      if (q.code_deck_id) r = r.where(sql.ref('t.code_deck_id'), '=', q.code_deck_id);
      return r;
    },
    unique: [{ column: 'name', field: 'name' }],
    validate: async (trx, body, before, ctx) => {
      body.updated_by = actorOf(ctx).user.name;
      const deck = body.code_deck_id;
      if (
        typeof deck === 'number' &&
        !(await trx
          .selectFrom('code_decks')
          .select('code_deck_id')
          .where('code_deck_id', '=', deck)
          .executeTakeFirst())
      )
        throw invalidField('code_deck_id', 'invalidValue', ['code_deck_id']);
      // Stored rates never carry more decimals than the table's: fewer places round them (half up).
      const dp = body.decimal_places;
      if (before && typeof dp === 'number' && dp < Number(before.decimal_places)) {
        await sql`UPDATE rates SET rate = round(rate, ${dp}::int), intra_rate = round(intra_rate, ${dp}::int), inter_rate = round(inter_rate, ${dp}::int),
          ij_rate = round(ij_rate, ${dp}::int), local_rate = round(local_rate, ${dp}::int), setup_fee = round(setup_fee, ${dp}::int)
          WHERE rate_table_id = ${Number(before.rate_table_id)}`.execute(trx);
      }
    },
    toColumns: (b) => ({ ...b, updated_at: new Date() }),
    usage: rateTableUsage,
    afterWrite: () => s.configChanged.notify(),
  });
}
