import type { api } from '@tandem/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditRows,
  denied,
  fails,
  invalid,
  makeRestrictedAdmin,
  ok,
  startHarness,
  upload,
  type Harness,
} from './harness';

/** Rates area: code decks and codes, rate tables, rate rows (spec 02 rate rules), US jurisdiction. */
let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
});
afterAll(() => h.close());

type Paged<T> = { items: T[]; total: number };
const get = <T>(url: string, token = admin) => h.call<T>('GET', url, { token });
const post = <T = { object_id: number }>(url: string, body: unknown, token = admin) =>
  h.call<T>('POST', url, { token, body });
const patch = (url: string, body: unknown, token = admin) => h.call('PATCH', url, { token, body });
const del = (url: string, token = admin) => h.call('DELETE', url, { token });
const csv = (text: string) => ({ name: 'file.csv', data: Buffer.from(text) });

interface Deck {
  code_deck_id: number;
  name: string;
  is_default: boolean;
  code_count: number;
  usage_count: number;
  updated_by: string;
}
interface Code {
  code: string;
  code_name: string;
  country: string;
  usage_count: number;
}
/** A rate row as the API answers it (the contract's own type). */
type Rate = api.rates.RateRow;

describe('code decks', () => {
  let deckA: number;
  it('creates decks with one default, lists code and usage counts, and names who changed them', async () => {
    deckA = ok(await post('/api/rate/code_deck/create', { name: 'World A-Z', is_default: true })).object_id;
    const b = ok(await post('/api/rate/code_deck/create', { name: 'US NPA', is_default: true })).object_id;
    let list = ok(await get<Paged<Deck>>('/api/rate/code_deck/list?order_by=name'));
    expect(list.items.map((d) => [d.name, d.is_default])).toEqual([
      ['US NPA', true],
      ['World A-Z', false],
    ]);
    expect(list.items[0]).toMatchObject({ code_count: 0, usage_count: 0, updated_by: 'admin' });
    ok(await patch(`/api/rate/code_deck/${deckA}`, { is_default: true }));
    list = ok(await get<Paged<Deck>>('/api/rate/code_deck/list?order_by=name'));
    expect(list.items.filter((d) => d.is_default).map((d) => d.code_deck_id)).toEqual([deckA]);
    expect(
      ok(await get<Paged<Deck>>('/api/rate/code_deck/list?name=npa')).items.map((d) => d.code_deck_id),
    ).toEqual([b]);
    const dup = await post('/api/rate/code_deck/create', { name: 'world a-z' });
    fails(dup, 160, 'Code Deck [world a-z] already exists');
  });

  it('adds, edits and deletes codes; refuses a duplicate code and non-digit codes', async () => {
    ok(
      await post(`/api/rate/code_deck/${deckA}/codes`, {
        code: '44',
        code_name: 'UNITED KINGDOM',
        country: 'United Kingdom',
      }),
    );
    ok(
      await post(`/api/rate/code_deck/${deckA}/codes`, {
        code: '447',
        code_name: 'UK MOBILE',
        country: 'United Kingdom',
      }),
    );
    fails(
      await post(`/api/rate/code_deck/${deckA}/codes`, { code: '44', code_name: 'again' }),
      160,
      'Code [44] already exists',
    );
    invalid(
      await post(`/api/rate/code_deck/${deckA}/codes`, { code: '44a' }),
      'code',
      'code may contain digits only',
    );
    invalid(await post(`/api/rate/code_deck/${deckA}/codes`, { code: '' }), 'code', 'code is required');
    ok(await patch(`/api/rate/code_deck/${deckA}/codes/447`, { code_name: 'UK - MOBILE' }));
    const codes = ok(await get<Paged<Code>>(`/api/rate/code_deck/${deckA}/codes?code=44`));
    expect(codes.items).toEqual([
      { code: '44', code_name: 'UNITED KINGDOM', country: 'United Kingdom', usage_count: 0 },
      { code: '447', code_name: 'UK - MOBILE', country: 'United Kingdom', usage_count: 0 },
    ]);
    ok(await del(`/api/rate/code_deck/${deckA}/codes/447`));
    expect(ok(await get<Paged<Code>>(`/api/rate/code_deck/${deckA}/codes`)).total).toBe(1);
    expect((await del(`/api/rate/code_deck/${deckA}/codes/999`)).status).toBe(404);
  });

  it('imports a code deck from CSV (quoted names with commas, merge then replace) in one transaction', async () => {
    const file =
      'code,code_name,country\n93,AFGHANISTAN,Afghanistan\n"9370","AFGHANISTAN, MOBILE",Afghanistan\n44,UK FIXED,United Kingdom\n';
    const r = ok(
      await upload(h, `/api/rate/code_deck/${deckA}/import`, admin, { mode: 'merge' }, csv(file)),
    ) as unknown as Record<string, number>;
    expect(r).toMatchObject({ total_rows: 3, inserted_rows: 2, updated_rows: 1, deleted_rows: 0 });
    const codes = ok(await get<Paged<Code>>(`/api/rate/code_deck/${deckA}/codes?code_name=mobile`));
    expect(codes.items).toEqual([
      { code: '9370', code_name: 'AFGHANISTAN, MOBILE', country: 'Afghanistan', usage_count: 0 },
    ]);
    // A bad row refuses the whole file, naming the line.
    const bad = await upload(
      h,
      `/api/rate/code_deck/${deckA}/import`,
      admin,
      { mode: 'replace' },
      csv('code,code_name\n1,USA\n1x,BAD\n'),
    );
    invalid(bad, 'line 3', 'code may contain digits only');
    expect(ok(await get<Paged<Code>>(`/api/rate/code_deck/${deckA}/codes`)).total).toBe(3);
    const rep = ok(
      await upload(
        h,
        `/api/rate/code_deck/${deckA}/import`,
        admin,
        { mode: 'replace' },
        csv('93,AFGHANISTAN,Afghanistan\n1,USA,United States\n'),
      ),
    ) as unknown as Record<string, number>;
    expect(rep).toMatchObject({ total_rows: 2, inserted_rows: 1, updated_rows: 1, deleted_rows: 2 });
    expect(
      ok(await get<Paged<Code>>(`/api/rate/code_deck/${deckA}/codes?order_by=code`)).items.map((c) => c.code),
    ).toEqual(['1', '93']);
    const wrongType = await upload(
      h,
      `/api/rate/code_deck/${deckA}/import`,
      admin,
      {},
      { name: 'codes.pdf', data: Buffer.from('%PDF-1.4') },
    );
    invalid(wrongType, 'file', "You can't upload files of this type.");
    expect(ok(await get<Paged<Deck>>(`/api/rate/code_deck/list?name=World`)).items[0]?.code_count).toBe(2);
  });
});

