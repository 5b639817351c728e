import type { api } from '@tandem/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
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
import { carrier, trunk } from './routing-fixtures';

type Summary = z.output<typeof api.rateReports.clientRateSummary.payload>;
type Report = z.output<typeof api.rateReports.rateReport.payload>;
type Candidates = z.output<typeof api.rateReports.assignCandidates.payload>;

let h: Harness;
let admin: string;
const PAST = '2020-01-01T00:00:00.000Z';
const MID = '2021-06-01T00:00:00.000Z';
const ENDED = '2021-01-01T00:00:00.000Z';
const FUTURE = '2099-01-01T00:00:00.000Z';

type Db = Harness['built']['services']['db'];
type RateSpec = [
  code: string,
  rate: string,
  from: string,
  to?: string | null,
  name?: string,
  country?: string,
];

async function table(db: Db, name: string, rows: RateSpec[], extra: Record<string, unknown> = {}) {
  const t = await db
    .insertInto('rate_tables')
    .values({ name, decimal_places: 4, ...extra } as never)
    .returning('rate_table_id')
    .executeTakeFirstOrThrow();
  if (rows.length)
    await db
      .insertInto('rates')
      .values(
        rows.map(([code, rate, from, to, codeName, country]) => ({
          rate_table_id: t.rate_table_id,
          code,
          rate,
          code_name: codeName ?? '',
          country: country ?? '',
          effective_date: new Date(from),
          end_date: to ? new Date(to) : null,
        })),
      )
      .execute();
  return t.rate_table_id;
}

const ids = {} as Record<
  | 'acme'
  | 'bolt'
  | 'v1'
  | 'v2'
  | 'v3'
  | 'retail'
  | 'premium'
  | 'v1cost'
  | 'v2cost'
  | 'v3euro'
  | 'acmeIn'
  | 'acmeBackup'
  | 'acmeOld'
  | 'boltIn'
  | 'v1out'
  | 'v2out'
  | 'v3out',
  number
>;

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  const db = h.built.services.db;
  ids.acme = await carrier(db, 'Acme', { client_type: 'client' });
  ids.bolt = await carrier(db, 'Bolt', { client_type: 'client' });
  ids.v1 = await carrier(db, 'V1', { client_type: 'vendor' });
  ids.v2 = await carrier(db, 'V2', { client_type: 'vendor' });
  ids.v3 = await carrier(db, 'V3', { client_type: 'vendor' });
  ids.retail = await table(db, 'Acme retail', [
    ['44', '0.05', PAST],
    ['44', '0.055', FUTURE], // pending increase
    ['447', '0.09', PAST],
    ['447', '0.08', FUTURE], // pending decrease
    ['33', '0.02', FUTURE], // pending new code
    ['1', '0.01', PAST, ENDED], // ended
    ['49', '0.03', MID],
    ['49', '0.03', FUTURE], // same price: no change
  ]);
  ids.premium = await table(db, 'Acme premium', [['44', '0.07', PAST]]);
  ids.v1cost = await table(db, 'V1 cost', [
    ['44', '0.03', PAST, null, 'UK', 'United Kingdom'],
    ['4420', '0.012', PAST, null, 'UK London', 'United Kingdom'],
    ['447', '0.06', PAST, null, 'UK Mobile', 'United Kingdom'],
  ]);
  ids.v2cost = await table(
    db,
    'V2 cost',
    [
      ['44', '0.025', PAST, FUTURE],
      ['44', '0.04', FUTURE],
    ],
    { decimal_places: 6 },
  );
  ids.v3euro = await table(db, 'V3 euro', [['44', '0.02', PAST]], { currency: 'EUR' });
  ids.acmeIn = await trunk(db, ids.acme, 'Acme in', 'ingress', { rate_table_id: ids.retail });
  ids.acmeBackup = await trunk(db, ids.acme, 'Acme backup', 'ingress');
  const product = await db
    .insertInto('products')
    .values({ name: 'Premium', rate_table_id: ids.premium, tech_prefix: '77' })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('trunk_routing_rows')
    .values({ trunk_id: ids.acmeBackup, product_id: product.id, tech_prefix: '77', rate_table_id: null })
    .execute();
  ids.acmeOld = await trunk(db, ids.acme, 'Acme old', 'ingress', { rate_table_id: ids.retail });
  await db.updateTable('trunks').set({ is_active: false }).where('trunk_id', '=', ids.acmeOld).execute();
  ids.boltIn = await trunk(db, ids.bolt, 'Bolt in', 'ingress');
  ids.v1out = await trunk(db, ids.v1, 'V1 out', 'egress', { rate_table_id: ids.v1cost });
  ids.v2out = await trunk(db, ids.v2, 'V2 out', 'egress', { rate_table_id: ids.v2cost });
  ids.v3out = await trunk(db, ids.v3, 'V3 out', 'egress', { rate_table_id: ids.v3euro });
});
afterAll(() => h.close());

