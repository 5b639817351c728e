import { DECIMAL_MAX, INT4_MAX } from './input-rules';
import { z } from 'zod';
import { adminOnly, type UserType } from './access';
import { idParams, listQuery, objectId, paged } from './common';
import { endpoint } from './endpoint';

/**
 * A plain resource declared once: its row, create and update bodies, list filters and permission.
 * `crudEndpoints` turns it into the DESIGN section 3 calls:
 *   GET  {base}/list   GET {base}/:id   POST {base}/create   PATCH {base}/:id   DELETE {base}/:id
 *   PATCH {base}/:id/activate   PATCH {base}/:id/deactivate   (when it has an active flag)
 * The server implements them with `implementCrud`, the web app lists and edits them with the
 * generic resource pages.
 */
export interface CrudDef<R extends z.ZodObject, C extends z.ZodObject, F extends z.ZodRawShape> {
  base: string;
  tag: string;
  /** Permission key (the menu item's web_url). */
  func: string;
  /** Human name for summaries and messages, e.g. 'payment term'. */
  name: string;
  row: R;
  create: C;
  /** List filters besides paging and sorting. */
  filters?: F;
  activation?: boolean;
  /** Portal users also allowed to read (their own rows only; the server scopes them). */
  portal?: readonly UserType[];
}

export function crudEndpoints<R extends z.ZodObject, C extends z.ZodObject, F extends z.ZodRawShape>(
  d: CrudDef<R, C, F>,
) {
  const read = adminOnly(d.func, 'read', d.portal);
  const write = adminOnly(d.func, 'write');
  const update = patchOf(d.create);
  const base = {
    list: endpoint({
      method: 'GET',
      path: `${d.base}/list`,
      summary: `List ${d.name}s`,
      tag: d.tag,
      access: read,
      query: listQuery.extend(d.filters ?? ({} as F)),
      payload: paged(d.row),
    }),
    get: endpoint({
      method: 'GET',
      path: `${d.base}/:id`,
      summary: `One ${d.name}`,
      tag: d.tag,
      access: read,
      params: idParams,
      payload: d.row,
    }),
    create: endpoint({
      method: 'POST',
      path: `${d.base}/create`,
      summary: `Create a ${d.name}`,
      tag: d.tag,
      access: write,
      body: d.create,
      payload: objectId,
    }),
    update: endpoint({
      method: 'PATCH',
      path: `${d.base}/:id`,
      summary: `Change a ${d.name}`,
      tag: d.tag,
      access: write,
      params: idParams,
      body: update,
      payload: z.null(),
    }),
    remove: endpoint({
      method: 'DELETE',
      path: `${d.base}/:id`,
      summary: `Delete a ${d.name} (refused while in use)`,
      tag: d.tag,
      access: write,
      params: idParams,
      payload: z.null(),
    }),
    usage: endpoint({
      method: 'GET',
      path: `${d.base}/:id/usage`,
      summary: `What uses this ${d.name} (shown in the delete confirmation)`,
      tag: d.tag,
      access: read,
      params: idParams,
      payload: z.object({
        items: z.array(z.object({ what: z.string(), count: z.number() })),
        total: z.number(),
      }),
    }),
  };
  const activation = d.activation
    ? {
        activate: endpoint({
          method: 'PATCH',
          path: `${d.base}/:id/activate`,
          summary: `Activate a ${d.name}`,
          tag: d.tag,
          access: write,
          params: idParams,
          payload: z.null(),
        }),
        deactivate: endpoint({
          method: 'PATCH',
          path: `${d.base}/:id/deactivate`,
          summary: `Deactivate a ${d.name}`,
          tag: d.tag,
          access: write,
          params: idParams,
          payload: z.null(),
        }),
      }
    : {};
  return { ...base, ...activation, def: d, updateBody: update };
}
export type CrudEndpoints = ReturnType<typeof crudEndpoints<z.ZodObject, z.ZodObject, z.ZodRawShape>>;

/**
 * The update body of a create schema: every field optional and no defaults (a PATCH changes only
 * what it sends; zod would otherwise fill the defaults of missing fields).
 */
export function patchOf<C extends z.ZodObject>(create: C) {
  const shape: Record<string, z.ZodType> = {};
  for (const [k, v] of Object.entries(create.shape as Record<string, z.ZodType>)) {
    shape[k] = (v instanceof z.ZodDefault ? (v.unwrap() as z.ZodType) : v).optional();
  }
  return z.object(shape).strict() as unknown as z.ZodObject<{
    [K in keyof C['shape']]: z.ZodOptional<C['shape'][K]>;
  }>;
}

/** Required trimmed text with a message key of the catalogue. */
export const requiredText = (max = 100) => z.string().trim().min(1, { message: 'required' }).max(max);
/** A name that must include a letter or digit (spec 02 section 5). */
export const entityName = (max = 100) =>
  requiredText(max).refine((v) => /[\p{L}\p{N}]/u.test(v), { message: 'nameMustHaveAlnum' });
/** Whole seconds >= 0 ("must be valid positive integers"). */
export const seconds = z.coerce
  .number({ message: 'positiveInteger' })
  .int({ message: 'positiveInteger' })
  .min(0, { message: 'positiveInteger' })
  .max(INT4_MAX, { message: 'positiveInteger' });
/** A decimal amount as a string, up to 6 decimals, >= 0 (money stays exact). */
export const amount = z
  .union([z.string(), z.number().min(0).max(DECIMAL_MAX)])
  .transform((v) => String(v).trim())
  .refine((v) => /^\d{1,12}(\.\d{1,6})?$/.test(v), { message: 'positiveDecimal' });
/** A signed decimal amount as a string, up to 6 decimals (a balance to set, which may be negative). */
export const signedAmount = z
  .union([z.string(), z.number().min(-DECIMAL_MAX).max(DECIMAL_MAX)])
  .transform((v) => String(v).trim())
  .refine((v) => /^-?\d{1,12}(\.\d{1,6})?$/.test(v), { message: 'signedDecimal' });
/** A percentage 0..100 as a decimal string. */
export const percent = amount.refine((v) => Number(v) <= 100, { message: 'percentRange' });
/** Digits only (codes, prefixes), possibly empty. */
export const digits = (max = 32) => z.string().trim().max(max).regex(/^\d*$/, { message: 'digitsOnly' });
