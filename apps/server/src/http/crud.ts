import type { CrudEndpoints, ListQuery, MessageKey } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql, type SelectQueryBuilder } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../db/connection';
import { pageOf, withIsoTimes } from '../db/paging';
import type { Database } from '../db/schema';
import type { Services } from '../services';
import { actorOf, type Actor, type Ctx } from './context';
import { duplicate, invalidField, notFound, ruleBroken } from './errors';
import { implement } from './register';

type Table = Extract<keyof Database, string>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyQuery = SelectQueryBuilder<Database, any, any>;

/**
 * A field of a body that refers to a row of another table: checked to exist (with the right kind,
 * when `where` narrows it) before any write, refused with 110 naming the field; the database holds
 * the same reference by a foreign key. `table: null`: nothing of the kind exists yet, so any value
 * but null is refused. A field holding a list of ids is checked id by id.
 */
export interface Reference {
  field: string;
  table: Table | null;
  column?: string;
  where?: (qb: AnyQuery) => AnyQuery;
}

/** Refuses the first reference of `body` to a row that does not exist (110 'referenceMissing'). */
export async function checkReferences(db: Db, refs: readonly Reference[], body: Record<string, unknown>) {
  for (const r of refs) {
    const v = body[r.field];
    const wanted = (Array.isArray(v) ? v : [v]).filter((x): x is number => typeof x === 'number');
    if (!wanted.length) continue;
    if (r.table === null) throw invalidField(r.field, 'referenceMissing', [r.field]);
    let q = db
      .selectFrom(r.table as never)
      .select(sql.ref(r.column ?? 'id').as('id') as never)
      .where(sql.ref(r.column ?? 'id') as never, 'in', [...new Set(wanted)] as never) as unknown as AnyQuery;
    if (r.where) q = r.where(q);
    const found = new Set(((await q.execute()) as { id: number }[]).map((x) => Number(x.id)));
    if (wanted.some((id) => !found.has(id))) throw invalidField(r.field, 'referenceMissing', [r.field]);
  }
}

export interface UsageCount {
  what: string;
  count: number;
}

/**
 * How a CRUD resource maps to its table. The rules shared by every plain resource live here once:
 * permission (from the endpoints), validation (the contract's schemas), uniqueness ('{0} [{1}] already
 * exists'), delete refused while in use, tenancy scope, one transaction per write and a modification
 * log row with before and after.
 */
export interface CrudTable<E extends CrudEndpoints> {
  table: Table;
  id: string;
  /** Entity name in the modification log. */
  entity: string;
  /** Label in messages, e.g. 'Payment Term'. */
  label: string;
  /** The list/get query; must select every field of the row schema. */
  select: (db: Db) => AnyQuery;
  /** Qualified id column in `select` (e.g. 'p.payment_term_id'). */
  selectId: string;
  sortable: Record<string, string>;
  defaultSort: string;
  /** Apply the list filters. */
  filter?: (qb: AnyQuery, q: z.output<E['list']['query'] & object> & ListQuery) => AnyQuery;
  /** Tenancy: restrict what a portal user sees. */
  scope?: (qb: AnyQuery, actor: Actor) => AnyQuery;
  /** Columns that must be unique (case-insensitive), with the body field naming them. */
  unique?: { column: string; field: string }[];
  /** Body -> column values (default: the body as is). */
  toColumns?: (
    body: Record<string, unknown>,
    before: Record<string, unknown> | null,
  ) => Record<string, unknown>;
  /** Fields referring to rows of other tables, checked before every write (see Reference). */
  references?: readonly Reference[];
  /** Rules that need the database; throw an AppError to refuse. `before` is null on create. */
  validate?: (
    trx: Db,
    body: Record<string, unknown>,
    before: Record<string, unknown> | null,
    ctx: Ctx<unknown, unknown, unknown>,
  ) => Promise<void>;
  /** What refers to a row; delete is refused while any count is above zero. */
  usage?: (db: Db, id: number) => Promise<UsageCount[]>;
  /** The refusal's message ('{0}' the row, '{1}' the counts); default inUseCannotDelete. */
  inUseKey?: MessageKey;
  /** Child rows written with the parent (in the same transaction), e.g. trunk hosts. */
  children?: (trx: Db, id: number, body: Record<string, unknown>, creating: boolean) => Promise<void>;
  /** Extra checks before activation (e.g. a trunk's carrier must be active). */
  canActivate?: (trx: Db, row: Record<string, unknown>) => Promise<void>;
  /** Writes that must refuse inactive rows (spec: a trunk must be active to be modified). */
  requireActiveToModify?: MessageKey;
  activeColumn?: string;
  /** After a committed write (e.g. rebuild the routing snapshot). */
  afterWrite?: () => void;
  /**
   * Convert a selected row to its API shape (default: Dates to ISO strings), for the actor asking: a
   * portal user of a resource it may read (`portal` of the contract) can be shown less than an admin.
   */
  toRow?: (r: Record<string, unknown>, actor: Actor) => Record<string, unknown>;
}

