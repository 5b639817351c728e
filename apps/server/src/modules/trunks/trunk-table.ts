import { api } from '@tandem/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { likeContains } from '../../db/paging';
import { serializeRow, type CrudTable } from '../../http/crud';
import { invalidField, ruleBroken } from '../../http/errors';
import type { Services } from '../../services';
import { digitalMapOfTrunk, setTrunkDigitalMap } from '../routing-extras/digital-maps';
import { mustExist } from '../routing/common';
import { checkIngressHostsFree, writeHosts } from './hosts';

type Row = Record<string, unknown>;
type Host = api.trunks.TrunkHost;
type RoutingRow = {
  product_id: number | null;
  tech_prefix: string;
  rate_table_id: number | null;
  routing_plan_id: number | null;
};

/** Tab settings stored as jsonb (written as JSON text). */
const JSON_COLUMNS = [
  'timeouts',
  'digit_rules',
  'identity_options',
  'blocking',
  'failover_rules',
  'capacity',
  'stir_shaken',
  'spam_scoring',
  'registration',
] as const;
/** The stored settings of a fresh trunk, for rows whose jsonb tabs are still '{}'. */
const DEFAULTS = api.trunks.defaultTrunkSettings() as unknown as Row;
const REG_DEFAULT = api.trunks.registration.parse({}) as Row;

export const trunkSelect = (db: Db) =>
  db
    .selectFrom('trunks as t')
    .innerJoin('carriers as c', 'c.client_id', 't.carrier_id')
    .selectAll('t')
    .leftJoin('digital_map_trunks as dmt', 'dmt.trunk_id', 't.trunk_id')
    .leftJoin('digital_maps as dm', 'dm.digital_map_id', 'dmt.digital_map_id')
    .select(['c.name as carrier_name', 'c.is_active as carrier_is_active', 'c.client_type'])
    .select(['dmt.digital_map_id', 'dm.name as digital_map_name'])
    .select([
      sql<
        Row[]
      >`coalesce((select jsonb_agg(jsonb_build_object('host_type', h.host_type, 'host', h.host, 'port', h.port, 'netmask', h.netmask) order by h.ordering, h.id) from trunk_hosts h where h.trunk_id = t.trunk_id), '[]'::jsonb)`.as(
        'hosts',
      ),
      sql<number>`(select count(*)::int from trunk_hosts h where h.trunk_id = t.trunk_id)`.as('host_count'),
      sql<
        Row[]
      >`coalesce((select jsonb_agg(jsonb_build_object('product_id', r.product_id, 'tech_prefix', r.tech_prefix, 'rate_table_id', r.rate_table_id, 'routing_plan_id', r.routing_plan_id) order by r.id) from trunk_routing_rows r where r.trunk_id = t.trunk_id), '[]'::jsonb)`.as(
        'routing_rows',
      ),
      sql<
        string[]
      >`coalesce((select jsonb_agg(g.group_name order by g.group_name) from trunk_group_members m join trunk_groups g on g.group_id = m.group_id where m.trunk_id = t.trunk_id), '[]'::jsonb)`.as(
        'group_names',
      ),
    ]);

/** A selected row -> its API shape: empty tabs get their defaults; the registration password is never sent. */
export function trunkRowOf(r: Row): Row {
  const out = serializeRow(r);
  for (const k of JSON_COLUMNS) {
    const v = r[k] as Row | Row[] | null;
    if (k === 'failover_rules') out[k] = Array.isArray(v) ? v : [];
    else
      out[k] = {
        ...((k === 'registration' ? REG_DEFAULT : DEFAULTS[k]) as Row),
        ...((v as Row | null) ?? {}),
      };
  }
  out.registration = { ...(out.registration as Row), password: '' };
  delete out.sip_profile;
  return out;
}

/**
 * A trunk as its own carrier's portal user reads it (the portal's Trunks page, the trunk choices of
 * its CDR search and reports): its own settings, without how the operator routes and prices it
 * (routing plan, rate tables per prefix, minimum profitability, failover rules, digital map,
 * trunk groups). The rate table id stays: the carrier's own rates are its to see.
 */
export function portalTrunkRow(row: Row): Row {
  return {
    ...row,
    routing_plan_id: null,
    min_profitability: null,
    routing_rows: [],
    failover_rules: [],
    digital_map_id: null,
    digital_map_name: null,
    group_names: [],
  };
}

export function trunkColumns(body: Row, before: Row | null): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(body)) {
    if (k === 'hosts' || k === 'routing_rows' || k === 'digital_map_id') continue;
    out[k] = (JSON_COLUMNS as readonly string[]).includes(k) ? JSON.stringify(v) : v;
  }
  // An empty registration password keeps the stored one (passwords are never sent back).
  const reg = body.registration as Row | undefined;
  if (reg && reg.password === '' && before)
    out.registration = JSON.stringify({
      ...reg,
      password: (before.registration as Row | null)?.password ?? '',
    });
  out.updated_at = new Date();
  return out;
}

