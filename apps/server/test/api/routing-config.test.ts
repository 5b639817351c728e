import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditRows,
  denied,
  fails,
  invalid,
  makeRestrictedAdmin,
  ok,
  startHarness,
  type Harness,
} from './harness';
import { settled, switchKey, termination, type Fixture, type RouteAnswer } from './routing-fixtures';

let h: Harness;
let admin: string;
let f: Fixture;

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  f = await termination(h);
});
afterAll(() => h.close());

const post = <T = { object_id: number }>(url: string, body: unknown, token = admin) =>
  h.call<T>('POST', `/api${url}`, { token, body });
const patch = (url: string, body: unknown, token = admin) => h.call('PATCH', `/api${url}`, { token, body });
const del = (url: string, token = admin) => h.call('DELETE', `/api${url}`, { token });
const get = <T>(url: string, token = admin) => h.call<T>('GET', `/api${url}`, { token });
const IN_USE =
  /^Unable to delete when static routing, dynamic routing or a routing plan is assigned to a client\./;

describe('routing plans and prefix rows', () => {
  let plan = 0;
  let dyn = 0;
  it('creates a plan, refuses a duplicate name, adds prefix rows with their rules', async () => {
    plan = ok(await post('/routing/routing_plan/create', { name: 'Wholesale' })).object_id;
    const dup = await post('/routing/routing_plan/create', { name: 'wholesale' });
    fails(dup, 160, 'Routing Plan [wholesale] already exists');
    dyn = ok(
      await post('/routing/dynamic_routing/create', {
        name: 'LCR all',
        trunks: f.vendors.map((v) => ({ trunk_id: v.trunk })),
      }),
    ).object_id;

    const row = { prefix: '44', route_type: 'dynamic', dynamic_route_id: dyn };
    ok(await post(`/routing/routing_plan/${plan}/rows/create`, row));
    fails(await post(`/routing/routing_plan/${plan}/rows/create`, row), 160, 'Prefix [44] already exists');
    ok(await post(`/routing/routing_plan/${plan}/rows/create`, { ...row, ani_prefix: '1' }));
    invalid(
      await post(`/routing/routing_plan/${plan}/rows/create`, { prefix: '4', route_type: 'dynamic' }),
      'dynamic_route_id',
      'Static route, dynamic route, vendor trunk or routing plan not defined.',
    );
    invalid(
      await post(`/routing/routing_plan/${plan}/rows/create`, {
        prefix: '4',
        route_type: 'static',
        static_route_id: 9999,
      }),
      'static_route_id',
      'Static route, dynamic route, vendor trunk or routing plan not defined.',
    );
    invalid(
      await post(`/routing/routing_plan/${plan}/rows/create`, {
        ...row,
        prefix: '49',
        dnis_min_length: 12,
        dnis_max_length: 10,
      }),
      'dnis_min_length',
      'dnis_min_length cannot be larger than dnis_max_length',
    );
    invalid(
      await post(`/routing/routing_plan/${plan}/rows/create`, { ...row, prefix: '4a' }),
      'prefix',
      'prefix may contain digits only',
    );

    const rows = ok(
      await get<{
        items: { id: number; prefix: string; ani_prefix: string; route_name: string }[];
        total: number;
      }>(`/routing/routing_plan/${plan}/rows?order_by=prefix`),
    );
    expect(rows.total).toBe(2);
    expect(rows.items.map((r) => [r.prefix, r.ani_prefix, r.route_name])).toEqual([
      ['44', '', 'LCR all'],
      ['44', '1', 'LCR all'],
    ]);
    const second = rows.items[1]!.id;
    ok(await patch(`/routing/routing_plan/${plan}/rows/${second}`, { ...row, prefix: '33' }));
    fails(
      await patch(`/routing/routing_plan/${plan}/rows/${second}`, row),
      160,
      'Prefix [44] already exists',
    );
    ok(await del(`/routing/routing_plan/${plan}/rows/${second}`));
    const list = ok(
      await get<{ items: { name: string; prefix_count: number; usage_count: number; updated_by: string }[] }>(
        '/routing/routing_plan/list?name=whole',
      ),
    );
    expect(list.items).toEqual([
      expect.objectContaining({ name: 'Wholesale', prefix_count: 1, usage_count: 0, updated_by: 'admin' }),
    ]);
    expect((await auditRows(h, 'routing_plan_row', second)).map((r) => r.action)).toEqual([
      'delete',
      'update',
      'create',
    ]);
  });

  it('refuses to delete a plan, a dynamic route or a static route in use, with counts', async () => {
    await h.built.services.db
      .updateTable('trunks')
      .set({ routing_plan_id: plan })
      .where('trunk_id', '=', f.ingress)
      .execute();
    const usage = ok(
      await get<{ items: { what: string; count: number }[]; total: number }>(
        `/routing/routing_plan/${plan}/usage`,
      ),
    );
    expect(usage.total).toBe(1);
    const refused = await del(`/routing/routing_plan/${plan}`);
    fails(refused, 170, IN_USE);
    expect(refused.body.error?.message).toContain('1 ingress trunk(s)');
    const details = ok(
      await get<{ items: { kind: string; name: string; carrier_name: string }[] }>(
        `/routing/routing_plan/${plan}/usage_details`,
      ),
    );
    expect(details.items).toEqual([
      expect.objectContaining({ kind: 'ingress_trunk', name: 'Customer in', carrier_name: 'Customer' }),
    ]);
    const dynRefused = await del(`/routing/dynamic_routing/${dyn}`);
    fails(dynRefused, 170, IN_USE);
    expect(dynRefused.body.error?.message).toContain('1 routing plan row(s)');
    const byDynamic = ok(
      await get<{ items: { name: string }[] }>(`/routing/routing_plan/list?dynamic_route_id=${dyn}`),
    );
    expect(byDynamic.items.map((p) => p.name)).toEqual(['Wholesale']);

    const spare = ok(await post('/routing/routing_plan/create', { name: 'Spare' })).object_id;
    ok(await del(`/routing/routing_plan/${spare}`));
    expect((await get(`/routing/routing_plan/${spare}`)).status).toBe(404);
  });

  it('the plan answers calls through the route API once the snapshot is rebuilt', async () => {
    const key = await switchKey(h, admin);
    await settled(h, admin);
    const r = await h.call<RouteAnswer>('POST', '/api/switch/route', {
      headers: { 'x-switch-key': key },
      body: { source_ip: '198.51.100.9', dnis: '4420794601', ani: '' },
    });
    expect(ok(r)).toMatchObject({
      result: 'route',
      routes: [{ trunk_id: f.vendors[1]!.trunk }, { trunk_id: f.vendors[0]!.trunk }],
    });
    const none = await h.call<RouteAnswer>('POST', '/api/switch/route', {
      headers: { 'x-switch-key': key },
      body: { source_ip: '198.51.100.9', dnis: '12125550100' },
    });
    expect(ok(none)).toMatchObject({ result: 'reject', reject_reason: 'no_routing_prefix' });
  });
});

