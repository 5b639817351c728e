import { describe, expect, it } from 'vitest';
import { buildSnapshot } from '../src/snapshot';
import { decide } from '../src/routing';
import { REJECT } from '../src/reject-codes';
import { ipv4InNetwork, maskOf, parseIpv4 } from '../src/network';
import type { EngineConfig, TrunkConfig } from '../src/config';
import { baseConfig, call, carrier, withCarrier, withTrunk } from './fixtures';

describe('IPv4 netmask matching', () => {
  it('parses dotted quads and refuses anything else', () => {
    expect(parseIpv4('10.0.0.7')).toBe(0x0a000007);
    expect(parseIpv4('255.255.255.255')).toBe(0xffffffff);
    expect(parseIpv4('10.0.0')).toBe(-1);
    expect(parseIpv4('10.0.0.256')).toBe(-1);
    expect(parseIpv4('10..0.1')).toBe(-1);
    expect(parseIpv4('2001:db8::1')).toBe(-1);
  });

  it('matches within the prefix length', () => {
    expect(maskOf(24)).toBe(0xffffff00);
    expect(maskOf(0)).toBe(0);
    expect(ipv4InNetwork('10.0.0.200', '10.0.0.0', 24)).toBe(true);
    expect(ipv4InNetwork('10.0.1.1', '10.0.0.0', 24)).toBe(false);
    expect(ipv4InNetwork('10.0.1.1', '10.0.0.0', 23)).toBe(true);
    expect(ipv4InNetwork('10.0.2.1', '10.0.0.0', 23)).toBe(false);
    expect(ipv4InNetwork('172.16.5.4', '10.0.0.0', 0)).toBe(true);
    expect(ipv4InNetwork('10.0.0.8', '10.0.0.7', 32)).toBe(false);
    expect(() => maskOf(33)).toThrow(RangeError);
  });
});

const ingress = (id: number, over: Partial<TrunkConfig>): TrunkConfig => ({
  trunk_id: id,
  carrier_id: 1,
  name: `in-${id}`,
  direction: 'ingress',
  is_active: true,
  hosts: [],
  rate_table_id: 1,
  routing_plan_id: 1,
  ...over,
});

function withIngress(...trunks: TrunkConfig[]): EngineConfig {
  const base = baseConfig();
  return { ...base, trunks: [...base.trunks.filter((t) => t.direction === 'egress'), ...trunks] };
}

