import { api, ErrorCode } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { pageOf, withIsoTimes } from '../../db/paging';
import { actorOf, type Actor } from '../../http/context';
import { implementCrud } from '../../http/crud';
import { AppError, duplicate, invalidField, notFound, ruleBroken } from '../../http/errors';
import { implement } from '../../http/register';
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
    select: (db) => blockRows(db).select('t.direction as trunk_direction').where('b.carrier_id', 'is', null),
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

/**
 * The portal's own block list (Termination > Block List of a client; a vendor's with its block-list
 * permission): entries with the carrier's id, on all its trunks (`trunk_id` null: the routing
 * snapshot applies them to each of its trunks) or on one of its own. The same engine rule as the
 * operator's entries: on an ingress trunk the call is refused, on an egress trunk the trunk is left
 * out of the route list. Tenancy: a portal user reads, adds and removes only its carrier's entries,
 * whatever ids it sends; the operator's global entries and other carriers' are not visible.
 */
export function registerPortalBlockList(app: FastifyInstance, s: Services): void {
  const r = api.routing;

  implement(app, s, r.listPortalBlocks, async (ctx) => {
    const carrier = await blockListCarrier(s.db, actorOf(ctx));
    const q = ctx.query;
    let qb = blockRows(s.db).where('b.carrier_id', '=', carrier);
    if (q.field) qb = qb.where('b.field', '=', q.field);
    if (q.number) qb = qb.where('b.number', 'like', `${q.number.replace(/[\\%_]/g, '')}%`);
    const page = await pageOf(
      qb,
      q,
      { number: 'b.number', field: 'b.field', trunk_name: 't.name', created_at: 'b.created_at', id: 'b.id' },
      'number',
      'b.id',
    );
    return { items: page.items.map(withIsoTimes), total: page.total };
  });

  implement(app, s, r.createPortalBlock, async (ctx) => {
    const actor = actorOf(ctx);
    const carrier = await blockListCarrier(s.db, actor);
    const b = ctx.body;
    const id = await s.db.transaction().execute(async (trx) => {
      // The carrier's row locked: two adds at once count the entries one after the other.
      await trx
        .selectFrom('carriers')
        .select('client_id')
        .where('client_id', '=', carrier)
        .forUpdate()
        .execute();
      if (b.trunk_id !== null) {
        const own = await trx
          .selectFrom('trunks')
          .select('trunk_id')
          .where('trunk_id', '=', b.trunk_id)
          .where('carrier_id', '=', carrier)
          .executeTakeFirst();
        // another carrier's trunk is refused as one that does not exist
        if (!own) throw invalidField('trunk_id', 'referenceMissing', ['trunk_id']);
      }
      const n = await trx
        .selectFrom('block_list')
        .select((e) => e.fn.countAll<string>().as('n'))
        .where('carrier_id', '=', carrier)
        .executeTakeFirstOrThrow();
      if (Number(n.n) >= api.routing.PORTAL_BLOCKS_MAX)
        throw ruleBroken('blockListFull', [api.routing.PORTAL_BLOCKS_MAX]);
      const same = await trx
        .selectFrom('block_list')
        .select('id')
        .where('carrier_id', '=', carrier)
        .where('field', '=', b.field)
        .where('match', '=', b.match)
        .where('number', '=', b.number)
        .where(sql<boolean>`trunk_id is not distinct from ${b.trunk_id}::int`)
        .executeTakeFirst();
      if (same) throw duplicate('number', b.field === 'ani' ? 'ANI' : 'DNIS', b.number);
      const row = await trx
        .insertInto('block_list')
        .values({
          carrier_id: carrier,
          field: b.field,
          match: b.match,
          number: b.number,
          trunk_id: b.trunk_id,
          note: b.note,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await s.audit.record(trx, actor, 'block_list', row.id, 'create', null, { ...b, carrier_id: carrier });
      return row.id;
    });
    s.configChanged.notify();
    return { object_id: id };
  });

  implement(app, s, r.deletePortalBlock, async (ctx) => {
    const actor = actorOf(ctx);
    const carrier = await blockListCarrier(s.db, actor);
    await s.db.transaction().execute(async (trx) => {
      const gone = await trx
        .deleteFrom('block_list')
        .where('id', '=', ctx.params.id)
        .where('carrier_id', '=', carrier)
        .returningAll()
        .executeTakeFirst();
      if (!gone) throw notFound();
      await s.audit.record(trx, actor, 'block_list', gone.id, 'delete', gone, null);
    });
    s.configChanged.notify();
    return null;
  });
}

/**
 * The portal user's carrier when its portal has a block list (a client: the panel's block-list flag;
 * a vendor: its block-list permission, on unless turned off), else 403 saying so.
 */
async function blockListCarrier(db: Db, actor: Actor): Promise<number> {
  const id = actor.clientId;
  const c =
    id === null
      ? undefined
      : await db
          .selectFrom('carriers')
          .select(['is_panel_block_list', 'vendor_permissions'])
          .where('client_id', '=', id)
          .executeTakeFirst();
  const allowed =
    c !== undefined &&
    (actor.type === 'vendor'
      ? (c.vendor_permissions as { block_list?: boolean } | null)?.block_list !== false
      : c.is_panel_block_list);
  if (!allowed || id === null) throw new AppError(ErrorCode.forbidden, 'blockListOff', [], 403);
  return id;
}

/** The entries with their trunk's name: the operator's list and a carrier's own read them alike. */
function blockRows(db: Db) {
  return db
    .selectFrom('block_list as b')
    .leftJoin('trunks as t', 't.trunk_id', 'b.trunk_id')
    .select([
      'b.id',
      'b.field',
      'b.match',
      'b.number',
      'b.trunk_id',
      't.name as trunk_name',
      'b.note',
      'b.created_at',
    ]);
}
