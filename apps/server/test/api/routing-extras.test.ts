import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { api } from '@tandem/contract';
import type { z } from 'zod';
import {
  auditRows,
  denied,
  fails,
  invalid,
  makeRestrictedAdmin,
  ok,
  startHarness,
  upload,
  type Harness,
} from './harness';
import {
  lcrOverVendors,
  settled,
  switchKey,
  termination,
  type Fixture,
  customerCall,
  rebuildAfter,
  switchRoute,
} from './routing-fixtures';

type MapRow = z.output<typeof api.routingExtras.digitalMapRow>;
type ItemRow = z.output<typeof api.routingExtras.digitMapItemRow>;
type Sim = z.output<typeof api.routing.simulationResult>;
type Paged<T> = { items: T[]; total: number };

let h: Harness;
let admin: string;
let key: string;
let f: Fixture;
let version = 0;

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  key = await switchKey(h, admin);
  f = await termination(h);
  await lcrOverVendors(h, f);
  await rebuilt();
});
afterAll(() => h.close());

/** Waits for the rebuild the last write scheduled. */
async function rebuilt() {
  version = await rebuildAfter(h, admin, version);
}

const post = <T = { object_id: number }>(url: string, body: unknown, token = admin) =>
  h.call<T>('POST', `/api${url}`, { token, body });
const patch = (url: string, body: unknown, token = admin) => h.call('PATCH', `/api${url}`, { token, body });
const get = <T>(url: string, token = admin) => h.call<T>('GET', `/api${url}`, { token });
const del = (url: string, token = admin) => h.call('DELETE', `/api${url}`, { token });
const route = (body: Record<string, unknown>) => switchRoute(h, body, key);
const call = (dnis: string, extra: Record<string, unknown> = {}) => route(customerCall(dnis, extra));
/** A duplicate: 160 '{0} [{1}] already exists', naming the field. */
function conflict(r: Parameters<typeof fails>[0], field: string, message: string | RegExp) {
  const body = fails(r, 160, message);
  expect(Object.keys(body.errors ?? {})).toEqual([field]);
}
const csv = (text: string) => ({ name: 'list.csv', data: Buffer.from(text), type: 'text/csv' });