const get = <T>(url: string, token = admin) => h.call<T>('GET', `/api${url}`, { token });
const post = <T>(url: string, body: unknown, token = admin) =>
  h.call<T>('POST', `/api${url}`, { token, body });

describe('client rate summary', () => {
  it("lists each ingress trunk's rate tables as the engine prices them, with counts, dates and pending changes", async () => {
    const s = ok(await get<Summary>('/termination/client_rate_summary/list?per_page=50'));
    expect(s.total).toBe(4);
    expect(
      s.items.map((r) => [r.carrier_name, r.trunk_name, r.tech_prefix, r.product_name, r.rate_table_name]),
    ).toEqual([
      ['Acme', 'Acme backup', '77', 'Premium', 'Acme premium'],
      ['Acme', 'Acme in', '', null, 'Acme retail'],
      ['Acme', 'Acme old', '', null, 'Acme retail'],
      ['Bolt', 'Bolt in', '', null, null],
    ]);
    const retail = s.items[1]!;
    expect(retail).toMatchObject({
      carrier_id: ids.acme,
      trunk_id: ids.acmeIn,
      trunk_is_active: true,
      rate_table_id: ids.retail,
      currency: 'USD',
      rate_count: 8,
      current_codes: 3,
      last_effective_date: MID,
      pending_increases: 1,
      pending_decreases: 1,
      pending_new: 1,
      next_change_date: FUTURE,
    });
    expect(s.items[0]).toMatchObject({
      rate_count: 1,
      current_codes: 1,
      last_effective_date: PAST,
      pending_increases: 0,
      pending_decreases: 0,
      pending_new: 0,
      next_change_date: null,
    });
    expect(s.items[3]).toMatchObject({ rate_table_id: null, rate_count: 0, current_codes: 0 });
  });

  it('filters by client, trunk, rate table and state, sorts and pages', async () => {
    const byClient = ok(await get<Summary>(`/termination/client_rate_summary/list?carrier_id=${ids.bolt}`));
    expect(byClient.items.map((r) => r.trunk_name)).toEqual(['Bolt in']);
    const byTable = ok(
      await get<Summary>(
        `/termination/client_rate_summary/list?rate_table_id=${ids.retail}&order_by=trunk_name`,
      ),
    );
    expect(byTable.items.map((r) => r.trunk_name)).toEqual(['Acme in', 'Acme old']);
    const active = ok(
      await get<Summary>(`/termination/client_rate_summary/list?rate_table_id=${ids.retail}&is_active=true`),
    );
    expect(active.items.map((r) => r.trunk_name)).toEqual(['Acme in']);
    const byTrunk = ok(
      await get<Summary>(`/termination/client_rate_summary/list?trunk_id=${ids.acmeBackup}`),
    );
    expect(byTrunk.items.map((r) => r.rate_table_name)).toEqual(['Acme premium']);
    const page = ok(
      await get<Summary>(
        '/termination/client_rate_summary/list?per_page=2&page=1&order_by=trunk_name&order_dir=desc',
      ),
    );
    expect(page.total).toBe(4);
    expect(page.items.map((r) => r.trunk_name)).toEqual(['Acme in', 'Acme backup']);
    invalid(await get('/termination/client_rate_summary/list?carrier_id=x'), 'carrier_id');
  });
});

