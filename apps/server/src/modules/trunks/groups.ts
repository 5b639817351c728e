import type { api } from '@tandem/contract';
import { sql } from 'kysely';
import { likeContains } from '../../db/paging';
import type { CrudTable } from '../../http/crud';
import { invalidField } from '../../http/errors';

/** Configuration > Trunk Group: members must be trunks of the group's type. */
export const trunkGroupTable: CrudTable<typeof api.trunks.trunkGroup> = {
  table: 'trunk_groups',
  id: 'group_id',
  entity: 'trunk_group',
  label: 'Trunk Group',
  select: (db) =>
    db
      .selectFrom('trunk_groups as g')
      .select(['g.group_id', 'g.group_name', 'g.trunk_type', 'g.updated_at'])
      .select([
        sql<
          number[]
        >`coalesce((select jsonb_agg(m.trunk_id order by m.trunk_id) from trunk_group_members m where m.group_id = g.group_id), '[]'::jsonb)`.as(
          'trunk_ids',
        ),
        sql<
          string[]
        >`coalesce((select jsonb_agg(t.name order by t.name) from trunk_group_members m join trunks t on t.trunk_id = m.trunk_id where m.group_id = g.group_id), '[]'::jsonb)`.as(
          'trunk_names',
        ),
        sql<number>`(select count(*)::int from trunk_group_members m where m.group_id = g.group_id)`.as(
          'trunk_count',
        ),
      ]),
  selectId: 'g.group_id',
  sortable: {
    group_name: 'g.group_name',
    trunk_type: 'g.trunk_type',
    trunk_count: 'trunk_count',
    updated_at: 'g.updated_at',
  },
  defaultSort: 'group_name',
  filter: (qb, q) => {
    let r = q.group_name ? qb.where(sql.ref('g.group_name'), 'ilike', likeContains(q.group_name)) : qb;
    if (q.trunk_type) r = r.where(sql.ref('g.trunk_type'), '=', q.trunk_type);
    return r;
  },
  unique: [{ column: 'group_name', field: 'group_name' }],
  toColumns: (b) => {
    const { trunk_ids: _ids, ...rest } = b;
    return { ...rest, updated_at: new Date() };
  },
  validate: async (trx, body, before) => {
    const type = (body.trunk_type ?? before?.trunk_type) as string;
    let ids = body.trunk_ids as number[] | undefined;
    if (!ids && before && body.trunk_type !== undefined) {
      ids = (
        await trx
          .selectFrom('trunk_group_members')
          .select('trunk_id')
          .where('group_id', '=', before.group_id as number)
          .execute()
      ).map((m) => m.trunk_id);
    }
    if (!ids?.length) return;
    const trunks = await trx
      .selectFrom('trunks')
      .select(['trunk_id', 'name', 'direction'])
      .where('trunk_id', 'in', ids)
      .execute();
    if (trunks.length !== new Set(ids).size) throw invalidField('trunk_ids', 'invalidValue', ['trunk_ids']);
    const wrong = trunks.find((t) => t.direction !== type);
    if (wrong) throw invalidField('trunk_ids', 'trunkWrongType', [wrong.name, type]);
  },
  children: async (trx, id, body) => {
    const ids = body.trunk_ids as number[] | undefined;
    if (!ids) return;
    await trx.deleteFrom('trunk_group_members').where('group_id', '=', id).execute();
    const unique = [...new Set(ids)];
    if (unique.length)
      await trx
        .insertInto('trunk_group_members')
        .values(unique.map((trunk_id) => ({ group_id: id, trunk_id })))
        .execute();
  },
};