describe('static routes', () => {
  let route = 0;
  it('adds items with ordered trunks; percentages must sum to 100; trunks must be egress trunks', async () => {
    route = ok(
      await post('/routing/static_routing/create', { name: 'UK static', defined_by: 'code' }),
    ).object_id;
    const [a, b] = f.vendors.map((v) => v.trunk) as [number, number];
    const item = ok(
      await post(`/routing/static_routing/${route}/items/create`, {
        code: '44',
        strategy: 'top_down',
        trunks: [{ trunk_id: b }, { trunk_id: a }],
      }),
    ).object_id;
    const pct = await post(`/routing/static_routing/${route}/items/create`, {
      code: '447',
      strategy: 'percentage',
      trunks: [
        { trunk_id: a, percentage: '60' },
        { trunk_id: b, percentage: '30' },
      ],
    });
    invalid(pct, 'trunks', 'Percentage sum must be 100%');
    ok(
      await post(`/routing/static_routing/${route}/items/create`, {
        code: '447',
        strategy: 'percentage',
        trunks: [
          { trunk_id: a, percentage: '66.67' },
          { trunk_id: b, percentage: 33.33 },
        ],
      }),
    );
    invalid(
      await post(`/routing/static_routing/${route}/items/create`, { code: '448', trunks: [] }),
      'trunks',
      'Select at least one trunk',
    );
    invalid(
      await post(`/routing/static_routing/${route}/items/create`, {
        code: '448',
        trunks: [{ trunk_id: f.ingress }],
      }),
      'trunks.0.trunk_id',
      'Trunk [Customer in] is not an egress trunk',
    );
    fails(
      await post(`/routing/static_routing/${route}/items/create`, { code: '44', trunks: [{ trunk_id: a }] }),
      160,
      'Code [44] already exists',
    );

    const items = ok(
      await get<{
        items: {
          code: string;
          strategy: string;
          trunks: { trunk_id: number; trunk_name: string; percentage: string | null }[];
        }[];
      }>(`/routing/static_routing/${route}/items`),
    );
    expect(
      items.items.map((i) => [i.code, i.strategy, i.trunks.map((t) => [t.trunk_name, t.percentage])]),
    ).toEqual([
      [
        '44',
        'top_down',
        [
          ['Vendor B out', null],
          ['Vendor A out', null],
        ],
      ],
      [
        '447',
        'percentage',
        [
          ['Vendor A out', '66.67'],
          ['Vendor B out', '33.33'],
        ],
      ],
    ]);
    ok(
      await patch(`/routing/static_routing/${route}/items/${item}`, {
        code: '44',
        strategy: 'round_robin',
        trunks: [{ trunk_id: a }, { trunk_id: b }],
      }),
    );
    const byEgress = ok(
      await get<{ items: { name: string; prefix_count: number }[] }>(
        `/routing/static_routing/list?trunk_id=${a}`,
      ),
    );
    expect(byEgress.items).toEqual([expect.objectContaining({ name: 'UK static', prefix_count: 2 })]);
  });

  it('items of a route defined by code name need the name; the route is refused deletion while a plan uses it', async () => {
    const byName = ok(
      await post('/routing/static_routing/create', { name: 'By name', defined_by: 'code_name' }),
    ).object_id;
    invalid(
      await post(`/routing/static_routing/${byName}/items/create`, {
        trunks: [{ trunk_id: f.vendors[0]!.trunk }],
      }),
      'code_name',
      'code_name is required',
    );
    ok(
      await post(`/routing/static_routing/${byName}/items/create`, {
        code_name: 'UK',
        trunks: [{ trunk_id: f.vendors[0]!.trunk }],
      }),
    );
    const plan = ok(await post('/routing/routing_plan/create', { name: 'Static plan' })).object_id;
    ok(
      await post(`/routing/routing_plan/${plan}/rows/create`, {
        prefix: '44',
        route_type: 'static',
        static_route_id: route,
      }),
    );
    fails(await del(`/routing/static_routing/${route}`), 170, IN_USE);
    ok(await del(`/routing/static_routing/${byName}`));
  });
});