describe('rate tables', () => {
  let deck: number;
  let table: number;
  it('creates a rate table with every field of spec 02 and reads it back', async () => {
    deck = ok(await post('/api/rate/code_deck/create', { name: 'Deck for tables' })).object_id;
    table = ok(
      await post('/api/rate/rate_table/create', {
        name: 'US Jurisdictional',
        code_deck_id: deck,
        currency: 'usd',
        billing_method: 'lrn',
        rate_type: 'us_jurisdictional',
        require_setup_fee: true,
        require_local_rate: true,
        jurisdiction_country: 'US',
        decimal_places: 5,
      }),
    ).object_id;
    const t = ok(await get<Record<string, unknown>>(`/api/rate/rate_table/${table}`));
    expect(t).toMatchObject({
      name: 'US Jurisdictional',
      code_deck_id: deck,
      code_deck_name: 'Deck for tables',
      currency: 'USD',
      billing_method: 'lrn',
      rate_type: 'us_jurisdictional',
      require_setup_fee: true,
      require_local_rate: true,
      jurisdiction_country: 'US',
      decimal_places: 5,
      rate_count: 0,
      usage_count: 0,
    });
    expect(
      ok(
        await get<Paged<{ name: string }>>('/api/rate/rate_table/list?rate_type=us_jurisdictional'),
      ).items.map((x) => x.name),
    ).toEqual(['US Jurisdictional']);
    expect(ok(await get<Paged<Deck>>(`/api/rate/code_deck/list?name=for tables`)).items[0]?.usage_count).toBe(
      1,
    );
  });

  it('refuses bad fields, naming each (decimal places 0..6, rate type, billing method, unknown code deck, duplicate name)', async () => {
    invalid(
      await post('/api/rate/rate_table/create', { name: 'X', decimal_places: 7 }),
      'decimal_places',
      'decimal_places must be between 0 and 6',
    );
    invalid(
      await post('/api/rate/rate_table/create', { name: 'X', rate_type: 'zone' }),
      'rate_type',
      /rate_type must be one of: a_z, us_jurisdictional, us_non_jurisdictional/,
    );
    invalid(
      await post('/api/rate/rate_table/create', { name: 'X', billing_method: 'ani' }),
      'billing_method',
    );
    invalid(await post('/api/rate/rate_table/create', { name: 'X', code_deck_id: 999999 }), 'code_deck_id');
    invalid(await post('/api/rate/rate_table/create', { name: '' }), 'name', 'name is required');
    fails(
      await post('/api/rate/rate_table/create', { name: 'us jurisdictional' }),
      160,
      'Rate Table [us jurisdictional] already exists',
    );
    invalid(await patch(`/api/rate/rate_table/${table}`, { decimal_places: -1 }), 'decimal_places');
  });

  it('refuses to delete a table while trunks, products or trunk routing rows use it, with the counts', async () => {
    const db = h.built.services.db;
    const carrier = await db
      .insertInto('carriers')
      .values({ name: 'Rate user', updated_at: new Date() })
      .returning('client_id')
      .executeTakeFirstOrThrow();
    const trunk = await db
      .insertInto('trunks')
      .values({ carrier_id: carrier.client_id, name: 'T1', direction: 'ingress', rate_table_id: table })
      .returning('trunk_id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('trunks')
      .values({ carrier_id: carrier.client_id, name: 'T2', direction: 'egress', rate_table_id: table })
      .execute();
    const product = await db
      .insertInto('products')
      .values({ name: 'Gold', rate_table_id: table })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('trunk_routing_rows')
      .values({ trunk_id: trunk.trunk_id, product_id: product.id, rate_table_id: table, tech_prefix: '11' })
      .execute();
    const usage = ok(
      await get<{ items: { what: string; count: number }[]; total: number }>(
        `/api/rate/rate_table/${table}/usage`,
      ),
    );
    expect(usage.items.filter((u) => u.count > 0)).toEqual([
      { what: 'trunk(s)', count: 2 },
      { what: 'product(s)', count: 1 },
      { what: 'trunk routing row(s)', count: 1 },
    ]);
    const refused = await del(`/api/rate/rate_table/${table}`);
    fails(
      refused,
      170,
      `Rate Table [${table}] is in use by 2 trunk(s), 1 product(s), 1 trunk routing row(s) record(s) and cannot be deleted`,
    );
    expect(ok(await get<{ usage_count: number }>(`/api/rate/rate_table/${table}`)).usage_count).toBe(4);
    // The code deck is refused too while the table uses it.
    fails(await del(`/api/rate/code_deck/${deck}`), 170, /1 rate table\(s\)/);
    await db.deleteFrom('trunk_routing_rows').execute();
    await db.deleteFrom('products').execute();
    await db.deleteFrom('trunks').execute();
    const spare = ok(await post('/api/rate/rate_table/create', { name: 'Spare' })).object_id;
    ok(await del(`/api/rate/rate_table/${spare}`));
    expect((await get(`/api/rate/rate_table/${spare}`)).status).toBe(404);
    const log = await auditRows(h, 'rate_table', spare);
    expect(log.map((r) => r.action)).toEqual(expect.arrayContaining(['create', 'delete']));
  });
});

describe('rate rows on the rate editing page', () => {
  let table: number;
  const rates = (q = '') =>
    get<Paged<Rate> & { decimal_places: number }>(`/api/rate/rate_table/${table}/rates?per_page=50${q}`);
  const base = {
    code: '4420',
    code_name: 'UK LONDON',
    country: 'United Kingdom',
    rate: '0.0125',
    effective_date: '2026-01-01',
  };

  it('adds rows with every column, rounds amounts to the table decimal places (half up) and shows them so', async () => {
    table = ok(
      await post('/api/rate/rate_table/create', {
        name: 'Editing',
        decimal_places: 4,
        rate_type: 'us_jurisdictional',
        require_local_rate: true,
        require_setup_fee: true,
      }),
    ).object_id;
    const id = ok(
      await post(`/api/rate/rate_table/${table}/rates`, {
        ...base,
        rate: '0.01235',
        intra_rate: '0.02',
        inter_rate: '0.03',
        ij_rate: '0.04',
        local_rate: '0.005',
        min_time: 30,
        interval: 6,
        grace_time: 3,
        setup_fee: '0.10004',
        end_date: '2026-06-30 12:00',
      }),
    ).object_id;
    const list = ok(await rates());
    expect(list.decimal_places).toBe(4);
    expect(list.items[0]).toEqual({
      rate_id: id,
      code: '4420',
      code_name: 'UK LONDON',
      country: 'United Kingdom',
      rate: '0.0124',
      intra_rate: '0.0200',
      inter_rate: '0.0300',
      ij_rate: '0.0400',
      local_rate: '0.0050',
      min_time: 30,
      interval: 6,
      grace_time: 3,
      setup_fee: '0.1000',
      effective_date: '2026-01-01T00:00:00.000Z',
      end_date: '2026-06-30T12:00:00.000Z',
      state: 'ended',
    });
    const stored = await h.built.services.db
      .selectFrom('rates')
      .select(['rate', 'setup_fee'])
      .where('rate_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ rate: '0.012400', setup_fee: '0.100000' });
    // 0.01235 at 4 places is 0.0124 (half up), never the float 0.0123.
    const half = ok(
      await post(`/api/rate/rate_table/${table}/rates`, {
        ...base,
        code: '4421',
        rate: '0.00005',
        effective_date: '2026-01-01',
      }),
    ).object_id;
    expect(ok(await rates('&code=4421')).items.find((r) => r.rate_id === half)?.rate).toBe('0.0001');
  });

  it("refuses a second row with the same code and effective date: 'the code [{0}] with effective date [{1}] already exists'", async () => {
    const dup = await post(`/api/rate/rate_table/${table}/rates`, { ...base, rate: '0.02' });
    fails(dup, 160, 'the code [4420] with effective date [2026-01-01 00:00:00] already exists');
    expect(dup.body.errors?.code).toBe(
      'the code [4420] with effective date [2026-01-01 00:00:00] already exists',
    );
    ok(
      await post(`/api/rate/rate_table/${table}/rates`, {
        ...base,
        rate: '0.02',
        effective_date: '2026-07-01',
      }),
    );
    const de = await h.call('POST', `/api/rate/rate_table/${table}/rates`, {
      token: admin,
      body: { ...base, rate: '0.02' },
      headers: { 'x-lang': 'de' },
    });
    expect(de.body.error?.message).toBe(
      'der Code [4420] mit Gültigkeitsdatum [2026-01-01 00:00:00] existiert bereits',
    );
  });

  it('enforces the number and date rules of spec 02 section 5, naming the field', async () => {
    const at = `/api/rate/rate_table/${table}/rates`;
    invalid(
      await post(at, { ...base, code: '5', end_date: '2025-12-31' }),
      'end_date',
      'Effective date must be less than end date',
    );
    invalid(
      await post(at, { ...base, code: '5', end_date: '2026-01-01' }),
      'end_date',
      'Effective date must be less than end date',
    );
    invalid(
      await post(at, { ...base, code: '5', setup_fee: '-1' }),
      'setup_fee',
      'setup_fee must be a valid positive floating number',
    );
    invalid(
      await post(at, { ...base, code: '5', local_rate: 'abc' }),
      'local_rate',
      'local_rate must be a valid positive floating number',
    );
    invalid(
      await post(at, { ...base, code: '5', rate: '0.1234567' }),
      'rate',
      'rate must be a valid positive floating number',
    );
    invalid(
      await post(at, { ...base, code: '5', min_time: 1.5 }),
      'min_time',
      'min_time must be a valid positive integer',
    );
    invalid(
      await post(at, { ...base, code: '5', interval: 0 }),
      'interval',
      'interval must be a valid positive integer',
    );
    invalid(
      await post(at, { ...base, code: '5', grace_time: -3 }),
      'grace_time',
      'grace_time must be a valid positive integer',
    );
    invalid(
      await post(at, { ...base, code: '5', effective_date: '31/12/2026' }),
      'effective_date',
      'effective_date is not a valid date',
    );
    invalid(await post(at, { code: '5', rate: '0.1' }), 'effective_date', 'effective_date is required');
    invalid(await post(at, { ...base, code: '+44' }), 'code', 'code may contain digits only');
    invalid(await post(at, { ...base, code: '6', rate: '' }), 'rate');
    expect(ok(await rates('&code=5')).total).toBe(0);
  });

  it('edits rows (checking the merged row), end-dates them and deletes them; list filters by code, name, country and state', async () => {
    const now = Date.now();
    const day = 86_400_000;
    const iso = (ms: number) => new Date(ms).toISOString();
    const t2 = ok(await post('/api/rate/rate_table/create', { name: 'States' })).object_id;
    const mk = async (code: string, from: number, to: number | null, country = 'France') =>
      ok(
        await post(`/api/rate/rate_table/${t2}/rates`, {
          code,
          code_name: `FR ${code}`,
          country,
          rate: '0.1',
          effective_date: iso(from),
          end_date: to === null ? null : iso(to),
        }),
      ).object_id;
    const current = await mk('331', now - day, null);
    const future = await mk('332', now + day, null);
    const ended = await mk('333', now - 2 * day, now - day);
    await mk('49', now - day, null, 'Germany');
    const list = (q: string) => get<Paged<Rate>>(`/api/rate/rate_table/${t2}/rates?per_page=10${q}`);
    expect(
      ok(await list('&state=current'))
        .items.map((r) => r.rate_id)
        .sort(),
    ).toEqual([current, ok(await list('&code=49')).items[0]!.rate_id].sort());
    expect(ok(await list('&state=future')).items.map((r) => [r.rate_id, r.state])).toEqual([
      [future, 'future'],
    ]);
    expect(ok(await list('&state=ended')).items.map((r) => [r.rate_id, r.state])).toEqual([[ended, 'ended']]);
    expect(ok(await list('&code=33')).total).toBe(3);
    expect(ok(await list('&country=germ')).total).toBe(1);
    expect(ok(await list('&code_name=fr 33')).total).toBe(3);
    const page = ok(
      await get<Paged<Rate>>(
        `/api/rate/rate_table/${t2}/rates?per_page=2&page=1&order_by=code&order_dir=desc`,
      ),
    );
    expect(page).toMatchObject({ total: 4 });
    expect(page.items.map((r) => r.code)).toEqual(['332', '331']);

    // Edit: the merged row must keep effective < end.
    invalid(
      await patch(`/api/rate/rate_table/${t2}/rates/${ended}`, { effective_date: iso(now) }),
      'end_date',
      'Effective date must be less than end date',
    );
    ok(await patch(`/api/rate/rate_table/${t2}/rates/${current}`, { rate: '0.25', interval: 60 }));
    expect(ok(await list('&code=331')).items[0]).toMatchObject({ rate: '0.2500', interval: 60 });
    fails(
      await patch(`/api/rate/rate_table/${t2}/rates/${future}`, {
        code: '331',
        effective_date: iso(now - day),
      }),
      160,
      /the code \[331\] with effective date/,
    );
    // End dates: refused before a row starts, set for several rows at once.
    invalid(
      await post(`/api/rate/rate_table/${t2}/rates/end`, { rate_ids: [future], end_date: iso(now) }),
      'end_date',
      'Effective date must be less than end date',
    );
    expect(
      ok(
        await post<{ affected: number }>(`/api/rate/rate_table/${t2}/rates/end`, {
          rate_ids: [current],
          end_date: iso(now - 1000),
        }),
      ).affected,
    ).toBe(1);
    expect(ok(await list('&code=331')).items[0]?.state).toBe('ended');
    expect(
      (await post(`/api/rate/rate_table/${t2}/rates/end`, { rate_ids: [999999], end_date: iso(now) })).status,
    ).toBe(404);
    ok(await del(`/api/rate/rate_table/${t2}/rates/${future}`));
    expect((await del(`/api/rate/rate_table/${t2}/rates/${future}`)).status).toBe(404);
    expect(ok(await get<{ rate_count: number }>(`/api/rate/rate_table/${t2}`)).rate_count).toBe(3);
    const log = await auditRows(h, 'rate', current);
    expect(log.map((r) => r.action)).toEqual(['update', 'create']);
  });

  it('lowering the decimal places rounds the stored rates (half up) in the same transaction', async () => {
    const t3 = ok(await post('/api/rate/rate_table/create', { name: 'Places', decimal_places: 6 })).object_id;
    ok(await post(`/api/rate/rate_table/${t3}/rates`, { ...base, rate: '0.123450', setup_fee: '0.000049' }));
    ok(await patch(`/api/rate/rate_table/${t3}`, { decimal_places: 4 }));
    const stored = await h.built.services.db
      .selectFrom('rates')
      .select(['rate', 'setup_fee'])
      .where('rate_table_id', '=', t3)
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ rate: '0.123500', setup_fee: '0.000000' });
  });
});

