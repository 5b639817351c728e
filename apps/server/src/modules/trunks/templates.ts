import type { api } from '@tandem/contract';
import { sql } from 'kysely';
import { likeContains } from '../../db/paging';
import { serializeRow, type CrudTable } from '../../http/crud';
import { notFound } from '../../http/errors';

type Row = Record<string, unknown>;

/** Template bodies are a name plus settings; the settings live in one jsonb column. */
export function templateColumns(body: Row, before: Row | null, extra: Row = {}): Row {
  const { name, ...settings } = body;
  return {
    ...(name !== undefined ? { name } : {}),
    settings: JSON.stringify({ ...((before?.settings as Row | null) ?? {}), ...settings }),
    updated_at: new Date(),
    ...extra,
  };
}
export function templateRowOf(r: Row): Row {
  const { settings, ...rest } = serializeRow(r);
  return { ...((settings as Row | null) ?? {}), ...rest };
}

/** Templates > Ingress / Egress Trunk Template (one table, one direction per endpoint set). */
export function trunkTemplateTable(
  direction: api.trunks.Direction,
): CrudTable<typeof api.trunks.ingressTrunkTemplate> {
  return {
    table: 'trunk_templates',
    id: 'template_id',
    entity: `${direction}_trunk_template`,
    label: direction === 'ingress' ? 'Ingress Trunk Template' : 'Egress Trunk Template',
    select: (db) =>
      db
        .selectFrom('trunk_templates as tt')
        .select(['tt.template_id', 'tt.name', 'tt.direction', 'tt.settings', 'tt.updated_at'])
        .where('tt.direction', '=', direction),
    selectId: 'tt.template_id',
    sortable: { name: 'tt.name', template_id: 'tt.template_id', updated_at: 'tt.updated_at' },
    defaultSort: 'name',
    filter: (qb, q) => (q.name ? qb.where(sql.ref('tt.name'), 'ilike', likeContains(q.name)) : qb),
    unique: [{ column: 'name', field: 'name' }],
    toColumns: (b, before) => templateColumns(b, before, before ? {} : { direction }),
    toRow: templateRowOf,
    validate: async (_trx, _body, before) => {
      if (before && before.direction !== direction) throw notFound();
    },
  };
}
