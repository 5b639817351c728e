import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { pageOf } from '../../db/paging';
import { actorOf } from '../../http/context';
import { implementCrud } from '../../http/crud';
import { duplicate, invalidField, notFound, ruleBroken } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { noteWriter, writerOf } from '../routing/common';

type ItemBody = api.routingExtras.DigitMapItemBody;

/**
 * Routing > Digital Maps: named maps of ordered digit-mapping items, and the ingress and egress
 * trunks using each map (listed on the map; a trunk uses at most one). The engine applies the
 * ingress trunk's map before pricing and routing and each egress trunk's map to the numbers sent.
 */
export function registerDigitalMaps(app: FastifyInstance, s: Services): void {
  implementCrud(app, s, api.routingExtras.digitalMap, {
    table: 'digital_maps',
    id: 'digital_map_id',
    entity: 'digital_map',
    label: 'Digital Map',
    select: (db) =>
      db
        .selectFrom('digital_maps as m')
        .select(['m.digital_map_id', 'm.name', 'm.note', 'm.updated_at', 'm.updated_by'])
        .select(
          sql<number>`(SELECT count(*)::int FROM digital_map_items i WHERE i.digital_map_id = m.digital_map_id)`.as(
            'item_count',
          ),
        )
        .select(
          sql<unknown>`coalesce((SELECT jsonb_agg(jsonb_build_object('trunk_id', t.trunk_id, 'trunk_name', t.name, 'carrier_name', c.name, 'direction', t.direction) ORDER BY t.direction DESC, t.name)
            FROM digital_map_trunks dt JOIN trunks t ON t.trunk_id = dt.trunk_id JOIN carriers c ON c.client_id = t.carrier_id
            WHERE dt.digital_map_id = m.digital_map_id), '[]'::jsonb)`.as('trunks'),
        ),
    selectId: 'm.digital_map_id',
    sortable: {
      name: 'm.name',
      updated_at: 'm.updated_at',
      item_count: 'item_count',
      digital_map_id: 'm.digital_map_id',
    },
    defaultSort: 'name',
    unique: [{ column: 'name', field: 'name' }],
    filter: (qb, q) => {
      let r = qb;
      if (q.name) r = r.where(sql`m.name`, 'ilike', `%${q.name.replace(/[\\%_]/g, '')}%`);
      if (q.trunk_id)
        r = r.where(
          sql<boolean>`EXISTS (SELECT 1 FROM digital_map_trunks dt WHERE dt.digital_map_id = m.digital_map_id AND dt.trunk_id = ${q.trunk_id})`,
        );
      return r;
    },
    validate: async (trx, body, before, ctx) => {
      noteWriter(body, ctx);
      const ids = body.trunk_ids as number[] | undefined;
      if (ids?.length) await checkTrunks(trx, ids, before ? Number(before.digital_map_id) : null);
    },
    toColumns: (body) => {
      const { trunk_ids: _ids, ...rest } = body;
      return { ...rest, updated_at: new Date(), updated_by: writerOf(body) };
    },
    children: async (trx, mapId, body) => {
      const ids = body.trunk_ids as number[] | undefined;
      if (ids === undefined) return;
      await trx.deleteFrom('digital_map_trunks').where('digital_map_id', '=', mapId).execute();
      if (ids.length)
        await trx
          .insertInto('digital_map_trunks')
          .values([...new Set(ids)].map((trunk_id) => ({ trunk_id, digital_map_id: mapId })))
          .execute();
    },
    usage: async (db, mapId) => {
      const r = await db
        .selectFrom('digital_map_trunks')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('digital_map_id', '=', mapId)
        .executeTakeFirstOrThrow();
      return [{ what: 'trunk', count: Number(r.n) }];
    },
    afterWrite: () => s.configChanged.notify(),
  });

  const mapOrFail = async (db: Db, mapId: number) => {
    const m = await db
      .selectFrom('digital_maps')
      .select(['digital_map_id', 'name'])
      .where('digital_map_id', '=', mapId)
      .executeTakeFirst();
    if (!m) throw notFound();
    return m;
  };
  const itemOrFail = async (db: Db, mapId: number, itemId: number, lock = false) => {
    let q = db
      .selectFrom('digital_map_items')
      .selectAll()
      .where('digital_map_id', '=', mapId)
      .where('id', '=', itemId);
    if (lock) q = q.forUpdate();
    const item = await q.executeTakeFirst();
    if (!item) throw notFound();
    return item;
  };

  implement(app, s, api.routingExtras.listDigitMapItems, async (ctx) => {
    await mapOrFail(s.db, ctx.params.id);
    let q = s.db
      .selectFrom('digital_map_items')
      .select([
        'id',
        'digital_map_id',
        'position',
        'field',
        'match',
        'pattern',
        'action',
        'strip_count',
        'digits',
        'note',
      ])
      .where('digital_map_id', '=', ctx.params.id);
    if (ctx.query.field) q = q.where('field', '=', ctx.query.field);
    if (ctx.query.pattern) q = q.where('pattern', 'like', `${ctx.query.pattern.replace(/[\\%_]/g, '')}%`);
    return pageOf(
      q,
      ctx.query,
      { position: 'position', pattern: 'pattern', field: 'field', action: 'action' },
      'position',
      'id',
    );
  });

  implement(app, s, api.routingExtras.getDigitMapItem, async (ctx) =>
    itemOrFail(s.db, ctx.params.id, ctx.params.item_id),
  );

  implement(app, s, api.routingExtras.createDigitMapItem, async (ctx) => {
    const id = await s.db.transaction().execute(async (trx) => {
      await lockMap(trx, ctx.params.id);
      await checkItemUnique(trx, ctx.params.id, ctx.body, null);
      const { position, ...values } = ctx.body;
      const row = await trx
        .insertInto('digital_map_items')
        .values({ ...values, digital_map_id: ctx.params.id, position: 1_000_000 })
        .returning('id')
        .executeTakeFirstOrThrow();
      const placed = await place(trx, ctx.params.id, row.id, position);
      await touchMap(trx, ctx.params.id, actorOf(ctx).user.name);
      await s.audit.record(trx, actorOf(ctx), 'digital_map_item', row.id, 'create', null, {
        ...ctx.body,
        digital_map_id: ctx.params.id,
        position: placed,
      });
      return row.id;
    });
    s.configChanged.notify();
    return { object_id: id };
  });

  implement(app, s, api.routingExtras.updateDigitMapItem, async (ctx) => {
    await s.db.transaction().execute(async (trx) => {
      await lockMap(trx, ctx.params.id);
      const before = await itemOrFail(trx, ctx.params.id, ctx.params.item_id, true);
      await checkItemUnique(trx, ctx.params.id, ctx.body, ctx.params.item_id);
      const { position, ...values } = ctx.body;
      await trx.updateTable('digital_map_items').set(values).where('id', '=', ctx.params.item_id).execute();
      const placed = await place(trx, ctx.params.id, ctx.params.item_id, position ?? before.position);
      await touchMap(trx, ctx.params.id, actorOf(ctx).user.name);
      await s.audit.record(trx, actorOf(ctx), 'digital_map_item', ctx.params.item_id, 'update', before, {
        ...ctx.body,
        position: placed,
      });
    });
    s.configChanged.notify();
    return null;
  });

  implement(app, s, api.routingExtras.deleteDigitMapItem, async (ctx) => {
    await s.db.transaction().execute(async (trx) => {
      await lockMap(trx, ctx.params.id);
      const before = await itemOrFail(trx, ctx.params.id, ctx.params.item_id, true);
      await trx.deleteFrom('digital_map_items').where('id', '=', ctx.params.item_id).execute();
      await place(trx, ctx.params.id, null, null);
      await touchMap(trx, ctx.params.id, actorOf(ctx).user.name);
      await s.audit.record(trx, actorOf(ctx), 'digital_map_item', ctx.params.item_id, 'delete', before, null);
    });
    s.configChanged.notify();
    return null;
  });

  /** Locks the map row so concurrent item writes renumber one after the other. */
  async function lockMap(trx: Db, mapId: number): Promise<void> {
    const m = await trx
      .selectFrom('digital_maps')
      .select('digital_map_id')
      .where('digital_map_id', '=', mapId)
      .forUpdate()
      .executeTakeFirst();
    if (!m) throw notFound();
  }
}

