import { describe, expect, it } from 'vitest';
import { applyFailover, failoverEntry, failoverTable, sipReasonPhrase } from '../src/failover';
import { SnapshotError, buildSnapshot } from '../src/snapshot';
import { decide } from '../src/routing';
import type { FailoverRuleConfig } from '../src/config';
import { baseConfig, rates } from './fixtures';

describe('applyFailover', () => {
  const system: FailoverRuleConfig[] = [
    { sip_code: 404, action: 'return', return_code: 404, return_clause: 'Number not found' },
    { sip_code: 486, action: 'next' },
  ];
  const trunk = {
    failover_rules: [
      { sip_code: 503, action: 'return', return_code: 480, return_clause: 'Vendor down' },
      { sip_code: 404, action: 'next' },
      { sip_code: 402, action: 'return' },
    ] satisfies FailoverRuleConfig[],
  };

  it("uses the trunk's rule first", () => {
    expect(applyFailover(trunk, 503, system)).toEqual({ return_code: 480, return_clause: 'Vendor down' });
    expect(applyFailover(trunk, 404, system)).toBe('next');
    expect(applyFailover(trunk, 402, system)).toEqual({
      return_code: 402,
      return_clause: 'Payment Required',
    });
  });

  it('falls back to the system default rule', () => {
    expect(applyFailover(trunk, 486, system)).toBe('next');
    expect(applyFailover({}, 404, system)).toEqual({ return_code: 404, return_clause: 'Number not found' });
  });

  it('falls back to the built-in rule: called-party answers return, the rest try the next route', () => {
    expect(applyFailover({}, 486)).toEqual({ return_code: 486, return_clause: 'Busy Here' });
    expect(applyFailover({}, 487)).toEqual({ return_code: 487, return_clause: 'Request Terminated' });
    expect(applyFailover({}, 603)).toEqual({ return_code: 603, return_clause: 'Decline' });
    expect(applyFailover({}, 503)).toBe('next');
    expect(applyFailover({}, 408)).toBe('next');
    expect(applyFailover({ failover_rules: null }, 404)).toBe('next');
    expect(sipReasonPhrase(499)).toBe('SIP 499');
  });
});

describe('failoverTable', () => {
  const system: FailoverRuleConfig[] = [
    { sip_code: 404, action: 'return', return_code: 404, return_clause: 'Number not found' },
    { sip_code: 486, action: 'next' },
    { sip_code: 603, action: 'next' },
  ];
  const trunk = {
    failover_rules: [
      { sip_code: 503, action: 'return', return_code: 480, return_clause: 'Vendor down' },
      { sip_code: 404, action: 'next' },
      { sip_code: 402, action: 'return', return_clause: '' },
      { sip_code: 600, action: 'return', return_code: 486 },
    ] satisfies FailoverRuleConfig[],
  };

  /** The rule as spec 02 words it, written out independently of the table. */
  const byTheRule = (
    t: { failover_rules?: readonly FailoverRuleConfig[] | null },
    sys: readonly FailoverRuleConfig[],
    code: number,
  ) => {
    const rule = t.failover_rules?.find((r) => r.sip_code === code) ?? sys.find((r) => r.sip_code === code);
    const back = code === 486 || code === 487 || (code >= 600 && code <= 699);
    if (rule ? rule.action === 'next' : !back) return 'next';
    const ret = rule?.return_code ?? code;
    return { return_code: ret, return_clause: rule?.return_clause || sipReasonPhrase(ret) };
  };

  it('is the rule: looked up by code, then class, then "*", it answers as the failover rule for every code', () => {
    for (const [t, sys] of [
      [trunk, system],
      [{}, []],
      [{ failover_rules: null }, system],
    ] as const) {
      const table = failoverTable(t, sys);
      for (let code = 300; code <= 699; code++) {
        const e = failoverEntry(table, code);
        const want = byTheRule(t, sys, code);
        expect(applyFailover(t, code, sys), `${code}`).toEqual(want);
        if (want === 'next') expect(e.action, `${code}`).toBe('next');
        else {
          expect(e.action, `${code}`).toBe('return');
          expect(e.return_code ?? code, `${code}`).toBe(want.return_code);
          // a class entry returns the vendor's answer as it is (its own reason phrase)
          if (e.return_code !== null) expect(e.return_clause, `${code}`).toBe(want.return_clause);
        }
      }
    }
  });

  it("has the trunk's and the system's codes, the built-in 486 and 487, the 6xx class and '*'", () => {
    expect(failoverTable(trunk, system)).toEqual({
      '402': { action: 'return', return_code: 402, return_clause: 'Payment Required' },
      '404': { action: 'next', return_code: null, return_clause: null },
      '486': { action: 'next', return_code: null, return_clause: null },
      '487': { action: 'return', return_code: 487, return_clause: 'Request Terminated' },
      '503': { action: 'return', return_code: 480, return_clause: 'Vendor down' },
      '600': { action: 'return', return_code: 486, return_clause: 'Busy Here' },
      '603': { action: 'next', return_code: null, return_clause: null },
      '6xx': { action: 'return', return_code: null, return_clause: null },
      '*': { action: 'next', return_code: null, return_clause: null },
    });
  });

  it('is in the snapshot per trunk and on every route of a decision', () => {
    const snap = buildSnapshot(
      baseConfig({
        settings: { default_ij_rule: 'inter', default_failover_rules: system },
      }),
    );
    for (const t of snap.trunks.values()) expect(t.failover).toEqual(failoverTable(t, system));
    const d = decide(snap, { source_ip: '10.0.0.5', ani: '', dnis: '447700900123', time: 0 });
    expect(d.routes.length).toBeGreaterThan(0);
    for (const r of d.routes) expect(r.failover).toBe(snap.trunks.get(r.trunk_id)!.failover);
  });
});