/** Refuses references to rate tables, routing plans, products and digital maps that do not exist. */
async function checkReferences(db: Db, body: Row): Promise<void> {
  const id = (v: unknown) => v as number | null | undefined;
  await mustExist(db, 'rate_tables', 'rate_table_id', id(body.rate_table_id), 'rate_table_id');
  await mustExist(db, 'routing_plans', 'route_plan_id', id(body.routing_plan_id), 'routing_plan_id');
  await mustExist(db, 'digital_maps', 'digital_map_id', id(body.digital_map_id), 'digital_map_id');
  // No random ANI groups exist yet: any group id refers to nothing (issue 18).
  if (body.random_ani_group_id != null)
    throw invalidField('random_ani_group_id', 'referenceMissing', ['random_ani_group_id']);
  for (const [i, r] of ((body.routing_rows as RoutingRow[] | undefined) ?? []).entries()) {
    const at = `routing_rows.${i}`;
    await mustExist(db, 'products', 'id', r.product_id, `${at}.product_id`, 'invalidValue', 'product_id');
    await mustExist(
      db,
      'rate_tables',
      'rate_table_id',
      r.rate_table_id,
      `${at}.rate_table_id`,
      'invalidValue',
      'rate_table_id',
    );
    await mustExist(
      db,
      'routing_plans',
      'route_plan_id',
      r.routing_plan_id,
      `${at}.routing_plan_id`,
      'invalidValue',
      'routing_plan_id',
    );
  }
}

/**
 * The rules of a trunk write that need the database (`before` null on create). `carrierActive`
 * overrides the carrier lookup when the carrier is being created in the same flow (wizard checks).
 */
export async function validateTrunk(
  db: Db,
  body: Row,
  before: Row | null,
  opts: { carrierActive?: boolean } = {},
): Promise<void> {
  const merged = { ...(before ?? {}), ...body };
  if (before && body.direction !== undefined && body.direction !== before.direction)
    throw invalidField('direction', 'directionFixed');
  let carrierActive = opts.carrierActive;
  if (carrierActive === undefined) {
    const carrier = await db
      .selectFrom('carriers')
      .select(['is_active'])
      .where('client_id', '=', merged.carrier_id as number)
      .executeTakeFirst();
    if (!carrier) throw invalidField('carrier_id', 'invalidValue', ['carrier_id']);
    carrierActive = carrier.is_active;
  }
  if (
    merged.is_active &&
    !carrierActive &&
    (!before || body.carrier_id !== undefined || body.is_active === true)
  )
    throw ruleBroken('trunkCarrierInactive');
  if (merged.direction === 'egress' && ((body.routing_rows as unknown[] | undefined) ?? []).length)
    throw invalidField('routing_rows', 'routingRowsIngressOnly');
  await checkReferences(db, body);
  const hosts = body.hosts as Host[] | undefined;
  if ((!before || hosts) && merged.auth_type === 'host' && !(hosts ?? []).length)
    throw invalidField('hosts', 'required', ['hosts']);
  if (hosts && merged.direction === 'ingress')
    await checkIngressHostsFree(db, hosts, (before?.trunk_id as number | undefined) ?? null);
  // The map is not a column of trunks: the modification log's "before" gets it here.
  if (before && body.digital_map_id !== undefined)
    before.digital_map_id = await digitalMapOfTrunk(db, before.trunk_id as number);
  const reg = body.registration as Row | undefined;
  if (reg || body.auth_type !== undefined) {
    const r = { ...((before?.registration as Row | null) ?? {}), ...(reg ?? {}) };
    const pwd = reg?.password || (before?.registration as Row | null)?.password;
    if (merged.auth_type !== 'host' && !r.username)
      throw invalidField('registration.username', 'required', ['username']);
    if (merged.auth_type !== 'host' && !pwd)
      throw invalidField('registration.password', 'required', ['password']);
    if (merged.auth_type === 'register_gateway' && !r.gateway_host)
      throw invalidField('registration.gateway_host', 'required', ['gateway_host']);
  }
}

/** Replaces an ingress trunk's routing rows; a row with a product takes its rate table, plan and prefix where it leaves them empty. */
async function writeRoutingRows(db: Db, trunkId: number, rows: readonly RoutingRow[]): Promise<void> {
  await db.deleteFrom('trunk_routing_rows').where('trunk_id', '=', trunkId).execute();
  if (!rows.length) return;
  const ids = rows.flatMap((r) => (r.product_id === null ? [] : [r.product_id]));
  const products = ids.length
    ? await db
        .selectFrom('products')
        .select(['id', 'tech_prefix', 'rate_table_id', 'routing_plan_id'])
        .where('id', 'in', ids)
        .execute()
    : [];
  const byId = new Map(products.map((p) => [p.id, p]));
  await db
    .insertInto('trunk_routing_rows')
    .values(
      rows.map((r) => {
        const p = r.product_id === null ? undefined : byId.get(r.product_id);
        return {
          trunk_id: trunkId,
          product_id: r.product_id,
          tech_prefix: r.tech_prefix || (p?.tech_prefix ?? ''),
          rate_table_id: r.rate_table_id ?? p?.rate_table_id ?? null,
          routing_plan_id: r.routing_plan_id ?? p?.routing_plan_id ?? null,
        };
      }),
    )
    .execute();
}

