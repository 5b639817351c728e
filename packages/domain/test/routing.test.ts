import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildSnapshot } from '../src/snapshot';
import { decide } from '../src/routing';
import { createRoutingState } from '../src/routing-types';
import { failoverTable } from '../src/failover';
import type { RoutingState } from '../src/routing-types';
import type { DynamicRouteTrunkConfig, EngineConfig, StaticRouteItemConfig } from '../src/config';
import { T0, baseConfig, call, rates, seededRandom, vendor, withCarrier, withTrunk } from './fixtures';

const order = (
  config: EngineConfig,
  over: Parameters<typeof call>[0] = {},
  state: RoutingState = createRoutingState(),
) => decide(buildSnapshot(config), call(over), state).routes.map((r) => r.trunk_id);

function withStatic(item: Omit<StaticRouteItemConfig, 'code'> & { code?: string }): EngineConfig {
  return baseConfig({
    routing_plans: [{ routing_plan_id: 1, rows: [{ prefix: '', route_type: 'static', route_id: 2 }] }],
    static_routes: [{ static_route_id: 2, name: 'static', items: [{ code: '', ...item }] }],
  });
}

describe('the answer for a routed call', () => {
  it('prices the ingress leg and lists the routes with money as text', () => {
    const result = decide(buildSnapshot(baseConfig()), call());
    expect(result.result).toBe('route');
    expect(result.reject_code).toBeNull();
    expect(result.ingress).toEqual({
      carrier_id: 1,
      trunk_id: 1,
      tech_prefix: '',
      rate_table_id: 1,
      routing_plan_id: 1,
      rate: '0.0200',
      code: '44',
      code_name: 'UK',
      jurisdiction: null,
    });
    expect(result.routes).toEqual([
      {
        trunk_id: 12,
        carrier_id: 12,
        hosts: [{ ip: '192.0.2.12', port: 5060 }],
        dnis: '442071234567',
        ani: '12125550000',
        rate_table_id: 12,
        rate: '0.0080',
        code: '44',
        code_name: 'UK',
        profit: '0.0120',
        ring_timeout_s: null,
        pdd_timeout_ms: null,
        // no maximum set anywhere: a limited-credit customer's call is bounded by CREDIT_HORIZON_S
        max_duration_s: 7200,
        failover: failoverTable({}),
      },
      expect.objectContaining({ trunk_id: 11, rate: '0.0100', profit: '0.0100' }),
      expect.objectContaining({ trunk_id: 13, rate: '0.0120', profit: '0.0080' }),
    ]);
    expect(result.trace).toEqual([]);
  });

  it('formats the margin at the larger number of decimals of the two tables', () => {
    const config = baseConfig({
      rate_tables: [
        rates(1, [{ code: '44', rate: '0.02' }], { decimal_places: 2 }),
        rates(11, [{ code: '44', rate: '0.012345' }], { decimal_places: 6 }),
        rates(12, [{ code: '44', rate: '0.0080' }]),
        rates(13, [{ code: '44', rate: '0.0120' }]),
      ],
    });
    const routes = decide(buildSnapshot(config), call()).routes;
    expect(routes.map((r) => [r.trunk_id, r.rate, r.profit])).toEqual([
      [12, '0.0080', '0.0120'],
      [13, '0.0120', '0.0080'],
      [11, '0.012345', '0.007655'],
    ]);
  });

  it('formats rates and margins of any size exactly (beyond the number fast path too)', () => {
    // 2^51 micro-units is about 2.25 billion a minute: above it the answer formats from bigints.
    const config = withCarrier(
      baseConfig({
        rate_tables: [
          rates(1, [{ code: '44', rate: '9000000000.123456' }], { decimal_places: 6 }),
          rates(11, [{ code: '44', rate: '0.000001' }], { decimal_places: 6 }),
          rates(12, [{ code: '44', rate: '8999999999.99' }], { decimal_places: 2 }),
          rates(13, [{ code: '44', rate: '2251799813.685249' }], { decimal_places: 6 }),
        ],
      }),
      1,
      { unlimited_credit: true }, // about money formatting, not credit
    );
    const routes = decide(buildSnapshot(config), call()).routes;
    expect(routes.map((r) => [r.trunk_id, r.rate, r.profit])).toEqual([
      [11, '0.000001', '9000000000.123455'],
      [13, '2251799813.685249', '6748200186.438207'],
      [12, '8999999999.99', '0.133456'],
    ]);
  });

  it('applies the egress digit rules and puts the egress tech prefix in front', () => {
    const config = withTrunk(baseConfig(), 12, {
      tech_prefix: '9999#',
      digit_manipulations: [
        { field: 'dnis', action: 'add_prefix', digits: '00' },
        { field: 'ani', action: 'remove_prefix', prefix: '1' },
      ],
    });
    const first = decide(buildSnapshot(config), call()).routes[0];
    expect(first?.trunk_id).toBe(12);
    expect(first?.dnis).toBe('9999#00442071234567');
    expect(first?.ani).toBe('2125550000');
  });

  it("hands the switch each route's timers: the trunk's own, else the system defaults; the call's maximum is the lower of both trunks", () => {
    const config = withTrunk(
      withTrunk(
        withTrunk(
          baseConfig({
            settings: { default_ij_rule: 'inter', default_ring_timeout_s: 45, max_call_duration_s: 7200 },
          }),
          1,
          { timeouts: { max_duration: 3600 } },
        ),
        12,
        { timeouts: { ring_timer: 20, pdd_timeout_ms: 4000, max_duration: 1800 } },
      ),
      11,
      { timeouts: { max_duration: 5400, ring_timer: null } },
    );
    const timers = decide(buildSnapshot(config), call()).routes.map((r) => [
      r.trunk_id,
      r.ring_timeout_s,
      r.pdd_timeout_ms,
      r.max_duration_s,
    ]);
    expect(timers).toEqual([
      [12, 20, 4000, 1800], // its own ring and PDD; 1800 < the ingress 3600
      [11, 45, null, 3600], // the system ring timeout; the ingress 3600 < 5400
      [13, 45, null, 3600], // no maximum of its own: the system's 7200, so the ingress 3600
    ]);
    // Without the ingress trunk's maximum the system's counts for it.
    const open = withTrunk(config, 1, { timeouts: null });
    expect(decide(buildSnapshot(open), call()).routes.map((r) => r.max_duration_s)).toEqual([
      1800, 5400, 7200,
    ]);
    expect(() => buildSnapshot(withTrunk(config, 12, { timeouts: { ring_timer: -1 } }))).toThrow(
      'trunks[2].timeouts.ring_timer: must be an integer >= 0, got -1',
    );
  });

  it('caps the number of routes', () => {
    const config = baseConfig({ settings: { default_ij_rule: 'inter', max_routes: 2 } });
    expect(order(config)).toEqual([12, 11]);
  });

  it('refuses with 404 when no ingress rate is effective and 503 when no trunk survives', () => {
    const snapshot = buildSnapshot(baseConfig());
    const noRate = decide(snapshot, call({ dnis: '33123456789' }));
    expect([noRate.reject_code, noRate.reject_reason]).toEqual([404, 'no_rate']);
    const config = baseConfig({
      trunks: baseConfig().trunks.map((t) => (t.direction === 'egress' ? { ...t, is_active: false } : t)),
    });
    const noRoute = decide(buildSnapshot(config), call());
    expect([noRoute.reject_code, noRoute.reject_reason]).toEqual([503, 'no_route']);
    expect(noRoute.ingress?.rate).toBe('0.0200');
  });
});

