import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CdrUploadRow } from '@tandem/contract';
import { cdrOf } from './cdr-fixtures';
import {
  denied,
  fails,
  makeCarrierUser,
  makeRestrictedAdmin,
  ok,
  startHarness,
  upload,
  type Harness,
  type Res,
} from './harness';
import { lcrOverVendors, rebuildAfter, termination, type Fixture } from './routing-fixtures';

// CDR upload on the CDR screen (issue 10 section 1): POST /cdr/upload, the job that ingests the file
// through the switch's ingest, the upload log. On PGlite, and on PostgreSQL when DATABASE_URL is set.

let h: Harness;
let f: Fixture;
let admin: string;

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  f = await termination(h);
  await lcrOverVendors(h, f);
  await rebuildAfter(h, admin);
});
afterAll(async () => {
  await h.close();
});

const db = () => h.built.services.db;
const one = async <T>(q: ReturnType<typeof sql<T>>) => (await q.execute(db())).rows[0]!;
const count = async () => (await one(sql<{ n: number }>`SELECT count(*)::int AS n FROM cdrs`)).n;
const balance = async (id: number) =>
  Number((await one(sql<{ b: string }>`SELECT balance::text AS b FROM carriers WHERE client_id = ${id}`)).b);
const unbalanced = async () =>
  (
    await sql<{ client_id: number }>`
      SELECT c.client_id FROM carriers c
      LEFT JOIN (SELECT client_id, sum(amount) AS s FROM ledger GROUP BY client_id) l ON l.client_id = c.client_id
      WHERE c.balance <> coalesce(l.s, 0)`.execute(db())
  ).rows;

const FIELDS = [
  'call_id',
  'attempt',
  'is_final_attempt',
  'start_time',
  'answer_time',
  'end_time',
  'duration',
  'ingress_trunk_id',
  'egress_trunk_id',
  'source_ip',
  'ani',
  'dnis',
  'egress_dnis',
  'release_cause',
  'release_side',
  'pdd_ms',
];
const csv = (cdrs: Record<string, unknown>[]) =>
  Buffer.from(
    [
      FIELDS.join(','),
      ...cdrs.map((c) =>
        FIELDS.map((k) => (c[k] === null || c[k] === undefined ? '' : String(c[k] as string))).join(','),
      ),
    ].join('\r\n'),
  );

const send = (name: string, data: Buffer, token = admin) =>
  upload(h, '/api/cdr/upload', token, {}, { name, data, type: 'text/csv' }) as Promise<
    Res<{ object_id: number; cdrs: number; job_id: number }>
  >;