describe('dynamic routes', () => {
  it('keeps an egress pool with priorities, limits and QoS overrides', async () => {
    const id = ok(
      await post('/routing/dynamic_routing/create', {
        name: 'ASR',
        rule: 'largest_asr',
        qos_cycle_minutes: 15,
      }),
    ).object_id;
    const [a, b] = f.vendors.map((v) => v.trunk) as [number, number];
    ok(
      await post(`/routing/dynamic_routing/${id}/trunks/create`, {
        trunk_id: a,
        priority: 2,
        call_limit: 10,
      }),
    );
    ok(await post(`/routing/dynamic_routing/${id}/trunks/create`, { trunk_id: b, priority: 1 }));
    fails(
      await post(`/routing/dynamic_routing/${id}/trunks/create`, { trunk_id: b }),
      160,
      'Trunk [' + b + '] already exists',
    );
    invalid(
      await post(`/routing/dynamic_routing/${id}/trunks/create`, { trunk_id: f.ingress }),
      'trunk_id',
      'Trunk [Customer in] is not an egress trunk',
    );
    ok(await patch(`/routing/dynamic_routing/${id}/trunks/${a}`, { cps_limit: 5 }));
    ok(
      await patch(`/routing/dynamic_routing/${id}/override`, {
        trunks: [{ trunk_id: a, override_asr: '55.5', override_acd: null }],
      }),
    );
    invalid(
      await patch(`/routing/dynamic_routing/${id}/override`, {
        trunks: [{ trunk_id: a, override_asr: '120', override_acd: null }],
      }),
      'trunks.0.override_asr',
      'trunks.0.override_asr must be between 0 and 100',
    );
    const pool = ok(
      await get<{
        items: {
          trunk_id: number;
          priority: number | null;
          call_limit: number | null;
          cps_limit: number | null;
          override_asr: string | null;
        }[];
      }>(`/routing/dynamic_routing/${id}/trunks`),
    );
    expect(
      pool.items.map((t) => [t.trunk_id, t.priority, t.call_limit, t.cps_limit, t.override_asr]),
    ).toEqual([
      [b, 1, null, null, null],
      [a, 2, 10, 5, '55.50'],
    ]);
    ok(await del(`/routing/dynamic_routing/${id}/trunks/${b}`));
    const row = ok(
      await get<{ trunk_count: number; qos_cycle_minutes: number; rule: string }>(
        `/routing/dynamic_routing/${id}`,
      ),
    );
    expect(row).toMatchObject({ trunk_count: 1, qos_cycle_minutes: 15, rule: 'largest_asr' });
    ok(await patch(`/routing/dynamic_routing/${id}`, { trunks: [{ trunk_id: b }, { trunk_id: a }] }));
    expect(ok(await get<{ total: number }>(`/routing/dynamic_routing/${id}/trunks`)).total).toBe(2);
    invalid(await post('/routing/dynamic_routing/create', { name: 'Bad', rule: 'cheapest' }), 'rule');
    ok(await del(`/routing/dynamic_routing/${id}`));
  });
});

