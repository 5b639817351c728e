import type { CrudEndpoints } from '@tandem/contract';
import { call } from '../../api/client';
import type { FormResource, FormTab } from './ResourceForm';
import type { ColumnSpec, FilterSpec, ListResource } from './types';

/**
 * A resource declared with crudEndpoints() in the contract, as the generic list page needs it:
 * list, edit and new paths, delete with the usage counts in the confirmation, activation when the
 * resource has an active flag.
 */
export function crudListResource<Row extends object>(
  e: CrudEndpoints,
  o: {
    key: string;
    title: string;
    rowKey: keyof Row & string;
    route: string;
    nameOf: (r: Row) => string;
    columns: ColumnSpec<Row>[];
    filters?: FilterSpec[];
    isActive?: (r: Row) => boolean;
    defaultSort?: { by: string; dir: 'asc' | 'desc' };
    fixedQuery?: Record<string, unknown>;
  },
): ListResource<Row> {
  const id = (r: Row) => (r as Record<string, unknown>)[o.rowKey] as number;
  return {
    key: o.key,
    title: o.title,
    list: e.list,
    rowKey: o.rowKey,
    csvName: o.key,
    columns: o.columns,
    filters: o.filters,
    defaultSort: o.defaultSort,
    fixedQuery: o.fixedQuery,
    newPath: `${o.route}/new`,
    editPath: (r) => `${o.route}/edit/${id(r)}`,
    remove: { endpoint: e.remove, name: o.nameOf, usage: e.usage },
    ...(o.isActive && 'activate' in e && 'deactivate' in e
      ? {
          activation: {
            activate: e.activate as CrudEndpoints['remove'],
            deactivate: e.deactivate as CrudEndpoints['remove'],
            isActive: o.isActive,
            name: o.nameOf,
          },
        }
      : {}),
  };
}

/** The create/edit page of a crudEndpoints() resource: the contract's bodies validate the form. */
export function crudFormResource<V extends Record<string, unknown>>(
  e: CrudEndpoints,
  o: {
    key: string;
    titleNew: string;
    titleEdit: string;
    listPath: string;
    initial: V;
    tabs: FormTab[];
    fromRow?: (row: Record<string, unknown>) => V;
  },
): FormResource<V> {
  const fields = o.tabs.flatMap((t) => t.fields.map((f) => f.name));
  const pick = (row: Record<string, unknown>) => Object.fromEntries(fields.map((f) => [f, row[f]])) as V;
  return {
    ...o,
    createSchema: e.create.body!,
    updateSchema: e.updateBody,
    load: async (id) => {
      const row = (await call(e.get, { params: { id } } as never)) as Record<string, unknown>;
      return o.fromRow ? o.fromRow(row) : pick(row);
    },
    create: (v) => call(e.create, { body: v } as never, { errorMode: 'inline' }),
    update: (id, v) => call(e.update, { params: { id }, body: v } as never, { errorMode: 'inline' }),
  };
}
