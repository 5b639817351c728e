import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalid, ok, startHarness, type Harness } from './harness';
import { settled, termination, type Fixture } from './routing-fixtures';

let h: Harness;
let admin: string;
let f: Fixture;

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  f = await termination(h);
  const r = await h.call('POST', '/api/routing/wizard', {
    token: admin,
    body: {
      plan_name: 'Tools plan',
      prefix: '',
      route_type: 'dynamic',
      route_name: 'Tools LCR',
      trunks: f.vendors.map((v) => ({ trunk_id: v.trunk })),
      ingress_trunk_ids: [f.ingress],
    },
  });
  ok(r);
  await h.built.services.db
    .updateTable('carriers')
    .set({ min_profitability: '45' })
    .where('client_id', '=', f.customer)
    .execute();
  h.built.services.configChanged.notify();
  await settled(h, admin);
});
afterAll(() => h.close());

interface Sim {
  result: string;
  reject_reason: string | null;
  ingress: {
    trunk_name: string;
    carrier_name: string;
    rate: string;
    rate_table_name: string;
    routing_plan_name: string;
  } | null;
  routes: { trunk_name: string; rate: string; profit: string; rate_table_name: string }[];
  trace: { step: string; outcome: string; detail: string; data?: Record<string, unknown> }[];
  trunk_names: Record<string, { trunk_name: string; carrier_name: string }>;
}

describe('call simulation', () => {
  it('shows the decision with names and the full trace: matched trunk, checks, ingress rate, each vendor kept or dropped', async () => {
    // UK: ingress 0.0500; A 0.0300 (margin 40 % < 45 %: dropped), B 0.0250 (50 %: kept)
    const sim = ok(
      await h.call<Sim>('POST', '/api/tools/call_simulation', {
        token: admin,
        body: {
          source_ip: '198.51.100.20',
          ani: '15550001111',
          dnis: '447700900123',
          time: '2026-03-02T10:00:00Z',
        },
      }),
    );
    expect(sim.result).toBe('route');
    expect(sim.ingress).toMatchObject({
      trunk_name: 'Customer in',
      carrier_name: 'Customer',
      rate: '0.0500',
      rate_table_name: 'Customer table',
      routing_plan_name: 'Tools plan',
    });
    expect(sim.routes).toEqual([
      expect.objectContaining({
        trunk_name: 'Vendor B out',
        rate: '0.0250',
        profit: '0.0250',
        rate_table_name: 'Vendor B table',
      }),
    ]);
    const steps = sim.trace.map((t) => `${t.step}:${t.outcome}`);
    expect(steps).toEqual(
      expect.arrayContaining([
        'ingress:ok',
        'admission:ok',
        'block_list:ok',
        'ingress_rate:ok',
        'routing_plan:ok',
        'route:info',
        'egress:fail',
        'egress:ok',
        'result:ok',
      ]),
    );
    const dropped = sim.trace.find((t) => t.step === 'egress' && t.outcome === 'fail');
    expect(dropped?.data).toMatchObject({ trunk_id: f.vendors[0]!.trunk, reason: 'below_min_profitability' });
    expect(dropped?.detail).toContain('Vendor A out');
    expect(sim.trunk_names[String(f.vendors[0]!.trunk)]).toEqual({
      trunk_name: 'Vendor A out',
      carrier_name: 'Vendor A',
    });
  });

  it('explains a reject, and validates its input', async () => {
    const sim = ok(
      await h.call<Sim>('POST', '/api/tools/call_simulation', {
        token: admin,
        body: { source_ip: '192.0.2.50', dnis: '4477' },
      }),
    );
    expect(sim).toMatchObject({
      result: 'reject',
      reject_reason: 'no_ingress_trunk',
      ingress: null,
      routes: [],
    });
    expect(sim.trace.at(-1)).toMatchObject({ step: 'result', outcome: 'fail' });
    invalid(
      await h.call('POST', '/api/tools/call_simulation', {
        token: admin,
        body: { source_ip: '198.51.100.20', dnis: '' },
      }),
      'dnis',
    );
    invalid(
      await h.call('POST', '/api/tools/call_simulation', {
        token: admin,
        body: { source_ip: '198.51.100.20', dnis: '44', time: 'soon' },
      }),
      'time',
      'time must be a date and time (ISO 8601)',
    );
  });
});

describe('routing analysis', () => {
  it('lists per code the ingress rate and each vendor with position, rate, profit, margin or why it was dropped', async () => {
    const r = ok(
      await h.call<{
        trunk: { name: string; rate_table_name: string };
        rows: {
          code: string;
          code_name: string;
          ingress_rate: string;
          vendors: {
            trunk_name: string;
            position: number | null;
            rate: string | null;
            profit: string | null;
            margin_percent: string | null;
            dropped: string | null;
          }[];
        }[];
      }>('POST', '/api/tools/routing_analysis', {
        token: admin,
        body: { trunk_id: f.ingress, codes: ['44', '1'] },
      }),
    );
    expect(r.trunk).toMatchObject({ name: 'Customer in', rate_table_name: 'Customer table' });
    const uk = r.rows.find((x) => x.code === '44')!;
    expect(uk).toMatchObject({ code_name: 'UK', ingress_rate: '0.0500' });
    expect(uk.vendors).toEqual([
      {
        trunk_id: f.vendors[1]!.trunk,
        trunk_name: 'Vendor B out',
        carrier_name: 'Vendor B',
        position: 1,
        rate: '0.0250',
        profit: '0.0250',
        margin_percent: '50.00',
        dropped: null,
      },
      {
        trunk_id: f.vendors[0]!.trunk,
        trunk_name: 'Vendor A out',
        carrier_name: 'Vendor A',
        position: null,
        rate: null,
        profit: null,
        margin_percent: null,
        dropped: 'below_min_profitability',
      },
    ]);
    const us = r.rows.find((x) => x.code === '1')!;
    expect(us.vendors.map((v) => [v.trunk_name, v.position])).toEqual([
      ['Vendor A out', 1],
      ['Vendor B out', null],
    ]);
    const byCountry = ok(
      await h.call<{ rows: { code: string }[] }>('POST', '/api/tools/routing_analysis', {
        token: admin,
        body: { trunk_id: f.ingress, countries: ['uk'] },
      }),
    );
    expect(byCountry.rows.map((x) => x.code)).toEqual(['44']);
    invalid(
      await h.call('POST', '/api/tools/routing_analysis', {
        token: admin,
        body: { trunk_id: f.vendors[0]!.trunk, codes: ['44'] },
      }),
      'trunk_id',
      'Trunk [Vendor A out] is not an ingress trunk',
    );
    invalid(
      await h.call('POST', '/api/tools/routing_analysis', { token: admin, body: { trunk_id: f.ingress } }),
      'codes',
    );
  });
});
