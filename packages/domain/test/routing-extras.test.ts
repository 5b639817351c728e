import { describe, expect, it } from 'vitest';
import { MediaIpBlockList, OcnBlockList } from '../src/call-blocks';
import {
  applyDigitMapItem,
  compileDigitMap,
  DigitMapError,
  mapNumber,
  type DigitMapItemConfig,
} from '../src/digit-map';
import { decide } from '../src/routing';
import { buildSnapshot, SnapshotError } from '../src/snapshot';
import { baseConfig, call, T0, withTrunk } from './fixtures';

const item = (over: Partial<DigitMapItemConfig>): DigitMapItemConfig => ({
  field: 'dnis',
  match: 'prefix',
  pattern: '',
  action: 'prepend',
  ...over,
});

describe('digit map items', () => {
  it('strip, prepend, replace the prefix, replace the whole number', () => {
    expect(applyDigitMapItem(item({ action: 'strip', strip_count: 2 }), '00442071')).toBe('442071');
    expect(applyDigitMapItem(item({ action: 'prepend', digits: '44' }), '2071')).toBe('442071');
    expect(applyDigitMapItem(item({ pattern: '0', action: 'replace_prefix', digits: '44' }), '02071')).toBe(
      '442071',
    );
    expect(
      applyDigitMapItem(
        item({ match: 'exact', pattern: '112', action: 'replace_prefix', digits: '999' }),
        '112',
      ),
    ).toBe('999');
    expect(applyDigitMapItem(item({ action: 'replace_all', digits: '18005550000' }), '123')).toBe(
      '18005550000',
    );
    expect(applyDigitMapItem(item({ action: 'replace_all', digits: null }), '123')).toBe('');
  });

  it('the first matching item in order applies, and only that one', () => {
    const items = [
      item({ match: 'exact', pattern: '0800', action: 'replace_all', digits: '1' }),
      item({ pattern: '00', action: 'strip', strip_count: 2 }),
      item({ pattern: '0', action: 'replace_prefix', digits: '44' }),
      item({ pattern: '', action: 'prepend', digits: '9' }),
    ];
    expect(mapNumber(items, '0800').number).toBe('1');
    expect(mapNumber(items, '08001').number).toBe('448001');
    expect(mapNumber(items, '0049301').number).toBe('49301');
    expect(mapNumber(items, '7').number).toBe('97');
    expect(mapNumber(items.slice(0, 3), '7')).toEqual({ number: '7', item: null });
    // order matters: the catch-all first hides everything after it
    expect(mapNumber([items[3]!, items[1]!], '0049').number).toBe('90049');
  });

  it('refuses malformed items', () => {
    const bad = (i: Partial<DigitMapItemConfig>) => () =>
      compileDigitMap({ digital_map_id: 1, items: [item(i)] });
    expect(bad({ pattern: '4a' })).toThrow(DigitMapError);
    expect(bad({ match: 'exact', pattern: '' })).toThrow(/exact/);
    expect(bad({ action: 'strip', strip_count: 0 })).toThrow(/strip_count/);
    expect(bad({ action: 'prepend', digits: '+44' })).toThrow(/digits/);
    expect(() =>
      buildSnapshot({
        ...baseConfig(),
        digit_maps: [{ digital_map_id: 1, items: [item({ pattern: 'x' })] }],
      }),
    ).toThrow(SnapshotError);
  });
});

