import type { api } from '@tandem/contract';
import { sql } from 'kysely';
import { likeContains } from '../../db/paging';
import type { CrudTable } from '../../http/crud';
import { templateColumns, templateRowOf } from '../trunks/templates';

/** Templates > Carrier Template: a name and preset commercial settings. */
export const carrierTemplateTable: CrudTable<typeof api.carriers.carrierTemplate> = {
  table: 'carrier_templates',
  id: 'template_id',
  entity: 'carrier_template',
  label: 'Carrier Template',
  select: (db) =>
    db
      .selectFrom('carrier_templates as ct')
      .select(['ct.template_id', 'ct.name', 'ct.settings', 'ct.payment_term_id', 'ct.updated_at']),
  selectId: 'ct.template_id',
  sortable: { name: 'ct.name', template_id: 'ct.template_id', updated_at: 'ct.updated_at' },
  defaultSort: 'name',
  filter: (qb, q) => (q.name ? qb.where(sql.ref('ct.name'), 'ilike', likeContains(q.name)) : qb),
  unique: [{ column: 'name', field: 'name' }],
  toColumns: (b, before) => templateColumns(b, before, {}, ['payment_term_id']),
  references: [{ field: 'payment_term_id', table: 'payment_terms', column: 'payment_term_id' }],
  toRow: templateRowOf,
};
