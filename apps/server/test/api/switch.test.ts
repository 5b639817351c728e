import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  denied,
  expectSessionRequired,
  invalid,
  makeAgent,
  makeCarrierUser,
  makeRestrictedAdmin,
  makeSessionStates,
  ok,
  startHarness,
  type Harness,
  type SessionStates,
} from './harness';

type Paged<T> = { items: T[]; total: number };
type SwitchRow = {
  switch_id: number;
  name: string;
  connected: boolean;
  active_call_ip: string;
  lan_ip: string;
};
type SipHost = { id: number; host_name: string; sip_ip: string; sip_port: number; switch_id: number };

const HOSTS = '/api/switch/sip_host/list?page=0&per_page=10&order_by=switch_id&order_dir=asc';
const SWITCHES = '/api/switch/full/list?page=0&per_page=9999&order_by=switch_id&order_dir=asc';

let h: Harness;
let admin: string;
let states: SessionStates;
let client: string;
let vendor: string;
let agent: string;
let restricted: string;
let ids: number[];

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  states = await makeSessionStates(h);
  client = (await makeCarrierUser(h, admin, 'Acme')).token;
  vendor = (await makeCarrierUser(h, admin, 'Globex', { client_type: 'vendor' })).token;
  agent = (await makeAgent(h, admin, 'Broker')).token;
  restricted = (await makeRestrictedAdmin(h, admin, 'dash_only')).token;
  const db = h.built.services.db;
  const rows = await db
    .insertInto('switches')
    .values([
      { name: 'sw-fra', lan_ip: '10.0.0.1', active_call_ip: '198.51.100.1', connected: true },
      { name: 'sw-nyc', lan_ip: '10.0.0.2', active_call_ip: '198.51.100.2', connected: false },
      { name: 'sw-sgp', lan_ip: '10.0.0.3', active_call_ip: '198.51.100.3', connected: true },
    ])
    .returning('switch_id')
    .execute();
  ids = rows.map((r) => r.switch_id);
  // Twelve SIP hosts, inserted out of switch order: 5 on the last switch, 4 on the first, 3 on the second.
  const hosts = [
    ...Array.from({ length: 5 }, (_, i) => ({
      switch_id: ids[2]!,
      host_name: `sgp-${i}`,
      sip_ip: `203.0.113.${30 + i}`,
      sip_port: 5060,
    })),
    ...Array.from({ length: 4 }, (_, i) => ({
      switch_id: ids[0]!,
      host_name: `fra-${i}`,
      sip_ip: `203.0.113.${10 + i}`,
      sip_port: 5060 + i,
    })),
    ...Array.from({ length: 3 }, (_, i) => ({
      switch_id: ids[1]!,
      host_name: `nyc-${i}`,
      sip_ip: `203.0.113.${20 + i}`,
      sip_port: 5080,
    })),
  ];
  await db.insertInto('sip_hosts').values(hosts).execute();
});
afterAll(() => h.close());

describe('GET /switch/sip_host/list', () => {
  it('answers the first page of SIP hosts ordered by switch, with the total', async () => {
    const p = ok(await h.call<Paged<SipHost>>('GET', HOSTS, { token: client }));
    expect(p.total).toBe(12);
    expect(p.items).toHaveLength(10);
    expect(p.items.map((x) => x.switch_id)).toEqual([
      ...Array<number | undefined>(4).fill(ids[0]),
      ...Array<number | undefined>(3).fill(ids[1]),
      ...Array<number | undefined>(3).fill(ids[2]),
    ]);
    expect(p.items[0]).toEqual({
      id: expect.any(Number) as unknown,
      host_name: 'fra-0',
      sip_ip: '203.0.113.10',
      sip_port: 5060,
      switch_id: ids[0],
    });
    const next = ok(
      await h.call<Paged<SipHost>>('GET', HOSTS.replace('page=0', 'page=1'), { token: client }),
    );
    expect(next.items.map((x) => x.host_name)).toEqual(['sgp-3', 'sgp-4']);
    const desc = ok(
      await h.call<Paged<SipHost>>(
        'GET',
        '/api/switch/sip_host/list?per_page=3&order_by=switch_id&order_dir=desc',
        { token: admin },
      ),
    );
    expect(desc.items.every((x) => x.switch_id === ids[2])).toBe(true);
  });

  it('answers every signed-in user (the switch IP dialog of carriers, the gateway page of admins)', async () => {
    for (const t of [vendor, agent, restricted, admin])
      expect(ok(await h.call<Paged<SipHost>>('GET', HOSTS, { token: t })).total).toBe(12);
  });

  it('validates the query and refuses unusable sessions', async () => {
    invalid(await h.call('GET', '/api/switch/sip_host/list?per_page=0', { token: client }), 'per_page');
    invalid(
      await h.call('GET', '/api/switch/sip_host/list?order_dir=random', { token: client }),
      'order_dir',
    );
    // An unknown sort column falls back to the default order instead of reaching SQL.
    const odd = ok(
      await h.call<Paged<SipHost>>('GET', '/api/switch/sip_host/list?order_by=sip_ip;drop%20table%20users', {
        token: client,
      }),
    );
    expect(odd.total).toBe(12);
    await expectSessionRequired(h, states, 'GET', HOSTS);
  });
});

describe('GET /switch/full/list', () => {
  it('answers every switch with its connection state and addresses', async () => {
    const p = ok(await h.call<Paged<SwitchRow>>('GET', SWITCHES, { token: admin }));
    expect(p.total).toBe(3);
    expect(p.items).toEqual([
      {
        switch_id: ids[0],
        name: 'sw-fra',
        connected: true,
        active_call_ip: '198.51.100.1',
        lan_ip: '10.0.0.1',
      },
      {
        switch_id: ids[1],
        name: 'sw-nyc',
        connected: false,
        active_call_ip: '198.51.100.2',
        lan_ip: '10.0.0.2',
      },
      {
        switch_id: ids[2],
        name: 'sw-sgp',
        connected: true,
        active_call_ip: '198.51.100.3',
        lan_ip: '10.0.0.3',
      },
    ]);
    expect(p.items.filter((s) => s.connected).map((s) => s.name)).toEqual(['sw-fra', 'sw-sgp']);
    // Any admin: the capacity page is free of role restrictions.
    expect(ok(await h.call<Paged<SwitchRow>>('GET', SWITCHES, { token: restricted })).total).toBe(3);
  });

  it('keeps switch internals from carriers and agents', async () => {
    denied(await h.call('GET', SWITCHES, { token: client }));
    denied(await h.call('GET', SWITCHES, { token: vendor }));
    denied(await h.call('GET', SWITCHES, { token: agent }));
  });

  it('validates the query and refuses unusable sessions', async () => {
    invalid(await h.call('GET', '/api/switch/full/list?page=-1', { token: admin }), 'page');
    await expectSessionRequired(h, states, 'GET', SWITCHES);
  });
});
