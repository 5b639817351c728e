import type { api } from '@tandem/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { likeContains, pageOf } from '../../db/paging';
import type { Actor } from '../../http/context';
import { invalidField, notFound, ruleBroken } from '../../http/errors';
import type { Services } from '../../services';

type Query = api.rateReports.AssignCandidatesQuery;

async function rateTableHead(db: Db, id: number, lock = false) {
  let q = db
    .selectFrom('rate_tables')
    .select(['rate_table_id', 'name', 'billing_method'])
    .where('rate_table_id', '=', id);
  if (lock) q = q.forUpdate();
  const t = await q.executeTakeFirst();
  if (!t) throw notFound();
  return t;
}

/** Routing > Rate Table > assign rate deck: the trunks of one direction, and which already use the table. */
export async function assignCandidates(db: Db, id: number, q: Query) {
  const table = await rateTableHead(db, id);
  let qb = db
    .selectFrom('trunks as t')
    .innerJoin('carriers as c', 'c.client_id', 't.carrier_id')
    .leftJoin('rate_tables as rt', 'rt.rate_table_id', 't.rate_table_id')
    .select([
      't.trunk_id',
      't.name',
      't.direction',
      't.carrier_id',
      'c.name as carrier_name',
      't.is_active',
      't.bill_by',
      't.rate_table_id',
      'rt.name as rate_table_name',
    ])
    .select(sql<boolean>`coalesce(t.rate_table_id = ${id}, false)`.as('uses_this'))
    .select(
      sql<number>`(SELECT count(*)::int FROM trunk_routing_rows w LEFT JOIN products p ON p.id = w.product_id
        WHERE w.trunk_id = t.trunk_id AND coalesce(w.rate_table_id, p.rate_table_id) IS DISTINCT FROM ${id})`.as(
        'other_product_tables',
      ),
    )
    .where('t.direction', '=', q.direction);
  if (q.carrier_id) qb = qb.where('t.carrier_id', '=', q.carrier_id);
  if (q.name) qb = qb.where('t.name', 'ilike', likeContains(q.name));
  if (q.uses_this !== undefined)
    qb = qb.where(sql<boolean>`coalesce(t.rate_table_id = ${id}, false) = ${q.uses_this}`);
  const page = await pageOf(
    qb,
    q,
    { carrier_name: 'c.name', name: 't.name', is_active: 't.is_active', rate_table_name: 'rt.name' },
    'carrier_name',
    't.name',
  );
  return {
    ...page,
    items: page.items.map((r) => ({
      ...r,
      rate_table_id: r.rate_table_id === null ? null : r.rate_table_id,
    })),
    rate_table_name: table.name,
    billing_method: table.billing_method,
  };
}

/**
 * Makes the rate table the own rate table (billing tab) of each trunk, in one transaction: every
 * trunk must exist and be active (the trunk rule: modify only active trunks); trunks already on it
 * are left alone. Each change leaves a modification log row on the trunk, as a trunk edit does, and
 * one on the rate table naming the trunks; the routing snapshot is rebuilt after commit.
 */
export async function assignRateDeck(
  s: Services,
  actor: Actor,
  id: number,
  trunkIds: number[],
): Promise<{ assigned: number; unchanged: number }> {
  const wanted = [...new Set(trunkIds)];
  const result = await s.db.transaction().execute(async (trx) => {
    const table = await rateTableHead(trx, id, true);
    const trunks = await trx
      .selectFrom('trunks')
      .select(['trunk_id', 'name', 'is_active', 'rate_table_id'])
      .where('trunk_id', 'in', wanted)
      .orderBy('name')
      .forUpdate()
      .execute();
    if (trunks.length !== wanted.length) throw invalidField('trunk_ids', 'invalidValue', ['trunk_ids']);
    const inactive = trunks.filter((t) => !t.is_active);
    if (inactive.length) throw ruleBroken('trunksMustBeActive', [inactive.map((t) => t.name).join(', ')]);
    const changing = trunks.filter((t) => t.rate_table_id !== table.rate_table_id);
    if (changing.length) {
      await trx
        .updateTable('trunks')
        .set({ rate_table_id: table.rate_table_id, updated_at: new Date() })
        .where(
          'trunk_id',
          'in',
          changing.map((t) => t.trunk_id),
        )
        .execute();
      for (const t of changing)
        await s.audit.record(
          trx,
          actor,
          'trunk',
          t.trunk_id,
          'update',
          { rate_table_id: t.rate_table_id },
          { rate_table_id: table.rate_table_id },
        );
      await s.audit.record(trx, actor, 'rate_table', table.rate_table_id, 'assign_rate_deck', null, {
        trunk_ids: changing.map((t) => t.trunk_id),
        trunk_names: changing.map((t) => t.name),
      });
    }
    return { assigned: changing.length, unchanged: trunks.length - changing.length };
  });
  if (result.assigned) s.configChanged.notify();
  return result;
}
