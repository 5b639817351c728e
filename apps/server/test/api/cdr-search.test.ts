import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { api, csvCell } from '@tandem/contract';
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cdrOf, sendCdrs } from './cdr-fixtures';
import {
  denied,
  invalid,
  makeAgent,
  makeCarrierUser,
  makeRestrictedAdmin,
  notVisible,
  ok,
  startHarness,
  type Harness,
} from './harness';
import { writeCdrCsv } from '../../src/modules/cdr-search/csv';
import { chosenFields, searchPage } from '../../src/modules/cdr-search/search';
import { arrayLiteral } from '../../src/db/arrays';
import { rebuildAfter, switchKey, termination, type Fixture } from './routing-fixtures';

type Row = Record<string, string | number | boolean | null>;
interface Page {
  items: Row[];
  fields: string[];
  next: string | null;
  prev: string | null;
  total: number;
  total_capped: boolean;
}

let h: Harness;
let admin: string;
let key: string;
let f: Fixture;
let other: Fixture;
let client: string;
let vendor: string;
let agent: string;
const RANGE = 'start=2026-11-20T00:00:00Z&end=2026-11-21T00:00:00Z';
/** call ids of the fixture's customer, oldest first */
const mine: string[] = [];
let failover: string;
let theirs: string;

const db = () => h.built.services.db;
const list = (token: string, q: string) => h.call<Page>('GET', `/api/cdr/list?${q}`, { token });
const page = async (token: string, q: string) => ok(await list(token, q));

/** A portal user of an existing carrier: a new carrier's user moved onto it. */
async function portalUserOf(name: string, carrier: number, clientType: 'client' | 'vendor') {
  const u = await makeCarrierUser(h, admin, name, { client_type: clientType });
  await db().updateTable('users').set({ client_id: carrier }).where('name', '=', u.login).execute();
  return h.signIn(u.login, 'Client#2026');
}

const exportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-cdr-exports-'));

beforeAll(async () => {
  h = await startHarness({ JOBS_POLL_MS: '20', EXPORT_DIR: exportDir });
  admin = await h.setupAdmin();
  key = await switchKey(h, admin);
  f = await termination(h);
  other = await termination(h, '-x');
  await rebuildAfter(h, admin);
  // 25 calls of the customer a minute apart: answered (even) or not (odd), through vendor B
  const batch = [];
  for (let i = 0; i < 25; i++) {
    const c = cdrOf(f, {
      start: new Date(Date.parse('2026-11-20T08:00:00Z') + i * 60_000).toISOString(),
      duration: i % 2 === 0 ? 30 + i : 0,
      dnis: i < 5 ? '12125550100' : '447700900123',
    });
    batch.push(c);
    mine.push(c.call_id as string);
  }
  // a call that fails over: vendor A refuses (503), vendor B answers
  failover = 'failover-call';
  batch.push(
    {
      ...cdrOf(f, {
        callId: failover,
        attempt: 1,
        final: false,
        vendor: 0,
        duration: 0,
        start: '2026-11-20T09:00:00Z',
      }),
      release_cause: 503,
    },
    cdrOf(f, { callId: failover, attempt: 2, vendor: 1, duration: 90, start: '2026-11-20T09:00:05Z' }),
  );
  // the other customer's call, same day
  const o = cdrOf(other, { start: '2026-11-20T08:30:00Z', duration: 45 });
  theirs = o.call_id as string;
  batch.push(o);
  // a call that cannot be priced
  batch.push({ ...cdrOf(f, { dnis: '33123456789', start: '2026-11-20T10:00:00Z' }), ani: '4930111' });
  ok(await sendCdrs(h, key, 'search-1', batch));

  client = await portalUserOf('SearchClient', f.customer, 'client');
  vendor = await portalUserOf('SearchVendor', f.vendors[1]!.carrier, 'vendor');
  const a = await makeAgent(h, admin, 'SearchAgent');
  agent = a.token;
  await db()
    .updateTable('carriers')
    .set({ agent_id: a.agentId })
    .where('client_id', '=', other.customer)
    .execute();
});
afterAll(async () => {
  await h.close();
  fs.rmSync(exportDir, { recursive: true, force: true });
});