describe('effective dates at call time', () => {
  const june = Date.UTC(2024, 5, 1);
  const july = Date.UTC(2024, 6, 1);
  const config = baseConfig({
    rate_tables: [
      rates(1, [
        { code: '44', rate: '0.0200', end_date: july },
        { code: '44', rate: '0.0250', effective_date: july },
      ]),
      rates(11, [
        { code: '44', rate: '0.0100' },
        { code: '4420', rate: '0.0050', effective_date: june, end_date: july },
      ]),
      rates(12, [{ code: '44', rate: '0.0080', effective_date: july }]),
      rates(13, [{ code: '44', rate: '0.0120' }]),
    ],
  });
  const snapshot = buildSnapshot(config);

  it('uses the rows effective at the call start, start inclusive and end exclusive', () => {
    const before = decide(snapshot, call({ time: july - 1 }));
    expect(before.ingress?.rate).toBe('0.0200');
    expect(before.routes.map((r) => [r.trunk_id, r.code, r.rate])).toEqual([
      [11, '4420', '0.0050'],
      [13, '44', '0.0120'],
    ]);
    const after = decide(snapshot, call({ time: july }));
    expect(after.ingress?.rate).toBe('0.0250');
    expect(after.routes.map((r) => [r.trunk_id, r.code, r.rate])).toEqual([
      [12, '44', '0.0080'],
      [11, '44', '0.0100'],
      [13, '44', '0.0120'],
    ]);
    expect(decide(snapshot, call({ time: june - 1 })).routes.map((r) => r.code)).toEqual(['44', '44']);
  });
});