describe('rate report', () => {
  const cells = (r: Report['items'][number]) => r.rates.map((c) => (c ? `${c.code}:${c.rate}` : null));

  it('prices codes in every client and vendor table of the currency by the longest prefix in effect, with min and max', async () => {
    const r = ok(await get<Report>('/termination/rate_report?codes=44'));
    expect(r.currency).toBe('USD');
    expect(r.columns.map((c) => [c.side, c.carrier_name, c.rate_table_name, c.trunk_names])).toEqual([
      ['client', 'Acme', 'Acme premium', ['Acme backup']],
      ['client', 'Acme', 'Acme retail', ['Acme in']],
      ['vendor', 'V1', 'V1 cost', ['V1 out']],
      ['vendor', 'V2', 'V2 cost', ['V2 out']],
    ]);
    expect(r.total).toBe(3);
    expect(r.items.map((i) => [i.code, i.code_name, i.country])).toEqual([
      ['44', 'UK', 'United Kingdom'],
      ['4420', 'UK London', 'United Kingdom'],
      ['447', 'UK Mobile', 'United Kingdom'],
    ]);
    expect(r.items.map(cells)).toEqual([
      ['44:0.0700', '44:0.0500', '44:0.0300', '44:0.025000'],
      ['44:0.0700', '44:0.0500', '4420:0.0120', '44:0.025000'],
      ['44:0.0700', '447:0.0900', '447:0.0600', '44:0.025000'],
    ]);
    expect(r.items.map((i) => [i.client_min, i.client_max, i.vendor_min, i.vendor_max])).toEqual([
      ['0.0500', '0.0700', '0.025000', '0.0300'],
      ['0.0500', '0.0700', '0.0120', '0.025000'],
      ['0.0700', '0.0900', '0.025000', '0.0600'],
    ]);
    expect(r.items[0]!.rates[1]!.effective_date).toBe(PAST);
  });

  it('answers for a chosen date, a full number, a country, a currency, one side, and pages', async () => {
    const later = ok(await get<Report>('/termination/rate_report?codes=44&at=2099-06-01'));
    expect(later.items.map(cells)[0]).toEqual(['44:0.0700', '44:0.0550', '44:0.0300', '44:0.040000']);
    expect(later.at).toBe('2099-06-01T00:00:00.000Z');

    const number = ok(await get<Report>('/termination/rate_report?codes=4420123456'));
    expect(number.total).toBe(1);
    expect(number.items[0]).toMatchObject({
      code: '4420123456',
      code_name: 'UK London',
      vendor_min: '0.0120',
    });

    const uk = ok(await get<Report>('/termination/rate_report?country=united%20kingdom'));
    expect(uk.items.map((i) => i.code)).toEqual(['44', '4420', '447']);

    const mobile = ok(await get<Report>('/termination/rate_report?code_name=mobile'));
    expect(mobile.items.map((i) => i.code)).toEqual(['447']);

    const euro = ok(await get<Report>('/termination/rate_report?currency=eur&codes=44'));
    expect(euro.columns.map((c) => c.rate_table_name)).toEqual(['V3 euro']);
    expect(euro.items.map((i) => [i.code, i.vendor_min, i.client_min])).toEqual([['44', '0.0200', null]]);

    const vendors = ok(await get<Report>('/termination/rate_report?codes=44&side=vendor'));
    expect(vendors.columns.map((c) => c.rate_table_name)).toEqual(['V1 cost', 'V2 cost']);

    const inactive = ok(
      await get<Report>('/termination/rate_report?codes=44&side=client&include_inactive=true'),
    );
    expect(inactive.columns.find((c) => c.rate_table_name === 'Acme retail')?.trunk_names).toEqual([
      'Acme in',
      'Acme old',
    ]);

    const page = ok(await get<Report>('/termination/rate_report?codes=44&per_page=2&page=1'));
    expect(page.total).toBe(3);
    expect(page.items.map((i) => i.code)).toEqual(['447']);
    const desc = ok(await get<Report>('/termination/rate_report?codes=44&order_dir=desc&per_page=1'));
    expect(desc.items.map((i) => i.code)).toEqual(['447']);
  });

  it('names the field of a bad code list or date', async () => {
    invalid(await get('/termination/rate_report?codes=44,4a'), 'codes', 'codes may contain digits only');
    invalid(await get('/termination/rate_report?at=yesterday'), 'at');
    invalid(await get('/termination/rate_report?currency=dollars'), 'currency');
  });
});