describe('GET /api/cdr/list: range and filters', () => {
  it('needs a time range of at most 62 days, refused with 110 naming the field', async () => {
    invalid(await list(admin, 'end=2026-11-21T00:00:00Z'), 'start');
    const long = await list(admin, 'start=2026-09-01T00:00:00Z&end=2026-11-03T00:00:00Z');
    expect(invalid(long, 'end')).toMatch(/at most 62 days/);
    invalid(await list(admin, 'start=2026-11-21T00:00:00Z&end=2026-11-20T00:00:00Z'), 'end');
    invalid(await list(admin, `${RANGE}&after=2026-11-20`), 'after');
    invalid(await list(admin, `${RANGE}&fields=start_time,no_such_field`), 'fields');
    // 62 days exactly is fine
    ok(await list(admin, 'start=2026-09-19T00:00:00Z&end=2026-11-20T00:00:00Z'));
  });

  it('lists every CDR of the range newest first with the chosen fields, counting them', async () => {
    const p = await page(
      admin,
      `${RANGE}&per_page=100&fields=start_time,ingress_client_name,egress_cost,profit`,
    );
    expect(p.total).toBe(29);
    expect(p.total_capped).toBe(false);
    expect(p.fields).toEqual(['start_time', 'ingress_client_name', 'egress_cost', 'profit']);
    const times = p.items.map((r) => r.start_time as string);
    expect([...times].sort().reverse()).toEqual(times);
    const first = p.items.find((r) => r.call_id === mine[0])!;
    expect(first).toMatchObject({ ingress_client_name: 'Customer', start_time: '2026-11-20T08:00:00.000Z' });
    // USA 30 s: revenue 0.01 at 0.02, cost 0.0075 at vendor B's 0.015
    expect(first.egress_cost).toBe('0.007500');
    expect(first.profit).toBe('0.002500');
    expect(Object.keys(first).sort()).toEqual([
      'call_id',
      'cdr_id',
      'egress_cost',
      'ingress_client_name',
      'profit',
      'start_time',
    ]);
  });

  it('filters by carrier, trunk, ANI, DNIS prefix, code, country, duration, answer, cause, side, call id and unpriced', async () => {
    const ids = async (q: string) =>
      (await page(admin, `${RANGE}&per_page=100&${q}`)).items.map((r) => r.call_id).sort();
    expect(await ids(`ingress_client_id=${other.customer}`)).toEqual([theirs]);
    expect(await ids(`ingress_trunk_id=${other.ingress}`)).toEqual([theirs]);
    expect(await ids(`egress_client_id=${f.vendors[0]!.carrier}`)).toEqual([failover]);
    expect(await ids(`egress_trunk_id=${f.vendors[0]!.trunk}`)).toEqual([failover]);
    expect(await ids('ani=4930')).toHaveLength(1);
    expect(await ids('dnis=1212')).toEqual([...mine.slice(0, 5)].sort());
    expect(await ids('code=1')).toEqual([...mine.slice(0, 5)].sort());
    await db()
      .updateTable('cdrs')
      .set({ orig_country: 'United States' })
      .where('dnis', 'like', '1212%')
      .execute();
    expect(await ids('country=united%20states')).toEqual([...mine.slice(0, 5)].sort());
    expect(await ids('duration=zero')).toHaveLength(13); // 12 odd calls + the refused attempt
    expect(await ids('duration=non_zero')).toHaveLength(16);
    expect(await ids('answered=true')).toHaveLength(16);
    expect(await ids('release_cause=503')).toEqual([failover]);
    expect(await ids('release_side=T')).toHaveLength(13);
    expect(await ids(`call_id=${failover}`)).toEqual([failover, failover]);
    const unpriced = await page(admin, `${RANGE}&unpriced=true&fields=unpriced_reason`);
    expect(unpriced.items.map((r) => r.unpriced_reason)).toEqual(['no_ingress_rate']);
    expect((await page(admin, `${RANGE}&unpriced=false`)).total).toBe(28);
  });

  it('pages by keyset: next and previous cover every row once, in order', async () => {
    const all = (await page(admin, `${RANGE}&per_page=100&fields=start_time`)).items.map((r) => r.cdr_id);
    const p1 = await page(admin, `${RANGE}&per_page=10&fields=start_time`);
    expect(p1.prev).toBeNull();
    expect(p1.total).toBe(29);
    const p2 = await page(admin, `${RANGE}&per_page=10&fields=start_time&after=${p1.next}`);
    const p3 = await page(admin, `${RANGE}&per_page=10&fields=start_time&after=${p2.next}`);
    expect(p3.items).toHaveLength(9);
    expect(p3.next).toBeNull();
    expect([...p1.items, ...p2.items, ...p3.items].map((r) => r.cdr_id)).toEqual(all);
    // back from page 3 is page 2, back from page 2 is page 1 (which has no previous)
    const back2 = await page(admin, `${RANGE}&per_page=10&fields=start_time&before=${p3.prev}`);
    expect(back2.items.map((r) => r.cdr_id)).toEqual(p2.items.map((r) => r.cdr_id));
    const back1 = await page(admin, `${RANGE}&per_page=10&fields=start_time&before=${back2.prev}`);
    expect(back1.items.map((r) => r.cdr_id)).toEqual(p1.items.map((r) => r.cdr_id));
    expect(back1.prev).toBeNull();
    expect(back1.next).not.toBeNull();
    // oldest first
    const asc = await page(admin, `${RANGE}&per_page=15&order_dir=asc&fields=start_time`);
    const asc2 = await page(admin, `${RANGE}&per_page=15&order_dir=asc&fields=start_time&after=${asc.next}`);
    expect([...asc.items, ...asc2.items].map((r) => r.cdr_id)).toEqual([...all].reverse());
  });

  it('counts up to 10,000 and says there are more', async () => {
    await sql`INSERT INTO cdrs (cdr_id, batch_id, call_id, attempt, is_final_attempt, start_time, end_time,
        call_duration, pdd, ingress_trunk_id, ingress_client_id, source_ip, ani, dnis, release_cause, release_side)
      SELECT 900000000 + g, 'bulk', 'bulk-' || g, 1, true,
        timestamptz '2026-11-20T12:00:00Z' + g * interval '1 millisecond',
        timestamptz '2026-11-20T12:00:30Z', 0, 100, ${other.ingress}, ${other.customer}, '198.51.101.7',
        '1555', '4477', 486, 'T'
      FROM generate_series(1, 10050) g`.execute(db());
    const p = await page(admin, `${RANGE}&ingress_client_id=${other.customer}&per_page=20`);
    expect(p).toMatchObject({ total: 10_000, total_capped: true });
    expect(p.items).toHaveLength(20);
    const p2 = await page(admin, `${RANGE}&ingress_client_id=${other.customer}&per_page=20&after=${p.next}`);
    expect(p2.items[0]!.call_id).toBe('bulk-10030');
  });
});

