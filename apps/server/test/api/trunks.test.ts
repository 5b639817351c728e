import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  denied,
  fails,
  invalid,
  makeCarrierUser,
  makeRestrictedAdmin,
  notVisible,
  ok,
  startHarness,
  type Harness,
} from './harness';

let h: Harness;
let admin: string;
let customer: number;
let vendor: number;
let rateTable: number;
let plan: number;
let changes = 0;

type Trunk = Record<string, unknown> & {
  trunk_id: number;
  name: string;
  hosts: { host: string; port: number | null; netmask: number }[];
};
const create = (body: Record<string, unknown>, token = admin) =>
  h.call<{ object_id: number }>('POST', '/api/trunk/create', { token, body });
const get = (id: number, token = admin) => h.call<Trunk>('GET', `/api/trunk/${id}`, { token });
const patch = (id: number, body: Record<string, unknown>, token = admin) =>
  h.call('PATCH', `/api/trunk/${id}`, { token, body });
const ingress = (name: string, extra: Record<string, unknown> = {}) => ({
  carrier_id: customer,
  name,
  direction: 'ingress',
  hosts: [{ host: '192.0.2.10' }],
  ...extra,
});
const carrier = async (name: string, client_type: 'client' | 'vendor') =>
  ok(
    await h.call<{ object_id: number }>('POST', '/api/carrier/create', {
      token: admin,
      body: { name, company: name, client_type, main_email: `${name.replace(/\W/g, '')}@example.com` },
    }),
  ).object_id;

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  h.built.services.configChanged.subscribe(() => changes++);
  customer = await carrier('Cust One', 'client');
  vendor = await carrier('Vend One', 'vendor');
  const db = h.built.services.db;
  rateTable = (
    await db
      .insertInto('rate_tables')
      .values({ name: 'Retail A-Z' })
      .returning('rate_table_id')
      .executeTakeFirstOrThrow()
  ).rate_table_id;
  plan = (
    await db
      .insertInto('routing_plans')
      .values({ name: 'Plan LCR' })
      .returning('route_plan_id')
      .executeTakeFirstOrThrow()
  ).route_plan_id;
});
afterAll(() => h.close());