describe('digital maps', () => {
  let mapId = 0;
  let vendorMap = 0;

  it('creates a map with its trunks; names are unique; a trunk uses one map', async () => {
    mapId = ok(
      await post('/routing/digital_maps/create', { name: 'UK national', trunk_ids: [f.ingress] }),
    ).object_id;
    const row = ok(await get<MapRow>(`/routing/digital_maps/${mapId}`));
    expect(row).toMatchObject({ name: 'UK national', item_count: 0, updated_by: 'admin' });
    expect(row.trunks).toEqual([
      { trunk_id: f.ingress, trunk_name: 'Customer in', carrier_name: 'Customer', direction: 'ingress' },
    ]);
    conflict(await post('/routing/digital_maps/create', { name: 'uk NATIONAL' }), 'name', /already exists/);
    fails(
      await post('/routing/digital_maps/create', { name: 'Other', trunk_ids: [f.ingress] }),
      170,
      'Trunk [Customer in] already uses digital map [UK national]',
    );
    invalid(
      await post('/routing/digital_maps/create', { name: 'Other', trunk_ids: [999999] }),
      'trunk_ids.0',
    );
    const list = ok(await get<Paged<MapRow>>(`/routing/digital_maps/list?trunk_id=${f.ingress}`));
    expect(list.items.map((m) => m.name)).toEqual(['UK national']);
    expect((await auditRows(h, 'digital_map', mapId))[0]?.action).toBe('create');
  });

  it('items: validation names the field, duplicates are refused, positions stay 1..n', async () => {
    const items = `/routing/digital_maps/${mapId}/items`;
    invalid(
      await post(`${items}/create`, { field: 'dnis', match: 'exact', action: 'prepend', digits: '1' }),
      'pattern',
      'pattern is required',
    );
    invalid(
      await post(`${items}/create`, { field: 'dnis', action: 'strip' }),
      'strip_count',
      'strip_count is required',
    );
    invalid(
      await post(`${items}/create`, { field: 'dnis', action: 'prepend', digits: '+4' }),
      'digits',
      /digits/i,
    );
    invalid(await post(`${items}/create`, { field: 'caller', action: 'prepend', digits: '4' }), 'field');

    const a = ok(
      await post(`${items}/create`, { field: 'dnis', pattern: '0', action: 'replace_prefix', digits: '44' }),
    ).object_id;
    const b = ok(
      await post(`${items}/create`, { field: 'dnis', pattern: '00', action: 'strip', strip_count: 2 }),
    ).object_id;
    // put the more specific item first
    const c = ok(
      await post(`${items}/create`, {
        field: 'ani',
        pattern: '',
        action: 'prepend',
        digits: '1',
        position: 1,
      }),
    ).object_id;
    ok(
      await patch(`${items}/${b}`, {
        field: 'dnis',
        pattern: '00',
        action: 'strip',
        strip_count: 2,
        position: 1,
      }),
    );
    const listed = ok(await get<Paged<ItemRow>>(`${items}?per_page=100`)).items;
    expect(listed.map((i) => [i.id, i.position])).toEqual([
      [b, 1],
      [c, 2],
      [a, 3],
    ]);
    conflict(
      await post(`${items}/create`, { field: 'dnis', pattern: '0', action: 'prepend', digits: '9' }),
      'pattern',
      'DNIS prefix [0] already exists',
    );
    const map = ok(await get<MapRow>(`/routing/digital_maps/${mapId}`));
    expect(map.item_count).toBe(3);
    expect((await auditRows(h, 'digital_map_item', b)).map((r) => r.action)).toEqual(['update', 'create']);
    ok(await del(`${items}/${c}`));
    expect(ok(await get<Paged<ItemRow>>(items)).items.map((i) => [i.id, i.position])).toEqual([
      [b, 1],
      [a, 2],
    ]);
    const other = ok(await post('/routing/digital_maps/create', { name: 'Empty' })).object_id;
    expect((await get(`/routing/digital_maps/${other}/items/${a}`)).status).toBe(404);
  });

  it('the ingress map rewrites the number before pricing; the egress map the number sent', async () => {
    await rebuilt();
    // 0207... means nothing to the UK rate table until the map makes it 44207...
    const a = ok(await call('02071234567'));
    expect(a.result).toBe('route');
    expect(a.ingress?.code).toBe('44');
    expect(a.routes.map((r) => r.dnis)).toEqual(['442071234567', '442071234567']);
    expect(ok(await call('00442071234567')).routes[0]?.dnis).toBe('442071234567');

    vendorMap = ok(
      await post('/routing/digital_maps/create', { name: 'Vendor B intl', trunk_ids: [f.vendors[1]!.trunk] }),
    ).object_id;
    ok(
      await post(`/routing/digital_maps/${vendorMap}/items/create`, {
        field: 'dnis',
        action: 'prepend',
        digits: '011',
      }),
    );
    await rebuilt();
    const b = ok(await call('02071234567'));
    const byTrunk = new Map(b.routes.map((r) => [r.trunk_id, r.dnis]));
    expect(byTrunk.get(f.vendors[1]!.trunk)).toBe('011442071234567');
    expect(byTrunk.get(f.vendors[0]!.trunk)).toBe('442071234567');

    const sim = ok(
      await post<Sim>('/tools/call_simulation', {
        source_ip: '198.51.100.7',
        ani: '15550001111',
        dnis: '02071234567',
      }),
    );
    expect(sim.dnis).toBe('442071234567');
    const digits = sim.trace.find((s) => s.step === 'digits');
    expect(digits?.detail).toContain('Digital map UK national');
    expect(sim.trace.some((s) => s.step === 'egress' && s.detail.includes('Vendor B intl'))).toBe(true);
  });

  it('refuses to delete a map trunks use; unassigning frees it; the engine counts maps', async () => {
    const refused = await del(`/routing/digital_maps/${vendorMap}`);
    fails(refused, 170, /in use by 1 trunk/);
    ok(await patch(`/routing/digital_maps/${vendorMap}`, { trunk_ids: [] }));
    ok(await del(`/routing/digital_maps/${vendorMap}`));
    await rebuilt();
    const st = await settled(h, admin);
    expect(st.counts.digital_maps).toBe(2);
    const a = ok(await call('02071234567'));
    expect(a.routes.every((r) => r.dnis === '442071234567')).toBe(true);
  });

  it('needs the digital maps permission', async () => {
    const r = await makeRestrictedAdmin(h, admin, 'mapreader', { '/routing/digital_maps': 'r' });
    ok(await get(`/routing/digital_maps/list`, r.token));
    ok(await get(`/routing/digital_maps/${mapId}/items`, r.token));
    denied(await post('/routing/digital_maps/create', { name: 'X' }, r.token));
    denied(
      await post(
        `/routing/digital_maps/${mapId}/items/create`,
        { field: 'dnis', action: 'prepend', digits: '1' },
        r.token,
      ),
    );
    const none = await makeRestrictedAdmin(h, admin, 'nomaps');
    denied(await get('/routing/digital_maps/list', none.token));
  });
});