describe('writeCdrCsv', () => {
  it('streams every row of a large search once, in keyset steps, with progress', async () => {
    // the 10,050 bulk rows of the count test plus the other customer's call
    const chunks: Buffer[] = [];
    const out = new PassThrough({ highWaterMark: 1024 });
    out.on('data', (c: Buffer) => chunks.push(c));
    const progress: number[] = [];
    const viewer = { type: 'admin' as const, clientId: -1, agentId: -1, costs: false, lang: 'en' as const };
    const rows = await writeCdrCsv(
      db(),
      {
        start: '2026-11-20T00:00:00Z',
        end: '2026-11-21T00:00:00Z',
        duration: 'all',
        ingress_client_id: other.customer,
      },
      ['call_id', 'egress_cost'],
      viewer,
      out,
      2500,
      (n) => void progress.push(n),
    );
    expect(rows).toBe(10_051);
    // keyset steps of the page size asked for (CDR_PAGE_ROWS per database: issue 16)
    expect(progress).toEqual([2500, 5000, 7500, 10_000, 10_051]);
    const lines = Buffer.concat(chunks)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    // no cost column for an admin without the cost permission
    expect(lines[0]).toBe('Call ID');
    expect(new Set(lines.slice(1)).size).toBe(10_051);
    expect(lines[1]).toBe('bulk-10050');
    expect(lines).toContain(theirs);
  });
});