/** The digital map a trunk uses, or null. */
export async function digitalMapOfTrunk(db: Db, trunkId: number): Promise<number | null> {
  const r = await db
    .selectFrom('digital_map_trunks')
    .select('digital_map_id')
    .where('trunk_id', '=', trunkId)
    .executeTakeFirst();
  return r?.digital_map_id ?? null;
}

/**
 * Sets the digital map a trunk uses (null: none), from the trunk's side (the trunk edit's digit
 * manipulation tab). The trunk is the key of digital_map_trunks, so a trunk uses at most one map
 * and choosing another map here moves the trunk to it; the map's own page instead refuses a trunk
 * another map uses (checkTrunks), since there the trunk list is edited as a whole.
 */
export async function setTrunkDigitalMap(db: Db, trunkId: number, mapId: number | null): Promise<void> {
  if (mapId === null) {
    await db.deleteFrom('digital_map_trunks').where('trunk_id', '=', trunkId).execute();
    return;
  }
  await db
    .insertInto('digital_map_trunks')
    .values({ trunk_id: trunkId, digital_map_id: mapId })
    .onConflict((oc) => oc.column('trunk_id').doUpdateSet({ digital_map_id: mapId }))
    .execute();
}

/** Refuses unknown trunks and trunks that already use another map. */
async function checkTrunks(db: Db, ids: number[], mapId: number | null): Promise<void> {
  const rows = await db
    .selectFrom('trunks as t')
    .leftJoin('digital_map_trunks as dt', 'dt.trunk_id', 't.trunk_id')
    .leftJoin('digital_maps as m', 'm.digital_map_id', 'dt.digital_map_id')
    .select(['t.trunk_id', 't.name', 'dt.digital_map_id', 'm.name as map_name'])
    .where('t.trunk_id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.trunk_id, r]));
  for (const [i, trunkId] of ids.entries()) {
    const t = byId.get(trunkId);
    if (!t) throw invalidField(`trunk_ids.${i}`, 'invalidValue', [`trunk_ids.${i}`]);
    if (t.digital_map_id !== null && t.digital_map_id !== mapId)
      throw ruleBroken('trunkHasDigitMap', [t.name, t.map_name ?? `#${t.digital_map_id}`]);
  }
}

/** Two items with the same number, match and pattern: the second could never apply. */
async function checkItemUnique(db: Db, mapId: number, b: ItemBody, exceptId: number | null): Promise<void> {
  let q = db
    .selectFrom('digital_map_items')
    .select('id')
    .where('digital_map_id', '=', mapId)
    .where('field', '=', b.field)
    .where('match', '=', b.match)
    .where('pattern', '=', b.pattern);
  if (exceptId !== null) q = q.where('id', '!=', exceptId);
  if (await q.executeTakeFirst())
    throw duplicate('pattern', `${b.field.toUpperCase()} ${b.match}`, b.pattern === '' ? '*' : b.pattern);
}

/**
 * Renumbers the map's items 1..n in their order, with `itemId` (when given) moved to `position`
 * (null or past the end: last). Returns the item's final position.
 */
async function place(db: Db, mapId: number, itemId: number | null, position: number | null): Promise<number> {
  const rows = await db
    .selectFrom('digital_map_items')
    .select(['id', 'position'])
    .where('digital_map_id', '=', mapId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  const order = rows.filter((r) => r.id !== itemId).map((r) => r.id);
  let at = -1;
  if (itemId !== null) {
    at = position === null ? order.length : Math.min(Math.max(position, 1) - 1, order.length);
    order.splice(at, 0, itemId);
  }
  const was = new Map(rows.map((r) => [r.id, r.position]));
  const changed = order.map((id, i) => [id, i + 1] as const).filter(([id, p]) => was.get(id) !== p);
  if (changed.length)
    await sql`UPDATE digital_map_items SET position = v.p FROM unnest(${changed.map(([id]) => id)}::int[], ${changed.map(([, p]) => p)}::int[]) AS v(id, p) WHERE digital_map_items.id = v.id`.execute(
      db,
    );
  return at + 1;
}

async function touchMap(db: Db, mapId: number, user: string): Promise<void> {
  await db
    .updateTable('digital_maps')
    .set({ updated_at: new Date(), updated_by: user })
    .where('digital_map_id', '=', mapId)
    .execute();
}