describe('digital map on the trunk edit (digit manipulation tab)', () => {
  type TrunkRow = z.output<typeof api.trunks.trunkRow>;
  const trunkA = () => f.vendors[0]!.trunk;
  let mapA = 0;
  let mapB = 0;
  const trunkOf = async () => ok(await get<TrunkRow>(`/trunk/${trunkA()}`));
  const trunksOfMap = async (id: number) =>
    ok(await get<MapRow>(`/routing/digital_maps/${id}`)).trunks.map((t) => t.trunk_id);

  it('assigns, moves and removes the trunk’s map through the trunk, the same assignment as the map side', async () => {
    mapA = ok(await post('/routing/digital_maps/create', { name: 'Vendor A intl' })).object_id;
    ok(
      await post(`/routing/digital_maps/${mapA}/items/create`, {
        field: 'dnis',
        action: 'prepend',
        digits: '00',
      }),
    );
    mapB = ok(await post('/routing/digital_maps/create', { name: 'Vendor A other' })).object_id;
    expect(await trunkOf()).toMatchObject({ digital_map_id: null, digital_map_name: null });
    const lookups = ok(await get<{ digital_maps: { id: number; name: string }[] }>('/trunk/lookups'));
    expect(lookups.digital_maps).toContainEqual({ id: mapA, name: 'Vendor A intl' });

    ok(await patch(`/trunk/${trunkA()}`, { digital_map_id: mapA }));
    expect(await trunkOf()).toMatchObject({ digital_map_id: mapA, digital_map_name: 'Vendor A intl' });
    expect(await trunksOfMap(mapA)).toEqual([trunkA()]);
    await rebuilt();
    const byTrunk = new Map(ok(await call('442071234567')).routes.map((r) => [r.trunk_id, r.dnis]));
    expect(byTrunk.get(trunkA())).toBe('00442071234567');

    // the map side still refuses a trunk another map uses; the trunk side moves it
    fails(
      await patch(`/routing/digital_maps/${mapB}`, { trunk_ids: [trunkA()] }),
      170,
      'Trunk [Vendor A out] already uses digital map [Vendor A intl]',
    );
    ok(await patch(`/trunk/${trunkA()}`, { digital_map_id: mapB, name: 'Vendor A out' }));
    expect(await trunkOf()).toMatchObject({ digital_map_id: mapB, digital_map_name: 'Vendor A other' });
    expect(await trunksOfMap(mapA)).toEqual([]);
    expect(await trunksOfMap(mapB)).toEqual([trunkA()]);
    const log = (await auditRows(h, 'trunk', trunkA()))[0]!;
    expect(log.before).toMatchObject({ digital_map_id: mapA });
    expect(log.after).toMatchObject({ digital_map_id: mapB });

    // another save of the trunk that does not send the map keeps it
    ok(await patch(`/trunk/${trunkA()}`, { call_limit: 50 }));
    expect((await trunkOf()).digital_map_id).toBe(mapB);

    ok(await patch(`/trunk/${trunkA()}`, { digital_map_id: null }));
    expect(await trunkOf()).toMatchObject({ digital_map_id: null, digital_map_name: null });
    expect(await trunksOfMap(mapB)).toEqual([]);
    await rebuilt();
    const after = new Map(ok(await call('442071234567')).routes.map((r) => [r.trunk_id, r.dnis]));
    expect(after.get(trunkA())).toBe('442071234567');
  });

  it('refuses an unknown map naming the field, and any change of an inactive trunk; nothing changes', async () => {
    ok(await patch(`/trunk/${trunkA()}`, { digital_map_id: mapA }));
    invalid(await patch(`/trunk/${trunkA()}`, { digital_map_id: 999999 }), 'digital_map_id');
    invalid(await patch(`/trunk/${trunkA()}`, { digital_map_id: 'x' }), 'digital_map_id');
    expect((await trunkOf()).digital_map_id).toBe(mapA);

    ok(await patch(`/trunk/${trunkA()}/deactivate`, {}));
    fails(
      await patch(`/trunk/${trunkA()}`, { digital_map_id: mapB }),
      170,
      'Please activate the trunk for any modification.',
    );
    fails(await patch(`/trunk/${trunkA()}`, { digital_map_id: null }), 170);
    expect(await trunkOf()).toMatchObject({ digital_map_id: mapA, is_active: false });
    ok(await patch(`/trunk/${trunkA()}/activate`, {}));
    ok(await patch(`/trunk/${trunkA()}`, { digital_map_id: null }));
    // a map a trunk uses cannot be deleted; once the trunk left it, it can
    ok(await del(`/routing/digital_maps/${mapA}`));
    ok(await del(`/routing/digital_maps/${mapB}`));
  });

  it('is a trunk setting: the trunks write permission, not the digital maps one', async () => {
    const r = await makeRestrictedAdmin(h, admin, 'trunkwriter', { '/routing/trunks': 'rw' });
    const m = ok(await post('/routing/digital_maps/create', { name: 'For trunk writer' })).object_id;
    ok(await patch(`/trunk/${trunkA()}`, { digital_map_id: m }, r.token));
    denied(await patch(`/routing/digital_maps/${m}`, { trunk_ids: [] }, r.token));
    const reader = await makeRestrictedAdmin(h, admin, 'trunkreader', { '/routing/trunks': 'r' });
    denied(await patch(`/trunk/${trunkA()}`, { digital_map_id: null }, reader.token));
    ok(await patch(`/trunk/${trunkA()}`, { digital_map_id: null }));
    ok(await del(`/routing/digital_maps/${m}`));
  });
});