describe('routing plan rows', () => {
  const night = { time_profile_id: 7, type: 'daily' as const, start_time: '22:00', end_time: '06:00' };

  it('takes the longest DNIS prefix whose time profile covers the call, else a shorter one', () => {
    const config = baseConfig({
      time_profiles: [night],
      routing_plans: [
        {
          routing_plan_id: 1,
          rows: [
            { prefix: '', route_type: 'dynamic', route_id: 1 },
            { prefix: '4420', route_type: 'static', route_id: 2, time_profile_id: 7 },
          ],
        },
      ],
    });
    expect(order(config, { time: Date.UTC(2024, 5, 3, 23, 0) })).toEqual([13, 11, 12]); // static, night
    expect(order(config, { time: Date.UTC(2024, 5, 3, 12, 0) })).toEqual([12, 11, 13]); // dynamic LCR, day
    expect(order(config, { dnis: '447911123456', time: Date.UTC(2024, 5, 3, 23, 0) })).toEqual([12, 13, 11]); // 447: trunk 11 at 0.0150
  });

  it('reads time profiles in the system UTC offset', () => {
    const config = baseConfig({
      time_profiles: [night],
      routing_plans: [
        {
          routing_plan_id: 1,
          rows: [{ prefix: '44', route_type: 'static', route_id: 2, time_profile_id: 7 }],
        },
      ],
      settings: { default_ij_rule: 'inter', utc_offset_minutes: 600 }, // UTC+10: 12:00 UTC is 22:00
    });
    expect(order(config, { time: T0 })).toEqual([13, 11, 12]);
    expect(decide(buildSnapshot(config), call({ time: T0 - 1 })).reject_reason).toBe('no_routing_prefix');
  });

  it('checks the ANI prefix and number lengths of a row', () => {
    const config = baseConfig({
      routing_plans: [
        {
          routing_plan_id: 1,
          rows: [
            { prefix: '44', route_type: 'dynamic', route_id: 1, dnis_min_length: 12, dnis_max_length: 12 },
            { prefix: '4420', route_type: 'static', route_id: 2, ani_prefix: '1212' },
          ],
        },
      ],
    });
    expect(order(config)).toEqual([13, 11, 12]);
    expect(order(config, { ani: '13105550000' })).toEqual([12, 11, 13]);
    const tooLong = decide(buildSnapshot(config), call({ ani: '13105550000', dnis: '4420712345678' }));
    expect([tooLong.reject_code, tooLong.reject_reason]).toEqual([404, 'no_routing_prefix']);
  });

  it('refuses with 503 when the trunk has no routing plan', () => {
    const result = decide(buildSnapshot(withTrunk(baseConfig(), 1, { routing_plan_id: null })), call());
    expect([result.reject_code, result.reject_reason]).toEqual([503, 'no_routing_plan']);
  });
});

