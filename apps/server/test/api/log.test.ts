import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  denied,
  expectSessionRequired,
  fails,
  invalid,
  makeAgent,
  makeCarrierUser,
  makeRestrictedAdmin,
  makeSessionStates,
  ok,
  startHarness,
  type Harness,
  type SessionStates,
} from './harness';

type Paged<T> = { items: T[]; total: number };
type Signin = {
  id: number;
  user_id: number | null;
  name: string;
  ip: string;
  result: string;
  reason: string;
  created_at: string;
};
type Modification = {
  id: number;
  user_id: number | null;
  user_name: string;
  entity: string;
  entity_id: string;
  action: string;
  before: unknown;
  after: unknown;
  created_at: string;
};
type ExportRow = {
  id: number;
  client_id: number | null;
  user_name: string;
  entity: string;
  file_name: string;
  status: string;
  created_at: string;
};

const DAY = 24 * 3600_000;
const todayStart = () => {
  const d = new Date();
  d.setUTCHours(0, 0, 0, 0);
  return d;
};

let h: Harness;
let admin: string;
let states: SessionStates;
let acme: { clientId: number; token: string; login: string };
let globex: { clientId: number; token: string; login: string };
let agent: { agentId: number; token: string; login: string };
let restricted: { userId: number; token: string; roleId: number };
let logReader: { userId: number; token: string; roleId: number };

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  states = await makeSessionStates(h);
  acme = await makeCarrierUser(h, admin, 'Acme');
  globex = await makeCarrierUser(h, admin, 'Globex', { client_type: 'vendor' });
  agent = await makeAgent(h, admin, 'Broker');
  restricted = await makeRestrictedAdmin(h, admin, 'dash_only');
  logReader = await makeRestrictedAdmin(h, admin, 'log_reader', {
    '/log/user_signin_history': 'r',
    '/log/modification_log': 'r',
    '/log/export_log': 'r',
    '/log/import_log': 'r',
    '/origination/did_repository_upload': 'r',
    '/routing/rate_table': 'r',
  });
});
afterAll(() => h.close());

