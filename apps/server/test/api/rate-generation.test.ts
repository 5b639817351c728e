import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditRows,
  denied,
  fails,
  invalid,
  makeCarrierUser,
  makeRestrictedAdmin,
  ok,
  startHarness,
  type Harness,
} from './harness';
import { carrier, rateTable, trunk } from './routing-fixtures';

/**
 * Tools > Rate Generation: template rules, permissions, a generation over two hand-made vendor
 * tables (ranges, default rate) with exact expected rates, and the apply to a rate table with the
 * end date of existing codes.
 */
let h: Harness;
let admin: string;
let trunkA: number;
let trunkB: number;
let ingress: number;
let deck: number;

interface History {
  id: number;
  status: string;
  rate_count: number;
  applied: boolean;
  rate_table_id: number | null;
  rate_table_name: string | null;
  template_name: string;
  message: string;
  finish_time: string | null;
}
interface Generated {
  code: string;
  code_name: string;
  rate: string;
  cost: string | null;
  vendor_trunk_name: string | null;
  markup_type: string | null;
  markup: string | null;
  source: string;
}

const MARGINS = [
  { rate_from: '0', rate_to: '0.01', markup_type: 'percentage', markup: '50' },
  { rate_from: '0.01', rate_to: '0.05', markup_type: 'percentage', markup: '10' },
  { rate_from: '0.05', rate_to: null, markup_type: 'fixed', markup: '0.005' },
];
const body = (extra: Record<string, unknown> = {}) => ({
  name: 'UK sell',
  rate_table_type: 'a_z',
  lcr_basis: 'lcr1',
  default_rate: '0.2',
  decimal_places: 4,
  code_deck_id: deck,
  egress_trunks: [trunkA, trunkB],
  margins: MARGINS,
  interval: 6,
  min_time: 30,
  ...extra,
});
const create = (b: Record<string, unknown>, token = admin) =>
  h.call<{ object_id: number }>('POST', '/api/tools/rate_generation/template/create', { token, body: b });

async function waitHistory(id: number): Promise<History> {
  for (let i = 0; i < 400; i++) {
    const r = ok(await h.call<History>('GET', `/api/tools/rate_generation/history/${id}`, { token: admin }));
    if (r.status !== 'Initial') return r;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('generation did not finish');
}

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  const db = h.built.services.db;
  const vendorA = await carrier(db, 'Vendor A', { client_type: 'vendor' });
  const vendorB = await carrier(db, 'Vendor B', { client_type: 'vendor' });
  const tableA = await rateTable(db, 'Vendor A costs', [
    ['44', '0.0100', 'United Kingdom'],
    ['447', '0.0500', 'UK Mobile'],
    ['33', '0.0200', 'France'],
    ['1', '0.0080', 'USA'],
  ]);
  const tableB = await rateTable(db, 'Vendor B costs', [
    ['44', '0.0120'],
    ['4475', '0.0300', 'UK Mobile 75'],
    ['49', '0.0400', 'Germany'],
    ['7', '0.0600', 'Russia'],
  ]);
  trunkA = await trunk(db, vendorA, 'A out', 'egress', { rate_table_id: tableA });
  trunkB = await trunk(db, vendorB, 'B out', 'egress', { rate_table_id: tableB });
  ingress = await trunk(db, await carrier(db, 'Customer', { client_type: 'client' }), 'C in', 'ingress');
  deck = ok(
    await h.call<{ object_id: number }>('POST', '/api/rate/code_deck/create', {
      token: admin,
      body: { name: 'Sell deck' },
    }),
  ).object_id;
  for (const code of ['1', '33', '44', '447', '4475', '49', '7', '999'])
    ok(
      await h.call('POST', `/api/rate/code_deck/${deck}/codes`, {
        token: admin,
        body: { code, code_name: code === '999' ? 'Nowhere' : '' },
      }),
    );
});
afterAll(() => h.close());