describe('static routes', () => {
  it('top-down keeps the listed order, dropping inactive trunks', () => {
    expect(
      order(
        withStatic({ strategy: 'top_down', trunks: [{ trunk_id: 13 }, { trunk_id: 11 }, { trunk_id: 12 }] }),
      ),
    ).toEqual([13, 11, 12]);
    const config = withTrunk(
      withStatic({ strategy: 'top_down', trunks: [{ trunk_id: 13 }, { trunk_id: 11 }, { trunk_id: 12 }] }),
      11,
      { is_active: false },
    );
    expect(order(config)).toEqual([13, 12]);
  });

  it('takes the longest item code whose time profile covers the call', () => {
    const config = baseConfig({
      routing_plans: [{ routing_plan_id: 1, rows: [{ prefix: '', route_type: 'static', route_id: 2 }] }],
      time_profiles: [
        {
          time_profile_id: 3,
          type: 'weekly',
          start_weekday: 6,
          start_time: '00:00',
          end_weekday: 1,
          end_time: '00:00',
        },
      ],
      static_routes: [
        {
          static_route_id: 2,
          items: [
            { code: '', strategy: 'top_down', trunks: [{ trunk_id: 13 }] },
            { code: '442', strategy: 'top_down', trunks: [{ trunk_id: 11 }] },
            { code: '4420', strategy: 'top_down', time_profile_id: 3, trunks: [{ trunk_id: 12 }] },
          ],
        },
      ],
    });
    expect(order(config)).toEqual([11]); // Monday: weekend item skipped
    expect(order(config, { time: Date.UTC(2024, 5, 8, 12) })).toEqual([12]); // Saturday
    expect(order(config, { dnis: '447911123456' })).toEqual([13]);
  });

  it('round robin cycles the first trunk call after call', () => {
    const config = withStatic({
      strategy: 'round_robin',
      trunks: [{ trunk_id: 11 }, { trunk_id: 12 }, { trunk_id: 13 }],
    });
    const snapshot = buildSnapshot(config);
    const state = createRoutingState();
    const firsts = Array.from({ length: 6 }, () =>
      decide(snapshot, call(), state).routes.map((r) => r.trunk_id),
    );
    expect(firsts).toEqual([
      [11, 12, 13],
      [12, 13, 11],
      [13, 11, 12],
      [11, 12, 13],
      [12, 13, 11],
      [13, 11, 12],
    ]);
    expect(state.round_robin.get('static:2:0')).toBe(6);
  });

  it('round robin over a list naming a trunk twice tries it once, where the rotation first meets it', () => {
    const config = withStatic({
      strategy: 'round_robin',
      trunks: [{ trunk_id: 11 }, { trunk_id: 12 }, { trunk_id: 11 }, { trunk_id: 13 }],
    });
    const snapshot = buildSnapshot(config);
    const state = createRoutingState();
    const orders = Array.from({ length: 4 }, () =>
      decide(snapshot, call(), state).routes.map((r) => r.trunk_id),
    );
    expect(orders).toEqual([
      [11, 12, 13],
      [12, 11, 13],
      [11, 13, 12],
      [13, 11, 12],
    ]);
  });

  it('round robin skips a dropped trunk without giving its neighbour two turns in a row', () => {
    const config = withTrunk(
      withStatic({ strategy: 'round_robin', trunks: [{ trunk_id: 11 }, { trunk_id: 12 }, { trunk_id: 13 }] }),
      12,
      { is_active: false },
    );
    const snapshot = buildSnapshot(config);
    const state = createRoutingState();
    const firsts = Array.from({ length: 6 }, () => decide(snapshot, call(), state).routes[0]?.trunk_id);
    expect(firsts).toEqual([11, 13, 13, 11, 13, 13]);
  });

  it('percentage spreads first attempts by weight (seeded, within 2 points over 20,000 calls)', () => {
    const config = withStatic({
      strategy: 'percentage',
      trunks: [
        { trunk_id: 11, percentage: 50 },
        { trunk_id: 12, percentage: 30 },
        { trunk_id: 13, percentage: 20 },
      ],
    });
    const snapshot = buildSnapshot(config);
    const state = createRoutingState(seededRandom(42));
    const counts = new Map<number, number>();
    const calls = 20_000;
    for (let i = 0; i < calls; i++) {
      const routes = decide(snapshot, call(), state).routes;
      expect(routes).toHaveLength(3);
      const first = routes[0]?.trunk_id ?? 0;
      counts.set(first, (counts.get(first) ?? 0) + 1);
    }
    expect(Math.abs(((counts.get(11) ?? 0) / calls) * 100 - 50)).toBeLessThan(2);
    expect(Math.abs(((counts.get(12) ?? 0) / calls) * 100 - 30)).toBeLessThan(2);
    expect(Math.abs(((counts.get(13) ?? 0) / calls) * 100 - 20)).toBeLessThan(2);
  });

  it('percentage puts the drawn trunk first and the rest in listed order', () => {
    const config = withStatic({
      strategy: 'percentage',
      trunks: [
        { trunk_id: 11, percentage: 50 },
        { trunk_id: 12, percentage: 30 },
        { trunk_id: 13, percentage: 20 },
      ],
    });
    const snapshot = buildSnapshot(config);
    expect(decide(snapshot, call(), { random: () => 0.1 }).routes.map((r) => r.trunk_id)).toEqual([
      11, 12, 13,
    ]);
    expect(decide(snapshot, call(), { random: () => 0.6 }).routes.map((r) => r.trunk_id)).toEqual([
      12, 11, 13,
    ]);
    expect(decide(snapshot, call(), { random: () => 0.85 }).routes.map((r) => r.trunk_id)).toEqual([
      13, 11, 12,
    ]);
  });

  it('percentage draws among the trunks still in the list', () => {
    const config = withTrunk(
      withStatic({
        strategy: 'percentage',
        trunks: [
          { trunk_id: 11, percentage: 90 },
          { trunk_id: 12, percentage: 10 },
        ],
      }),
      11,
      { is_active: false },
    );
    const snapshot = buildSnapshot(config);
    expect(snapshot.warnings).toEqual([]);
    expect(decide(snapshot, call(), { random: () => 0.01 }).routes.map((r) => r.trunk_id)).toEqual([12]);
  });
});

