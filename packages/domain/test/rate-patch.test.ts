import { describe, expect, it } from 'vitest';
import { buildSnapshot, decide, patchRateRows, type EngineConfig } from '../src/index';

const JAN = Date.UTC(2024, 0, 1);
const config = (): EngineConfig => ({
  carriers: [
    { carrier_id: 1, name: 'C', is_active: true, mode: 'postpaid', balance: '0', credit_limit: '10' },
    { carrier_id: 2, name: 'V', is_active: true, mode: 'postpaid', balance: '0' },
  ],
  trunks: [
    {
      trunk_id: 1,
      carrier_id: 1,
      name: 'in',
      direction: 'ingress',
      is_active: true,
      hosts: [{ ip: '10.0.0.1' }],
      rate_table_id: 1,
      routing_plan_id: 1,
    },
    {
      trunk_id: 2,
      carrier_id: 2,
      name: 'out',
      direction: 'egress',
      is_active: true,
      hosts: [{ ip: '10.0.0.2' }],
      rate_table_id: 2,
    },
  ],
  rate_tables: [
    {
      rate_table_id: 1,
      type: 'a_z',
      decimal_places: 4,
      rows: [
        { code: '44', rate: '0.05', effective_date: JAN },
        { code: '4477', rate: '0.09' },
      ],
    },
    {
      rate_table_id: 2,
      type: 'a_z',
      decimal_places: 4,
      rows: [{ code: '44', rate: '0.02', effective_date: JAN }],
    },
  ],
  routing_plans: [{ routing_plan_id: 1, rows: [{ prefix: '', route_type: 'dynamic', route_id: 1 }] }],
  dynamic_routes: [{ dynamic_route_id: 1, rule: 'lcr', trunks: [{ trunk_id: 2 }] }],
  settings: { default_ij_rule: 'inter' },
});
const call = { source_ip: '10.0.0.1', ani: '', dnis: '4420123', time: Date.UTC(2025, 0, 1) };

describe('patchRateRows', () => {
  it('writes new values of existing rows into the snapshot: the next decision uses them', () => {
    const s = buildSnapshot(config());
    expect(decide(s, call).routes[0]).toMatchObject({ rate: '0.0200', profit: '0.0300' });
    expect(
      patchRateRows(s, [
        {
          rate_table_id: 2,
          row: { code: '44', rate: '0.0310', effective_date: JAN, min_time: 6, interval: 6 },
        },
      ]),
    ).toBe(true);
    expect(decide(s, call).routes[0]).toMatchObject({ rate: '0.0310', profit: '0.0190' });
    expect(s.rate_tables.get(2)?.lookup('4420', Date.UTC(2025, 0, 1))).toMatchObject({
      min_time: 6,
      interval: 6,
    });
    expect(
      patchRateRows(s, [{ rate_table_id: 1, row: { code: '4477', rate: '0.1', code_name: 'UK mobile' } }]),
    ).toBe(true);
    expect(decide(s, { ...call, dnis: '4477001' }).ingress).toMatchObject({
      rate: '0.1000',
      code_name: 'UK mobile',
    });
  });

  it('refuses (changing nothing) a change that is not value-only: other dates, unknown code or table', () => {
    const s = buildSnapshot(config());
    const ok = { rate_table_id: 2, row: { code: '44', rate: '0.09', effective_date: JAN } };
    expect(
      patchRateRows(s, [
        ok,
        { rate_table_id: 2, row: { code: '44', rate: '0.01', effective_date: JAN + 1 } },
      ]),
    ).toBe(false);
    expect(
      patchRateRows(s, [
        ok,
        {
          rate_table_id: 2,
          row: { code: '44', rate: '0.01', effective_date: JAN, end_date: JAN + 86_400_000 },
        },
      ]),
    ).toBe(false);
    expect(patchRateRows(s, [ok, { rate_table_id: 2, row: { code: '441', rate: '0.01' } }])).toBe(false);
    expect(patchRateRows(s, [ok, { rate_table_id: 9, row: { code: '44', rate: '0.01' } }])).toBe(false);
    expect(decide(s, call).routes[0]?.rate).toBe('0.0200');
  });

  it('throws on a malformed value before writing anything', () => {
    const s = buildSnapshot(config());
    expect(() =>
      patchRateRows(s, [
        { rate_table_id: 2, row: { code: '44', rate: '0.03', effective_date: JAN } },
        { rate_table_id: 1, row: { code: '4477', rate: 'abc' } },
      ]),
    ).toThrow();
    expect(decide(s, call).routes[0]?.rate).toBe('0.0200');
  });
});