export function serializeRow(r: Record<string, unknown>): Record<string, unknown> {
  return withIsoTimes(r);
}

/** '{0} [{1}] already exists' for the first unique column of `t` that `body` clashes with. */
export async function checkUniqueOf<E extends CrudEndpoints>(
  t: CrudTable<E>,
  db: Db,
  body: Record<string, unknown>,
  exceptId: number | null,
): Promise<void> {
  const idRef = sql.ref(t.id);
  for (const u of t.unique ?? []) {
    const v = body[u.field];
    if (typeof v !== 'string') continue;
    let q = db
      .selectFrom(t.table as never)
      .select(idRef as never)
      .where(sql`lower(${sql.ref(u.column)})`, '=', v.toLowerCase());
    if (exceptId !== null) q = q.where(idRef as never, '!=', exceptId as never);
    if (await q.executeTakeFirst()) throw duplicate(u.field, t.label, v);
  }
}

/**
 * The create of a resource inside a caller's transaction (uniqueness, rules, insert, child rows,
 * modification log): the create route uses it, and so do flows that create several resources in one
 * transaction (e.g. the termination wizard). The caller notifies `afterWrite` after commit.
 */
export async function createRow<E extends CrudEndpoints>(
  s: Services,
  t: CrudTable<E>,
  trx: Db,
  body: Record<string, unknown>,
  ctx: Ctx<unknown, unknown, unknown>,
): Promise<number> {
  await checkUniqueOf(t, trx, body, null);
  await checkReferences(trx, t.references ?? [], body);
  await t.validate?.(trx, body, null, ctx);
  const values = t.toColumns ? t.toColumns(body, null) : body;
  const row = (await trx
    .insertInto(t.table as never)
    .values(values as never)
    .returningAll()
    .executeTakeFirstOrThrow()) as Record<string, unknown>;
  const newId = Number(row[t.id]);
  await t.children?.(trx, newId, body, true);
  await s.audit.record(trx, actorOf(ctx), t.entity, newId, 'create', null, body);
  return newId;
}