async function ended(id: number): Promise<CdrUploadRow> {
  const until = Date.now() + 20_000;
  for (;;) {
    const u = ok(await h.call<CdrUploadRow>('GET', `/api/cdr/upload/${id}`, { token: admin }));
    if (['finished', 'failed', 'killed'].includes(u.status)) return u;
    if (Date.now() > until) throw new Error(`upload ${id} still ${u.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('CDR upload', () => {
  it('ingests a CSV file through the switch ingest as a job; the same file again bills nothing', async () => {
    const cdrs = [
      ...Array.from({ length: 4 }, () => cdrOf(f, { duration: 60 })), // UK 0.05 each
      cdrOf(f, { duration: 0 }),
      cdrOf(f, { dnis: '33123456789' }), // no rate: stored unpriced
    ];
    const data = csv(cdrs);
    const before = await balance(f.customer);
    const stored = await count();
    const r = ok(await send('calls.csv', data));
    expect(r.cdrs).toBe(6);
    const u = await ended(r.object_id);
    expect(u).toMatchObject({
      status: 'finished',
      file_name: 'calls.csv',
      cdrs: 6,
      done: 6,
      stored: 6,
      duplicates: 0,
      unpriced: 1,
      revenue: '0.200000',
      problems: [],
      job_id: r.job_id,
    });
    expect(await count()).toBe(stored + 6);
    expect(await balance(f.customer)).toBeCloseTo(before - 0.2, 6);
    const batch = await one(
      sql<{ source: string }>`SELECT b.source FROM cdr_batches b JOIN cdrs c ON c.batch_id = b.batch_id
        WHERE c.call_id = ${cdrs[0]!.call_id as string}`,
    );
    expect(batch.source).toBe('file');
    // the job is in the scheduler log, finished, with the totals as its result
    const job = await one(
      sql<{ kind: string; status: string }>`SELECT kind, status FROM jobs WHERE id = ${r.job_id}`,
    );
    expect(job).toEqual({ kind: 'cdr.upload', status: 'finished' });

    const again = await ended(ok(await send('calls-again.csv', data)).object_id);
    expect(again).toMatchObject({ status: 'finished', stored: 0, duplicates: 6 });
    expect(await count()).toBe(stored + 6);
    expect(await balance(f.customer)).toBeCloseTo(before - 0.2, 6);
    expect(await unbalanced()).toEqual([]);
    // the upload file is gone once ingested
    const paths = await sql<{ path: string }>`SELECT path FROM cdr_uploads WHERE id = ${r.object_id}`.execute(
      db(),
    );
    const fs = await import('node:fs');
    expect(fs.existsSync(paths.rows[0]!.path)).toBe(false);
  });

  it('refuses a file with a malformed row naming row and field, stores nothing, and logs it', async () => {
    const bad = cdrOf(f);
    bad.end_time = '2026-11-20T09:00:00Z'; // before the start
    const before = await count();
    const r = await send('bad.csv', csv([cdrOf(f), bad, { ...cdrOf(f), duration: 'long' }]));
    const body = fails(
      r as never,
      110,
      'The file was not imported, nothing was stored: row 3, field end_time',
    );
    expect(body.errors).toMatchObject({
      'rows.3.end_time': 'end_time is before the start time',
      'rows.4.duration': 'duration is not valid',
    });
    expect(await count()).toBe(before);
    // in German too
    const de = await h.call('GET', '/api/cdr/upload_log?status=refused', {
      token: admin,
      headers: { 'x-lang': 'de' },
    });
    const log = ok(de as never) as { items: CdrUploadRow[]; total: number };
    expect(log.total).toBe(1);
    expect(log.items[0]).toMatchObject({ status: 'refused', file_name: 'bad.csv', cdrs: 0, stored: null });
    expect(log.items[0]!.problems[0]).toBe('Zeile 3, end_time: end_time liegt vor der Startzeit');

    fails(
      (await send('unknown.csv', Buffer.from('call_id,colour\nx,red\n'))) as never,
      110,
      /row 1, field colour/,
    );
    fails((await send('empty.csv', Buffer.from(FIELDS.join(',') + '\n'))) as never, 110, /row 1, field file/);
    fails((await send('calls.txt', Buffer.from('x'))) as never, 110);
    expect(await count()).toBe(before);
  });

  it('lists the uploads newest first, and only admins allowed to write the CDR list may upload', async () => {
    const log = ok(
      await h.call<{ items: CdrUploadRow[]; total: number }>('GET', '/api/cdr/upload_log', { token: admin }),
    );
    expect(log.total).toBeGreaterThanOrEqual(4);
    const times = log.items.map((i) => i.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const finished = ok(
      await h.call<{ items: CdrUploadRow[]; total: number }>('GET', '/api/cdr/upload_log?status=finished', {
        token: admin,
      }),
    );
    expect(finished.items.every((i) => i.status === 'finished')).toBe(true);

    const reader = await makeRestrictedAdmin(h, admin, 'cdrreader', { '/statistics/cdrs_list': 'r' });
    denied((await send('calls.csv', csv([cdrOf(f)]), reader.token)) as never);
    ok(await h.call('GET', '/api/cdr/upload_log', { token: reader.token }));
    const client = await makeCarrierUser(h, admin, 'UploadClient');
    denied((await send('calls.csv', csv([cdrOf(f)]), client.token)) as never);
    denied(await h.call('GET', '/api/cdr/upload_log', { token: client.token }));
  });
});
