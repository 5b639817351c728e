import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Paged } from '@tandem/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  denied,
  fails,
  invalid,
  makeCarrierUser,
  makeRestrictedAdmin,
  notVisible,
  ok,
  startHarness,
  type Harness,
} from './harness';

/** Log > Scheduler Log (list, kill, run again, permissions) and background exports (start, progress, owner-only download). */
let h: Harness;
let admin: string;
const exportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-exports-'));

interface JobRow {
  id: number;
  kind: string;
  status: string;
  progress_done: number;
  progress_total: number | null;
  progress_message: string;
  user_name: string;
  rerun_of: number | null;
  killed_by: string | null;
}
interface ExportRow {
  id: number;
  status: string;
  job_id: number | null;
  file_name: string;
  progress_done: number | null;
  progress_total: number | null;
  row_count: number | null;
  size_bytes: number | null;
  downloadable: boolean;
  user_name: string;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(
  what: string,
  f: () => Promise<T | null | undefined | false>,
  ms = 15_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

let gate: (() => void) | null = null;
beforeAll(async () => {
  h = await startHarness({ JOBS_POLL_MS: '20', EXPORT_DIR: exportDir });
  // A job kind that waits until the test lets it go, reporting progress.
  h.built.services.jobs.define<{ steps: number }>('test.steps', async (p, ctx) => {
    ctx.progress({ done: 1, total: p.steps, message: 'first step' });
    await new Promise<void>((resolve) => {
      gate = resolve;
      ctx.signal.addEventListener('abort', () => resolve());
    });
    ctx.signal.throwIfAborted();
    ctx.progress({ done: p.steps, total: p.steps, message: 'all steps' });
    return 'done';
  });
  admin = await h.setupAdmin();
});
afterAll(async () => {
  await h.close();
  fs.rmSync(exportDir, { recursive: true, force: true });
});

const jobs = async (query = '') =>
  ok(await h.call<Paged<JobRow>>('GET', `/api/log/scheduler?per_page=100${query}`, { token: admin }));
const jobById = async (id: number) => (await jobs()).items.find((j) => j.id === id);

describe('GET /log/scheduler, kill, rerun', () => {
  it('lists a running job with its progress, kills it, runs it again; filters by status and kind', async () => {
    const { id } = await h.built.services.jobs.enqueue(
      'test.steps',
      { steps: 5 },
      {
        user: { user_id: null, name: 'tester' },
      },
    );
    const running = await until('running with progress', async () => {
      const j = await jobById(id);
      return j?.status === 'running' && j.progress_done === 1 ? j : null;
    });
    expect(running).toMatchObject({
      kind: 'test.steps',
      progress_total: 5,
      progress_message: 'first step',
      user_name: 'tester',
    });

    const reader = await makeRestrictedAdmin(h, admin, 'jobreader', { '/log/scheduler_log': 'r' });
    expect(
      ok(await h.call<Paged<JobRow>>('GET', '/api/log/scheduler', { token: reader.token })).total,
    ).toBeGreaterThan(0);
    denied(await h.call('PATCH', `/api/log/scheduler/${id}/kill`, { token: reader.token }));
    denied(
      await h.call('GET', '/api/log/scheduler', {
        token: (await makeRestrictedAdmin(h, admin, 'nolog')).token,
      }),
    );
    const client = await makeCarrierUser(h, admin, 'Acme');
    denied(await h.call('GET', '/api/log/scheduler', { token: client.token }));
    expect((await jobById(id))?.status).toBe('running');

    const operator = await makeRestrictedAdmin(h, admin, 'joboperator', { '/log/scheduler_log': 'rwx' });
    ok(await h.call('PATCH', `/api/log/scheduler/${id}/kill`, { token: operator.token }));
    const killed = await until('killed', async () => {
      const j = await jobById(id);
      return j?.status === 'killed' ? j : null;
    });
    expect(killed.killed_by).toBe('joboperator');
    fails(
      await h.call('PATCH', `/api/log/scheduler/${id}/kill`, { token: admin }),
      170,
      'Only a pending or running job can be killed',
    );
    notVisible(await h.call('PATCH', `/api/log/scheduler/999999/kill`, { token: admin }));

    const again = ok(
      await h.call<{ object_id: number }>('PATCH', `/api/log/scheduler/${id}/rerun`, { token: admin }),
    );
    expect(again.object_id).not.toBe(id);
    fails(
      await h.call('PATCH', `/api/log/scheduler/${again.object_id}/rerun`, { token: admin }),
      170,
      'A pending or running job cannot be run again',
    );
    await until('rerun running', async () => (await jobById(again.object_id))?.status === 'running');
    gate!();
    const finished = await until('rerun finished', async () => {
      const j = await jobById(again.object_id);
      return j?.status === 'finished' ? j : null;
    });
    expect(finished).toMatchObject({ rerun_of: id, progress_done: 5, user_name: 'admin' });

    expect((await jobs('&status=killed')).items.map((j) => j.id)).toContain(id);
    expect((await jobs('&status=killed')).items.every((j) => j.status === 'killed')).toBe(true);
    expect((await jobs('&kind=steps')).items.every((j) => j.kind === 'test.steps')).toBe(true);
    invalid(await h.call('GET', '/api/log/scheduler?status=done', { token: admin }), 'status');
    const audit = await h.built.services.db
      .selectFrom('modification_log')
      .select(['action', 'user_name'])
      .where('entity', '=', 'job')
      .where('entity_id', '=', String(id))
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { action: 'kill', user_name: 'joboperator' },
      { action: 'rerun', user_name: 'admin' },
    ]);
  });

  it('lists the recurring jobs with their schedule (UTC)', async () => {
    const r = ok(
      await h.call<{ items: { kind: string; schedule: string }[] }>('GET', '/api/log/scheduler/recurring', {
        token: admin,
      }),
    );
    expect(r.items).toContainEqual(
      expect.objectContaining({ kind: 'db.cleansing', schedule: 'daily 01:00 UTC' }),
    );
  });
});