/** Registers the list/get/create/update/delete/usage (and activation) routes of one resource. */
export function implementCrud<E extends CrudEndpoints>(
  app: FastifyInstance,
  s: Services,
  e: E,
  t: CrudTable<E>,
): void {
  const toRow = t.toRow ?? serializeRow;
  const activeColumn = t.activeColumn ?? 'is_active';
  const scoped = (db: Db, actor: Actor) => (t.scope ? t.scope(t.select(db), actor) : t.select(db));
  const idRef = sql.ref(t.id);

  const loadRaw = async (db: Db, id: number, lock = false): Promise<Record<string, unknown>> => {
    let q = db
      .selectFrom(t.table as never)
      .selectAll()
      .where(idRef as never, '=', id as never);
    if (lock) q = q.forUpdate();
    const row = (await q.executeTakeFirst()) as Record<string, unknown> | undefined;
    if (!row) throw notFound();
    return row;
  };

  const checkUnique = (db: Db, body: Record<string, unknown>, exceptId: number | null) =>
    checkUniqueOf(t, db, body, exceptId);

  implement(app, s, e.list, async (ctx) => {
    let qb = scoped(s.db, actorOf(ctx));
    if (t.filter) qb = t.filter(qb, ctx.query as never);
    const page = await pageOf(qb, ctx.query as ListQuery, t.sortable, t.defaultSort, t.selectId);
    const actor = actorOf(ctx);
    return {
      items: page.items.map((r) => toRow(r as Record<string, unknown>, actor)),
      total: page.total,
    } as never;
  });

  implement(app, s, e.get, async (ctx) => {
    const row: unknown = await scoped(s.db, actorOf(ctx))
      .where(sql.ref(t.selectId), '=', ctx.params.id)
      .executeTakeFirst();
    if (!row) throw notFound();
    return toRow(row as Record<string, unknown>, actorOf(ctx)) as never;
  });

  implement(app, s, e.usage, async (ctx) => {
    // The same tenancy as `get`: a portal user's foreign id is answered exactly as a missing one.
    const visible: unknown = await scoped(s.db, actorOf(ctx))
      .where(sql.ref(t.selectId), '=', ctx.params.id)
      .executeTakeFirst();
    if (!visible) throw notFound();
    const items = t.usage ? await t.usage(s.db, ctx.params.id) : [];
    return { items, total: items.reduce((n, u) => n + u.count, 0) };
  });

  implement(app, s, e.create, async (ctx) => {
    const body = ctx.body as Record<string, unknown>;
    const id = await s.db
      .transaction()
      .execute((trx) => createRow(s, t, trx, body, ctx as Ctx<unknown, unknown, unknown>));
    t.afterWrite?.();
    return { object_id: id };
  });

  implement(app, s, e.update, async (ctx) => {
    const body = ctx.body as Record<string, unknown>;
    await s.db.transaction().execute(async (trx) => {
      const before = await loadRaw(trx, ctx.params.id, true);
      if (t.requireActiveToModify && before[activeColumn] === false)
        throw ruleBroken(t.requireActiveToModify);
      await checkUnique(trx, body, ctx.params.id);
      await checkReferences(trx, t.references ?? [], body);
      await t.validate?.(trx, body, before, ctx as Ctx<unknown, unknown, unknown>);
      const values = t.toColumns ? t.toColumns(body, before) : body;
      if (Object.keys(values).length) {
        await trx
          .updateTable(t.table as never)
          .set(values as never)
          .where(idRef as never, '=', ctx.params.id as never)
          .execute();
      }
      await t.children?.(trx, ctx.params.id, body, false);
      const changed = Object.fromEntries(Object.keys(body).map((k) => [k, before[k]]));
      await s.audit.record(trx, actorOf(ctx), t.entity, ctx.params.id, 'update', changed, body);
    });
    t.afterWrite?.();
    return null;
  });

  implement(app, s, e.remove, async (ctx) => {
    await s.db.transaction().execute(async (trx) => {
      const before = await loadRaw(trx, ctx.params.id, true);
      const used = (await t.usage?.(trx, ctx.params.id))?.filter((u) => u.count > 0) ?? [];
      if (used.length)
        throw ruleBroken(t.inUseKey ?? 'inUseCannotDelete', [
          `${t.label} [${ctx.params.id}]`,
          used.map((u) => `${u.count} ${u.what}`).join(', '),
        ]);
      await trx
        .deleteFrom(t.table as never)
        .where(idRef as never, '=', ctx.params.id as never)
        .execute();
      await s.audit.record(trx, actorOf(ctx), t.entity, ctx.params.id, 'delete', before, null);
    });
    t.afterWrite?.();
    return null;
  });

  if ('activate' in e && 'deactivate' in e) {
    const setActive = (active: boolean) => async (ctx: Ctx<{ id: number }, unknown, unknown>) => {
      await s.db.transaction().execute(async (trx) => {
        const before = await loadRaw(trx, ctx.params.id, true);
        if (active) await t.canActivate?.(trx, before);
        await trx
          .updateTable(t.table as never)
          .set({ [activeColumn]: active } as never)
          .where(idRef as never, '=', ctx.params.id as never)
          .execute();
        await s.audit.record(
          trx,
          actorOf(ctx),
          t.entity,
          ctx.params.id,
          active ? 'activate' : 'deactivate',
          { [activeColumn]: before[activeColumn] },
          { [activeColumn]: active },
        );
      });
      t.afterWrite?.();
      return null;
    };
    implement(app, s, e.activate as CrudEndpoints['remove'], setActive(true));
    implement(app, s, e.deactivate as CrudEndpoints['remove'], setActive(false));
  }
}
