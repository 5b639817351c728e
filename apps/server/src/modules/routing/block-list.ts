import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { implementCrud } from '../../http/crud';
import { duplicate, invalidField } from '../../http/errors';
import type { Services } from '../../services';

/**
 * Block lists: an ANI or DNIS, exact or prefix, global (every ingress call) or on one trunk (ingress:
 * the call is refused; egress: the trunk is dropped from the route list).
 */
export function registerBlockList(app: FastifyInstance, s: Services): void {
  implementCrud(app, s, api.routing.blockList, {
    table: 'block_list',
    id: 'id',
    entity: 'block_list',
    label: 'Block List',
    select: (db) =>
      db
        .selectFrom('block_list as b')
        .leftJoin('trunks as t', 't.trunk_id', 'b.trunk_id')
        .select([
          'b.id',
          'b.field',
          'b.match',
          'b.number',
          'b.trunk_id',
          't.name as trunk_name',
          't.direction as trunk_direction',
          'b.note',
          'b.created_at',
        ])
        .where('b.carrier_id', 'is', null),
    selectId: 'b.id',
    sortable: {
      number: 'b.number',
      field: 'b.field',
      match: 'b.match',
      trunk_name: 't.name',
      created_at: 'b.created_at',
      id: 'b.id',
    },
    defaultSort: 'number',
    filter: (qb, q) => {
      let r = qb;
      if (q.field) r = r.where(sql.ref('b.field'), '=', q.field);
      if (q.number) r = r.where(sql.ref('b.number'), 'like', `${q.number.replace(/[\\%_]/g, '')}%`);
      if (q.trunk_id) r = r.where(sql.ref('b.trunk_id'), '=', q.trunk_id);
      if (q.scope === 'global') r = r.where(sql.ref('b.trunk_id'), 'is', null);
      if (q.scope === 'trunk') r = r.where(sql.ref('b.trunk_id'), 'is not', null);
      return r;
    },
    validate: async (trx, body, before) => {
      const v = { ...(before ?? {}), ...body } as {
        field: 'ani' | 'dnis';
        match: 'exact' | 'prefix';
        number: string;
        trunk_id: number | null;
      };
      if (v.trunk_id != null) {
        const t = await trx
          .selectFrom('trunks')
          .select('trunk_id')
          .where('trunk_id', '=', v.trunk_id)
          .executeTakeFirst();
        if (!t) throw invalidField('trunk_id', 'invalidValue', ['trunk_id']);
      }
      let q = trx
        .selectFrom('block_list')
        .select('id')
        .where('field', '=', v.field)
        .where('match', '=', v.match)
        .where('number', '=', v.number)
        .where(sql<boolean>`trunk_id is not distinct from ${v.trunk_id ?? null}::int`);
      if (before) q = q.where('id', '!=', Number(before.id));
      if (await q.executeTakeFirst()) throw duplicate('number', v.field === 'ani' ? 'ANI' : 'DNIS', v.number);
    },
    afterWrite: () => s.configChanged.notify(),
  });
}