describe('buildSnapshot', () => {
  it('names the field of a malformed value', () => {
    const badRate = baseConfig({ rate_tables: [rates(1, [{ code: '44', rate: '0,02' }])] });
    expect(() => buildSnapshot(badRate)).toThrow(SnapshotError);
    expect(() => buildSnapshot(badRate)).toThrow('rate_tables[0].rows[0].rate: not a decimal amount: "0,02"');
    expect(() => buildSnapshot(baseConfig({ rate_tables: [rates(1, [{ code: '4a', rate: '1' }])] }))).toThrow(
      /rate_tables\[0\]\.rows\[0\]\.code: code must contain digits only, got "4a"/,
    );
    expect(() =>
      buildSnapshot(baseConfig({ rate_tables: [rates(1, [{ code: '4', rate: '1', interval: 0 }])] })),
    ).toThrow('rate_tables[0].rows[0].interval: must be an integer >= 1, got 0');
    expect(() =>
      buildSnapshot(
        baseConfig({ rate_tables: [rates(1, [{ code: '4', rate: '1', effective_date: 5, end_date: 5 }])] }),
      ),
    ).toThrow(/effective date must be less than end date/);
    expect(() => buildSnapshot(baseConfig({ rate_tables: [rates(1, [], { decimal_places: 7 })] }))).toThrow(
      'rate_tables[0].decimal_places: must be 0..6, got 7',
    );
    expect(() =>
      buildSnapshot(
        baseConfig({
          time_profiles: [{ time_profile_id: 1, type: 'daily', start_time: '25:00', end_time: '01:00' }],
        }),
      ),
    ).toThrow(/time_profiles\[0\]/);
    expect(() => buildSnapshot(baseConfig({ block_list: [{ trunk_id: 1 }] }))).toThrow(/block_list/);
  });

  it('lists dangling references as warnings', () => {
    const config = baseConfig({
      routing_plans: [
        {
          routing_plan_id: 1,
          rows: [
            { prefix: '', route_type: 'dynamic', route_id: 77, time_profile_id: 5 },
            { prefix: '1', route_type: 'static', route_id: 2 },
          ],
        },
      ],
      static_routes: [
        {
          static_route_id: 2,
          items: [{ code: '', strategy: 'percentage', trunks: [{ trunk_id: 11, percentage: 60 }] }],
        },
      ],
    });
    expect(buildSnapshot(config).warnings).toEqual([
      'static_routes[0].items[0]: percentages sum to 60, not 100 (used as weights)',
      'routing_plans[0].rows[0]: unknown dynamic route 77',
      'routing_plans[0].rows[0]: unknown time profile 5 (treated as all time)',
    ]);
  });

  it('parses money once into micro-units', () => {
    const snapshot = buildSnapshot(baseConfig());
    expect(snapshot.carriers.get(1)?.credit).toBe(1_000_000_000n);
    expect(snapshot.rate_tables.get(1)?.lookup('4479', 0)?.rate).toBe(30_000n);
    expect(snapshot.rate_tables.get(1)?.lookup('4479', 0)?.min_time).toBe(30);
    expect(snapshot.rate_tables.get(11)?.lookup('4479', 0)?.interval).toBe(1);
    expect(snapshot.format(12_345n, 4)).toBe('0.0123');
  });

  it('gives every rate table one shape (the hot path reads eleven of them per call)', () => {
    const tables = [...buildSnapshot(baseConfig()).rate_tables.values()];
    expect(tables.length).toBeGreaterThan(1);
    // One class with `lookup` on its prototype: an own closure per table gave each its own hidden class.
    const proto: unknown = Object.getPrototypeOf(tables[0]);
    for (const table of tables) {
      expect(Object.getPrototypeOf(table)).toBe(proto);
      expect(Object.keys(table)).toEqual(Object.keys(tables[0] as object));
      expect(Object.hasOwn(table, 'lookup')).toBe(false);
    }
  });
});