describe('the CSV the database writes', () => {
  it('csv_cell is csvCell: the same cell for any text, null included', async () => {
    const text = fc.oneof(
      fc.string({ unit: 'grapheme' }).map((t) => t.replaceAll('\u0000', '')),
      fc.constantFrom('', '=1+2', '+1', '-0.5', '@a', '\tx', '\rx', 'a,b', 'say "hi"', 'a\nb', "'x"),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.option(text, { nil: null }), { maxLength: 30 }), async (values) => {
        const res = await sql<{ cell: string }>`SELECT csv_cell(v) AS cell
          FROM unnest(${arrayLiteral(values)}::text[]) WITH ORDINALITY AS t(v, i) ORDER BY i`.execute(db());
        expect(res.rows.map((r) => r.cell)).toEqual(values.map((v) => csvCell(v)));
      }),
      { numRuns: 60 },
    );
  });

  it('a CDR CSV is, cell for cell, what the search shows of each row, every field', async () => {
    const viewer = { type: 'admin' as const, clientId: -1, agentId: -1, costs: true, lang: 'de' as const };
    const defs = await chosenFields(db(), viewer, undefined);
    expect(defs.length).toBe(api.cdrSearch.CDR_FIELDS.length);
    const filter = { start: '2026-11-20T00:00:00Z', end: '2026-11-21T00:00:00Z', duration: 'all' as const };
    const q = { ...filter, ingress_client_id: f.customer };
    const chunks: Buffer[] = [];
    const out = new PassThrough();
    out.on('data', (c: Buffer) => chunks.push(c));
    // pages of 7 rows: the keyset steps of the text pages too
    const rows = await writeCdrCsv(db(), q, undefined, viewer, out, 7);
    const lines = Buffer.concat(chunks).toString('utf8').split('\r\n');
    expect(lines.pop()).toBe('');
    const fromSearch = await searchPage(db(), viewer, { ...q, order_dir: 'desc', per_page: 500 }, defs, {
      count: false,
    });
    expect(rows).toBe(fromSearch.items.length);
    expect(rows).toBeGreaterThan(25);
    expect(lines[0]).toBe('\uFEFF' + defs.map((d) => csvCell(d.label.de)).join(','));
    expect(lines.slice(1)).toEqual(
      fromSearch.items.map((r) => defs.map((d) => csvCell(r[d.name])).join(',')),
    );
  });
});

describe('tenancy', () => {
  it('a client sees only the calls it sent, with its portal fields, whatever ids it sends', async () => {
    const p = await page(client, `${RANGE}&per_page=100`);
    expect(p.total).toBe(28);
    expect(p.items.map((r) => r.call_id)).not.toContain(theirs);
    expect(p.fields).toContain('ingress_client_cost');
    for (const hidden of [
      'egress_cost',
      'egress_rate',
      'egress_client_name',
      'egress_trunk_name',
      'profit',
      'unpriced_reason',
    ])
      expect(p.fields).not.toContain(hidden);
    expect(Object.keys(p.items[0]!)).not.toContain('egress_cost');
    // another carrier's id gives nothing
    expect((await page(client, `${RANGE}&ingress_client_id=${other.customer}`)).items).toEqual([]);
    expect((await page(client, `${RANGE}&call_id=${theirs}`)).items).toEqual([]);
    // asking for the vendor's fields gives only what it may see
    const asked = await page(client, `${RANGE}&fields=egress_cost,profit,ani`);
    expect(asked.fields).toEqual(['ani']);
    // the other leg's filters do not apply (no probing of who carried its calls)
    expect((await page(client, `${RANGE}&egress_client_id=${f.vendors[0]!.carrier}`)).total).toBe(28);
  });

  it("a vendor sees only its own egress legs, never the customer's rate or the other leg", async () => {
    const p = await page(vendor, `${RANGE}&per_page=100`);
    // vendor B carried the 25 calls, the failover's second attempt and the unpriced call
    expect(p.total).toBe(27);
    expect(p.fields).toContain('egress_cost');
    for (const hidden of [
      'ingress_client_cost',
      'ingress_rate',
      'ani',
      'dnis',
      'ingress_client_name',
      'source_ip',
      'profit',
    ])
      expect(p.fields).not.toContain(hidden);
    // another vendor's id gives nothing
    expect((await page(vendor, `${RANGE}&egress_client_id=${f.vendors[0]!.carrier}`)).total).toBe(0);
    expect((await page(vendor, `${RANGE}&fields=ingress_client_cost,ingress_rate`)).fields).toEqual([]);
  });

  it("an agent sees only its carriers' calls", async () => {
    const p = await page(agent, `${RANGE}&per_page=5`);
    expect(p.items.every((r) => r.call_id === theirs || String(r.call_id).startsWith('bulk-'))).toBe(true);
    expect((await page(agent, `${RANGE}&ingress_client_id=${f.customer}`)).items).toEqual([]);
    expect((await page(agent, `${RANGE}&call_id=${theirs}`)).total).toBe(1);
  });

  it('the one-call view shows every attempt with both legs to an admin, only its own to others', async () => {
    const all = ok(await h.call<{ attempts: Row[] }>('GET', `/api/cdr/call/${failover}`, { token: admin }));
    expect(all.attempts.map((a) => [a.call_id, a.egress_client_name, a.release_cause])).toEqual([
      [failover, 'Vendor A', 503],
      [failover, 'Vendor B', 200],
    ]);
    expect(all.attempts[1]).toMatchObject({
      ingress_rate_table_name: 'Customer table',
      ingress_code: '44',
      ingress_rate: '0.050000',
      ingress_billed_time: 90,
      egress_rate_table_name: 'Vendor B table',
      egress_rate: '0.025000',
      egress_cost: '0.037500',
    });
    const asClient = ok(
      await h.call<{ attempts: Row[] }>('GET', `/api/cdr/call/${failover}`, { token: client }),
    );
    expect(asClient.attempts).toHaveLength(2);
    expect(asClient.attempts[0]).not.toHaveProperty('egress_cost');
    const asVendor = ok(
      await h.call<{ attempts: Row[] }>('GET', `/api/cdr/call/${failover}`, { token: vendor }),
    );
    expect(asVendor.attempts).toHaveLength(1);
    expect(asVendor.attempts[0]).not.toHaveProperty('ingress_client_cost');
    // another tenant's call is not found
    for (const token of [client, vendor])
      notVisible(await h.call('GET', `/api/cdr/call/${theirs}`, { token }));
    notVisible(await h.call('GET', `/api/cdr/call/${failover}`, { token: agent }));
    notVisible(await h.call('GET', '/api/cdr/call/no-such-call', { token: admin }));
  });
});

