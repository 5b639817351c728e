import { describe, expect, it } from 'vitest';
import { buildSnapshot } from '../src/snapshot';
import { decide } from '../src/routing';
import type { DefaultIjRule } from '../src/jurisdiction';
import type { EngineConfig } from '../src/config';
import { baseConfig, call, rates, withTrunk } from './fixtures';

// NY 212/718 (LATA 132), NY 315 (LATA 134), NJ 201 (LATA 224).
const jurisdiction = new Map([
  ['212555', { state: 'NY', lata: '132' }],
  ['718555', { state: 'NY', lata: '132' }],
  ['315555', { state: 'NY', lata: '134' }],
  ['201555', { state: 'NJ', lata: '224' }],
]);

const usRow = (rate: string, intra: string, inter: string, ij: string, local: string | null = null) => ({
  code: '1',
  code_name: 'USA',
  rate,
  intra_rate: intra,
  inter_rate: inter,
  ij_rate: ij,
  local_rate: local,
});

function usConfig(ijRule: DefaultIjRule, requireLocal = false): EngineConfig {
  return baseConfig({
    jurisdiction,
    rate_tables: [
      rates(1, [usRow('0.0100', '0.0070', '0.0090', '0.0110', '0.0030')], {
        type: 'us_jurisdictional',
        require_local_rate: requireLocal,
      }),
      rates(11, [usRow('0.0050', '0.0040', '0.0060', '0.0080', '0.0020')], {
        type: 'us_jurisdictional',
        require_local_rate: requireLocal,
      }),
      rates(12, [{ code: '1', rate: '0.0055' }], { type: 'us_non_jurisdictional' }),
      rates(13, [{ code: '1201', rate: '0.0065' }]),
    ],
    settings: { default_ij_rule: ijRule },
  });
}

const price = (config: EngineConfig, ani: string, dnis: string, lrn?: string) => {
  const result = decide(buildSnapshot(config), call({ ani, dnis, lrn: lrn ?? null }));
  return {
    jurisdiction: result.ingress?.jurisdiction,
    rate: result.ingress?.rate,
    routes: result.routes.map((r) => `${r.trunk_id}@${r.rate}`),
  };
};

describe('US jurisdictional pricing in the decision', () => {
  it('charges the intra rate within a state and the inter rate across states', () => {
    expect(price(usConfig('inter'), '12125550000', '13155550001')).toEqual({
      jurisdiction: 'intra',
      rate: '0.0070',
      routes: ['11@0.0040', '12@0.0055'],
    });
    expect(price(usConfig('inter'), '12125550000', '12015550001')).toEqual({
      jurisdiction: 'inter',
      rate: '0.0090',
      routes: ['12@0.0055', '11@0.0060', '13@0.0065'],
    });
  });

  it('charges the local rate within a LATA only when the table requires a local rate', () => {
    expect(price(usConfig('inter', true), '12125550000', '17185550001')).toMatchObject({
      jurisdiction: 'local',
      rate: '0.0030',
    });
    expect(price(usConfig('inter', false), '12125550000', '17185550001')).toMatchObject({
      jurisdiction: 'intra',
      rate: '0.0070',
    });
  });

  it.each<[DefaultIjRule, string, string]>([
    ['inter', '0.0090', '0.0060'],
    ['intra', '0.0070', '0.0040'],
    ['ij', '0.0110', '0.0080'],
  ])('charges an indeterminate call by the default IJ rule %s', (rule, ingressRate, vendorRate) => {
    const result = price(usConfig(rule), 'anonymous', '12015550001');
    expect(result.jurisdiction).toBe('indeterminate');
    expect(result.rate).toBe(ingressRate);
    expect(result.routes).toContain(`11@${vendorRate}`);
  });

  it('bills by LRN when the trunk says so and an LRN is given', () => {
    // Dialled a NJ number ported to NY: by LRN it is intrastate.
    const byLrn = withTrunk(usConfig('inter'), 1, { bill_by: 'lrn' });
    expect(price(byLrn, '12125550000', '12015550001', '13155559999')).toMatchObject({
      jurisdiction: 'intra',
      rate: '0.0070',
    });
    expect(price(byLrn, '12125550000', '12015550001')).toMatchObject({
      jurisdiction: 'inter',
      rate: '0.0090',
    });
    expect(price(usConfig('inter'), '12125550000', '12015550001', '13155559999')).toMatchObject({
      jurisdiction: 'inter',
    });
  });

  it('prices vendors by their own bill-by number', () => {
    const config = withTrunk(usConfig('inter'), 11, { bill_by: 'lrn' });
    expect(price(config, '12125550000', '12015550001', '13155559999').routes).toEqual([
      '11@0.0040',
      '12@0.0055',
      '13@0.0065',
    ]);
  });
});