describe('GET /log/user_signin_history', () => {
  it('lists every attempt with its result, newest first, filtered by result and name', async () => {
    const at = (ip: string) => ({ 'x-forwarded-for': ip });
    fails(
      await h.call('POST', '/api/auth', {
        body: { email_or_name: ADMIN.name, password: 'nope-nope' },
        headers: at('10.7.0.1'),
      }),
      190,
    );
    ok(await h.call('PATCH', `/api/user/${restricted.userId}/deactivate`, { token: admin }));
    fails(
      await h.call('POST', '/api/auth', {
        body: { email_or_name: 'dash_only', password: 'User#2026' },
        headers: at('10.7.0.2'),
      }),
      190,
    );
    ok(await h.call('PATCH', `/api/user/${restricted.userId}/activate`, { token: admin }));
    restricted.token = await h.signIn('dash_only', 'User#2026');

    const all = ok(
      await h.call<Paged<Signin>>('GET', '/api/log/user_signin_history?per_page=100', {
        token: logReader.token,
      }),
    );
    expect(all.total).toBe(all.items.length);
    const times = all.items.map((r) => Date.parse(r.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(new Set(all.items.map((r) => r.result))).toEqual(new Set(['success', 'failed', 'forbidden']));

    const failed = ok(
      await h.call<Paged<Signin>>('GET', '/api/log/user_signin_history?result=failed', { token: admin }),
    );
    expect(failed.items).toEqual([
      expect.objectContaining({
        name: ADMIN.name,
        ip: '10.7.0.1',
        result: 'failed',
        reason: 'wrong password',
        user_id: 1,
      }),
    ]);
    const forbidden = ok(
      await h.call<Paged<Signin>>('GET', '/api/log/user_signin_history?result=forbidden', { token: admin }),
    );
    expect(forbidden.items).toEqual([
      expect.objectContaining({
        name: 'dash_only',
        ip: '10.7.0.2',
        result: 'forbidden',
        reason: 'user inactive',
        user_id: restricted.userId,
      }),
    ]);
    const acmeRows = ok(
      await h.call<Paged<Signin>>('GET', '/api/log/user_signin_history?name=ACME', { token: admin }),
    );
    expect(acmeRows.items.map((r) => [r.name, r.result])).toEqual([['acme_user', 'success']]);
    const page = ok(
      await h.call<Paged<Signin>>('GET', '/api/log/user_signin_history?page=1&per_page=2', { token: admin }),
    );
    expect(page.items.map((r) => r.id)).toEqual(all.items.slice(2, 4).map((r) => r.id));
    expect(page.total).toBe(all.total);
  });

  it('refuses portal users and admins without the permission; names malformed fields', async () => {
    denied(await h.call('GET', '/api/log/user_signin_history', { token: restricted.token }));
    denied(await h.call('GET', '/api/log/user_signin_history', { token: acme.token }));
    denied(await h.call('GET', '/api/log/user_signin_history', { token: agent.token }));
    invalid(
      await h.call('GET', '/api/log/user_signin_history?result=maybe', { token: admin }),
      'result',
      'result must be one of: success, failed, forbidden',
    );
    invalid(await h.call('GET', '/api/log/user_signin_history?per_page=-5', { token: admin }), 'per_page');
    await expectSessionRequired(h, states, 'GET', '/api/log/user_signin_history');
  });
});

describe('GET /log/modification_log', () => {
  it('has a row for each write with who, what, before and after, secrets redacted', async () => {
    ok(await h.call('PATCH', '/api/config/system', { token: admin, body: { inactivity_timeout: 45 } }));
    const roleId = ok(
      await h.call<{ object_id: number }>('POST', '/api/config/role/create', {
        token: admin,
        body: { role_name: 'Audited' },
      }),
    ).object_id;
    ok(
      await h.call('PATCH', `/api/config/role/${roleId}`, {
        token: admin,
        body: { role_name: 'Audited twice' },
      }),
    );
    ok(await h.call('DELETE', `/api/config/role/${roleId}`, { token: admin }));
    ok(
      await h.call('PATCH', `/api/user/${restricted.userId}`, {
        token: admin,
        body: { passwd: 'Secret#2026x', first_name: 'Dana' },
      }),
    );
    restricted.token = await h.signIn('dash_only', 'Secret#2026x');

    const roleRows = ok(
      await h.call<Paged<Modification>>('GET', `/api/log/modification_log?entity=role&entity_id=${roleId}`, {
        token: logReader.token,
      }),
    );
    expect(roleRows.items.map((r) => r.action)).toEqual(['delete', 'update', 'create']);
    expect(roleRows.total).toBe(3);
    expect(roleRows.items[1]).toMatchObject({
      user_id: 1,
      user_name: ADMIN.name,
      entity: 'role',
      entity_id: String(roleId),
      before: { role_name: 'Audited' },
      after: { role_name: 'Audited twice' },
    });
    expect(roleRows.items[0]).toMatchObject({ after: null, before: { role_name: 'Audited twice' } });

    const sys = ok(
      await h.call<Paged<Modification>>('GET', '/api/log/modification_log?entity=system_setting', {
        token: admin,
      }),
    );
    expect(sys.items[0]).toMatchObject({
      action: 'update',
      before: { inactivity_timeout: 30 },
      after: { inactivity_timeout: 45 },
    });

    const user = ok(
      await h.call<Paged<Modification>>(
        'GET',
        `/api/log/modification_log?entity=user&entity_id=${restricted.userId}`,
        { token: admin },
      ),
    );
    expect(user.items[0]).toMatchObject({
      action: 'update',
      before: { passwd: '***', first_name: '' },
      after: { passwd: '***', first_name: 'Dana' },
    });
    const everything = ok(
      await h.call<Paged<Modification>>('GET', '/api/log/modification_log?per_page=1000', { token: admin }),
    );
    const text = JSON.stringify(everything.items);
    expect(text).not.toContain('Secret#2026x');
    expect(text).not.toContain('scrypt$');
    expect(
      everything.items.filter((r) => r.entity === 'user' && r.action === 'create').length,
    ).toBeGreaterThanOrEqual(2);
  });

  it('refuses portal users and admins without the permission', async () => {
    denied(await h.call('GET', '/api/log/modification_log', { token: restricted.token }));
    denied(await h.call('GET', '/api/log/modification_log', { token: acme.token }));
    invalid(
      await h.call('GET', '/api/log/modification_log?entity=' + 'e'.repeat(65), { token: admin }),
      'entity',
    );
    await expectSessionRequired(h, states, 'GET', '/api/log/modification_log');
  });
});

describe('GET /log/export (rate export log; clients see their own)', () => {
  it('sets up export rows of two carriers, an agent and the operator', async () => {
    const db = h.built.services.db;
    const acmeUser = await db
      .selectFrom('users')
      .select('user_id')
      .where('name', '=', acme.login)
      .executeTakeFirstOrThrow();
    const agentUser = await db
      .selectFrom('users')
      .select('user_id')
      .where('name', '=', agent.login)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('export_log')
      .values([
        {
          user_id: acmeUser.user_id,
          user_name: acme.login,
          client_id: acme.clientId,
          entity: 'rate',
          file_name: 'acme-1.csv',
        },
        {
          user_id: acmeUser.user_id,
          user_name: acme.login,
          client_id: acme.clientId,
          entity: 'rate',
          file_name: 'acme-2.csv',
          status: 'failed',
        },
        {
          user_id: null,
          user_name: 'globex_user',
          client_id: globex.clientId,
          entity: 'rate',
          file_name: 'globex-1.csv',
        },
        {
          user_id: agentUser.user_id,
          user_name: agent.login,
          client_id: null,
          entity: 'cdr',
          file_name: 'agent.csv',
        },
        {
          user_id: 1,
          user_name: 'admin',
          client_id: null,
          entity: 'cdr',
          file_name: 'old.csv',
          created_at: new Date(Date.now() - 3 * DAY),
        },
      ])
      .execute();
  });

  it('answers the operator every row, with the total the frame counts', async () => {
    const all = ok(
      await h.call<Paged<ExportRow>>('GET', '/api/log/export?page=0&per_page=100', { token: admin }),
    );
    expect(all.total).toBe(5);
    expect(
      ok(await h.call<Paged<ExportRow>>('GET', '/api/log/export?page=0&per_page=1', { token: admin })).total,
    ).toBe(5);
    const failed = ok(
      await h.call<Paged<ExportRow>>('GET', '/api/log/export?status=failed', { token: logReader.token }),
    );
    expect(failed.items.map((r) => r.file_name)).toEqual(['acme-2.csv']);
    const today = ok(
      await h.call<Paged<ExportRow>>(
        `GET`,
        `/api/log/export?per_page=100&upload_time_from=${todayStart().toISOString()}`,
        { token: admin },
      ),
    );
    expect(today.items.map((r) => r.file_name)).not.toContain('old.csv');
    expect(today.total).toBe(4);
  });

  it("answers a client only its own carrier's rows, whatever it asks for", async () => {
    const own = ok(
      await h.call<Paged<ExportRow>>('GET', '/api/log/export?page=0&per_page=1', { token: acme.token }),
    );
    expect(own.total).toBe(2);
    const sneaky = ok(
      await h.call<Paged<ExportRow>>(`GET`, `/api/log/export?per_page=100&client_id=${globex.clientId}`, {
        token: acme.token,
      }),
    );
    expect(sneaky.items.map((r) => r.file_name).sort()).toEqual(['acme-1.csv', 'acme-2.csv']);
    const vendor = ok(
      await h.call<Paged<ExportRow>>('GET', '/api/log/export?per_page=100', { token: globex.token }),
    );
    expect(vendor.items.map((r) => r.file_name)).toEqual(['globex-1.csv']);
    const agentRows = ok(
      await h.call<Paged<ExportRow>>('GET', '/api/log/export?per_page=100', { token: agent.token }),
    );
    expect(agentRows.items.map((r) => r.file_name)).toEqual(['agent.csv']);
  });

  it('answers an empty count to a new carrier', async () => {
    const fresh = await makeCarrierUser(h, admin, 'Initech');
    expect(
      ok(await h.call<Paged<ExportRow>>('GET', '/api/log/export?page=0&per_page=1', { token: fresh.token })),
    ).toEqual({ items: [], total: 0 });
  });

  it('refuses admins without the permission and names malformed fields', async () => {
    denied(await h.call('GET', '/api/log/export', { token: restricted.token }));
    invalid(await h.call('GET', '/api/log/export?per_page=x', { token: acme.token }), 'per_page');
    invalid(await h.call('GET', '/api/log/export?order_dir=up', { token: admin }), 'order_dir');
    await expectSessionRequired(h, states, 'GET', '/api/log/export?page=0&per_page=1');
  });
});

describe('in-progress work the frame counts: imports, DID uploads, rate imports', () => {
  it('sets up rows of today and yesterday', async () => {
    const db = h.built.services.db;
    const yesterday = new Date(todayStart().getTime() - DAY / 2);
    // a CDR file refused for a malformed row (its job never made): failed, with its problem counted
    await db
      .insertInto('cdr_uploads')
      .values({
        file_name: 'cdrs.csv',
        size: 100,
        kind: 'csv',
        refused: true,
        problems: JSON.stringify([{ row: 2, field: 'end_time' }]),
        user_name: 'admin',
        created_at: yesterday,
      })
      .execute();
    await db
      .insertInto('did_upload_tasks')
      .values([
        { file_name: 'dids.csv', total: 100, done: 40 },
        { file_name: 'dids-done.csv', status: 'Finished', total: 5, done: 5 },
        { file_name: 'dids-old.csv', created_at: yesterday },
      ])
      .execute();
    await db
      .insertInto('rate_import_tasks')
      .values([
        { file_name: 'r1.csv', progress: 10 },
        { file_name: 'r2.csv', status: 'Done', progress: 100 },
        { file_name: 'r0.csv', created_at: yesterday },
      ])
      .execute();
  });

  const range = (from: string, to: string) => {
    const a = todayStart();
    return `${from}=${encodeURIComponent(a.toISOString())}&${to}=${encodeURIComponent(new Date(a.getTime() + DAY).toISOString())}`;
  };

  it('GET /log/import: every import (rate tables, DID numbers, CDRs) with one status; in progress today', async () => {
    type Row = {
      key: string;
      entity: string;
      file_name: string;
      status: string;
      finished_time: string | null;
      error_rows: number;
    };
    const p = ok(
      await h.call<Paged<Row>>(
        'GET',
        `/api/log/import?status=in%20progress&${range('upload_time_from', 'upload_time_to')}&per_page=10`,
        { token: logReader.token },
      ),
    );
    expect(p.items.map((r) => [r.entity, r.file_name]).sort()).toEqual([
      ['did', 'dids.csv'],
      ['rate_table', 'r1.csv'],
    ]);
    expect(p.total).toBe(2);
    const all = ok(await h.call<Paged<Row>>('GET', '/api/log/import?per_page=20', { token: admin }));
    expect(all.total).toBe(7);
    expect(all.items.find((r) => r.entity === 'cdr')).toMatchObject({
      file_name: 'cdrs.csv',
      status: 'failed',
      error_rows: 1,
    });
    const status = Object.fromEntries(all.items.map((r) => [r.file_name, r.status]));
    expect(status).toMatchObject({
      'r2.csv': 'finished',
      'dids-done.csv': 'finished',
      'r0.csv': 'in progress',
      'dids-old.csv': 'in progress',
    });
    expect(new Set(all.items.map((r) => r.key)).size).toBe(7);
    // newest first by default; the rate imports were made after the DID uploads
    const times = all.items.map((r) => r.file_name);
    expect(times.indexOf('r0.csv')).toBeGreaterThan(times.indexOf('r1.csv'));
    expect((await h.call('GET', '/api/log/import?status=lost', { token: admin })).body.errors).toHaveProperty(
      'status',
    );
  });

  it('GET /tool/did_number_upload_task/list: status In Process, today', async () => {
    const p = ok(
      await h.call<Paged<{ file_name: string; total: number; done: number }>>(
        'GET',
        `/api/tool/did_number_upload_task/list?status=In%20Process&${range('created_from', 'created_to')}`,
        { token: logReader.token },
      ),
    );
    expect(p.items).toEqual([
      expect.objectContaining({ file_name: 'dids.csv', status: 'In Process', total: 100, done: 40 }),
    ]);
    expect(p.total).toBe(1);
  });

  it('GET /tool/rate/import/list: status Insert new rate, today', async () => {
    const p = ok(
      await h.call<Paged<{ file_name: string; progress: number }>>(
        'GET',
        `/api/tool/rate/import/list?status=Insert%20new%20rate&${range('created_from', 'created_to')}`,
        { token: logReader.token },
      ),
    );
    expect(p.items).toEqual([
      expect.objectContaining({ file_name: 'r1.csv', status: 'Insert new rate', progress: 10 }),
    ]);
    expect(p.total).toBe(1);
  });

  it('are for admins with the permission only', async () => {
    for (const url of [
      '/api/log/import',
      '/api/tool/did_number_upload_task/list',
      '/api/tool/rate/import/list',
    ]) {
      denied(await h.call('GET', url, { token: restricted.token }));
      denied(await h.call('GET', url, { token: acme.token }));
      denied(await h.call('GET', url, { token: agent.token }));
      invalid(await h.call('GET', `${url}?page=abc`, { token: admin }), 'page');
      await expectSessionRequired(h, states, 'GET', `${url}?page=0&per_page=10`);
    }
  });
});

describe('time range filters', () => {
  it('refuses an unparseable instant instead of ignoring it', async () => {
    const h2 = await startHarness();
    try {
      const token = await h2.setupAdmin();
      const bad = await h2.call('GET', '/api/log/import?upload_time_from=yesterday', { token });
      expect(bad.body.error?.code).toBe(110);
      expect(bad.body.errors?.upload_time_from).toBeDefined();
      const good = await h2.call(
        'GET',
        `/api/log/import?upload_time_from=${encodeURIComponent('2026-11-21T00:00:00Z')}`,
        { token },
      );
      expect(good.body.success).toBe(true);
    } finally {
      await h2.close();
    }
  });
});