describe('permissions', () => {
  it('hides costs, rates and profit from an admin whose role lacks view cost and rate', async () => {
    const plain = await makeRestrictedAdmin(h, admin, 'cdrviewer', { '/statistics/cdrs_list': 'r' });
    const p = await page(plain.token, `${RANGE}&per_page=5`);
    expect(p.items).toHaveLength(5);
    for (const money of [
      'ingress_client_cost',
      'ingress_rate',
      'egress_cost',
      'egress_rate',
      'profit',
      'short_call_charge',
    ])
      expect(p.fields).not.toContain(money);
    expect(p.fields).toContain('egress_client_name');
    const detail = ok(
      await h.call<{ attempts: Row[] }>('GET', `/api/cdr/call/${failover}`, { token: plain.token }),
    );
    expect(detail.attempts[1]).not.toHaveProperty('egress_cost');
    const fieldsInfo = ok(
      await h.call<{ items: { name: string; visible: boolean }[] }>('GET', '/api/cdr/fields', {
        token: plain.token,
      }),
    );
    expect(fieldsInfo.items.find((x) => x.name === 'profit')!.visible).toBe(false);

    const finance = await makeRestrictedAdmin(h, admin, 'cdrfinance', {
      '/statistics/cdrs_list': 'r',
      'finance:view_cost_and_rate': 'r',
    });
    expect((await page(finance.token, `${RANGE}&per_page=5`)).fields).toContain('profit');
  });

  it('refuses a client whose portal permissions leave out the CDR list', async () => {
    await db()
      .updateTable('carriers')
      .set({ is_panel_cdrslist: false })
      .where('client_id', '=', f.customer)
      .execute();
    try {
      denied(await list(client, RANGE));
      denied(await h.call('GET', `/api/cdr/call/${failover}`, { token: client }));
      denied(await h.call('GET', `/api/cdr/list/csv?${RANGE}`, { token: client }));
    } finally {
      await db()
        .updateTable('carriers')
        .set({ is_panel_cdrslist: true })
        .where('client_id', '=', f.customer)
        .execute();
    }
    ok(await list(client, RANGE));
  });

  it('needs the CDRs List permission', async () => {
    const none = await makeRestrictedAdmin(h, admin, 'nocdrs');
    denied(await list(none.token, RANGE));
    denied(await h.call('GET', `/api/cdr/call/${failover}`, { token: none.token }));
    denied(await h.call('GET', '/api/config/carrier_portal_cdr_fields', { token: client }));
  });
});