describe('rate generation templates', () => {
  let id: number;
  it('creates a template with its trunks in order and leaves a modification log row', async () => {
    id = ok(await create(body())).object_id;
    const row = ok(
      await h.call<Record<string, unknown>>('GET', `/api/tools/rate_generation/template/${id}`, {
        token: admin,
      }),
    );
    expect(row).toMatchObject({
      name: 'UK sell',
      default_rate: '0.2000',
      egress_trunks: [trunkA, trunkB],
      egress_trunk_names: ['A out', 'B out'],
      code_deck_name: 'Sell deck',
      margins: MARGINS,
      interval: 6,
      min_time: 30,
    });
    expect((await auditRows(h, 'rate_generation_template', id))[0]?.action).toBe('create');
  });

  it("refuses a second template of the same name: '{0} [{1}] already exists'", async () => {
    const r = await create(body({ name: 'uk SELL' }));
    fails(r, 160, 'Rate Generation Template [uk SELL] already exists');
    expect(r.body.errors?.name).toBe('Rate Generation Template [uk SELL] already exists');
  });

  it('needs at least one egress trunk, and only egress trunks', async () => {
    invalid(
      await create(body({ name: 'x1', egress_trunks: [] })),
      'egress_trunks',
      'Select at least one trunk',
    );
    invalid(
      await create(body({ name: 'x2', egress_trunks: [trunkA, ingress] })),
      'egress_trunks.1',
      'Trunk [C in] is not an egress trunk',
    );
    const twice = await create(body({ name: 'x3', egress_trunks: [trunkA, trunkA] }));
    fails(twice, 160, `Trunk [${trunkA}] already exists`);
    expect(Object.keys(twice.body.errors ?? {})).toEqual(['egress_trunks.1']);
  });

  it('checks min time, interval, rates and decimal places', async () => {
    invalid(
      await create(body({ name: 'x4', interval: 0 })),
      'interval',
      'interval must be a valid positive integer',
    );
    invalid(
      await create(body({ name: 'x5', min_time: -1 })),
      'min_time',
      'min_time must be a valid positive integer',
    );
    invalid(
      await create(body({ name: 'x6', default_rate: '-1' })),
      'default_rate',
      'default_rate must be a valid positive floating number',
    );
    invalid(await create(body({ name: 'x7', decimal_places: 7 })), 'decimal_places');
    invalid(
      await create(body({ name: 'x8', margins: [{ rate_from: '0', rate_to: '1', markup: 'ten' }] })),
      'margins.0.markup',
      'margins.0.markup must be a valid positive floating number',
    );
  });

  it("refuses a range whose from is above its to ('{0} cannot be larger than {1}') and overlapping ranges", async () => {
    invalid(
      await create(body({ name: 'x9', margins: [{ rate_from: '0.05', rate_to: '0.01', markup: '1' }] })),
      'margins.0.rate_from',
      'rate_from cannot be larger than rate_to',
    );
    invalid(
      await create(body({ name: 'x10', margins: [{ rate_from: '0.05', rate_to: '0.05', markup: '1' }] })),
      'margins.0.rate_to',
      'rate_to should be greater than rate_from',
    );
    invalid(
      await create(
        body({
          name: 'x11',
          margins: [
            { rate_from: '0', rate_to: '0.02', markup: '1' },
            { rate_from: '0.01', rate_to: null, markup: '1' },
          ],
        }),
      ),
      'margins.1.rate_from',
      'Rate ranges must not overlap: [0, 0.02) and [0.01, ∞)',
    );
    // The same rules on a change.
    invalid(
      await h.call('PATCH', `/api/tools/rate_generation/template/${id}`, {
        token: admin,
        body: {
          margins: [
            { rate_from: '0', rate_to: null, markup: '1' },
            { rate_from: '1', markup: '1' },
          ],
        },
      }),
      'margins.1.rate_from',
    );
  });

  it('a client user and an admin without the permission are refused; read-only may list but not write', async () => {
    const client = await makeCarrierUser(h, admin, 'Buyer');
    denied(await h.call('GET', '/api/tools/rate_generation/template/list', { token: client.token }));
    denied(await h.call('GET', '/api/tools/rate_generation/history/list', { token: client.token }));
    denied(await create(body({ name: 'client try' }), client.token));
    const other = await makeRestrictedAdmin(h, admin, 'stats_only');
    denied(await h.call('GET', '/api/tools/rate_generation/template/list', { token: other.token }));
    const reader = await makeRestrictedAdmin(h, admin, 'rategen_reader', { '/tools/rate_generation': 'r' });
    ok(await h.call('GET', '/api/tools/rate_generation/template/list', { token: reader.token }));
    denied(await create(body({ name: 'reader try' }), reader.token));
    denied(
      await h.call('POST', `/api/tools/rate_generation/template/${id}/generate`, {
        token: reader.token,
        body: {},
      }),
    );
  });
});

