import { okEnvelope, type api } from '@tandem/contract';
import { buildSnapshot, decide, type EngineConfig } from '@tandem/domain';
import { describe, expect, it } from 'vitest';
import { answerJson, answerOf } from '../../src/modules/routing/switch-api';

const config: EngineConfig = {
  carriers: [
    {
      carrier_id: 1,
      name: 'Customer "C"',
      is_active: true,
      mode: 'postpaid',
      balance: '0',
      credit_limit: '100',
    },
    { carrier_id: 2, name: 'Vendor', is_active: true, mode: 'postpaid', balance: '0' },
  ],
  trunks: [
    {
      trunk_id: 10,
      carrier_id: 1,
      name: 'in',
      direction: 'ingress',
      is_active: true,
      hosts: [{ ip: '10.0.0.0', netmask: 8 }],
      rate_table_id: 1,
      routing_plan_id: 1,
    },
    {
      trunk_id: 20,
      carrier_id: 2,
      name: 'out',
      direction: 'egress',
      is_active: true,
      hosts: [{ ip: '192.0.2.1', port: 5060 }, { ip: 'sip.example.com' }],
      rate_table_id: 2,
      tech_prefix: '99#',
      failover_rules: [
        { sip_code: 503, action: 'return', return_code: 480, return_clause: 'Vendor "down"' },
        { sip_code: 486, action: 'next' },
      ],
    },
  ],
  rate_tables: [
    {
      rate_table_id: 1,
      type: 'a_z',
      decimal_places: 4,
      rows: [{ code: '44', code_name: 'UK "mobile"', rate: '0.05' }],
    },
    { rate_table_id: 2, type: 'a_z', decimal_places: 4, rows: [{ code: '44', rate: '0.02' }] },
  ],
  routing_plans: [{ routing_plan_id: 1, rows: [{ prefix: '', route_type: 'dynamic', route_id: 1 }] }],
  dynamic_routes: [{ dynamic_route_id: 1, rule: 'lcr', trunks: [{ trunk_id: 20 }] }],
  settings: {
    default_ij_rule: 'inter',
    default_failover_rules: [{ sip_code: 404, action: 'return', return_code: null, return_clause: null }],
  },
};

describe('route API answer', () => {
  const snapshot = buildSnapshot(config);
  const cases = [
    { source_ip: '10.1.2.3', ani: '1555"0', dnis: '4477009', time: 0 },
    { source_ip: '10.1.2.3', ani: '', dnis: '3377009', time: 0 },
    { source_ip: '172.16.0.1', ani: '', dnis: '4477009', time: 0 },
  ];
  it('the hand-written JSON is the envelope of the answer object, byte for byte', () => {
    expect(decide(snapshot, cases[0]!).routes.map((r) => r.dnis)).toEqual(['99#4477009']);
    for (const c of cases) {
      const d = decide(snapshot, c);
      expect(answerJson(d, new Map())).toBe(JSON.stringify(okEnvelope(answerOf(d, new Map()))));
      expect(answerJson(d, new Map(), 42)).toBe(JSON.stringify(okEnvelope(answerOf(d, new Map(), 42))));
    }
  });
  it("carries each route's failover table: the trunk's rules over the system's over the built-in rule", () => {
    const answer = (
      JSON.parse(answerJson(decide(snapshot, cases[0]!), new Map(), 7)) as {
        payload: api.routing.RouteAnswer;
      }
    ).payload;
    expect(answer.seq).toBe(7);
    expect(answer.routes[0]!.failover).toEqual({
      '404': { action: 'return', return_code: 404, return_clause: 'Not Found' },
      '486': { action: 'next', return_code: null, return_clause: null },
      '487': { action: 'return', return_code: 487, return_clause: 'Request Terminated' },
      '503': { action: 'return', return_code: 480, return_clause: 'Vendor "down"' },
      '6xx': { action: 'return', return_code: null, return_clause: null },
      '*': { action: 'next', return_code: null, return_clause: null },
    });
  });
  it('applies the configured route error code and clause to a reject', () => {
    const d = decide(snapshot, cases[2]!);
    const errors = new Map([['no_ingress_trunk', { code: 404, clause: 'Who "are" you' }]]);
    expect(JSON.parse(answerJson(d, errors))).toEqual(okEnvelope(answerOf(d, errors)));
    expect(answerOf(d, errors)).toMatchObject({
      result: 'reject',
      reject_code: 404,
      reject_reason: 'Who "are" you',
    });
  });
});