describe('identifying the ingress trunk', () => {
  it('matches the source IP within the host netmask', () => {
    const snapshot = buildSnapshot(baseConfig());
    expect(decide(snapshot, call({ source_ip: '10.0.0.254' })).ingress?.trunk_id).toBe(1);
    const outside = decide(snapshot, call({ source_ip: '10.0.1.1' }));
    expect(outside.result).toBe('reject');
    expect(outside.reject_code).toBe(403);
    expect(outside.reject_reason).toBe(REJECT.NO_INGRESS_TRUNK.reason);
    expect(outside.ingress).toBeNull();
  });

  it('matches a host port only from that port', () => {
    const snapshot = buildSnapshot(withIngress(ingress(5, { hosts: [{ ip: '10.9.9.9', port: 5080 }] })));
    expect(decide(snapshot, call({ source_ip: '10.9.9.9', source_port: 5080 })).ingress?.trunk_id).toBe(5);
    expect(decide(snapshot, call({ source_ip: '10.9.9.9', source_port: 5060 })).reject_reason).toBe(
      'no_ingress_trunk',
    );
  });

  it('prefers the longest tech prefix and strips it from the DNIS', () => {
    const snapshot = buildSnapshot(
      withIngress(
        ingress(5, { hosts: [{ ip: '10.0.0.7' }] }),
        ingress(6, { hosts: [{ ip: '10.0.0.0', netmask: 16 }], tech_prefix: '123#' }),
        ingress(7, { hosts: [{ ip: '10.0.0.0', netmask: 16 }], tech_prefix: '12' }),
      ),
    );
    const long = decide(snapshot, call({ dnis: '123#442071234567' }));
    expect(long.ingress?.trunk_id).toBe(6);
    expect(long.ingress?.tech_prefix).toBe('123#');
    expect(long.dnis).toBe('442071234567');
    const short = decide(snapshot, call({ dnis: '12442071234567' }));
    expect(short.ingress?.trunk_id).toBe(7);
    expect(short.dnis).toBe('442071234567');
    const none = decide(snapshot, call({ dnis: '442071234567' }));
    expect(none.ingress?.trunk_id).toBe(5);
  });

  it('prefers the more specific host at equal tech prefix, then a host with a port, then the lower id', () => {
    const snapshot = buildSnapshot(
      withIngress(
        ingress(8, { hosts: [{ ip: '10.0.0.0', netmask: 8 }] }),
        ingress(9, { hosts: [{ ip: '10.0.0.0', netmask: 24 }] }),
        ingress(10, { hosts: [{ ip: '10.0.0.0', netmask: 24, port: 5060 }] }),
        ingress(3, { hosts: [{ ip: '10.0.0.0', netmask: 24, port: 5060 }] }),
      ),
    );
    expect(decide(snapshot, call({ source_port: 5060 })).ingress?.trunk_id).toBe(3);
    expect(decide(snapshot, call({ source_port: 5070 })).ingress?.trunk_id).toBe(9);
    expect(decide(snapshot, call({ source_ip: '10.200.0.1' })).ingress?.trunk_id).toBe(8);
  });

  it('picks products on one trunk by tech prefix', () => {
    const config = withTrunk(baseConfig(), 1, {
      routing_rows: [
        { tech_prefix: '', rate_table_id: 1, routing_plan_id: 1 },
        { tech_prefix: '99', rate_table_id: 11, routing_plan_id: 1 },
      ],
    });
    const snapshot = buildSnapshot(config);
    const premium = decide(snapshot, call({ dnis: '99442071234567' }));
    expect(premium.ingress?.rate_table_id).toBe(11);
    expect(premium.ingress?.rate).toBe('0.0100');
    expect(decide(snapshot, call()).ingress?.rate_table_id).toBe(1);
  });

  it('reports an inactive trunk only when no active trunk matches', () => {
    const both = buildSnapshot(
      withIngress(
        ingress(5, { hosts: [{ ip: '10.0.0.7' }], is_active: false }),
        ingress(6, { hosts: [{ ip: '10.0.0.0', netmask: 24 }] }),
      ),
    );
    expect(decide(both, call()).ingress?.trunk_id).toBe(6);
    const onlyInactive = buildSnapshot(
      withIngress(ingress(5, { hosts: [{ ip: '10.0.0.7' }], is_active: false })),
    );
    const result = decide(onlyInactive, call());
    expect(result.reject_code).toBe(403);
    expect(result.reject_reason).toBe('ingress_trunk_inactive');
    expect(result.ingress?.trunk_id).toBe(5);
  });

  it('matches non-IPv4 hosts as exact text', () => {
    const snapshot = buildSnapshot(withIngress(ingress(5, { hosts: [{ ip: '2001:DB8::1' }] })));
    expect(decide(snapshot, call({ source_ip: '2001:db8::1' })).ingress?.trunk_id).toBe(5);
    expect(decide(snapshot, call({ source_ip: '2001:db8::2' })).result).toBe('reject');
  });
});

describe('admission', () => {
  it('refuses an inactive customer', () => {
    const result = decide(buildSnapshot(withCarrier(baseConfig(), 1, { is_active: false })), call());
    expect([result.reject_code, result.reject_reason]).toEqual([403, 'customer_inactive']);
  });

  it.each([
    ['prepaid, balance 0, no credit', { mode: 'prepaid', balance: '0' }, null],
    ['prepaid, balance 0.01', { mode: 'prepaid', balance: '0.01' }, 'route'],
    ['prepaid, balance -5 + allowed credit 5', { mode: 'prepaid', balance: '-5', allowed_credit: '5' }, null],
    [
      'prepaid, balance -5 + allowed credit 5.01',
      { mode: 'prepaid', balance: '-5', allowed_credit: '5.01' },
      'route',
    ],
    ['postpaid, balance -100 at limit 100', { mode: 'postpaid', balance: '-100', credit_limit: '100' }, null],
    [
      'postpaid, balance -99.99 at limit 100',
      { mode: 'postpaid', balance: '-99.99', credit_limit: '100' },
      'route',
    ],
    ['postpaid, balance 0, no limit', { mode: 'postpaid', balance: '0', credit_limit: null }, null],
    [
      'unlimited credit, balance -1e6',
      { mode: 'prepaid', balance: '-1000000', unlimited_credit: true },
      'route',
    ],
  ] as const)('%s', (_label, over, expected) => {
    const result = decide(buildSnapshot(withCarrier(baseConfig(), 1, over)), call());
    if (expected === 'route') expect(result.result).toBe('route');
    else expect([result.reject_code, result.reject_reason]).toEqual([402, 'insufficient_balance']);
  });

  it('uses the live balance from the state', () => {
    const snapshot = buildSnapshot(withCarrier(baseConfig(), 1, { mode: 'prepaid', balance: '10' }));
    expect(decide(snapshot, call()).result).toBe('route');
    expect(decide(snapshot, call(), { balances: new Map([[1, 0n]]) }).reject_code).toBe(402);
    expect(decide(snapshot, call(), { balances: new Map([[1, '-0.000001']]) }).reject_code).toBe(402);
    expect(decide(snapshot, call(), { balances: new Map([[1, '0.000001']]) }).reject_code).toBe(402); // pays no billed step
    expect(decide(snapshot, call(), { balances: new Map([[1, '0.01']]) }).result).toBe('route');
  });

  it('enforces call and CPS limits of the trunk and the customer', () => {
    const config = withCarrier(withTrunk(baseConfig(), 1, { call_limit: 10, cps_limit: 2 }), 1, {
      call_limit: 50,
      cps_limit: 5,
    });
    const snapshot = buildSnapshot(config);
    const reason = (state: Parameters<typeof decide>[2]) => {
      const r = decide(snapshot, call(), state);
      return r.result === 'route' ? 'route' : `${r.reject_code} ${r.reject_reason}`;
    };
    expect(reason({ trunk_calls: new Map([[1, 9]]) })).toBe('route');
    expect(reason({ trunk_calls: new Map([[1, 10]]) })).toBe('486 trunk_call_limit');
    expect(reason({ trunk_cps: new Map([[1, 2]]) })).toBe('503 trunk_cps_limit');
    expect(reason({ carrier_calls: new Map([[1, 50]]) })).toBe('486 customer_call_limit');
    expect(reason({ carrier_cps: new Map([[1, 4]]) })).toBe('route');
    expect(reason({ carrier_cps: new Map([[1, 5]]) })).toBe('503 customer_cps_limit');
  });

  it('refuses everything at a limit of 0', () => {
    const snapshot = buildSnapshot(withTrunk(baseConfig(), 1, { call_limit: 0 }));
    expect(decide(snapshot, call()).reject_reason).toBe('trunk_call_limit');
  });
});

