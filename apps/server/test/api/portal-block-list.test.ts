import type { PortalBlockRow } from '@tandem/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fails, invalid, makeCarrierUser, notVisible, ok, startHarness, type Harness } from './harness';
import {
  lcrOverVendors,
  rebuildAfter,
  settled,
  switchKey,
  termination,
  type Fixture,
  type RouteAnswer,
} from './routing-fixtures';

/** The portal's own block list (docs/routing-extras.md "The carriers' own block lists"): tenancy, rules, and the route API obeying it. */
let h: Harness;
let admin: string;
let key: string;
let f: Fixture;
let client: { clientId: number; token: string };
let other: { clientId: number; token: string };
let version: number;

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  key = await switchKey(h, admin);
  f = await termination(h);
  await lcrOverVendors(h, f);
  client = await makeCarrierUser(h, admin, 'Blockco');
  other = await makeCarrierUser(h, admin, 'Otherco');
  // the fixture's customer trunk (198.51.100.0/24) belongs to the portal's carrier
  await h.built.services.db
    .updateTable('trunks')
    .set({ carrier_id: client.clientId })
    .where('trunk_id', '=', f.ingress)
    .execute();
  await h.built.services.db
    .updateTable('carriers')
    .set({ mode: 'postpaid', credit_limit: '1000' })
    .where('client_id', '=', client.clientId)
    .execute();
  version = await rebuildAfter(h, admin);
});
afterAll(() => h.close());

const list = (token: string, query = '') =>
  h.call<{ items: PortalBlockRow[]; total: number }>('GET', `/api/portal/block_list${query}`, { token });
const add = (token: string, body: Record<string, unknown>) =>
  h.call<{ object_id: number }>('POST', '/api/portal/block_list', { token, body });
const route = (dnis: string, ani = '4420700000') =>
  h.call<RouteAnswer>('POST', '/api/switch/route', {
    headers: { 'x-switch-key': key },
    body: { source_ip: '198.51.100.9', dnis, ani },
  });

describe('portal block list', () => {
  it('a client blocks a DNIS prefix on all its trunks: the route API refuses it, other numbers route', async () => {
    const first = ok(await route('4420794601'));
    expect(first.result, JSON.stringify(first)).toBe('route');
    const id = ok(
      await add(client.token, { field: 'dnis', number: '4420794', note: 'fraud range' }),
    ).object_id;
    version = (await settled(h, admin, version)).version;
    expect(ok(await route('4420794601'))).toMatchObject({ result: 'reject', reject_reason: 'dnis_blocked' });
    expect(ok(await route('4420800000')).result).toBe('route');

    const mine = ok(await list(client.token));
    expect(mine.items).toEqual([
      expect.objectContaining({
        id,
        field: 'dnis',
        match: 'prefix',
        number: '4420794',
        trunk_id: null,
        note: 'fraud range',
      }),
    ]);
    // an ANI, exactly, on its own trunk
    ok(await add(client.token, { field: 'ani', match: 'exact', number: '15550001234', trunk_id: f.ingress }));
    version = (await settled(h, admin, version)).version;
    expect(ok(await route('4420800000', '15550001234'))).toMatchObject({ reject_reason: 'ani_blocked' });
    expect(ok(await list(client.token, '?field=ani')).items.map((b) => [b.number, b.trunk_name])).toEqual([
      ['15550001234', 'Customer in'],
    ]);

    // removed: the numbers route again
    ok(await h.call('DELETE', `/api/portal/block_list/${id}`, { token: client.token }));
    version = (await settled(h, admin, version)).version;
    expect(ok(await route('4420794601')).result).toBe('route');
  });

  it("sees and changes only its own carrier's entries, whatever ids it sends", async () => {
    const theirs = ok(await add(other.token, { field: 'dnis', number: '1212' })).object_id;
    // the operator's global entries are not the client's either
    ok(
      await h.call('POST', '/api/routing/block_list/create', {
        token: admin,
        body: { field: 'dnis', number: '999' },
      }),
    );
    expect(ok(await list(client.token)).items.map((b) => b.number)).toEqual(['15550001234']);
    expect(ok(await list(other.token)).items.map((b) => b.number)).toEqual(['1212']);
    notVisible(await h.call('DELETE', `/api/portal/block_list/${theirs}`, { token: client.token }));
    expect(ok(await list(other.token)).total).toBe(1);
    // another carrier's trunk is refused as unknown
    invalid(await add(other.token, { field: 'ani', number: '1', trunk_id: f.ingress }), 'trunk_id');
    // the admin block list does not mix them in
    const global = ok(
      await h.call<{ items: { number: string }[] }>('GET', '/api/routing/block_list/list', { token: admin }),
    );
    expect(global.items.map((b) => b.number)).toEqual(['999']);
  });

  it('refuses bad input naming the field and a duplicate; stores nothing', async () => {
    const before = ok(await list(client.token)).total;
    invalid(await add(client.token, { field: 'dnis', number: '+44' }), 'number');
    invalid(await add(client.token, { field: 'dnis', number: '' }), 'number');
    invalid(await add(client.token, { field: 'caller', number: '44' }), 'field');
    const dup = await add(client.token, {
      field: 'ani',
      match: 'exact',
      number: '15550001234',
      trunk_id: f.ingress,
    });
    expect(dup.status).toBe(409);
    expect(dup.body.errors).toHaveProperty('number');
    expect(ok(await list(client.token)).total).toBe(before);
  });

  it('is refused when the portal has no block list and to admins; a vendor uses it with its permission', async () => {
    await h.built.services.db
      .updateTable('carriers')
      .set({ is_panel_block_list: false })
      .where('client_id', '=', other.clientId)
      .execute();
    fails(
      await list(other.token),
      140,
      'The block list is not part of your portal; ask your account manager',
    );
    fails(await add(other.token, { field: 'dnis', number: '44' }), 140);
    expect((await list(admin)).status).toBe(403);
    // a vendor, with its block-list permission (on by default)
    const vendor = await makeCarrierUser(h, admin, 'Blockvendor', { client_type: 'vendor' });
    ok(await add(vendor.token, { field: 'dnis', number: '3519' }));
    expect(ok(await list(vendor.token)).items.map((b) => b.number)).toEqual(['3519']);
  });
});
