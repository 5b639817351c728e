import type { api } from '@tandem/contract';
import type { z } from 'zod';
import { ok, type Harness } from './harness';

/**
 * A small termination setup written straight into the database (the carrier and trunk screens are
 * another area's): a customer with an ingress trunk on 198.51.100.0/24, vendors with egress trunks,
 * rate tables and rates. Routing objects are made through the routing API by the tests.
 */
export type EngineStatus = z.output<typeof api.routing.engineStatus>;
export type RouteAnswer = z.output<typeof api.routing.routeAnswer>;

export interface Fixture {
  customer: number;
  ingress: number;
  customerTable: number;
  vendors: { carrier: number; trunk: number; table: number }[];
}

type Db = Harness['built']['services']['db'];

export async function carrier(db: Db, name: string, extra: Record<string, unknown> = {}): Promise<number> {
  const r = await db
    .insertInto('carriers')
    .values({ name, mode: 'postpaid', credit_limit: '1000', updated_at: new Date(), ...extra } as never)
    .returning('client_id')
    .executeTakeFirstOrThrow();
  return r.client_id;
}

export async function rateTable(
  db: Db,
  name: string,
  rows: [code: string, rate: string, codeName?: string][],
  extra: Record<string, unknown> = {},
): Promise<number> {
  const t = await db
    .insertInto('rate_tables')
    .values({ name, decimal_places: 4, ...extra } as never)
    .returning('rate_table_id')
    .executeTakeFirstOrThrow();
  if (rows.length) {
    await db
      .insertInto('rates')
      .values(
        rows.map(([code, rate, codeName]) => ({
          rate_table_id: t.rate_table_id,
          code,
          rate,
          code_name: codeName ?? '',
          country: '',
          effective_date: new Date('2020-01-01T00:00:00Z'),
        })),
      )
      .execute();
  }
  return t.rate_table_id;
}

export async function trunk(
  db: Db,
  carrierId: number,
  name: string,
  direction: 'ingress' | 'egress',
  opts: {
    host?: string;
    netmask?: number;
    port?: number | null;
    rate_table_id?: number | null;
    routing_plan_id?: number | null;
    tech_prefix?: string;
  } = {},
): Promise<number> {
  const t = await db
    .insertInto('trunks')
    .values({
      carrier_id: carrierId,
      name,
      direction,
      rate_table_id: opts.rate_table_id ?? null,
      routing_plan_id: opts.routing_plan_id ?? null,
      tech_prefix: opts.tech_prefix ?? '',
    })
    .returning('trunk_id')
    .executeTakeFirstOrThrow();
  if (opts.host)
    await db
      .insertInto('trunk_hosts')
      .values({ trunk_id: t.trunk_id, host: opts.host, netmask: opts.netmask ?? 32, port: opts.port ?? null })
      .execute();
  return t.trunk_id;
}

/** Customer (postpaid, credit 1000) with ingress trunk 198.51.100.0/24 on a table 44 -> 0.0500, 1 -> 0.0200; vendors A (0.0300 / 0.0100) and B (0.0250 / 0.0150). */
export async function termination(h: Harness, suffix = ''): Promise<Fixture> {
  const db = h.built.services.db;
  const customer = await carrier(db, `Customer${suffix}`, { client_type: 'client' });
  const customerTable = await rateTable(db, `Customer table${suffix}`, [
    ['44', '0.0500', 'UK'],
    ['1', '0.0200', 'USA'],
  ]);
  const ingress = await trunk(db, customer, `Customer in${suffix}`, 'ingress', {
    host: `198.51.10${suffix ? 1 : 0}.0`,
    netmask: 24,
    rate_table_id: customerTable,
  });
  const vendors = [];
  for (const [name, uk, us] of [
    ['A', '0.0300', '0.0100'],
    ['B', '0.0250', '0.0150'],
  ] as const) {
    const c = await carrier(db, `Vendor ${name}${suffix}`, { client_type: 'vendor' });
    const table = await rateTable(db, `Vendor ${name} table${suffix}`, [
      ['44', uk, 'UK'],
      ['1', us, 'USA'],
    ]);
    const t = await trunk(db, c, `Vendor ${name} out${suffix}`, 'egress', {
      host: name === 'A' ? '203.0.113.10' : '203.0.113.20',
      port: 5060,
      rate_table_id: table,
    });
    vendors.push({ carrier: c, trunk: t, table });
  }
  return { customer, ingress, customerTable, vendors };
}

/** Routes the fixture's ingress trunk by a routing plan whose catch-all row is an LCR dynamic route over both vendors. */
export async function lcrOverVendors(h: Harness, f: Fixture, suffix = ''): Promise<void> {
  const db = h.built.services.db;
  const plan = await db
    .insertInto('routing_plans')
    .values({ name: `Plan${suffix}` })
    .returning('route_plan_id')
    .executeTakeFirstOrThrow();
  const route = await db
    .insertInto('dynamic_routes')
    .values({ name: `LCR${suffix}`, rule: 'lcr' })
    .returning('dynamic_route_id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('dynamic_route_trunks')
    .values(f.vendors.map((v) => ({ dynamic_route_id: route.dynamic_route_id, trunk_id: v.trunk })))
    .execute();
  await db
    .insertInto('routing_plan_rows')
    .values({
      route_plan_id: plan.route_plan_id,
      prefix: '',
      route_type: 'dynamic',
      dynamic_route_id: route.dynamic_route_id,
    })
    .execute();
  await db
    .updateTable('trunks')
    .set({ routing_plan_id: plan.route_plan_id })
    .where('trunk_id', '=', f.ingress)
    .execute();
}

/** Waits until the snapshot has no build running or scheduled and returns its status. */
export async function settled(h: Harness, token: string, after = -1): Promise<EngineStatus> {
  for (let i = 0; i < 400; i++) {
    const st = ok(await h.call<EngineStatus>('GET', '/api/routing/engine/status', { token }));
    if (!st.building && st.version > after) return st;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('routing snapshot did not settle');
}

/** Creates a switch API key and returns it. */
export async function switchKey(h: Harness, token: string, name = 'proxy'): Promise<string> {
  return ok(
    await h.call<{ object_id: number; key: string }>('POST', '/api/routing/switch_key/create', {
      token,
      body: { name },
    }),
  ).key;
}

/** A route request from the fixture customer's host (198.51.100.7) and ANI to `dnis`. */
export const customerCall = (dnis: string, extra: Record<string, unknown> = {}) => ({
  source_ip: '198.51.100.7',
  source_port: 5060,
  ani: '15550001111',
  dnis,
  ...extra,
});

/** POST /api/switch/route with a switch key (null: none). */
export const switchRoute = (h: Harness, body: Record<string, unknown>, key: string | null) =>
  h.call<RouteAnswer>('POST', '/api/switch/route', {
    body,
    headers: key === null ? {} : { 'x-switch-key': key },
  });

/** Signals a configuration change and waits for a snapshot newer than `version`; its version. */
export async function rebuildAfter(h: Harness, token: string, version = -1): Promise<number> {
  h.built.services.configChanged.notify();
  return (await settled(h, token, version)).version;
}