describe('digital maps in the decision', () => {
  const maps = [
    {
      digital_map_id: 7,
      name: 'national-to-e164',
      items: [
        {
          item_id: 70,
          field: 'dnis' as const,
          match: 'prefix' as const,
          pattern: '0',
          action: 'replace_prefix' as const,
          digits: '44',
        },
        {
          item_id: 71,
          field: 'ani' as const,
          match: 'prefix' as const,
          pattern: '',
          action: 'prepend' as const,
          digits: '1',
        },
      ],
    },
    {
      digital_map_id: 8,
      name: 'vendor-intl',
      items: [
        {
          item_id: 80,
          field: 'dnis' as const,
          match: 'prefix' as const,
          pattern: '',
          action: 'prepend' as const,
          digits: '00',
        },
      ],
    },
  ];

  it("the ingress trunk's map rewrites the numbers before pricing and routing; the egress map the numbers sent", () => {
    let config = withTrunk({ ...baseConfig(), digit_maps: maps }, 1, { digit_map_id: 7 });
    config = withTrunk(config, 12, { digit_map_id: 8, tech_prefix: '77#' });
    const snapshot = buildSnapshot(config);
    const d = decide(snapshot, call({ dnis: '02071234567', ani: '2125550000' }), {}, { trace: true });
    expect(d.result).toBe('route');
    expect(d.dnis).toBe('442071234567');
    expect(d.ani).toBe('12125550000');
    expect(d.ingress?.code).toBe('44');
    const byTrunk = new Map(d.routes.map((r) => [r.trunk_id, r]));
    expect(byTrunk.get(12)?.dnis).toBe('77#00442071234567');
    expect(byTrunk.get(11)?.dnis).toBe('442071234567');
    const digits = d.trace.find((s) => s.step === 'digits');
    expect(digits?.detail).toContain('Digital map national-to-e164');
    expect(digits?.data).toMatchObject({ digital_map_id: 7, dnis_item: 70, ani_item: 71 });
    expect(d.trace.some((s) => s.step === 'egress' && s.detail.includes('vendor-intl'))).toBe(true);
    // without the map, the national number has no rate
    expect(decide(buildSnapshot(baseConfig()), call({ dnis: '02071234567' })).reject_reason).toBe('no_rate');
  });

  it('the block list sees the mapped numbers', () => {
    const config = withTrunk(
      { ...baseConfig(), digit_maps: maps, block_list: [{ dnis_prefix: '4420' }] },
      1,
      { digit_map_id: 7 },
    );
    expect(decide(buildSnapshot(config), call({ dnis: '02071234567' })).reject_reason).toBe('dnis_blocked');
  });

  it('warns about an unknown map and routes as without one', () => {
    const snapshot = buildSnapshot(withTrunk(baseConfig(), 1, { digit_map_id: 99 }));
    expect(snapshot.warnings).toContain('trunks[0]: unknown digital map 99');
    expect(decide(snapshot, call()).result).toBe('route');
  });
});

describe('inbound media IP blocking', () => {
  it('finds addresses and ranges in force at the call time', () => {
    const list = MediaIpBlockList.build([
      { block_id: 1, ip: '10.0.0.0', netmask: 24, expires_at: T0 + 1000 },
      { block_id: 2, ip: '192.0.2.9' },
    ]);
    expect(list.find('10.0.0.200', T0)?.block_id).toBe(1);
    expect(list.find('10.0.0.200', T0 + 1000)).toBeUndefined();
    expect(list.find('10.0.1.1', T0)).toBeUndefined();
    expect(list.find('192.0.2.9', T0)?.block_id).toBe(2);
    expect(list.find('192.0.2.10', T0)).toBeUndefined();
    expect(list.find('not-an-ip', T0)).toBeUndefined();
  });

  it('rejects the call with 403 source_ip_blocked before the ingress trunk is looked at', () => {
    const snapshot = buildSnapshot({
      ...baseConfig(),
      media_ip_blocks: [{ block_id: 5, ip: '10.0.0.0', netmask: 28, note: 'RTP flood' }],
    });
    const d = decide(snapshot, call({ source_ip: '10.0.0.7' }), {}, { trace: true });
    expect([d.result, d.reject_code, d.reject_reason, d.ingress]).toEqual([
      'reject',
      403,
      'source_ip_blocked',
      null,
    ]);
    expect(d.trace[0]).toMatchObject({ step: 'block_list', outcome: 'fail' });
    expect(d.trace[0]?.detail).toContain('#5 10.0.0.0/28: RTP flood');
    // another address of the trunk's /24 is outside the /28
    expect(decide(snapshot, call({ source_ip: '10.0.0.77' })).result).toBe('route');
  });
});

describe('STIOCN block list', () => {
  it('matches OCNs case-insensitively and origids', () => {
    const list = OcnBlockList.build([
      { block_id: 1, kind: 'ocn', value: '123a' },
      { block_id: 2, kind: 'origid', value: 'DE305D54-75B4-431B-ADB2-EB6B9E546014' },
    ]);
    expect(list.find('123A', null)?.block_id).toBe(1);
    expect(list.find(' 123a ', undefined)?.block_id).toBe(1);
    expect(list.find('9999', 'de305d54-75b4-431b-adb2-eb6b9e546014')?.block_id).toBe(2);
    expect(list.find(null, null)).toBeUndefined();
    expect(list.find('9999', 'x')).toBeUndefined();
  });

  it('rejects a call signed by a listed OCN with 403 ocn_blocked, and lets others through', () => {
    const snapshot = buildSnapshot({
      ...baseConfig(),
      ocn_blocks: [{ block_id: 3, kind: 'ocn', value: '7X2B' }],
    });
    const d = decide(snapshot, call({ ocn: '7x2b', attestation: 'C' }), {}, { trace: true });
    expect([d.result, d.reject_code, d.reject_reason]).toEqual(['reject', 403, 'ocn_blocked']);
    expect(d.ingress?.trunk_id).toBe(1);
    const step = d.trace.find((s) => s.step === 'block_list' && s.outcome === 'fail');
    expect(step?.detail).toContain('attestation C');
    expect(decide(snapshot, call({ ocn: '1234' })).result).toBe('route');
    expect(decide(snapshot, call()).result).toBe('route');
  });
});