describe('permissions and malformed input', () => {
  it('a role without the rate pages gets 140 on every rates call', async () => {
    const clerk = await makeRestrictedAdmin(h, admin, 'ratesless');
    denied(await get('/api/rate/rate_table/list', clerk.token));
    denied(await get('/api/rate/code_deck/list', clerk.token));
    denied(await post('/api/rate/rate_table/create', { name: 'No' }, clerk.token));
    denied(await get('/api/rate/rate_table/1/rates', clerk.token));
    denied(
      await post(
        '/api/rate/rate_table/1/rates',
        { code: '1', rate: '1', effective_date: '2026-01-01' },
        clerk.token,
      ),
    );
    denied(await upload(h, '/api/rate/rate_table/1/import', clerk.token, {}, csv('code,rate\n1,0.1\n')));
    denied(await get('/api/rate/us_jurisdiction/list', clerk.token));
    denied(await get('/api/rate/import_log', clerk.token));
    denied(await get('/api/rate/mass_edit_log', clerk.token));
    denied(await get('/api/rate/upload_template/list', clerk.token));
    denied(await get('/api/rate/auto_import_rule/list', clerk.token));
    // Read-only rate table permission: lists, but cannot write.
    const reader = await makeRestrictedAdmin(h, admin, 'ratereader', { '/routing/rate_table': 'r' });
    ok(await get('/api/rate/rate_table/list', reader.token));
    denied(await post('/api/rate/rate_table/create', { name: 'No' }, reader.token));
    denied(await post('/api/rate/rate_table/1/mass_edit', { changes: {} }, reader.token));
  });

  it('malformed bodies and queries answer 110 naming the field', async () => {
    const t = ok(await post('/api/rate/rate_table/create', { name: 'Malformed' })).object_id;
    invalid(
      await post(`/api/rate/rate_table/${t}/rates`, {
        code: '1',
        rate: '1',
        effective_date: '2026-01-01',
        colour: 'red',
      }),
      '_',
      /colour/,
    );
    invalid(await get(`/api/rate/rate_table/${t}/rates?state=someday`), 'state');
    invalid(await get(`/api/rate/rate_table/${t}/rates?per_page=0`), 'per_page');
    invalid(
      await post('/api/rate/rate_table/create', { name: 'Y', require_setup_fee: 'yes' }),
      'require_setup_fee',
    );
    invalid(
      await upload(
        h,
        `/api/rate/rate_table/${t}/import`,
        admin,
        { duplicate_mode: 'merge' },
        csv('code,rate\n1,1\n'),
      ),
      'duplicate_mode',
    );
    invalid(
      await upload(
        h,
        `/api/rate/rate_table/${t}/import`,
        admin,
        { mapping: '{"Prefix":"dial"}' },
        csv('code,rate\n1,1\n'),
      ),
      'mapping',
    );
    invalid(await upload(h, `/api/rate/rate_table/${t}/import`, admin, {}), 'file', 'file is required');
    expect((await get('/api/rate/rate_table/999999/rates')).status).toBe(404);
  });
});