describe('block list, default failover rule, default error response', () => {
  it('keeps ANI/DNIS entries, exact or prefix, global or per trunk, without duplicates', async () => {
    ok(await post('/routing/block_list/create', { field: 'dnis', match: 'prefix', number: '4490' }));
    fails(
      await post('/routing/block_list/create', { field: 'dnis', match: 'prefix', number: '4490' }),
      160,
      'DNIS [4490] already exists',
    );
    ok(
      await post('/routing/block_list/create', {
        field: 'dnis',
        match: 'prefix',
        number: '4490',
        trunk_id: f.vendors[0]!.trunk,
      }),
    );
    ok(
      await post('/routing/block_list/create', {
        field: 'ani',
        match: 'exact',
        number: '15550009999',
        trunk_id: f.ingress,
        note: 'fraud',
      }),
    );
    invalid(
      await post('/routing/block_list/create', { field: 'ani', number: '' }),
      'number',
      'number is required',
    );
    invalid(
      await post('/routing/block_list/create', { field: 'ani', number: '+1555' }),
      'number',
      'number may contain digits only',
    );
    const global = ok(
      await get<{ items: { number: string; trunk_name: string | null }[]; total: number }>(
        '/routing/block_list/list?scope=global',
      ),
    );
    expect(global.items.map((b) => b.number)).toEqual(['4490']);
    const perTrunk = ok(
      await get<{ items: { number: string; trunk_name: string | null; trunk_direction: string | null }[] }>(
        `/routing/block_list/list?trunk_id=${f.ingress}`,
      ),
    );
    expect(perTrunk.items).toEqual([
      expect.objectContaining({
        number: '15550009999',
        trunk_name: 'Customer in',
        trunk_direction: 'ingress',
      }),
    ]);
  });

  it('blocked numbers are refused by the route API (global DNIS prefix, trunk ANI)', async () => {
    const key = await switchKey(h, admin, 'blocks');
    await settled(h, admin);
    const callOf = (dnis: string, ani = '') =>
      h.call<RouteAnswer>('POST', '/api/switch/route', {
        headers: { 'x-switch-key': key },
        body: { source_ip: '198.51.100.9', dnis, ani },
      });
    expect(ok(await callOf('4490123456'))).toMatchObject({
      result: 'reject',
      reject_code: 403,
      reject_reason: 'dnis_blocked',
    });
    expect(ok(await callOf('4420794601', '15550009999'))).toMatchObject({
      result: 'reject',
      reject_code: 403,
      reject_reason: 'ani_blocked',
    });
    expect(ok(await callOf('4420794601', '15550001111')).result).toBe('route');
  });

  it('stores the default failover rules and the route error responses; the route API answers with them', async () => {
    ok(
      await h.call('PUT', '/api/routing/default_failover_rule', {
        token: admin,
        body: {
          rules: [
            { sip_code: 503, action: 'next' },
            { sip_code: 486, action: 'return', return_code: 486, return_clause: 'Busy' },
          ],
        },
      }),
    );
    const dup = await h.call('PUT', '/api/routing/default_failover_rule', {
      token: admin,
      body: {
        rules: [
          { sip_code: 503, action: 'next' },
          { sip_code: 503, action: 'return' },
        ],
      },
    });
    invalid(dup, 'rules.1.sip_code', 'SIP code [503] already exists');
    expect(
      ok(await get<{ rules: { sip_code: number }[] }>('/routing/default_failover_rule')).rules.map(
        (r) => r.sip_code,
      ),
    ).toEqual([486, 503]);

    ok(
      await h.call('PUT', '/api/routing/default_error_response', {
        token: admin,
        body: { responses: [{ reason: 'dnis_blocked', code: 603, clause: 'Declined' }] },
      }),
    );
    const responses = ok(
      await get<{ responses: { reason: string; code: number; clause: string; default_code: number }[] }>(
        '/routing/default_error_response',
      ),
    );
    expect(responses.responses.find((r) => r.reason === 'dnis_blocked')).toEqual({
      reason: 'dnis_blocked',
      code: 603,
      clause: 'Declined',
      default_code: 403,
    });
    expect(responses.responses.find((r) => r.reason === 'no_route')).toEqual({
      reason: 'no_route',
      code: 503,
      clause: '',
      default_code: 503,
    });
    const key = await switchKey(h, admin, 'errors');
    await settled(h, admin);
    const r = await h.call<RouteAnswer>('POST', '/api/switch/route', {
      headers: { 'x-switch-key': key },
      body: { source_ip: '198.51.100.9', dnis: '4490123456' },
    });
    expect(ok(r)).toMatchObject({ result: 'reject', reject_code: 603, reject_reason: 'Declined' });
    invalid(
      await h.call('PUT', '/api/routing/default_error_response', {
        token: admin,
        body: { responses: [{ reason: 'nope', code: 603 }] },
      }),
      'responses.0.reason',
    );
  });
});