describe('dynamic routes', () => {
  const pool = (
    rule: 'lcr' | 'largest_asr' | 'largest_acd',
    trunks: DynamicRouteTrunkConfig[] = [{ trunk_id: 11 }, { trunk_id: 12 }, { trunk_id: 13 }],
  ) => baseConfig({ dynamic_routes: [{ dynamic_route_id: 1, rule, trunks }] });

  it('LCR orders by the vendor rate for this number', () => {
    expect(order(pool('lcr'))).toEqual([12, 11, 13]); // 0.0080, 0.0100, 0.0120
    // For 447, trunk 11 has 0.0150: it goes last.
    expect(order(pool('lcr'), { dnis: '447911123456' })).toEqual([12, 13, 11]);
  });

  it('LCR breaks ties by priority, then trunk id', () => {
    const config = {
      ...pool('lcr', [{ trunk_id: 13, priority: 2 }, { trunk_id: 11, priority: 1 }, { trunk_id: 12 }]),
      rate_tables: [
        rates(1, [{ code: '44', rate: '0.02' }]),
        ...[11, 12, 13].map((id) => rates(id, [{ code: '44', rate: '0.01' }])),
      ],
    };
    expect(order(config)).toEqual([11, 13, 12]);
  });

  it('largest ASR and largest ACD order by the QoS figures of the state', () => {
    const qos = new Map([
      [11, { asr: 40, acd: 300 }],
      [12, { asr: 55, acd: 120 }],
      [13, { asr: 55, acd: 200 }],
    ]);
    expect(order(pool('largest_asr'), {}, { qos })).toEqual([13, 12, 11]);
    expect(order(pool('largest_acd'), {}, { qos })).toEqual([11, 13, 12]);
  });

  it('uses the QoS figures of the route when the state has none, and 0 when neither has', () => {
    const config = pool('largest_asr', [
      { trunk_id: 11, qos: { asr: 10, acd: 60 } },
      { trunk_id: 12 },
      { trunk_id: 13, qos: { asr: 30, acd: 60 } },
    ]);
    expect(order(config)).toEqual([13, 11, 12]);
    expect(order(config, {}, { qos: new Map([[12, { asr: 99, acd: 1 }]]) })).toEqual([12, 13, 11]);
  });

  it('drops a trunk over its limits in the pool, on the trunk or at the vendor', () => {
    const config = withCarrier(
      withTrunk(pool('lcr', [{ trunk_id: 11, call_limit: 5 }, { trunk_id: 12 }, { trunk_id: 13 }]), 12, {
        cps_limit: 3,
      }),
      13,
      { call_limit: 100 },
    );
    const snapshot = buildSnapshot(config);
    const ids = (state: Parameters<typeof decide>[2]) =>
      decide(snapshot, call(), state).routes.map((r) => r.trunk_id);
    expect(ids({})).toEqual([12, 11, 13]);
    expect(ids({ trunk_calls: new Map([[11, 5]]) })).toEqual([12, 13]);
    expect(ids({ trunk_cps: new Map([[12, 3]]) })).toEqual([11, 13]);
    expect(ids({ carrier_calls: new Map([[13, 100]]) })).toEqual([12, 11]);
  });

  it('drops inactive vendors, blocked trunks, trunks without a rate and duplicates', () => {
    const config: EngineConfig = {
      ...withCarrier(
        pool('lcr', [
          { trunk_id: 11 },
          { trunk_id: 12 },
          { trunk_id: 13 },
          { trunk_id: 11 },
          { trunk_id: 14 },
          { trunk_id: 1 },
        ]),
        12,
        { is_active: false },
      ),
      block_list: [{ trunk_id: 13, dnis_prefix: '4420' }],
    };
    const withNoRate = { ...config, trunks: [...config.trunks, vendor(14, 11, 99)] };
    const snapshot = buildSnapshot(withNoRate);
    expect(snapshot.warnings).toContain('trunks[4]: unknown rate table 99');
    const result = decide(snapshot, call(), {}, { trace: true });
    expect(result.routes.map((r) => r.trunk_id)).toEqual([11]);
    const dropped = result.trace
      .filter((s) => s.step === 'egress' && s.outcome === 'fail')
      .map((s) => s.data?.reason);
    expect(dropped).toEqual([
      'vendor_inactive',
      'blocked',
      'listed_twice',
      'no_rate_table',
      'not_an_egress_trunk',
    ]);
    expect(decide(snapshot, call({ dnis: '447911123456' })).routes.map((r) => r.trunk_id)).toEqual([13, 11]);
  });
});