describe('digit rules and block lists on the ingress side', () => {
  it('rewrites ANI and DNIS before pricing and routing', () => {
    const config = withTrunk(baseConfig(), 1, {
      digit_replacements: [{ field: 'dnis', prefix: '011', replacement: '' }],
      digit_manipulations: [
        { field: 'ani', action: 'add_prefix', length_condition: 'equal', number_length: 10, digits: '1' },
      ],
    });
    const result = decide(buildSnapshot(config), call({ dnis: '011447911123456', ani: '2125550000' }));
    expect(result.result).toBe('route');
    expect(result.dnis).toBe('447911123456');
    expect(result.ani).toBe('12125550000');
    expect(result.ingress?.code).toBe('447');
    expect(result.ingress?.rate).toBe('0.0300');
    expect(result.routes[0]?.dnis).toBe('447911123456');
  });

  it('refuses a DNIS that is not a number after the rules', () => {
    const result = decide(buildSnapshot(baseConfig()), call({ dnis: '44abc' }));
    expect([result.reject_code, result.reject_reason]).toEqual([484, 'invalid_number']);
    expect(
      decide(buildSnapshot(withTrunk(baseConfig(), 1, { tech_prefix: '77' })), call({ dnis: '77' }))
        .reject_code,
    ).toBe(484);
  });

  it('blocks by global ANI, global DNIS prefix and trunk DNIS', () => {
    const snapshot = buildSnapshot(
      baseConfig({
        block_list: [
          { block_id: 1, ani_exact: '12125550666' },
          { block_id: 2, dnis_prefix: '4490' },
          { block_id: 3, trunk_id: 1, dnis_exact: '442070000000' },
          { block_id: 4, trunk_id: 99, dnis_exact: '442071111111' },
        ],
      }),
    );
    const outcome = (over: Parameters<typeof call>[0]) => {
      const r = decide(snapshot, call(over));
      return r.result === 'route' ? 'route' : `${r.reject_code} ${r.reject_reason}`;
    };
    expect(outcome({ ani: '12125550666' })).toBe('403 ani_blocked');
    expect(outcome({ dnis: '449012345678' })).toBe('403 dnis_blocked');
    expect(outcome({ dnis: '442070000000' })).toBe('403 dnis_blocked');
    expect(outcome({ dnis: '442071111111' })).toBe('route');
    expect(outcome({})).toBe('route');
  });

  it('knows unknown carriers as inactive', () => {
    const config = { ...baseConfig(), carriers: [carrier(11), carrier(12), carrier(13)] };
    const snapshot = buildSnapshot(config);
    expect(snapshot.warnings).toContain('trunks[0]: unknown carrier 1');
    expect(decide(snapshot, call()).reject_reason).toBe('customer_inactive');
  });
});