describe('background exports (sign-in history)', () => {
  const start = (token: string, filter: Record<string, unknown> = {}) =>
    h.call<{ object_id: number; job_id: number }>('POST', '/api/export/create', {
      token,
      body: { kind: 'signin_history', filter },
    });
  const exportsOf = async (token: string) =>
    ok(await h.call<Paged<ExportRow>>('GET', '/api/log/export?per_page=100', { token })).items;

  it('writes the CSV in a job with progress, lists it in the export log, and lets only its owner download it', async () => {
    await h.signIn('admin', 'Admin#2026');
    await h.call('POST', '/api/auth', { body: { email_or_name: 'admin', password: 'wrong-one' } });
    const started = ok(await start(admin, { name: 'adm' }));
    const row = await until('export finished', async () => {
      const e = (await exportsOf(admin)).find((x) => x.id === started.object_id);
      return e?.status === 'finished' ? e : null;
    });
    const expected = await h.built.services.db
      .selectFrom('signin_history')
      .select(['name', 'result'])
      .where('name', 'ilike', '%adm%')
      .orderBy('id', 'desc')
      .execute();
    expect(expected.length).toBeGreaterThanOrEqual(3);
    expect(row).toMatchObject({
      job_id: started.job_id,
      row_count: expected.length,
      progress_done: expected.length,
      progress_total: expected.length,
      downloadable: true,
      user_name: 'admin',
    });
    expect(row.file_name).toMatch(/^user-signin-history-\d{4}-\d{2}-\d{2}\.csv$/);

    const res = await h.built.app.inject({
      method: 'GET',
      url: `/api/export/${started.object_id}/download`,
      headers: { 'x-auth-token': admin },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    expect(res.headers['content-disposition']).toContain(row.file_name);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('time (UTC),name,ip,result,reason');
    expect(lines.slice(1).map((l) => l.split(',')[3])).toEqual(expected.map((e) => e.result));
    expect(row.size_bytes).toBe(Buffer.byteLength(res.body));
    expect(fs.existsSync(path.join(exportDir, `export-${started.object_id}.csv`))).toBe(true);

    // Another admin who may read the log sees the row but cannot download the file.
    const other = await makeRestrictedAdmin(h, admin, 'exporter2', {
      '/log/user_signin_history': 'r',
      '/log/export_log': 'r',
    });
    const seen = (await exportsOf(other.token)).find((x) => x.id === started.object_id);
    expect(seen?.downloadable).toBe(false);
    notVisible(await h.call('GET', `/api/export/${started.object_id}/download`, { token: other.token }));
    // Their own export is theirs to download.
    const theirs = ok(await start(other.token, { result: 'failed' }));
    await until('their export', async () =>
      (await exportsOf(other.token)).find((x) => x.id === theirs.object_id && x.downloadable),
    );
    const body = (
      await h.built.app.inject({
        method: 'GET',
        url: `/api/export/${theirs.object_id}/download`,
        headers: { 'x-auth-token': other.token },
      })
    ).body;
    expect(
      body
        .trim()
        .split('\r\n')
        .slice(1)
        .every((l) => l.split(',')[3] === 'failed'),
    ).toBe(true);
  });

  it('refuses an unknown kind, a bad filter, and a user without the list permission; changes nothing', async () => {
    const before = (await exportsOf(admin)).length;
    invalid(
      await h.call('POST', '/api/export/create', { token: admin, body: { kind: 'nope', filter: {} } }),
      'kind',
    );
    invalid(await start(admin, { result: 'maybe' }), 'filter.result');
    invalid(await start(admin, { sneaky: 1 }), 'filter');
    const noSignins = await makeRestrictedAdmin(h, admin, 'nosignins', { '/log/export_log': 'r' });
    denied(await start(noSignins.token));
    const client = await makeCarrierUser(h, admin, 'Globex');
    denied(await start(client.token));
    expect((await exportsOf(admin)).length).toBe(before);
  });

  it('answers "not finished" for a download before the file is written', async () => {
    h.built.services.jobs.runner.halt();
    const started = ok(await start(admin));
    fails(
      await h.call('GET', `/api/export/${started.object_id}/download`, { token: admin }),
      170,
      'The export is not finished yet',
    );
    const row = (await exportsOf(admin)).find((x) => x.id === started.object_id);
    expect(row).toMatchObject({ status: 'pending', downloadable: false });
  });
});