export async function writeTrunkChildren(db: Db, trunkId: number, body: Row): Promise<void> {
  if (body.hosts) await writeHosts(db, trunkId, body.hosts as Host[]);
  if (body.routing_rows) await writeRoutingRows(db, trunkId, body.routing_rows as RoutingRow[]);
  if (body.digital_map_id !== undefined)
    await setTrunkDigitalMap(db, trunkId, body.digital_map_id as number | null);
}

const count = (
  db: Db,
  table: 'static_route_item_trunks' | 'dynamic_route_trunks' | 'trunk_group_members',
  id: number,
) =>
  db
    .selectFrom(table)
    .select(sql<number>`count(*)::int`.as('n'))
    .where('trunk_id', '=', id)
    .executeTakeFirst()
    .then((r) => Number(r?.n ?? 0));

/**
 * Trunks on the generic CRUD: the spec's state rules (activation needs an active carrier; an
 * inactive trunk cannot be modified), unique names, hosts free across ingress trunks, hosts,
 * routing rows and the digital map (routing-extras' setTrunkDigitalMap) written with the trunk,
 * delete refused while routes use it. Every write rebuilds the
 * routing snapshot.
 */
export function trunkTable(s: Services): CrudTable<typeof api.trunks.trunk> {
  return {
    table: 'trunks',
    id: 'trunk_id',
    entity: 'trunk',
    label: 'Trunk',
    select: trunkSelect,
    selectId: 't.trunk_id',
    sortable: {
      name: 't.name',
      trunk_id: 't.trunk_id',
      carrier_name: 'c.name',
      direction: 't.direction',
      is_active: 't.is_active',
      updated_at: 't.updated_at',
      host_count: 'host_count',
    },
    defaultSort: 'name',
    filter: (qb, q) => {
      let r = q.name ? qb.where(sql.ref('t.name'), 'ilike', likeContains(q.name)) : qb;
      for (const k of ['direction', 'carrier_id', 'is_active', 'trunk_type2'] as const)
        if (q[k] !== undefined) r = r.where(sql.ref(`t.${k}`), '=', q[k]);
      if (q.host)
        r = r.where(
          sql<boolean>`exists (select 1 from trunk_hosts h where h.trunk_id = t.trunk_id and h.host ilike ${likeContains(q.host)})`,
        );
      if (q.group_id)
        r = r.where(
          sql<boolean>`exists (select 1 from trunk_group_members m where m.trunk_id = t.trunk_id and m.group_id = ${q.group_id})`,
        );
      if (q.rate_table_id)
        r = r.where(
          sql<boolean>`(t.rate_table_id = ${q.rate_table_id} or exists (select 1 from trunk_routing_rows x where x.trunk_id = t.trunk_id and x.rate_table_id = ${q.rate_table_id}))`,
        );
      if (q.routing_plan_id)
        r = r.where(
          sql<boolean>`(t.routing_plan_id = ${q.routing_plan_id} or exists (select 1 from trunk_routing_rows x where x.trunk_id = t.trunk_id and x.routing_plan_id = ${q.routing_plan_id}))`,
        );
      return r;
    },
    scope: (qb, actor) =>
      actor.type === 'admin' ? qb : qb.where(sql.ref('t.carrier_id'), '=', actor.clientId ?? -1),
    unique: [{ column: 'name', field: 'name' }],
    toColumns: trunkColumns,
    toRow: (r, actor) => (actor.type === 'admin' ? trunkRowOf(r) : portalTrunkRow(trunkRowOf(r))),
    validate: (trx, body, before) => validateTrunk(trx, body, before),
    children: (trx, id, body) => writeTrunkChildren(trx, id, body),
    requireActiveToModify: 'trunkMustBeActive',
    canActivate: async (trx, row) => {
      const c = await trx
        .selectFrom('carriers')
        .select('is_active')
        .where('client_id', '=', row.carrier_id as number)
        .executeTakeFirst();
      if (!c?.is_active) throw ruleBroken('trunkCarrierInactive');
    },
    usage: async (db, id) => {
      const [stat, dyn] = await Promise.all([
        count(db, 'static_route_item_trunks', id),
        count(db, 'dynamic_route_trunks', id),
      ]);
      return [
        { what: 'static route item(s)', count: stat },
        { what: 'dynamic route(s)', count: dyn },
      ];
    },
    afterWrite: () => s.configChanged.notify(),
  };
}