describe('minimum profitability', () => {
  // ingress 0.0200; vendors 12 at 0.0080 (60 %), 11 at 0.0100 (50 %), 13 at 0.0120 (40 %)
  it('drops vendors below the customer carrier minimum', () => {
    expect(order(withCarrier(baseConfig(), 1, { min_profitability_percent: '50' }))).toEqual([12, 11]);
    expect(order(withCarrier(baseConfig(), 1, { min_profitability_percent: '50.01' }))).toEqual([12]);
  });

  it('lets the ingress trunk minimum override the carrier minimum', () => {
    const config = withTrunk(withCarrier(baseConfig(), 1, { min_profitability_percent: '50' }), 1, {
      min_profitability: '0',
    });
    expect(order(config)).toEqual([12, 11, 13]);
  });

  it('applies the vendor trunk minimum too (the larger one wins)', () => {
    expect(order(withTrunk(baseConfig(), 12, { min_profitability: '61' }))).toEqual([11, 13]);
    const both = withTrunk(withCarrier(baseConfig(), 1, { min_profitability_percent: '45' }), 12, {
      min_profitability: '10',
    });
    expect(order(both)).toEqual([12, 11]);
  });

  it('drops a vendor dearer than the customer rate even at minimum 0', () => {
    const config = {
      ...withCarrier(baseConfig(), 1, { min_profitability_percent: '0' }),
      rate_tables: [
        rates(1, [{ code: '44', rate: '0.0100' }]),
        rates(11, [{ code: '44', rate: '0.0100' }]),
        rates(12, [{ code: '44', rate: '0.0101' }]),
        rates(13, [{ code: '44', rate: '0.0050' }]),
      ],
    };
    expect(order(config)).toEqual([13, 11]);
  });

  it('property: every kept vendor meets the minimum, every dropped one misses it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 80 }), (minimum) => {
        const routes = decide(
          buildSnapshot(withCarrier(baseConfig(), 1, { min_profitability_percent: String(minimum) })),
          call(),
        ).routes;
        const margins: Record<number, number> = { 12: 60, 11: 50, 13: 40 };
        const expected = [12, 11, 13].filter((id) => (margins[id] as number) >= minimum);
        expect(routes.map((r) => r.trunk_id)).toEqual(expected);
      }),
    );
  });
});