describe('US jurisdiction', () => {
  it('uploads NPA-NXX -> state, LATA as CSV (merge, replace), lists and searches it; bad rows refuse the file', async () => {
    const file = 'npanxx,state,lata\n201200,NJ,224\n201201,nj,224\n212555,NY,132\n';
    const r = ok(
      await upload(h, '/api/rate/us_jurisdiction/upload', admin, { mode: 'merge' }, csv(file)),
    ) as unknown as Record<string, number>;
    expect(r).toMatchObject({ total_rows: 3, inserted_rows: 3, updated_rows: 0 });
    const list = ok(
      await get<Paged<{ npanxx: string; npa: string; nxx: string; state: string; lata: string }>>(
        '/api/rate/us_jurisdiction/list?npanxx=201',
      ),
    );
    expect(list.items).toEqual([
      { npanxx: '201200', npa: '201', nxx: '200', state: 'NJ', lata: '224' },
      { npanxx: '201201', npa: '201', nxx: '201', state: 'NJ', lata: '224' },
    ]);
    expect(ok(await get<Paged<unknown>>('/api/rate/us_jurisdiction/list?state=ny')).total).toBe(1);
    expect(ok(await get<Paged<unknown>>('/api/rate/us_jurisdiction/list?lata=224')).total).toBe(2);
    invalid(
      await upload(
        h,
        '/api/rate/us_jurisdiction/upload',
        admin,
        {},
        csv('npanxx,state,lata\n20120,NJ,224\n'),
      ),
      'line 2',
      'NPA-NXX must be 6 digits',
    );
    invalid(
      await upload(h, '/api/rate/us_jurisdiction/upload', admin, {}, csv('212556,,132\n')),
      'line 1',
      'state is required',
    );
    // Headerless file, replace mode: what is not in the file goes.
    const rep = ok(
      await upload(
        h,
        '/api/rate/us_jurisdiction/upload',
        admin,
        { mode: 'replace' },
        csv('212555,NY,132\n310200,CA,730\n'),
      ),
    ) as unknown as Record<string, number>;
    expect(rep).toMatchObject({ inserted_rows: 1, updated_rows: 1, deleted_rows: 2 });
    const n = await sql<{ n: number }>`select count(*)::int as n from us_jurisdiction`.execute(
      h.built.services.db,
    );
    expect(n.rows[0]?.n).toBe(2);
  });
});
