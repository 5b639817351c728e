import { api } from '@tandem/contract';
import { formatMoney, parseMoney } from '@tandem/domain';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { likeContains, withIsoTimes } from '../../db/paging';
import { implementCrud } from '../../http/crud';
import { duplicate, invalidField } from '../../http/errors';
import type { Services } from '../../services';
import { egressTrunks, noteWriter, writerOf } from '../routing/common';

/** A stored decimal shown with `dp` places (numeric(18,6) arrives as '0.250000'). */
export const money = (v: string | null, dp: number): string | null =>
  v === null ? null : formatMoney(parseMoney(v), dp);

/** Tools > Rate Generation templates: generic CRUD, with the egress trunks as ordered child rows. */
export function registerTemplates(app: FastifyInstance, s: Services): void {
  implementCrud(app, s, api.rateGeneration.template, {
    table: 'rate_generation_templates',
    id: 'id',
    entity: 'rate_generation_template',
    label: 'Rate Generation Template',
    select: (db) =>
      db
        .selectFrom('rate_generation_templates as g')
        .leftJoin('code_decks as d', 'd.code_deck_id', 'g.code_deck_id')
        .select([
          'g.id',
          'g.name',
          'g.rate_table_type',
          'g.lcr_basis',
          'g.average_count',
          'g.default_rate',
          'g.decimal_places',
          'g.code_deck_id',
          'd.name as code_deck_name',
          'g.margins',
          'g.interval',
          'g.min_time',
          'g.updated_at',
          'g.updated_by',
        ])
        .select(
          sql<
            number[]
          >`array(select t.trunk_id from rate_generation_template_trunks t where t.template_id = g.id order by t.position)`.as(
            'egress_trunks',
          ),
        )
        .select(
          sql<
            string[]
          >`array(select k.name from rate_generation_template_trunks t join trunks k on k.trunk_id = t.trunk_id where t.template_id = g.id order by t.position)`.as(
            'egress_trunk_names',
          ),
        )
        .select(
          sql<number>`(select count(*)::int from rate_generation_history h where h.template_id = g.id)`.as(
            'usage_count',
          ),
        )
        .select(
          sql<Date | null>`(select max(h.start_time) from rate_generation_history h where h.template_id = g.id)`.as(
            'last_generated_at',
          ),
        ),
    selectId: 'g.id',
    sortable: {
      name: 'g.name',
      id: 'g.id',
      rate_table_type: 'g.rate_table_type',
      lcr_basis: 'g.lcr_basis',
      updated_at: 'g.updated_at',
      last_generated_at: 'last_generated_at',
    },
    defaultSort: 'name',
    filter: (qb, q) => {
      let r = q.name ? qb.where(sql.ref('g.name'), 'ilike', likeContains(q.name)) : qb;
      if (q.rate_table_type) r = r.where(sql.ref('g.rate_table_type'), '=', q.rate_table_type);
      return r;
    },
    unique: [{ column: 'name', field: 'name' }],
    validate: async (trx, body, _before, ctx) => {
      noteWriter(body, ctx);
      const trunks = body.egress_trunks as number[] | undefined;
      if (trunks) {
        const seen = new Set<number>();
        for (const [i, id] of trunks.entries()) {
          if (seen.has(id)) throw duplicate(`egress_trunks.${i}`, 'Trunk', String(id));
          seen.add(id);
        }
        await egressTrunks(trx, trunks, (i) => `egress_trunks.${i}`);
      }
      const deck = body.code_deck_id as number | null | undefined;
      if (
        typeof deck === 'number' &&
        !(await trx
          .selectFrom('code_decks')
          .select('code_deck_id')
          .where('code_deck_id', '=', deck)
          .executeTakeFirst())
      )
        throw invalidField('code_deck_id', 'invalidValue', ['code_deck_id']);
    },
    toColumns: (b) => {
      const { egress_trunks: _trunks, margins, ...rest } = b;
      return {
        ...rest,
        ...(margins !== undefined ? { margins: JSON.stringify(margins) } : {}),
        updated_at: new Date(),
        updated_by: writerOf(b),
      };
    },
    children: async (trx, id, body) => {
      const trunks = body.egress_trunks as number[] | undefined;
      if (trunks === undefined) return;
      await trx.deleteFrom('rate_generation_template_trunks').where('template_id', '=', id).execute();
      await trx
        .insertInto('rate_generation_template_trunks')
        .values(trunks.map((trunk_id, position) => ({ template_id: id, trunk_id, position })))
        .execute();
    },
    toRow: (r) => ({
      ...withIsoTimes(r),
      default_rate: money(r.default_rate as string | null, r.decimal_places as number),
      last_generated_at: r.last_generated_at ? new Date(r.last_generated_at as string).toISOString() : null,
    }),
  });
}