describe('routing wizard', () => {
  it('creates plan, dynamic route and prefix row and assigns the plan to the ingress trunk in one go', async () => {
    const body = {
      plan_name: 'Wizard plan',
      prefix: '1',
      route_type: 'dynamic',
      route_name: 'Wizard LCR',
      trunks: f.vendors.map((v) => ({ trunk_id: v.trunk })),
      ingress_trunk_ids: [f.ingress],
    };
    const r = ok(
      await post<{ route_plan_id: number; dynamic_route_id: number; row_id: number }>(
        '/routing/wizard',
        body,
      ),
    );
    const trunk = await h.built.services.db
      .selectFrom('trunks')
      .select('routing_plan_id')
      .where('trunk_id', '=', f.ingress)
      .executeTakeFirstOrThrow();
    expect(trunk.routing_plan_id).toBe(r.route_plan_id);
    const rows = ok(
      await get<{ items: { prefix: string; route_name: string }[] }>(
        `/routing/routing_plan/${r.route_plan_id}/rows`,
      ),
    );
    expect(rows.items).toEqual([expect.objectContaining({ prefix: '1', route_name: 'Wizard LCR' })]);
    // all or nothing: a duplicate route name leaves no new plan behind
    const again = await post('/routing/wizard', { ...body, plan_name: 'Second wizard plan' });
    fails(again, 160, 'Dynamic Route [Wizard LCR] already exists');
    expect(ok(await get<{ total: number }>('/routing/routing_plan/list?name=second')).total).toBe(0);
    invalid(await post('/routing/wizard', { ...body, plan_name: '', route_name: 'X' }), 'plan_name');
    const st = await post('/routing/wizard', {
      route_plan_id: r.route_plan_id,
      prefix: '33',
      route_type: 'static',
      route_name: 'Wizard FR',
      item: {
        code: '33',
        strategy: 'percentage',
        trunks: [{ trunk_id: f.vendors[0]!.trunk, percentage: '50' }],
      },
    });
    invalid(st, 'item.trunks', 'Percentage sum must be 100%');
  });
});

describe('permissions', () => {
  it('a role without the routing pages gets 140; read-only cannot write', async () => {
    const none = await makeRestrictedAdmin(h, admin, 'norouting');
    denied(await get('/routing/routing_plan/list', none.token));
    denied(await get('/routing/static_routing/list', none.token));
    denied(await get('/routing/default_failover_rule', none.token));
    denied(await post('/tools/call_simulation', { source_ip: '198.51.100.9', dnis: '44' }, none.token));
    denied(await post('/routing/switch_key/create', { name: 'x' }, none.token));
    const reader = await makeRestrictedAdmin(h, admin, 'planreader', { '/routing/routing_plan': 'r' });
    ok(await get('/routing/routing_plan/list', reader.token));
    denied(await post('/routing/routing_plan/create', { name: 'Nope' }, reader.token));
    denied(
      await post(
        '/routing/routing_plan/1/rows/create',
        { prefix: '1', route_type: 'dynamic', dynamic_route_id: 1 },
        reader.token,
      ),
    );
  });
});