describe('trace', () => {
  it('tells each step when asked, and nothing otherwise', () => {
    const snapshot = buildSnapshot(withCarrier(baseConfig(), 1, { min_profitability_percent: '45' }));
    const quiet = decide(snapshot, call());
    const traced = decide(snapshot, call(), {}, { trace: true });
    expect(quiet.trace).toHaveLength(0);
    expect({ ...traced, trace: [] }).toEqual(quiet);
    expect(traced.trace.map((s) => `${s.step}:${s.outcome}`)).toEqual([
      'ingress:ok',
      'admission:ok',
      'admission:ok',
      'admission:ok',
      'block_list:ok',
      'ingress_rate:ok',
      'routing_plan:ok',
      'route:info',
      'egress:ok',
      'egress:ok',
      'egress:fail',
      'result:ok',
    ]);
    expect(traced.trace[0]?.detail).toContain('customer-1');
    expect(traced.trace[5]?.data).toMatchObject({ code: '44', rate: '0.0200', column: 'rate' });
    expect(traced.trace[10]?.data).toMatchObject({ trunk_id: 13, reason: 'below_min_profitability' });
    expect(traced.trace[10]?.detail).toContain('margin 40.00 % < 45.000000 %');
    expect(JSON.parse(JSON.stringify(traced.trace))).toEqual(traced.trace);
  });

  it('explains a refusal', () => {
    const traced = decide(
      buildSnapshot(baseConfig()),
      call({ source_ip: '10.0.0.9', dnis: '33123456789' }),
      {},
      { trace: true },
    );
    expect(traced.trace.at(-2)).toMatchObject({ step: 'ingress_rate', outcome: 'fail' });
    expect(traced.trace.at(-1)?.detail).toBe('Rejected with 404 (no_rate).');
  });
});

describe('amounts near 10^12 per minute (beyond the exact integers of a double)', () => {
  // Rates near 10^12 per minute (the database allows 12 integer digits): 10^18 micro-units, where
  // doubles are 128 micro-units apart, so the engine must order, check and format them exactly.
  const huge = (minimum?: string) =>
    withCarrier(
      baseConfig({
        rate_tables: [
          rates(1, [{ code: '44', rate: '999999999999.999999' }], { decimal_places: 6 }),
          rates(11, [{ code: '44', rate: '999999999999.999001' }], { decimal_places: 6 }),
          rates(12, [{ code: '44', rate: '999999999999.999000' }], { decimal_places: 6 }),
          rates(13, [{ code: '44', rate: '0.012' }], { decimal_places: 6 }),
        ],
      }),
      1,
      // unlimited credit: these calls are about exact amounts, not what a credit limit buys
      minimum === undefined
        ? { unlimited_credit: true }
        : { unlimited_credit: true, min_profitability_percent: minimum },
    );

  it('orders, prices and states the margin exactly', () => {
    const decision = decide(buildSnapshot(huge()), call(), createRoutingState());
    expect(decision.ingress?.rate).toBe('999999999999.999999');
    expect(decision.routes.map((r) => [r.trunk_id, r.rate, r.profit])).toEqual([
      [13, '0.012000', '999999999999.987999'],
      [12, '999999999999.999000', '0.000999'],
      [11, '999999999999.999001', '0.000998'],
    ]);
  });

  it('checks the minimum margin exactly', () => {
    // At 0.000001 % the ceiling is floor(999999999999.999999 * (1 - 10^-8)) = 999999989999.999999;
    // one micro-unit above it (the same double) must be dropped.
    const margin = (vendor11: string, vendor12: string) =>
      order({
        ...huge('0.000001'),
        rate_tables: [
          rates(1, [{ code: '44', rate: '999999999999.999999' }], { decimal_places: 6 }),
          rates(11, [{ code: '44', rate: vendor11 }], { decimal_places: 6 }),
          rates(12, [{ code: '44', rate: vendor12 }], { decimal_places: 6 }),
          rates(13, [{ code: '44', rate: '0.012' }], { decimal_places: 6 }),
        ],
      });
    expect(margin('999999990000.000000', '999999989999.999999')).toEqual([13, 12]);
    expect(margin('999999989999.999999', '999999990000.000000')).toEqual([13, 11]);
  });
});