describe('inbound media IP blocking', () => {
  const base = '/routing/inbound_media_ip_blocking';

  it('validates and normalises addresses and ranges; duplicates are refused', async () => {
    invalid(await post(`${base}/create`, { ip: '300.1.1.1' }), 'ip', 'IP format invalid');
    invalid(await post(`${base}/create`, { ip: '10.0.0.0/33' }), 'ip', 'IP format invalid');
    invalid(await post(`${base}/create`, { ip: '192.0.2.1', expires_at: 'soon' }), 'expires_at');
    const id = ok(await post(`${base}/create`, { ip: '198.51.100.77/30', note: 'RTP flood' })).object_id;
    const row = ok(await get<{ ip: string; created_by: string; expired: boolean }>(`${base}/${id}`));
    expect(row).toMatchObject({ ip: '198.51.100.76/30', created_by: 'admin', expired: false });
    conflict(
      await post(`${base}/create`, { ip: '198.51.100.78/30' }),
      'ip',
      'IP [198.51.100.76/30] already exists',
    );
    ok(await post(`${base}/create`, { ip: '203.0.113.9/32', expires_at: '2020-01-01T00:00:00Z' }));
    const expired = ok(await get<Paged<{ ip: string }>>(`${base}/list?status=expired`)).items;
    expect(expired.map((r) => r.ip)).toEqual(['203.0.113.9']);
  });

  it('refuses calls from a blocked source with 403 source_ip_blocked; expired entries do not block', async () => {
    await rebuilt();
    const blocked = ok(await route({ source_ip: '198.51.100.77', ani: '1', dnis: '447700900123' }));
    expect(blocked).toMatchObject({
      result: 'reject',
      reject_code: 403,
      reject_reason: 'source_ip_blocked',
      ingress: null,
    });
    expect(ok(await call('447700900123')).result).toBe('route');
    expect(ok(await route({ source_ip: '203.0.113.9', dnis: '447700900123' })).reject_reason).toBe(
      'no_ingress_trunk',
    );
    const sim = ok(
      await post<Sim>('/tools/call_simulation', { source_ip: '198.51.100.77', dnis: '447700900123' }),
    );
    expect(sim.trace[0]).toMatchObject({ step: 'block_list', outcome: 'fail' });
    expect(sim.trace[0]?.detail).toContain('198.51.100.76/30: RTP flood');
  });

  it('lists the blocks in force for the SIP proxy or media relay (switch key)', async () => {
    const r = await h.call<{ items: { ip: string; netmask: number }[] }>(
      'GET',
      '/api/switch/media_ip_blocks',
      {
        headers: { 'x-switch-key': key },
      },
    );
    expect(ok(r).items).toEqual([{ ip: '198.51.100.76', netmask: 30, expires_at: null }]);
    fails(await h.call('GET', '/api/switch/media_ip_blocks', { token: admin }), 140);
  });

  it('uploads many entries: all or nothing, duplicates refused or skipped', async () => {
    const url = `/api${base}/upload`;
    const bad = await upload(h, url, admin, {}, csv('ip,note\n192.0.2.1,a\n192.0.2.300,b\n'));
    expect(JSON.stringify(fails(bad, 110).errors)).toContain('line 3');
    const dup = await upload(h, url, admin, {}, csv('ip,note\n192.0.2.1,a\n198.51.100.76/30,again\n'));
    expect(fails(dup, 110).errors).toEqual({ 'line 3': 'IP [198.51.100.76/30] already exists' });
    expect(ok(await get<Paged<unknown>>(`${base}/list?ip=192.0.2`)).total).toBe(0);
    const skipped = ok(
      await upload(
        h,
        url,
        admin,
        { on_duplicate: 'skip' },
        csv(
          'address,comment,expires\n192.0.2.1,a,\n192.0.2.0/24,b,2099-01-01\n198.51.100.76/30,again,\n192.0.2.1,twice,\n',
        ),
      ),
    ) as unknown as { total_rows: number; inserted_rows: number; skipped_rows: number };
    expect(skipped).toMatchObject({ total_rows: 4, inserted_rows: 2, skipped_rows: 2 });
    expect((await auditRows(h, 'inbound_media_ip_block', 0))[0]?.action).toBe('upload');
    const denier = await makeRestrictedAdmin(h, admin, 'ipreader', {
      '/routing/inbound_media_ip_blocking': 'r',
    });
    denied(await upload(h, url, denier.token, {}, csv('ip\n192.0.2.99\n')));
  });
});