describe('carrier portal CDR fields', () => {
  const put = (token: string, fields: unknown[]) =>
    h.call<{ items: { name: string; client_viewable: boolean; vendor_viewable: boolean }[] }>(
      'PUT',
      '/api/config/carrier_portal_cdr_fields',
      { token, body: { fields } },
    );

  it('lists the fields each side may see with the required ones', async () => {
    const r = ok(
      await h.call<{ items: Record<string, unknown>[] }>('GET', '/api/config/carrier_portal_cdr_fields', {
        token: admin,
      }),
    );
    expect(r.items.find((x) => x.name === 'ingress_client_cost')).toMatchObject({
      client_allowed: true,
      vendor_allowed: false,
      client_viewable: true,
      requiredForClient: true,
    });
    expect(r.items.find((x) => x.name === 'profit')).toBeUndefined();
  });

  it('refuses a required field hidden, a field shown to the wrong side or an unknown one, changing nothing', async () => {
    expect(
      invalid(
        await put(admin, [{ name: 'ingress_client_cost', client_viewable: false, vendor_viewable: false }]),
        'fields.0.client_viewable',
      ),
    ).toMatch(/required/);
    invalid(
      await put(admin, [
        { name: 'orig_country', client_viewable: true, vendor_viewable: false },
        { name: 'egress_cost', client_viewable: true, vendor_viewable: true },
      ]),
      'fields.1.client_viewable',
    );
    invalid(
      await put(admin, [{ name: 'nope', client_viewable: false, vendor_viewable: false }]),
      'fields.0.name',
    );
    expect((await page(client, `${RANGE}&per_page=1`)).fields).not.toContain('orig_country');
  });

  it('what the admin saves is what the portals see', async () => {
    const r = ok(
      await put(admin, [
        { name: 'orig_country', client_viewable: true, vendor_viewable: false },
        { name: 'ingress_rate', client_viewable: false, vendor_viewable: false },
        { name: 'term_country', client_viewable: false, vendor_viewable: true },
      ]),
    );
    expect(r.items.find((x) => x.name === 'orig_country')!.client_viewable).toBe(true);
    const c = await page(client, `${RANGE}&per_page=1`);
    expect(c.fields).toContain('orig_country');
    expect(c.fields).not.toContain('ingress_rate');
    expect((await page(vendor, `${RANGE}&per_page=1`)).fields).toContain('term_country');
    const log = await db()
      .selectFrom('modification_log')
      .select(['entity', 'action'])
      .where('entity', '=', 'carrier_portal_cdr_fields')
      .execute();
    expect(log).toHaveLength(1);
  });
});

describe('GET /api/cdr/list/csv', () => {
  it('streams the search as CSV with the labels, each caller only its own rows and fields', async () => {
    const r = await h.call(
      'GET',
      `/api/cdr/list/csv?${RANGE}&fields=call_id,start_time,egress_cost,dnis&ingress_client_id=${f.customer}`,
      {
        token: admin,
      },
    );
    expect(r.status).toBe(200);
    const text = (r.body as unknown as { raw: string }).raw.replace(/^\uFEFF/, '');
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toBe('Call ID,Start Time,Egress Cost,DNIS');
    expect(lines).toHaveLength(1 + 28);
    const asClient = await h.call('GET', `/api/cdr/list/csv?${RANGE}&fields=call_id,egress_cost`, {
      token: client,
      headers: { 'x-lang': 'de' },
    });
    const cl = (asClient.body as unknown as { raw: string }).raw
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(cl[0]).toBe('Anruf-ID');
    expect(cl).toHaveLength(1 + 28);
    expect(cl).toEqual(expect.arrayContaining([...mine, failover]));
    expect(cl).not.toContain(theirs);
  });

  it('covers at most 7 days', async () => {
    const r = await h.call('GET', '/api/cdr/list/csv?start=2026-11-01T00:00:00Z&end=2026-11-20T00:00:00Z', {
      token: admin,
    });
    expect(invalid(r as never, 'end')).toMatch(/7 days/);
  });
});