describe('assign rate deck', () => {
  let deck = 0;
  it('lists the trunks of a direction with the table they use', async () => {
    deck = ok(
      await post<{ object_id: number }>('/rate/rate_table/create', { name: 'New deck', decimal_places: 4 }),
    ).object_id;
    await h.built.services.db
      .insertInto('rates')
      .values({ rate_table_id: deck, code: '44', rate: '0.028', effective_date: new Date(PAST) })
      .execute();
    const c = ok(
      await get<Candidates>(`/rate/rate_table/${deck}/assign_rate_deck?direction=egress&per_page=50`),
    );
    expect(c.rate_table_name).toBe('New deck');
    expect(c.items.map((t) => [t.name, t.carrier_name, t.rate_table_name, t.uses_this])).toEqual([
      ['V1 out', 'V1', 'V1 cost', false],
      ['V2 out', 'V2', 'V2 cost', false],
      ['V3 out', 'V3', 'V3 euro', false],
    ]);
    const ingress = ok(
      await get<Candidates>(`/rate/rate_table/${ids.premium}/assign_rate_deck?carrier_id=${ids.acme}`),
    );
    expect(ingress.items.map((t) => [t.name, t.is_active, t.other_product_tables])).toEqual([
      ['Acme backup', true, 0],
      ['Acme in', true, 0],
      ['Acme old', false, 0],
    ]);
  });

  it('assigns the table to many trunks in one transaction, logs each, rebuilds the snapshot, and the reports follow', async () => {
    let signals = 0;
    const stop = h.built.services.configChanged.subscribe(() => signals++);
    const r = ok(
      await post<{ assigned: number; unchanged: number }>(`/rate/rate_table/${deck}/assign_rate_deck`, {
        trunk_ids: [ids.v1out, ids.v2out],
      }),
    );
    stop();
    expect(r).toEqual({ assigned: 2, unchanged: 0 });
    expect(signals).toBe(1);
    const log = await auditRows(h, 'trunk', ids.v1out);
    expect(log[0]).toMatchObject({ action: 'update' });
    expect(log[0]!.before).toEqual({ rate_table_id: ids.v1cost });
    expect(log[0]!.after).toEqual({ rate_table_id: deck });
    expect((await auditRows(h, 'rate_table', deck))[0]).toMatchObject({ action: 'assign_rate_deck' });

    const used = ok(
      await get<Candidates>(`/rate/rate_table/${deck}/assign_rate_deck?direction=egress&uses_this=true`),
    );
    expect(used.items.map((t) => t.name)).toEqual(['V1 out', 'V2 out']);

    const again = ok(await post(`/rate/rate_table/${deck}/assign_rate_deck`, { trunk_ids: [ids.v1out] }));
    expect(again).toEqual({ assigned: 0, unchanged: 1 });

    const report = ok(await get<Report>('/termination/rate_report?codes=44&side=vendor'));
    expect(report.columns.map((c) => [c.carrier_name, c.rate_table_name])).toEqual([
      ['V1', 'New deck'],
      ['V2', 'New deck'],
    ]);
    expect(report.items[0]!.rates.map((c) => c?.rate)).toEqual(['0.0280', '0.0280']);

    ok(await post(`/rate/rate_table/${deck}/assign_rate_deck`, { trunk_ids: [ids.acmeBackup] }));
    const summary = ok(
      await get<Summary>(`/termination/client_rate_summary/list?trunk_id=${ids.acmeBackup}`),
    );
    // The trunk's own table now prices its own tech prefix beside the product row.
    expect(summary.items.map((s) => [s.tech_prefix, s.rate_table_name])).toEqual([
      ['', 'New deck'],
      ['77', 'Acme premium'],
    ]);
  });

  it('refuses inactive or unknown trunks and changes nothing', async () => {
    const r = await post(`/rate/rate_table/${ids.premium}/assign_rate_deck`, {
      trunk_ids: [ids.acmeIn, ids.acmeOld],
    });
    fails(r, 170, 'Please activate the trunk for any modification: Acme old');
    const acmeIn = await h.built.services.db
      .selectFrom('trunks')
      .select('rate_table_id')
      .where('trunk_id', '=', ids.acmeIn)
      .executeTakeFirstOrThrow();
    expect(acmeIn.rate_table_id).toBe(ids.retail);
    invalid(
      await post(`/rate/rate_table/${ids.premium}/assign_rate_deck`, { trunk_ids: [999999] }),
      'trunk_ids',
    );
    invalid(
      await post(`/rate/rate_table/${ids.premium}/assign_rate_deck`, { trunk_ids: [] }),
      'trunk_ids',
      'Select at least one trunk',
    );
    fails(await post(`/rate/rate_table/999999/assign_rate_deck`, { trunk_ids: [ids.acmeIn] }), 150);
  });
});

describe('permissions and tenancy', () => {
  it('keeps client portal users and admins without the permission out of the reports and the assignment', async () => {
    const client = await makeCarrierUser(h, admin, 'Portal');
    for (const token of [client.token, (await makeRestrictedAdmin(h, admin, 'nobody')).token]) {
      denied(await get('/termination/client_rate_summary/list', token));
      denied(await get('/termination/rate_report?codes=44', token));
      denied(await get(`/rate/rate_table/${ids.retail}/assign_rate_deck`, token));
      denied(
        await post(`/rate/rate_table/${ids.retail}/assign_rate_deck`, { trunk_ids: [ids.acmeIn] }, token),
      );
    }
    const reader = await makeRestrictedAdmin(h, admin, 'reader', {
      '/termination/rate_report': 'r',
      '/routing/rate_table': 'r',
    });
    ok(await get('/termination/rate_report?codes=44', reader.token));
    denied(await get('/termination/client_rate_summary/list', reader.token));
    ok(await get(`/rate/rate_table/${ids.retail}/assign_rate_deck`, reader.token));
    denied(
      await post(
        `/rate/rate_table/${ids.retail}/assign_rate_deck`,
        { trunk_ids: [ids.acmeIn] },
        reader.token,
      ),
    );
  });
});
