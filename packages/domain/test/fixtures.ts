import type { CarrierConfig, EngineConfig, RateRowConfig, RateTableConfig, TrunkConfig } from '../src/config';
import type { CallAttempt } from '../src/routing-types';

/** mulberry32: a small seeded PRNG for reproducible percentage tests. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const T0 = Date.UTC(2024, 5, 3, 12, 0, 0); // Monday 2024-06-03 12:00 UTC

export function carrier(id: number, over: Partial<CarrierConfig> = {}): CarrierConfig {
  return {
    carrier_id: id,
    name: `carrier-${id}`,
    is_active: true,
    mode: 'postpaid',
    balance: '0',
    credit_limit: '1000',
    ...over,
  };
}

export function rates(
  id: number,
  rows: RateRowConfig[],
  over: Partial<RateTableConfig> = {},
): RateTableConfig {
  return { rate_table_id: id, name: `table-${id}`, type: 'a_z', decimal_places: 4, rows, ...over };
}

export function vendor(
  trunkId: number,
  carrierId: number,
  rateTableId: number,
  over: Partial<TrunkConfig> = {},
): TrunkConfig {
  return {
    trunk_id: trunkId,
    carrier_id: carrierId,
    name: `vendor-${trunkId}`,
    direction: 'egress',
    is_active: true,
    hosts: [{ ip: `192.0.2.${trunkId % 250}`, port: 5060 }],
    rate_table_id: rateTableId,
    ...over,
  };
}

/**
 * A customer (carrier 1, ingress trunk 1 from 10.0.0.0/24, rate table 1 at 0.0200 for 44),
 * a routing plan 1 with a catch-all dynamic LCR route 1 over three vendors:
 *   trunk 11 (carrier 11, table 11: 44 at 0.0100, 447 at 0.0150),
 *   trunk 12 (carrier 12, table 12: 44 at 0.0080),
 *   trunk 13 (carrier 13, table 13: 44 at 0.0120),
 * and static route 2 (top-down 13, 11, 12) used by tests that switch the plan row.
 */
export function baseConfig(over: Partial<EngineConfig> = {}): EngineConfig {
  return {
    carriers: [carrier(1), carrier(11), carrier(12), carrier(13)],
    trunks: [
      {
        trunk_id: 1,
        carrier_id: 1,
        name: 'customer-1',
        direction: 'ingress',
        is_active: true,
        hosts: [{ ip: '10.0.0.0', netmask: 24 }],
        rate_table_id: 1,
        routing_plan_id: 1,
      },
      vendor(11, 11, 11),
      vendor(12, 12, 12),
      vendor(13, 13, 13),
    ],
    rate_tables: [
      rates(1, [
        { code: '44', code_name: 'UK', rate: '0.0200', min_time: 30, interval: 6 },
        { code: '447', code_name: 'UK mobile', rate: '0.0300', min_time: 30, interval: 6 },
      ]),
      rates(11, [
        { code: '44', code_name: 'UK', rate: '0.0100' },
        { code: '447', code_name: 'UK mobile', rate: '0.0150' },
      ]),
      rates(12, [{ code: '44', code_name: 'UK', rate: '0.0080' }]),
      rates(13, [{ code: '44', code_name: 'UK', rate: '0.0120' }]),
    ],
    routing_plans: [
      { routing_plan_id: 1, name: 'plan-1', rows: [{ prefix: '', route_type: 'dynamic', route_id: 1 }] },
    ],
    dynamic_routes: [
      {
        dynamic_route_id: 1,
        name: 'lcr',
        rule: 'lcr',
        trunks: [{ trunk_id: 11 }, { trunk_id: 12 }, { trunk_id: 13 }],
      },
    ],
    static_routes: [
      {
        static_route_id: 2,
        name: 'static',
        items: [
          { code: '', strategy: 'top_down', trunks: [{ trunk_id: 13 }, { trunk_id: 11 }, { trunk_id: 12 }] },
        ],
      },
    ],
    settings: { default_ij_rule: 'inter' },
    ...over,
  };
}

export function call(over: Partial<CallAttempt> = {}): CallAttempt {
  return {
    source_ip: '10.0.0.7',
    source_port: 5060,
    ani: '12125550000',
    dnis: '442071234567',
    time: T0,
    ...over,
  };
}

/** Replaces one trunk of a config. */
export function withTrunk(config: EngineConfig, trunkId: number, over: Partial<TrunkConfig>): EngineConfig {
  return { ...config, trunks: config.trunks.map((t) => (t.trunk_id === trunkId ? { ...t, ...over } : t)) };
}

export function withCarrier(
  config: EngineConfig,
  carrierId: number,
  over: Partial<CarrierConfig>,
): EngineConfig {
  return {
    ...config,
    carriers: config.carriers.map((c) => (c.carrier_id === carrierId ? { ...c, ...over } : c)),
  };
}