describe('background export (kind cdr, POST /api/export/create)', () => {
  interface ExportRow {
    id: number;
    status: string;
    file_name: string;
    row_count: number | null;
    downloadable: boolean;
  }
  const start = (token: string, filter: Record<string, unknown>, format?: 'csv' | 'xlsx', lang = 'en') =>
    h.call<{ object_id: number; job_id: number }>('POST', '/api/export/create', {
      token,
      headers: { 'x-lang': lang },
      body: { kind: 'cdr', filter, ...(format ? { format } : {}) },
    });
  const RANGE_F = { start: '2026-11-20T00:00:00Z', end: '2026-11-21T00:00:00Z' };
  /** Waits for the export's job, then downloads its file as its owner. */
  async function finished(
    token: string,
    id: number,
  ): Promise<{ row: ExportRow; body: Buffer; type: string }> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const items = ok(
        await h.call<{ items: ExportRow[] }>('GET', '/api/log/export?per_page=100', { token }),
      ).items;
      const row = items.find((x) => x.id === id);
      if (row?.status === 'finished') {
        const res = await h.built.app.inject({
          method: 'GET',
          url: `/api/export/${id}/download`,
          headers: { 'x-auth-token': token },
        });
        expect(res.statusCode).toBe(200);
        return { row, body: res.rawPayload, type: String(res.headers['content-type']) };
      }
      if (row?.status === 'failed' || Date.now() > deadline) throw new Error(`export ${id}: ${row?.status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const csvLines = (b: Buffer) =>
    b
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');

  it('writes a whole search as XLSX with the labels, money as numbers, in the export log', async () => {
    const started = ok(
      await start(
        admin,
        { ...RANGE_F, ingress_client_id: f.customer, fields: 'call_id,egress_cost,call_duration' },
        'xlsx',
      ),
    );
    const { row, body, type } = await finished(admin, started.object_id);
    expect(row.file_name).toMatch(/^cdrs-\d{4}-\d{2}-\d{2}\.xlsx$/);
    expect(row.row_count).toBe(28);
    expect(type).toMatch(/spreadsheetml/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(body as never);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'Call ID', 'Egress Cost', 'Call Duration']);
    expect(sheet.rowCount).toBe(29);
    const ids: string[] = [];
    sheet.eachRow((r, n) => {
      if (n === 1) return;
      ids.push(r.getCell(1).text);
      expect(typeof r.getCell(3).value).toBe('number');
    });
    expect(ids).toEqual(expect.arrayContaining([...mine, failover]));
    expect(ids).not.toContain(theirs);
  });

  it("a client's export holds only its calls and its fields, headed in its language", async () => {
    // asks for a vendor cost: gets its own calls, without the cost
    const started = ok(await start(client, { ...RANGE_F, fields: 'call_id,egress_cost' }, 'csv', 'de'));
    const lines = csvLines((await finished(client, started.object_id)).body);
    expect(lines[0]).toBe('Anruf-ID');
    expect(lines).toHaveLength(1 + 28); // as the direct download: its calls, the failover's two attempts
    expect(lines).toEqual(expect.arrayContaining([...mine, failover]));
    expect(lines).not.toContain(theirs);
    // another customer's id finds nothing, as a customer without calls would
    const foreign = ok(
      await start(client, { ...RANGE_F, ingress_client_id: other.customer, fields: 'call_id' }),
    );
    expect(csvLines((await finished(client, foreign.object_id)).body)).toEqual(['Call ID']);
  });

  it('leaves costs out for an admin whose role lacks view cost and rate', async () => {
    const plain = await makeRestrictedAdmin(h, admin, 'cdrexporter', {
      '/statistics/cdrs_list': 'r',
      '/log/export_log': 'r',
    });
    const started = ok(
      await start(plain.token, {
        ...RANGE_F,
        ingress_client_id: f.customer,
        fields: 'call_id,egress_cost,profit',
      }),
    );
    const lines = csvLines((await finished(plain.token, started.object_id)).body);
    expect(lines[0]).toBe('Call ID');
    expect(lines).toHaveLength(29);
  });

  it('refuses a bad filter naming its field, a range over 62 days, and callers without the permission', async () => {
    const before = await db()
      .selectFrom('export_log')
      .select(db().fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(invalid((await start(admin, { end: RANGE_F.end })) as never, 'filter.start')).toBeTruthy();
    expect(
      invalid(
        (await start(admin, { start: '2026-09-01T00:00:00Z', end: '2026-11-21T00:00:00Z' })) as never,
        'filter.end',
      ),
    ).toMatch(/62/);
    const none = await makeRestrictedAdmin(h, admin, 'nocdrexport', { '/log/export_log': 'r' });
    denied(await start(none.token, RANGE_F));
    const after = await db()
      .selectFrom('export_log')
      .select(db().fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});