describe('STIOCN block list', () => {
  const base = '/routing/STIOCN_Block_List';

  it('checks OCNs and origids, stores them normalised, refuses duplicates', async () => {
    invalid(await post(`${base}/create`, { value: '12345' }), 'value', /OCN/);
    invalid(await post(`${base}/create`, { kind: 'origid', value: '7x2b' }), 'value', /OCN/);
    const id = ok(await post(`${base}/create`, { value: '7x2b', note: 'robocall source' })).object_id;
    expect(ok(await get<{ value: string; kind: string }>(`${base}/${id}`))).toMatchObject({
      kind: 'ocn',
      value: '7X2B',
    });
    conflict(await post(`${base}/create`, { value: '7X2B' }), 'value', 'OCN [7X2B] already exists');
    ok(await post(`${base}/create`, { kind: 'origid', value: 'DE305D54-75B4-431B-ADB2-EB6B9E546014' }));
  });

  it('rejects a call from a listed OCN or origid with 403 ocn_blocked', async () => {
    await rebuilt();
    expect(ok(await call('447700900123', { ocn: '7x2b', attestation: 'A' }))).toMatchObject({
      result: 'reject',
      reject_code: 403,
      reject_reason: 'ocn_blocked',
    });
    expect(
      ok(await call('447700900123', { origid: 'de305d54-75b4-431b-adb2-eb6b9e546014' })).reject_reason,
    ).toBe('ocn_blocked');
    expect(ok(await call('447700900123', { ocn: '1234', attestation: 'B' })).result).toBe('route');
    expect(ok(await call('447700900123')).result).toBe('route');
    invalid(await call('447700900123', { attestation: 'D' }), 'attestation');
    const sim = ok(
      await post<Sim>('/tools/call_simulation', {
        source_ip: '198.51.100.7',
        dnis: '447700900123',
        ocn: '7X2B',
        attestation: 'C',
      }),
    );
    expect(sim.reject_reason).toBe('ocn_blocked');
    expect(sim.trace.find((s) => s.outcome === 'fail')?.detail).toContain('robocall source');
  });

  it('uploads OCNs, telling origids by their shape', async () => {
    const r = ok(
      await upload(
        h,
        `/api${base}/upload`,
        admin,
        {},
        csv('ocn,carrier\n1a2b,Acme\n0f8fad5b-d9cb-469f-a165-70867728950e,Origin\n'),
      ),
    ) as unknown as { inserted_rows: number };
    expect(r.inserted_rows).toBe(2);
    const rows = ok(await get<Paged<{ kind: string; value: string }>>(`${base}/list?per_page=100`)).items;
    expect(rows.map((x) => `${x.kind}:${x.value}`).sort()).toEqual([
      'ocn:1A2B',
      'ocn:7X2B',
      'origid:0f8fad5b-d9cb-469f-a165-70867728950e',
      'origid:de305d54-75b4-431b-adb2-eb6b9e546014',
    ]);
    const bad = await upload(h, `/api${base}/upload`, admin, {}, csv('ocn\n12\n'));
    expect(fails(bad, 110).errors?.['line 2']).toMatch(/OCN/);
  });
});
