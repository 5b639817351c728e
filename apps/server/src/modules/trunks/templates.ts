import type { api } from '@tandem/contract';
import { sql } from 'kysely';
import { likeContains } from '../../db/paging';
import { serializeRow, type CrudTable } from '../../http/crud';
import { notFound } from '../../http/errors';

type Row = Record<string, unknown>;

/**
 * Template bodies are a name plus settings; the settings live in one jsonb column, except the
 * references (`refColumns`), which have columns of their own held by foreign keys (0013).
 */
export function templateColumns(
  body: Row,
  before: Row | null,
  extra: Row = {},
  refColumns: string[] = [],
): Row {
  const { name, ...settings } = body;
  const refs = Object.fromEntries(refColumns.filter((c) => body[c] !== undefined).map((c) => [c, body[c]]));
  for (const c of refColumns) delete settings[c];
  return {
    ...(name !== undefined ? { name } : {}),
    ...refs,
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
        .select([
          'tt.template_id',
          'tt.name',
          'tt.direction',
          'tt.settings',
          'tt.rate_table_id',
          'tt.routing_plan_id',
          'tt.updated_at',
        ])
        .where('tt.direction', '=', direction),
    selectId: 'tt.template_id',
    sortable: { name: 'tt.name', template_id: 'tt.template_id', updated_at: 'tt.updated_at' },
    defaultSort: 'name',
    filter: (qb, q) => (q.name ? qb.where(sql.ref('tt.name'), 'ilike', likeContains(q.name)) : qb),
    unique: [{ column: 'name', field: 'name' }],
    toColumns: (b, before) =>
      templateColumns(b, before, before ? {} : { direction }, ['rate_table_id', 'routing_plan_id']),
    references: [
      { field: 'rate_table_id', table: 'rate_tables', column: 'rate_table_id' },
      { field: 'routing_plan_id', table: 'routing_plans', column: 'route_plan_id' },
      // No random ANI groups exist yet: any group id refers to nothing.
      { field: 'random_ani_group_id', table: null },
    ],
    toRow: templateRowOf,
    validate: async (_trx, _body, before) => {
      if (before && before.direction !== direction) throw notFound();
    },
  };
}