describe('trunks: every tab stored and read back', () => {
  it('creates an ingress trunk with all tab settings in the domain shapes', async () => {
    const before = changes;
    const tabs = {
      auth_type: 'host',
      host_strategy: 'round_robin',
      tech_prefix: '123#',
      rate_table_id: rateTable,
      routing_plan_id: plan,
      bill_by: 'lrn',
      billing_mode: 'port',
      rounding: 6,
      min_profitability: '3.5',
      call_limit: 30,
      cps_limit: 5,
      media_type: 'transcoding',
      protocol: 'tcp',
      t38: true,
      codecs: ['G729', 'OPUS'],
      ignore_early_media: true,
      timeouts: {
        pdd_timeout_ms: 6000,
        ring_timer: 60,
        call_timeout: 3600,
        reinvite_interval: 300,
        min_duration: 1,
        max_duration: 7200,
      },
      digit_rules: {
        replacements: [{ field: 'dnis', prefix: '011', min_length: 8, max_length: 18, replacement: '' }],
        manipulations: [
          {
            field: 'ani',
            action: 'add_prefix',
            prefix: '',
            length_condition: 'equal',
            number_length: 10,
            digits: '1',
          },
        ],
      },
      identity_options: { rpid: true, paid: true, pci: true },
      blocking: { cid_block: true, dnc: true, wireless: false, non_us: true },
      capacity: { max_cps: 20, max_cap: 200 },
      failover_rules: [
        { sip_code: 503, action: 'next' },
        { sip_code: 486, action: 'return', return_code: 486, return_clause: 'Busy Here' },
      ],
      stir_shaken: {
        verification: 'verify',
        signing: 'sign',
        default_attestation: 'B',
        attestations: [{ ani_group: 'Owned DIDs', level: 'A' }],
        resign: true,
        verstat: true,
      },
      spam_scoring: { enabled: true, max_spam_score: 80, fraud_probability: 50, tcpa_probability: 40 },
      allowed_send_to_ips: ['203.0.113.5'],
      sip_profiles: ['external', 'internal'],
      hosts: [
        { host: '192.0.2.10', port: 5060, netmask: 32 },
        { host_type: 'hostname', host: 'sbc.customer.example.com', port: null },
      ],
    };
    const id = ok(await create(ingress('Cust One In', tabs))).object_id;
    const t = ok(await get(id));
    expect(t).toMatchObject({
      ...tabs,
      hosts: [
        { host_type: 'ip', host: '192.0.2.10', port: 5060, netmask: 32 },
        { host_type: 'hostname', host: 'sbc.customer.example.com', port: null, netmask: 32 },
      ],
      min_profitability: '3.5000',
      sip_sessions: 10,
      sip_cps_limit: 1,
      carrier_name: 'Cust One',
      carrier_is_active: true,
      host_count: 2,
      is_active: true,
      direction: 'ingress',
    });
    // Defaults fill what a tab leaves out, in the domain's field names.
    expect(t.digit_rules).toEqual({
      replacements: [{ field: 'dnis', prefix: '011', min_length: 8, max_length: 18, replacement: '' }],
      manipulations: [
        {
          field: 'ani',
          action: 'add_prefix',
          prefix: '',
          length_condition: 'equal',
          number_length: 10,
          remove_count: null,
          digits: '1',
        },
      ],
    });
    expect(t.failover_rules).toEqual([
      { sip_code: 503, action: 'next', return_code: null, return_clause: null },
      { sip_code: 486, action: 'return', return_code: 486, return_clause: 'Busy Here' },
    ]);
    expect(t.identity_options).toEqual({
      rpid: true,
      paid: true,
      oli: false,
      priv: false,
      div: false,
      pci: true,
    });
    expect(changes).toBeGreaterThan(before);
    // The stored jsonb is exactly the domain shape (the routing loader passes it through).
    const raw = await h.built.services.db
      .selectFrom('trunks')
      .select(['digit_rules', 'failover_rules'])
      .where('trunk_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(raw.failover_rules).toEqual(t.failover_rules);
    expect(raw.digit_rules).toEqual(t.digit_rules);
  });

  it('starts a minimal trunk from the defaults: SIP sessions 10 with CPS 1, empty tabs', async () => {
    const id = ok(
      await create({
        carrier_id: vendor,
        name: 'Vend One Out',
        direction: 'egress',
        hosts: [{ host: '198.51.100.1' }],
      }),
    ).object_id;
    const t = ok(await get(id));
    expect(t).toMatchObject({
      sip_sessions: 10,
      sip_cps_limit: 1,
      codecs: ['G711U', 'G711A', 'G729'],
      failover_rules: [],
      digit_rules: { replacements: [], manipulations: [] },
      routing_rows: [],
    });
    expect(t.timeouts).toEqual({
      pdd_timeout_ms: null,
      ring_timer: null,
      call_timeout: null,
      reinvite_interval: null,
      min_duration: null,
      max_duration: null,
    });
  });

  it('keeps the registration password server-side', async () => {
    const body = ingress('Reg Trunk', {
      auth_type: 'registration',
      hosts: [],
      registration: { username: 'cust1', password: 'S3cret!' },
    });
    invalid(
      await create({ ...body, registration: { username: 'cust1' } }),
      'registration.password',
      'password is required',
    );
    const id = ok(await create(body)).object_id;
    expect(ok(await get(id)).registration).toMatchObject({ username: 'cust1', password: '' });
    ok(await patch(id, { registration: { username: 'cust2', password: '' } }));
    const raw = await h.built.services.db
      .selectFrom('trunks')
      .select('registration')
      .where('trunk_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(raw.registration).toMatchObject({ username: 'cust2', password: 'S3cret!' });
  });

  it('lists trunks by type, carrier, host, rate table and routing plan', async () => {
    const names = async (q: string) =>
      ok(await h.call<{ items: Trunk[] }>('GET', `/api/trunk/list?${q}`, { token: admin })).items.map(
        (t) => t.name,
      );
    expect(await names('direction=egress')).toEqual(['Vend One Out']);
    expect(await names('direction=ingress')).toEqual(['Cust One In', 'Reg Trunk']);
    expect(await names(`carrier_id=${vendor}`)).toEqual(['Vend One Out']);
    expect(await names('host=sbc.customer')).toEqual(['Cust One In']);
    expect(await names(`rate_table_id=${rateTable}`)).toEqual(['Cust One In']);
    expect(await names(`routing_plan_id=${plan}`)).toEqual(['Cust One In']);
  });
});

describe('trunks: validation with the spec messages', () => {
  it('checks IPs, netmasks, host names and ports', async () => {
    invalid(
      await create(ingress('V1', { hosts: [{ host: '300.1.2.3' }] })),
      'hosts.0.host',
      'IP format invalid',
    );
    invalid(
      await create(ingress('V1', { hosts: [{ host: '192.0.2.50', netmask: null }] })),
      'hosts.0.netmask',
      'Netmask required',
    );
    invalid(await create(ingress('V1', { hosts: [{ host: '192.0.2.50', netmask: 33 }] })), 'hosts.0.netmask');
    invalid(
      await create(ingress('V1', { hosts: [{ host_type: 'hostname', host: 'bad host!' }] })),
      'hosts.0.host',
      'bad host! is not a valid IP address or host name',
    );
    invalid(
      await create(ingress('V1', { hosts: [{ host: '192.0.2.50', port: 'abc' }] })),
      'hosts.0.port',
      'hosts.0.port may contain digits only',
    );
    invalid(await create(ingress('V1', { hosts: [] })), 'hosts', 'hosts is required');
    invalid(
      await create(ingress('V1', { hosts: [{ host: '192.0.2.50' }, { host: '192.0.2.50' }] })),
      'hosts.1.host',
      'Each IP can be entered once: 192.0.2.50',
    );
    invalid(
      await create(ingress('V1', { allowed_send_to_ips: ['1.2.3'] })),
      'allowed_send_to_ips.0',
      'IP format invalid',
    );
  });

  it('checks the tab rules', async () => {
    const h1 = { hosts: [{ host: '192.0.2.51' }] };
    invalid(
      await create(ingress('V2', { ...h1, timeouts: { min_duration: 60, max_duration: 30 } })),
      'timeouts.min_duration',
      'min_duration cannot be larger than max_duration',
    );
    invalid(
      await create(
        ingress('V2', {
          ...h1,
          digit_rules: { replacements: [{ field: 'dnis', prefix: '1', min_length: 12, max_length: 10 }] },
        }),
      ),
      'digit_rules.replacements.0.min_length',
      'min_length cannot be larger than max_length',
    );
    invalid(
      await create(
        ingress('V2', { ...h1, digit_rules: { manipulations: [{ field: 'dnis', action: 'add_prefix' }] } }),
      ),
      'digit_rules.manipulations.0.digits',
      'digit_rules.manipulations.0.digits is required',
    );
    invalid(
      await create(
        ingress('V2', { ...h1, digit_rules: { replacements: [{ field: 'dnis', prefix: '1a' }] } }),
      ),
      'digit_rules.replacements.0.prefix',
      'digit_rules.replacements.0.prefix may contain digits only',
    );
    invalid(
      await create(ingress('V2', { ...h1, sip_profiles: ['ext', 'EXT'] })),
      'sip_profiles.1',
      'Duplicate SIP profile [EXT] for the same ingress trunk is not allowed',
    );
    invalid(
      await create(
        ingress('V2', {
          ...h1,
          failover_rules: [
            { sip_code: 503, action: 'next' },
            { sip_code: 503, action: 'return' },
          ],
        }),
      ),
      'failover_rules.1.sip_code',
      'SIP code [503] already exists',
    );
    invalid(
      await create(ingress('V2', { ...h1, failover_rules: [{ sip_code: 200, action: 'next' }] })),
      'failover_rules.0.sip_code',
    );
    invalid(
      await create(ingress('V2', { ...h1, stir_shaken: { attestations: [{ ani_group: 'G', level: 'D' }] } })),
      'stir_shaken.attestations.0.level',
    );
    invalid(
      await create(ingress('V2', { ...h1, spam_scoring: { max_spam_score: 101 } })),
      'spam_scoring.max_spam_score',
    );
    invalid(await create(ingress('V2', { ...h1, rounding: 7 })), 'rounding');
    invalid(await create(ingress('V2', { ...h1, codecs: [] })), 'codecs');
    invalid(await create(ingress('V2', { ...h1, rate_table_id: 99999 })), 'rate_table_id');
    invalid(await create({ ...ingress('V2', h1), carrier_id: 99999 }), 'carrier_id');
    invalid(
      await create({
        carrier_id: vendor,
        name: 'V2',
        direction: 'egress',
        ...h1,
        routing_rows: [{ rate_table_id: rateTable, routing_plan_id: plan }],
      }),
      'routing_rows',
      'Routing rows apply to ingress trunks only',
    );
    invalid(
      await create(ingress('V2', { ...h1, routing_rows: [{ tech_prefix: '9' }] })),
      'routing_rows.0.rate_table_id',
      'routing_rows.0.rate_table_id is required',
    );
    invalid(await create(ingress('V2', { ...h1, color: 'red' })), '_');
  });

  it('refuses a duplicate trunk name and a host already on another ingress trunk, naming it', async () => {
    fails(
      await create(ingress('cust one in', { hosts: [{ host: '192.0.2.99' }] })),
      160,
      'Trunk [cust one in] already exists',
    );
    const r = fails(
      await create(
        ingress('Other In', { hosts: [{ host: '192.0.2.99' }, { host: '192.0.2.10', port: 5060 }] }),
      ),
      160,
      '192.0.2.10:5060 is already used by ingress trunk [Cust One In]',
    );
    expect(r.errors?.['hosts.1.host']).toBe('192.0.2.10:5060 is already used by ingress trunk [Cust One In]');
    fails(
      await create(
        ingress('Other In', { hosts: [{ host_type: 'hostname', host: 'SBC.customer.example.com' }] }),
      ),
      160,
      'sbc.customer.example.com is already used by ingress trunk [Cust One In]',
    );
    // Another port of the same IP is another host; egress trunks may share addresses.
    ok(await create(ingress('Other In', { hosts: [{ host: '192.0.2.10', port: 5080 }] })));
    ok(
      await create({
        carrier_id: vendor,
        name: 'Vend Two Out',
        direction: 'egress',
        hosts: [{ host: '192.0.2.10', port: 5060 }],
      }),
    );
    // Saving a trunk with its own hosts again is not a clash.
    const own = ok(
      await h.call<{ items: Trunk[] }>('GET', '/api/trunk/list?name=Cust One In', { token: admin }),
    ).items[0]!;
    ok(await patch(own.trunk_id, { hosts: own.hosts, call_limit: 40 }));
  });
});

describe('trunks: states', () => {
  it('refuses changes to an inactive trunk and activation while the carrier is inactive', async () => {
    const c = await carrier('State Co', 'client');
    const id = ok(
      await create({
        carrier_id: c,
        name: 'State In',
        direction: 'ingress',
        hosts: [{ host: '192.0.2.120' }],
      }),
    ).object_id;
    ok(await h.call('PATCH', `/api/trunk/${id}/deactivate`, { token: admin }));
    fails(await patch(id, { call_limit: 5 }), 170, 'Please activate the trunk for any modification.');
    const de = await h.call('PATCH', `/api/trunk/${id}`, {
      token: admin,
      body: { call_limit: 5 },
      headers: { 'x-lang': 'de' },
    });
    fails(de, 170, 'Bitte aktivieren Sie den Trunk, um ihn zu ändern.');
    ok(await h.call('PATCH', `/api/carrier/${c}/deactivate`, { token: admin }));
    fails(
      await h.call('PATCH', `/api/trunk/${id}/activate`, { token: admin }),
      170,
      "The trunk can't be activated until the carrier is active.",
    );
    fails(
      await create({
        carrier_id: c,
        name: 'State In 2',
        direction: 'ingress',
        hosts: [{ host: '192.0.2.121' }],
      }),
      170,
      "The trunk can't be activated until the carrier is active.",
    );
    ok(
      await create({
        carrier_id: c,
        name: 'State In 2',
        direction: 'ingress',
        is_active: false,
        hosts: [{ host: '192.0.2.121' }],
      }),
    );
    ok(await h.call('PATCH', `/api/carrier/${c}/activate`, { token: admin }));
    ok(await h.call('PATCH', `/api/trunk/${id}/activate`, { token: admin }));
    ok(await patch(id, { call_limit: 5 }));
    invalid(await patch(id, { direction: 'egress' }), 'direction', 'The trunk type cannot be changed');
    expect(ok(await get(id)).call_limit).toBe(5);
  });

  it('refuses delete while a route uses the trunk, with counts', async () => {
    const id = ok(
      await h.call<{ items: Trunk[] }>('GET', '/api/trunk/list?name=Vend One Out', { token: admin }),
    ).items[0]!.trunk_id;
    const db = h.built.services.db;
    const route = (
      await db
        .insertInto('dynamic_routes')
        .values({ name: 'LCR all' })
        .returning('dynamic_route_id')
        .executeTakeFirstOrThrow()
    ).dynamic_route_id;
    await db
      .insertInto('dynamic_route_trunks')
      .values({ dynamic_route_id: route, trunk_id: id, priority: 1, call_limit: null, cps_limit: null })
      .execute();
    fails(
      await h.call('DELETE', `/api/trunk/${id}`, { token: admin }),
      170,
      `Trunk [${id}] is in use by 1 dynamic route(s) record(s) and cannot be deleted`,
    );
    const routes = ok(
      await h.call<{ dynamic_routes: { name: string }[] }>('GET', `/api/trunk/${id}/routes`, {
        token: admin,
      }),
    );
    expect(routes.dynamic_routes.map((r) => r.name)).toEqual(['LCR all']);
  });
});

describe('trunk routing rows, groups, templates, unclaimed trunks', () => {
  it('takes a product’s rate table and plan on an ingress routing row', async () => {
    const productId = ok(
      await h.call<{ object_id: number }>('POST', '/api/product/create', {
        token: admin,
        body: { name: 'Premium', tech_prefix: '77', rate_table_id: rateTable, routing_plan_id: plan },
      }),
    ).object_id;
    const id = ok(
      await create(
        ingress('Products In', {
          hosts: [{ host: '192.0.2.130' }],
          routing_rows: [
            { product_id: productId },
            { tech_prefix: '88', rate_table_id: rateTable, routing_plan_id: plan },
          ],
        }),
      ),
    ).object_id;
    expect(ok(await get(id)).routing_rows).toEqual([
      { product_id: productId, tech_prefix: '77', rate_table_id: rateTable, routing_plan_id: plan },
      { product_id: null, tech_prefix: '88', rate_table_id: rateTable, routing_plan_id: plan },
    ]);
    invalid(
      await patch(id, { routing_rows: [{ product_id: productId }, { product_id: productId }] }),
      'routing_rows.1.tech_prefix',
      'Tech prefix [] already exists',
    );
  });

  it('groups trunks of one type (inbound/outbound) and lists trunks by group', async () => {
    const all = ok(
      await h.call<{ items: Trunk[] }>('GET', '/api/trunk/list?per_page=100', { token: admin }),
    ).items;
    const inIds = all.filter((t) => t.direction === 'ingress').map((t) => t.trunk_id);
    const out = all.find((t) => t.direction === 'egress')!;
    fails(
      await h.call('POST', '/api/config/trunk_group/create', {
        token: admin,
        body: { group_name: 'Bad', trunk_type: 'ingress', trunk_ids: [inIds[0], out.trunk_id] },
      }),
      110,
      `Trunk [${out.name}] is not an ingress trunk`,
    );
    const g = ok(
      await h.call<{ object_id: number }>('POST', '/api/config/trunk_group/create', {
        token: admin,
        body: { group_name: 'Wholesale', trunk_type: 'ingress', trunk_ids: inIds.slice(0, 2) },
      }),
    ).object_id;
    const row = ok(
      await h.call<{ trunk_count: number; trunk_ids: number[] }>('GET', `/api/config/trunk_group/${g}`, {
        token: admin,
      }),
    );
    expect(row).toMatchObject({ trunk_count: 2, trunk_ids: inIds.slice(0, 2).sort((a, b) => a - b) });
    expect(
      ok(await h.call<{ total: number }>('GET', `/api/trunk/list?group_id=${g}`, { token: admin })).total,
    ).toBe(2);
    invalid(
      await h.call('PATCH', `/api/config/trunk_group/${g}`, { token: admin, body: { trunk_type: 'egress' } }),
      'trunk_ids',
    );
    fails(
      await h.call('POST', '/api/config/trunk_group/create', {
        token: admin,
        body: { group_name: 'wholesale', trunk_type: 'egress' },
      }),
      160,
      'Trunk Group [wholesale] already exists',
    );
  });

  it('stores trunk templates per type and a new trunk starts from one', async () => {
    const tpl = ok(
      await h.call<{ object_id: number }>('POST', '/api/template/ingress_trunk/create', {
        token: admin,
        body: {
          name: 'Std ingress',
          rate_table_id: rateTable,
          codecs: ['G729'],
          timeouts: { ring_timer: 45 },
          failover_rules: [{ sip_code: 503, action: 'next' }],
        },
      }),
    ).object_id;
    const t = ok(
      await h.call<Record<string, unknown>>('GET', `/api/template/ingress_trunk/${tpl}`, { token: admin }),
    );
    expect(t).toMatchObject({
      name: 'Std ingress',
      direction: 'ingress',
      rate_table_id: rateTable,
      codecs: ['G729'],
      timeouts: { ring_timer: 45, min_duration: null },
    });
    notVisible(await h.call('GET', `/api/template/egress_trunk/${tpl}`, { token: admin }));
    ok(await h.call('PATCH', `/api/template/ingress_trunk/${tpl}`, { token: admin, body: { t38: true } }));
    expect(
      ok(
        await h.call<Record<string, unknown>>('GET', `/api/template/ingress_trunk/${tpl}`, { token: admin }),
      ),
    ).toMatchObject({ t38: true, codecs: ['G729'] });
    invalid(
      await h.call('POST', '/api/template/egress_trunk/create', {
        token: admin,
        body: { name: 'Bad', timeouts: { min_duration: 9, max_duration: 1 } },
      }),
      'timeouts.min_duration',
    );
    const { api } = await import('@tandem/contract');
    const start = api.trunks.trunkFromTemplate(t as never);
    const id = ok(
      await create(ingress('From template', { ...start, hosts: [{ host: '192.0.2.140' }] })),
    ).object_id;
    expect(ok(await get(id))).toMatchObject({
      rate_table_id: rateTable,
      codecs: ['G729'],
      t38: false,
      failover_rules: [{ sip_code: 503, action: 'next', return_code: null, return_clause: null }],
    });
  });

  it('lists unclaimed trunks with their reasons', async () => {
    const rows = ok(
      await h.call<{ items: { name: string; reasons: string[] }[] }>(
        'GET',
        '/api/trunk/unclaimed/list?per_page=100',
        { token: admin },
      ),
    ).items;
    const reasons = Object.fromEntries(rows.map((r) => [r.name, r.reasons]));
    expect(reasons['Cust One In']).toBeUndefined();
    expect(reasons['Reg Trunk']).toEqual(['no_rate_table', 'no_routing_plan']);
    expect(reasons['Vend Two Out']).toEqual(['no_route']);
    expect(reasons['Vend One Out']).toBeUndefined();
    const only = ok(
      await h.call<{ items: { name: string }[] }>(
        'GET',
        '/api/trunk/unclaimed/list?reason=no_route&per_page=100',
        { token: admin },
      ),
    ).items.map((r) => r.name);
    expect(only).toEqual(['Vend Two Out']);
    ok(await h.call('PATCH', `/api/carrier/${vendor}/deactivate`, { token: admin }));
    const after = ok(
      await h.call<{ items: { name: string; reasons: string[] }[] }>(
        'GET',
        '/api/trunk/unclaimed/list?direction=egress',
        { token: admin },
      ),
    ).items;
    expect(after.find((r) => r.name === 'Vend One Out')?.reasons).toEqual(['carrier_inactive']);
    ok(await h.call('PATCH', `/api/carrier/${vendor}/activate`, { token: admin }));
  });
});

describe('trunks: permissions and tenancy', () => {
  it('a restricted role gets 140; a client reads only its own trunks and writes none', async () => {
    const none = await makeRestrictedAdmin(h, admin, 'notrunks');
    denied(await h.call('GET', '/api/trunk/list', { token: none.token }));
    denied(await h.call('GET', '/api/trunk/unclaimed/list', { token: none.token }));
    const reader = await makeRestrictedAdmin(h, admin, 'trunkreader', { '/routing/trunks': 'r' });
    ok(await h.call('GET', '/api/trunk/list', { token: reader.token }));
    denied(await create(ingress('Nope', { hosts: [{ host: '192.0.2.150' }] }), reader.token));
    const own = await makeCarrierUser(h, admin, 'PortalCust');
    const mine = ok(
      await create({
        carrier_id: own.clientId,
        name: 'Portal In',
        direction: 'ingress',
        hosts: [{ host: '192.0.2.160' }],
        min_profitability: '5',
        tech_prefix: '77',
      }),
    ).object_id;
    // The carrier reads its own settings, not how the operator routes and prices its calls.
    const asClient = ok(
      await h.call<Trunk & Record<string, unknown>>('GET', `/api/trunk/${mine}`, { token: own.token }),
    );
    expect(asClient).toMatchObject({ tech_prefix: '77', min_profitability: null, routing_plan_id: null });
    expect(asClient.hosts.map((x) => x.host)).toEqual(['192.0.2.160']);
    const asAdmin = ok(await h.call<Record<string, unknown>>('GET', `/api/trunk/${mine}`, { token: admin }));
    expect(Number(asAdmin.min_profitability)).toBe(5);
    const seen = ok(
      await h.call<{ items: Trunk[] }>('GET', '/api/trunk/list?per_page=100', { token: own.token }),
    ).items.map((t) => t.trunk_id);
    expect(seen).toEqual([mine]);
    const other = ok(
      await h.call<{ items: Trunk[] }>('GET', '/api/trunk/list?name=Cust One In', { token: admin }),
    ).items[0]!.trunk_id;
    notVisible(await get(other, own.token));
    denied(await patch(mine, { call_limit: 1 }, own.token));
    const lk = ok(
      await h.call<{ rate_tables: { name: string }[]; carriers: unknown[] }>('GET', '/api/trunk/lookups', {
        token: admin,
      }),
    );
    expect(lk.rate_tables.map((r) => r.name)).toEqual(['Retail A-Z']);
    denied(await h.call('GET', '/api/trunk/lookups', { token: own.token }));
  });
});

describe('demo data', () => {
  it('seeds one customer ingress trunk and two vendor egress trunks, once', async () => {
    const { seedDemoData } = await import('../../src/db/demo-seed');
    await seedDemoData(h.built.services);
    const again = await seedDemoData(h.built.services);
    expect(again.created.trunk).toBeUndefined();
    const rows = ok(
      await h.call<{ items: Trunk[] }>('GET', '/api/trunk/list?name=Demo&per_page=10', { token: admin }),
    ).items;
    expect(rows.map((t) => [t.name, t.direction, t.carrier_name, t.hosts[0]?.host])).toEqual([
      ['Demo Client In', 'ingress', 'Demo Client', '198.51.100.23'],
      ['Demo Vendor Out', 'egress', 'Demo Vendor', '203.0.113.40'],
      ['Demo Vendor Two Out', 'egress', 'Demo Vendor Two', '203.0.113.41'],
    ]);
  });
});