describe('generate and apply', () => {
  let template: number;
  let run: History;
  it('generates in the background: Initial, then Finished with the exact rates of the fixture', async () => {
    template = ok(await create(body({ name: 'Gen fixture' }))).object_id;
    const started = ok(
      await h.call<{ object_id: number }>(
        'POST',
        `/api/tools/rate_generation/template/${template}/generate`,
        {
          token: admin,
          body: {},
        },
      ),
    );
    run = await waitHistory(started.object_id);
    expect(run).toMatchObject({
      status: 'Finished',
      rate_count: 8,
      applied: false,
      template_name: 'Gen fixture',
    });
    expect(run.finish_time).not.toBeNull();
    const rates = ok(
      await h.call<{ items: Generated[]; total: number }>(
        'GET',
        `/api/tools/rate_generation/history/${run.id}/rates?per_page=50`,
        { token: admin },
      ),
    );
    expect(rates.total).toBe(8);
    const table = rates.items.map((r) => [
      r.code,
      r.rate,
      r.cost,
      r.vendor_trunk_name,
      r.markup_type,
      r.markup,
    ]);
    expect(table).toEqual([
      ['1', '0.0120', '0.008000', 'A out', 'percentage', '50'], // 0.008 in [0, 0.01): +50 %
      ['33', '0.0220', '0.020000', 'A out', 'percentage', '10'],
      ['44', '0.0110', '0.010000', 'A out', 'percentage', '10'], // A 0.010 beats B 0.012
      ['447', '0.0132', '0.012000', 'B out', 'percentage', '10'], // A 447 0.05 vs B 44 0.012
      ['4475', '0.0330', '0.030000', 'B out', 'percentage', '10'], // B 4475 0.03 vs A 447 0.05
      ['49', '0.0440', '0.040000', 'B out', 'percentage', '10'],
      ['7', '0.0650', '0.060000', 'B out', 'fixed', '0.005'], // [0.05, ∞): + 0.005
      ['999', '0.2000', null, null, null, null], // no vendor: the default rate
    ]);
    expect(rates.items.find((r) => r.code === '999')).toMatchObject({
      source: 'default',
      code_name: 'Nowhere',
    });
    expect(rates.items.find((r) => r.code === '4475')?.code_name).toBe('UK Mobile 75');

    const csv = await h.built.app.inject({
      method: 'GET',
      url: `/api/tools/rate_generation/history/${run.id}/export`,
      headers: { 'x-auth-token': admin },
    });
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'code,code_name,country,rate,min_time,interval,cost,vendor_trunk,markup_type,markup',
    );
    expect(lines).toContain('44,United Kingdom,,0.0110,30,6,0.010000,A out,percentage,10');
    expect(lines).toHaveLength(9);
  });

  it('lists the run in the history, newest first, with a status filter', async () => {
    const list = ok(
      await h.call<{ items: History[]; total: number }>(
        'GET',
        `/api/tools/rate_generation/history/list?template_id=${template}&status=Finished`,
        { token: admin },
      ),
    );
    expect(list.items.map((x) => x.id)).toEqual([run.id]);
  });

  it('applies to a rate table of the same type only', async () => {
    const db = h.built.services.db;
    const us = await rateTable(db, 'US sell', [], { rate_type: 'us_jurisdictional' });
    invalid(
      await h.call('POST', `/api/tools/rate_generation/history/${run.id}/apply`, {
        token: admin,
        body: { rate_table_id: us, effective_date: '2030-01-01' },
      }),
      'rate_table_id',
      'The rate table must be of type a_z, like the generated rates',
    );
    invalid(
      await h.call('POST', `/api/tools/rate_generation/history/${run.id}/apply`, {
        token: admin,
        body: { rate_table_id: us, effective_date: 'soon' },
      }),
      'effective_date',
    );
  });

  it('analyses the run against a rate table: per code current vs generated, summary, filters, paging, CSV', async () => {
    const db = h.built.services.db;
    type Analysis = {
      rate_table: { rate_table_id: number; name: string };
      summary: Record<string, number>;
      items: Record<string, string | null>[];
      total: number;
    };
    const target = await rateTable(db, 'Analysis target', [
      ['44', '0.0110', 'UK now'], // unchanged
      ['33', '0.0100', 'France'], // 0.0220: increase
      ['49', '0.0500', 'Germany'], // 0.0440: decrease
      ['86', '0.3000', 'China'], // not generated: ended
      ['9', '0.0800', 'Nine'], // not generated: ended; prices 999 by prefix
    ]);
    await db
      .insertInto('rates')
      .values([
        // a later rate of 33 and a past one of 49: only the rows in effect count
        {
          rate_table_id: target,
          code: '33',
          rate: '0.0300',
          effective_date: new Date('2031-01-01T00:00:00Z'),
        },
        {
          rate_table_id: target,
          code: '49',
          rate: '0.9000',
          effective_date: new Date('2010-01-01T00:00:00Z'),
          end_date: new Date('2020-01-01T00:00:00Z'),
        },
      ])
      .execute();
    const url = (q: string) =>
      `/api/tools/rate_generation/history/${run.id}/analysis?rate_table_id=${target}${q}`;
    const analyse = async (q = '') => ok(await h.call<Analysis>('GET', url(q), { token: admin }));

    const all = await analyse('&per_page=50');
    expect(all.rate_table).toMatchObject({ rate_table_id: target, name: 'Analysis target' });
    expect(all.summary).toEqual({ new: 5, increase: 1, decrease: 1, unchanged: 1, ended: 2, total: 10 });
    expect(all.total).toBe(10);
    const cols = (r: Record<string, string | null>) => [
      r.code,
      r.change,
      r.current_rate,
      r.new_rate,
      r.difference,
      r.change_percent,
      r.prefix_code,
      r.prefix_rate,
    ];
    expect(all.items.map(cols)).toEqual([
      ['1', 'new', null, '0.0120', null, null, null, null],
      ['33', 'increase', '0.0100', '0.0220', '0.0120', '120.00', null, null],
      ['44', 'unchanged', '0.0110', '0.0110', '0.0000', '0.00', null, null],
      ['447', 'new', null, '0.0132', null, null, '44', '0.0110'], // now priced by 44
      ['4475', 'new', null, '0.0330', null, null, '44', '0.0110'],
      ['49', 'decrease', '0.0500', '0.0440', '-0.0060', '-12.00', null, null],
      ['7', 'new', null, '0.0650', null, null, null, null],
      ['86', 'ended', '0.3000', null, null, null, null, null],
      ['9', 'ended', '0.0800', null, null, null, null, null],
      ['999', 'new', null, '0.2000', null, null, '9', '0.0800'],
    ]);
    expect(all.items.find((r) => r.code === '86')).toMatchObject({ code_name: 'China' });
    expect(all.items.find((r) => r.code === '44')).toMatchObject({
      code_name: 'United Kingdom',
      current_effective_date: '2020-01-01T00:00:00.000Z',
    });

    // filters (the summary stays the whole comparison), sorting and server paging
    const fresh = await analyse('&change=new&order_by=new_rate&order_dir=desc&per_page=2');
    expect(fresh.total).toBe(5);
    expect(fresh.items.map((r) => r.code)).toEqual(['999', '7']);
    expect(fresh.summary.total).toBe(10);
    expect(
      (await analyse('&change=new&order_by=new_rate&order_dir=desc&per_page=2&page=2')).items.map(
        (r) => r.code,
      ),
    ).toEqual(['1']);
    expect((await analyse('&code=44')).items.map((r) => r.code)).toEqual(['44', '447', '4475']);
    expect((await analyse('&code_name=germ')).items.map((r) => r.code)).toEqual(['49']);
    expect(
      (await analyse('&order_by=difference&order_dir=desc&per_page=3')).items.map((r) => r.code),
    ).toEqual(['33', '44', '49']);
    // at another instant, other rates are current: 33 at 0.0300 from 2031 on
    const later = await analyse('&at=2031-06-01&code=33');
    expect(later.items.map(cols)).toEqual([
      ['33', 'decrease', '0.0300', '0.0220', '-0.0080', '-26.67', null, null],
    ]);

    const csv = await h.built.app.inject({
      method: 'GET',
      url: url('&change=ended').replace('/analysis?', '/analysis/export?'),
      headers: { 'x-auth-token': admin },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toContain('analysis_Analysis_target.csv');
    expect(csv.body.trim().split('\r\n')).toEqual([
      'code,code_name,country,change,current_rate,current_effective_date,new_rate,difference,change_percent,prefix_code,prefix_rate',
      '86,China,,ended,0.3000,2020-01-01T00:00:00.000Z,,,,,',
      '9,Nine,,ended,0.0800,2020-01-01T00:00:00.000Z,,,,,',
    ]);
  });

  it('compares a US jurisdictional run column by column, with the engine fallbacks on both sides', async () => {
    const db = h.built.services.db;
    const usRates = async (
      name: string,
      rows: { code: string; rate: string; intra_rate?: string; inter_rate?: string }[],
    ) => {
      const id = await rateTable(db, name, [], { rate_type: 'us_jurisdictional' });
      await db
        .insertInto('rates')
        .values(
          rows.map((r) => ({ rate_table_id: id, effective_date: new Date('2020-01-01T00:00:00Z'), ...r })),
        )
        .execute();
      return id;
    };
    const vendor = await carrier(db, 'US vendor', { client_type: 'vendor' });
    const costs = await usRates('US costs', [
      { code: '1212', rate: '0.0100', inter_rate: '0.0100', intra_rate: '0.0050' },
      { code: '1646', rate: '0.0200', intra_rate: '0.0080' }, // no inter: the rate stands in
    ]);
    const usTrunk = await trunk(db, vendor, 'US out', 'egress', { rate_table_id: costs });
    const usDeck = ok(
      await h.call<{ object_id: number }>('POST', '/api/rate/code_deck/create', {
        token: admin,
        body: { name: 'US deck' },
      }),
    ).object_id;
    for (const code of ['1212', '1646'])
      ok(await h.call('POST', `/api/rate/code_deck/${usDeck}/codes`, { token: admin, body: { code } }));
    const usTemplate = ok(
      await create(
        body({
          name: 'US gen',
          rate_table_type: 'us_jurisdictional',
          code_deck_id: usDeck,
          egress_trunks: [usTrunk],
        }),
      ),
    ).object_id;
    const started = ok(
      await h.call<{ object_id: number }>(
        'POST',
        `/api/tools/rate_generation/template/${usTemplate}/generate`,
        { token: admin, body: {} },
      ),
    );
    const usRun = await waitHistory(started.object_id);
    expect(usRun.status).toBe('Finished');
    const target = await usRates('US target', [
      { code: '1', rate: '0.0500' }, // only a rate: every column falls back to it
      { code: '1212', rate: '0.0110', inter_rate: '0.0110', intra_rate: '0.0040' },
      { code: '1305', rate: '0.0300', inter_rate: '0.0350' },
    ]);
    type Analysis = {
      column: string;
      summary: Record<string, number>;
      items: Record<string, string | null>[];
    };
    const analyse = async (column: string) =>
      ok(
        await h.call<Analysis>(
          'GET',
          `/api/tools/rate_generation/history/${usRun.id}/analysis?rate_table_id=${target}${column}&per_page=50`,
          { token: admin },
        ),
      );
    const view = (a: Analysis) =>
      a.items.map((r) => [r.code, r.change, r.current_rate, r.new_rate, r.prefix_code, r.prefix_rate]);

    // Intra: 1212 vendor 0.0050 +50 % = 0.0075 against 0.0040; 1646 vendor 0.0080 +50 % = 0.0120,
    // new, now priced by code 1, whose intra falls back to its rate.
    const intra = await analyse('&column=intra_rate');
    expect(intra.column).toBe('intra_rate');
    expect(view(intra)).toEqual([
      ['1', 'ended', '0.0500', null, null, null],
      ['1212', 'increase', '0.0040', '0.0075', null, null],
      ['1305', 'ended', '0.0300', null, null, null],
      ['1646', 'new', null, '0.0120', '1', '0.0500'],
    ]);
    expect(intra.items.find((r) => r.code === '1212')).toMatchObject({
      difference: '0.0035',
      change_percent: '87.50',
    });
    // Inter: 1646 has none at the vendor, so its rate 0.0200 +10 % = 0.0220; 1305's own inter counts.
    expect(view(await analyse('&column=inter_rate'))).toEqual([
      ['1', 'ended', '0.0500', null, null, null],
      ['1212', 'unchanged', '0.0110', '0.0110', null, null],
      ['1305', 'ended', '0.0350', null, null, null],
      ['1646', 'new', null, '0.0220', '1', '0.0500'],
    ]);
    // Local: empty everywhere, so intra, then rate, on both sides.
    expect(view(await analyse('&column=local_rate')).find((r) => r[0] === '1212')).toEqual([
      '1212',
      'increase',
      '0.0040',
      '0.0075',
      null,
      null,
    ]);
    // The main rate column by default.
    const main = await analyse('');
    expect(main.column).toBe('rate');
    expect(view(main).find((r) => r[0] === '1212')).toEqual([
      '1212',
      'unchanged',
      '0.0110',
      '0.0110',
      null,
      null,
    ]);

    const csv = await h.built.app.inject({
      method: 'GET',
      url: `/api/tools/rate_generation/history/${usRun.id}/analysis/export?rate_table_id=${target}&column=intra_rate&code=1212`,
      headers: { 'x-auth-token': admin },
    });
    expect(csv.headers['content-disposition']).toContain('analysis_US_target_intra_rate.csv');
    expect(csv.body.trim().split('\r\n')[1]).toBe(
      '1212,,,increase,0.0040,2020-01-01T00:00:00.000Z,0.0075,0.0035,87.50,,',
    );
    invalid(
      await h.call(
        'GET',
        `/api/tools/rate_generation/history/${usRun.id}/analysis?rate_table_id=${target}&column=cheapest`,
        { token: admin },
      ),
      'column',
    );
  });

  it('refuses an analysis without a table, against a table of another type, of an unfinished run', async () => {
    const db = h.built.services.db;
    const base = `/api/tools/rate_generation/history/${run.id}/analysis`;
    invalid(await h.call('GET', base, { token: admin }), 'rate_table_id', 'rate_table_id is required');
    invalid(await h.call('GET', `${base}?rate_table_id=999999`, { token: admin }), 'rate_table_id');
    const us = await rateTable(db, 'US analysis', [], { rate_type: 'us_jurisdictional' });
    invalid(
      await h.call('GET', `${base}?rate_table_id=${us}`, { token: admin }),
      'rate_table_id',
      'The rate table must be of type a_z, like the generated rates',
    );
    const sell = await rateTable(db, 'Analysis other', []);
    invalid(await h.call('GET', `${base}?rate_table_id=${sell}&change=gone`, { token: admin }), 'change');
    invalid(await h.call('GET', `${base}?rate_table_id=${sell}&at=soon`, { token: admin }), 'at');
    invalid(
      await h.call('GET', `${base}?rate_table_id=${sell}&column=intra_rate`, { token: admin }),
      'column',
      'Only a US jurisdictional generation has intra, inter, IJ and local rates to compare',
    );
    fails(
      await h.call('GET', `/api/tools/rate_generation/history/999999/analysis?rate_table_id=${sell}`, {
        token: admin,
      }),
      150,
    );
    await db
      .updateTable('rate_generation_history')
      .set({ status: 'Initial' })
      .where('id', '=', run.id)
      .execute();
    fails(
      await h.call('GET', `${base}?rate_table_id=${sell}`, { token: admin }),
      170,
      'Only a finished rate generation can be analysed',
    );
    await db
      .updateTable('rate_generation_history')
      .set({ status: 'Finished' })
      .where('id', '=', run.id)
      .execute();
    const other = await makeRestrictedAdmin(h, admin, 'noanalysis');
    denied(await h.call('GET', `${base}?rate_table_id=${sell}`, { token: other.token }));
    const reader = await makeRestrictedAdmin(h, admin, 'genreader', { '/tools/rate_generation': 'r' });
    ok(await h.call('GET', `${base}?rate_table_id=${sell}`, { token: reader.token }));
  });

  it('applies with the effective date, interval, min time and the end date of existing codes, in one go', async () => {
    const db = h.built.services.db;
    const sell = await rateTable(db, 'Customer sell', [
      ['44', '0.5000', 'UK old'],
      ['86', '0.3000', 'China'],
    ]);
    const applied = ok(
      await h.call<{ task_id: number; inserted: number; updated: number; ended: number }>(
        'POST',
        `/api/tools/rate_generation/history/${run.id}/apply`,
        {
          token: admin,
          body: {
            rate_table_id: sell,
            effective_date: '2030-01-01',
            interval: 60,
            end_date_of_existing_codes: '2030-02-01T00:00:00Z',
          },
        },
      ),
    );
    // 44 ends when its new rate starts; 86 (absent from the result) ends at the given date.
    expect(applied).toMatchObject({ inserted: 8, updated: 0, ended: 2 });
    const rows = ok(
      await h.call<{
        items: {
          code: string;
          rate: string;
          interval: number;
          min_time: number;
          effective_date: string;
          end_date: string | null;
        }[];
      }>('GET', `/api/rate/rate_table/${sell}/rates?per_page=100&order_by=code`, { token: admin }),
    ).items;
    const of = (code: string) => rows.filter((r) => r.code === code);
    expect(of('86')).toMatchObject([{ rate: '0.3000', end_date: '2030-02-01T00:00:00.000Z' }]);
    const uk = of('44').sort((a, b) => a.effective_date.localeCompare(b.effective_date));
    expect(uk).toMatchObject([
      { rate: '0.5000', end_date: '2030-01-01T00:00:00.000Z' },
      {
        rate: '0.0110',
        interval: 60,
        min_time: 30,
        effective_date: '2030-01-01T00:00:00.000Z',
        end_date: null,
      },
    ]);
    expect(of('999')).toMatchObject([{ rate: '0.2000' }]);
    expect(rows).toHaveLength(10);

    const after = ok(
      await h.call<History>('GET', `/api/tools/rate_generation/history/${run.id}`, { token: admin }),
    );
    expect(after).toMatchObject({ applied: true, rate_table_id: sell, rate_table_name: 'Customer sell' });
    const task = ok(
      await h.call<{ status: string; source: string; inserted_rows: number; ended_rows: number }>(
        'GET',
        `/api/rate/import/${applied.task_id}`,
        { token: admin },
      ),
    );
    expect(task).toMatchObject({
      status: 'Finished',
      source: 'rate_generation',
      inserted_rows: 8,
      ended_rows: 2,
    });
    expect((await auditRows(h, 'rate_generation', run.id)).map((a) => a.action)).toEqual([
      'apply',
      'generate',
    ]);
    const staged = await db.selectFrom('rate_import_rows').select('code').execute();
    expect(staged).toHaveLength(0);
  });

  it('with a rate e-mail template, sends the table to the carriers using it once applied', async () => {
    const db = h.built.services.db;
    const sell = await rateTable(db, 'Customer sell mailed', [['44', '0.5000', 'UK old']]);
    const buyer = await carrier(db, 'Mailed customer', {
      client_type: 'client',
      main_email: 'noc@buyer.test',
      rates_email: 'rates@buyer.test',
    });
    await trunk(db, buyer, 'Mailed in', 'ingress', { rate_table_id: sell });
    await carrier(db, 'Unrelated customer', { client_type: 'client', main_email: 'x@other.test' });
    const mailTemplate = ok(
      await h.call<{ object_id: number }>('POST', '/api/rate/email_template/create', {
        token: admin,
        body: {
          name: 'New rates',
          download_method: 'link',
          from_email: 'rates@tandem.test',
          cc: [],
          subject: 'New rates {rate_table_name}',
          content: 'Dear {carrier_name}: {download_link}',
          file_format: 'csv',
        },
      }),
    ).object_id;

    // An unknown template or a past deadline is refused before anything is applied.
    invalid(
      await h.call('POST', `/api/tools/rate_generation/history/${run.id}/apply`, {
        token: admin,
        body: { rate_table_id: sell, effective_date: '2030-01-01', email_template_id: 999999 },
      }),
      'email_template_id',
    );
    invalid(
      await h.call('POST', `/api/tools/rate_generation/history/${run.id}/apply`, {
        token: admin,
        body: {
          rate_table_id: sell,
          effective_date: '2030-01-01',
          email_template_id: mailTemplate,
          download_deadline: '2020-01-01T00:00:00Z',
        },
      }),
      'download_deadline',
    );
    const untouched = await db.selectFrom('rates').select('code').where('rate_table_id', '=', sell).execute();
    expect(untouched).toHaveLength(1);

    const applied = ok(
      await h.call<{ inserted: number; send_id: number | null; recipients: number }>(
        'POST',
        `/api/tools/rate_generation/history/${run.id}/apply`,
        {
          token: admin,
          body: { rate_table_id: sell, effective_date: '2030-01-01', email_template_id: mailTemplate },
        },
      ),
    );
    expect(applied).toMatchObject({ inserted: 8, recipients: 1 });
    expect(applied.send_id).toBeGreaterThan(0);
    const deliveries = await db
      .selectFrom('rate_deliveries')
      .select(['email', 'carrier_name'])
      .where('send_id', '=', applied.send_id!)
      .execute();
    expect(deliveries).toEqual([{ email: 'rates@buyer.test', carrier_name: 'Mailed customer' }]);
    const sent = await db
      .selectFrom('rate_sends')
      .select(['template_name', 'download_deadline', 'rate_table_id'])
      .where('id', '=', applied.send_id!)
      .executeTakeFirstOrThrow();
    expect(sent.template_name).toBe('New rates');
    expect(sent.rate_table_id).toBe(sell);
    // Default deadline: 7 days on.
    expect(Math.abs(sent.download_deadline.getTime() - (Date.now() + 7 * 86_400_000))).toBeLessThan(60_000);

    // No carrier uses the table: applied, nothing sent.
    const lonely = await rateTable(db, 'Nobody uses me', []);
    expect(
      ok(
        await h.call<{ send_id: number | null; recipients: number }>(
          'POST',
          `/api/tools/rate_generation/history/${run.id}/apply`,
          {
            token: admin,
            body: { rate_table_id: lonely, effective_date: '2030-01-01', email_template_id: mailTemplate },
          },
        ),
      ),
    ).toMatchObject({ send_id: null, recipients: 0 });
  });

  it('keeps the history when its template is deleted', async () => {
    ok(await h.call('DELETE', `/api/tools/rate_generation/template/${template}`, { token: admin }));
    const kept = ok(
      await h.call<History>('GET', `/api/tools/rate_generation/history/${run.id}`, { token: admin }),
    );
    expect(kept.template_name).toBe('Gen fixture');
  });

  it('records a run over vendors that price nothing and no default rate as Finished with no rates, and refuses to apply it', async () => {
    const db = h.built.services.db;
    const empty = await trunk(
      db,
      await carrier(db, 'Vendor C', { client_type: 'vendor' }),
      'C out',
      'egress',
    );
    const t = ok(
      await create(body({ name: 'Nothing', egress_trunks: [empty], default_rate: null, code_deck_id: null })),
    ).object_id;
    const started = ok(
      await h.call<{ object_id: number }>('POST', `/api/tools/rate_generation/template/${t}/generate`, {
        token: admin,
        body: {},
      }),
    );
    const r = await waitHistory(started.object_id);
    expect(r).toMatchObject({
      status: 'Finished',
      rate_count: 0,
      message: 'No rates: no vendor prices a code and there is no default rate',
    });
    const sell = await rateTable(db, 'Empty sell', []);
    fails(
      await h.call('POST', `/api/tools/rate_generation/history/${r.id}/apply`, {
        token: admin,
        body: { rate_table_id: sell, effective_date: '2030-01-01' },
      }),
      170,
    );
  });
});
