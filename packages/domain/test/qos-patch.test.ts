import { describe, expect, it } from 'vitest';
import { buildSnapshot, decide, patchDynamicQos, type EngineConfig } from '../src/index';

const trunk = (trunk_id: number, direction: 'ingress' | 'egress', ip: string) => ({
  trunk_id,
  carrier_id: direction === 'ingress' ? 1 : 2,
  name: `t${trunk_id}`,
  direction,
  is_active: true,
  hosts: [{ ip }],
  rate_table_id: direction === 'ingress' ? 1 : 2,
  routing_plan_id: direction === 'ingress' ? 1 : null,
});
const config = (qos: [number, number][]): EngineConfig => ({
  carriers: [
    { carrier_id: 1, name: 'C', is_active: true, mode: 'postpaid', balance: '0', credit_limit: '10' },
    { carrier_id: 2, name: 'V', is_active: true, mode: 'postpaid', balance: '0' },
  ],
  trunks: [trunk(1, 'ingress', '10.0.0.1'), trunk(2, 'egress', '10.0.0.2'), trunk(3, 'egress', '10.0.0.3')],
  rate_tables: [
    { rate_table_id: 1, type: 'a_z', decimal_places: 4, rows: [{ code: '44', rate: '0.05' }] },
    { rate_table_id: 2, type: 'a_z', decimal_places: 4, rows: [{ code: '44', rate: '0.02' }] },
  ],
  routing_plans: [{ routing_plan_id: 1, rows: [{ prefix: '', route_type: 'dynamic', route_id: 1 }] }],
  dynamic_routes: [
    {
      dynamic_route_id: 1,
      rule: 'largest_asr',
      trunks: [2, 3].map((trunk_id, i) => ({
        trunk_id,
        qos: { asr: qos[i]![0], acd: qos[i]![1] },
      })),
    },
  ],
  settings: { default_ij_rule: 'inter' },
});
const order = (s: ReturnType<typeof buildSnapshot>) =>
  decide(s, { source_ip: '10.0.0.1', ani: '', dnis: '4420123', time: Date.UTC(2025, 0, 1) }).routes.map(
    (r) => r.trunk_id,
  );

describe('patchDynamicQos', () => {
  it('writes new figures into the pool: the next decision orders by them', () => {
    const s = buildSnapshot(
      config([
        [40, 100],
        [30, 100],
      ]),
    );
    expect(order(s)).toEqual([2, 3]);
    const next = config([
      [40, 100],
      [55, 90],
    ]);
    expect(patchDynamicQos(s, next.dynamic_routes!)).toBe(true);
    expect(order(s)).toEqual([3, 2]);
    expect(s.dynamic_routes.get(1)!.trunks.map((t) => t.qos)).toEqual([
      { asr: 40, acd: 100 },
      { asr: 55, acd: 90 },
    ]);
  });

  it('writes nothing and answers false when the pools are not the snapshot’s', () => {
    const s = buildSnapshot(
      config([
        [40, 100],
        [30, 100],
      ]),
    );
    const other = config([
      [10, 1],
      [90, 1],
    ]).dynamic_routes!;
    const reordered = [{ ...other[0]!, trunks: [...other[0]!.trunks].reverse() }];
    expect(patchDynamicQos(s, reordered)).toBe(false);
    expect(patchDynamicQos(s, [...other, { dynamic_route_id: 9, rule: 'lcr', trunks: [] }])).toBe(false);
    expect(patchDynamicQos(s, [{ ...other[0]!, dynamic_route_id: 2 }])).toBe(false);
    expect(order(s)).toEqual([2, 3]);
  });
});
