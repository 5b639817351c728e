import { MENU_MODULES } from '@tandem/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditRows,
  denied,
  expectSessionRequired,
  fails,
  invalid,
  makeAdmin,
  makeCarrierUser,
  makeRestrictedAdmin,
  makeRole,
  makeSessionStates,
  notVisible,
  ok,
  privileges,
  startHarness,
  type Harness,
  type SessionStates,
} from './harness';

type RoleDetail = {
  role_id: number;
  role_name: string;
  usage_count: number;
  group_privilegies: { id: number; name: string; readable: boolean }[];
  role_ui_privilegies: { submenu_id: number; web_url: string; readable: boolean; writable: boolean }[];
  role_privilegies: { func_name: string; readable: boolean; writable: boolean; executable: boolean }[];
};
type RoleRow = { role_id: number; role_name: string; usage_count: number; updated_at: string };
type Paged<T> = { items: T[]; total: number };

const LOG_GROUP = MENU_MODULES.find((m) => m.group_name === 'Log')!.id;
const CATALOGUE_SIZE = MENU_MODULES.reduce((n, m) => n + m.items.length, 0);

let h: Harness;
let admin: string;
let states: SessionStates;
let client: string;
let reader: { userId: number; token: string; roleId: number };
let nobody: { userId: number; token: string; roleId: number };

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  states = await makeSessionStates(h);
  client = (await makeCarrierUser(h, admin, 'Acme')).token;
  reader = await makeRestrictedAdmin(h, admin, 'role_reader', { '/configuration/roles': 'r' });
  nobody = await makeRestrictedAdmin(h, admin, 'no_roles', { '/statistics/dashboard': 'r' });
});
afterAll(() => h.close());

describe('POST /config/role/create and GET /config/role/:id', () => {
  it('creates a role and answers its privileges, groups and menu flags', async () => {
    const body = {
      role_name: 'NOC shift',
      role_privilegies: privileges({
        '/log/modification_log': 'r',
        '/origination/tickets': 'rw',
        '/tools/call_simulation': 'rwx',
      }),
      group_privilegies: [{ id: LOG_GROUP, readable: true }],
    };
    const id = ok(
      await h.call<{ object_id: number }>('POST', '/api/config/role/create', { token: admin, body }),
    ).object_id;
    const r = ok(await h.call<RoleDetail>('GET', `/api/config/role/${id}`, { token: admin }));
    expect(r).toMatchObject({ role_id: id, role_name: 'NOC shift', usage_count: 0 });
    expect(r.role_privilegies).toEqual([
      { func_name: '/log/modification_log', readable: true, writable: false, executable: false },
      { func_name: '/origination/tickets', readable: true, writable: true, executable: false },
      { func_name: '/tools/call_simulation', readable: true, writable: true, executable: true },
    ]);
    expect(r.group_privilegies).toHaveLength(MENU_MODULES.length);
    expect(r.group_privilegies.find((g) => g.id === LOG_GROUP)).toEqual({
      id: LOG_GROUP,
      name: 'Log',
      readable: true,
    });
    expect(r.group_privilegies.filter((g) => g.readable)).toHaveLength(1);
    expect(r.role_ui_privilegies).toHaveLength(CATALOGUE_SIZE);
    expect(r.role_ui_privilegies.find((u) => u.web_url === '/origination/tickets')).toMatchObject({
      readable: true,
      writable: true,
    });
    expect(r.role_ui_privilegies.find((u) => u.web_url === '/configuration/users')).toMatchObject({
      readable: false,
      writable: false,
    });
    const [audit] = await auditRows(h, 'role', id);
    expect(audit).toMatchObject({
      action: 'create',
      user_name: 'admin',
      before: null,
      after: { role_name: 'NOC shift' },
    });
  });

  it('stores only privileges that grant something', async () => {
    const id = await makeRole(h, admin, 'Sparse', { '/log/import_log': 'r' });
    ok(
      await h.call('PATCH', `/api/config/role/${id}`, {
        token: admin,
        body: {
          role_name: 'Sparse',
          role_privilegies: [
            ...privileges({ '/log/import_log': 'r' }),
            { func_name: '/log/export_log', readable: false, writable: false, executable: false },
          ],
        },
      }),
    );
    const r = ok(await h.call<RoleDetail>('GET', `/api/config/role/${id}`, { token: admin }));
    expect(r.role_privilegies.map((p) => p.func_name)).toEqual(['/log/import_log']);
  });

  it('refuses a duplicate name in any case with 160 naming role_name', async () => {
    const r = await h.call('POST', '/api/config/role/create', {
      token: admin,
      body: { role_name: 'noc SHIFT' },
    });
    expect(fails(r, 160, 'Role [noc SHIFT] already exists').errors).toEqual({
      role_name: 'Role [noc SHIFT] already exists',
    });
  });

  it('names malformed fields', async () => {
    invalid(
      await h.call('POST', '/api/config/role/create', { token: admin, body: {} }),
      'role_name',
      'role_name is required',
    );
    invalid(
      await h.call('POST', '/api/config/role/create', { token: admin, body: { role_name: '   ' } }),
      'role_name',
      'role_name is required',
    );
    invalid(
      await h.call('POST', '/api/config/role/create', { token: admin, body: { role_name: '***' } }),
      'role_name',
      'Name must include alphanumeric characters',
    );
    invalid(
      await h.call('POST', '/api/config/role/create', { token: admin, body: { role_name: 'x'.repeat(65) } }),
      'role_name',
      'role_name must be at most 64 characters',
    );
    invalid(
      await h.call('POST', '/api/config/role/create', {
        token: admin,
        body: {
          role_name: 'Bad func',
          role_privilegies: privileges({ '/log/import_log': 'r', '/not/a/page': 'r' }),
        },
      }),
      'role_privilegies.1.func_name',
      '/not/a/page is not valid',
    );
    invalid(
      await h.call('POST', '/api/config/role/create', {
        token: admin,
        body: { role_name: 'Bad group', group_privilegies: [{ id: 999, readable: true }] },
      }),
      'group_privilegies.0.id',
    );
    invalid(
      await h.call('POST', '/api/config/role/create', {
        token: admin,
        body: {
          role_name: 'Bad flag',
          role_privilegies: [{ func_name: '/log/import_log', readable: 'yes' }],
        },
      }),
      'role_privilegies.0.readable',
    );
    invalid(
      await h.call('POST', '/api/config/role/create', {
        token: admin,
        body: { role_name: 'Extra', colour: 'red' },
      }),
      '_',
    );
    fails(
      await h.call('POST', '/api/config/role/create', { token: admin, raw: '{"role_name": "x"' }),
      110,
      'The request body is not valid JSON',
    );
    const names = ok(
      await h.call<Paged<RoleRow>>('GET', '/api/config/role/list?per_page=100', { token: admin }),
    ).items.map((r) => r.role_name);
    expect(names).not.toContain('Bad func');
    expect(names).not.toContain('Bad group');
  });

  it('lets a restricted admin read its own role but no other; 150 for an unknown role', async () => {
    const own = ok(
      await h.call<RoleDetail>('GET', `/api/config/role/${nobody.roleId}`, { token: nobody.token }),
    );
    expect(own.role_privilegies).toEqual(privileges({ '/statistics/dashboard': 'r' }));
    denied(await h.call('GET', `/api/config/role/${reader.roleId}`, { token: nobody.token }));
    denied(await h.call('GET', `/api/config/role/${reader.roleId}`, { token: client }));
    ok(await h.call('GET', `/api/config/role/${nobody.roleId}`, { token: reader.token }));
    notVisible(await h.call('GET', '/api/config/role/99999', { token: admin }));
    invalid(await h.call('GET', '/api/config/role/abc', { token: admin }), 'id');
    await expectSessionRequired(h, states, 'GET', `/api/config/role/${reader.roleId}`);
  });

  it('refuses creation without the roles write permission', async () => {
    denied(
      await h.call('POST', '/api/config/role/create', { token: reader.token, body: { role_name: 'Mine' } }),
    );
    denied(
      await h.call('POST', '/api/config/role/create', { token: nobody.token, body: { role_name: 'Mine' } }),
    );
    denied(await h.call('POST', '/api/config/role/create', { token: client, body: { role_name: 'Mine' } }));
    await expectSessionRequired(h, states, 'POST', '/api/config/role/create', {
      body: { role_name: 'Mine' },
    });
  });
});

describe('GET /config/role/list', () => {
  it('lists roles with their usage, filtered, sorted and paged', async () => {
    const all = ok(
      await h.call<Paged<RoleRow>>('GET', '/api/config/role/list?page=0&per_page=100', { token: admin }),
    );
    expect(all.total).toBe(all.items.length);
    const asc = ok(
      await h.call<Paged<RoleRow>>(
        'GET',
        '/api/config/role/list?role_name=%20role&order_by=role_name&order_dir=asc',
        { token: admin },
      ),
    );
    expect(asc.items.map((r) => r.role_name)).toEqual(['no_roles role', 'role_reader role']);
    const desc = ok(
      await h.call<Paged<RoleRow>>(
        'GET',
        '/api/config/role/list?role_name=%20role&order_by=role_name&order_dir=desc',
        { token: admin },
      ),
    );
    expect(desc.items.map((r) => r.role_name)).toEqual(['role_reader role', 'no_roles role']);
    expect(all.items.find((r) => r.role_id === reader.roleId)).toMatchObject({
      role_name: 'role_reader role',
      usage_count: 1,
    });
    expect(Date.parse(all.items[0]!.updated_at)).toBeGreaterThan(0);
    const found = ok(
      await h.call<Paged<RoleRow>>('GET', '/api/config/role/list?role_name=SHIFT', { token: admin }),
    );
    expect(found.items.map((r) => r.role_name)).toEqual(['NOC shift']);
    const page = ok(
      await h.call<Paged<RoleRow>>('GET', '/api/config/role/list?page=1&per_page=1&order_by=role_id', {
        token: admin,
      }),
    );
    expect(page.items).toHaveLength(1);
    expect(page.items[0]!.role_id).toBe([...all.items].sort((a, b) => a.role_id - b.role_id)[1]!.role_id);
    expect(page.total).toBe(all.total);
    ok(await h.call('GET', '/api/config/role/list', { token: reader.token }));
  });

  it('refuses without the roles permission and names malformed query fields', async () => {
    denied(await h.call('GET', '/api/config/role/list', { token: nobody.token }));
    denied(await h.call('GET', '/api/config/role/list', { token: client }));
    invalid(await h.call('GET', '/api/config/role/list?page=-1', { token: admin }), 'page');
    invalid(
      await h.call('GET', '/api/config/role/list?role_name=' + 'x'.repeat(65), { token: admin }),
      'role_name',
    );
    await expectSessionRequired(h, states, 'GET', '/api/config/role/list');
  });
});

describe('role privileges decide what a restricted admin may call', () => {
  it('applies a role change at once (no stale cache)', async () => {
    const roleId = await makeRole(h, admin, 'Growing', { '/log/modification_log': 'r' });
    const u = await makeAdmin(h, admin, 'grower', { role_id: roleId });
    ok(await h.call('GET', '/api/log/modification_log', { token: u.token }));
    denied(await h.call('GET', '/api/log/import', { token: u.token }));
    ok(
      await h.call('PATCH', `/api/config/role/${roleId}`, {
        token: admin,
        body: {
          role_name: 'Growing',
          role_privilegies: privileges({ '/log/modification_log': 'r', '/log/import_log': 'r' }),
        },
      }),
    );
    ok(await h.call('GET', '/api/log/import', { token: u.token }));
    ok(
      await h.call('PATCH', `/api/config/role/${roleId}`, {
        token: admin,
        body: { role_name: 'Growing', role_privilegies: privileges({ '/log/import_log': 'r' }) },
      }),
    );
    denied(await h.call('GET', '/api/log/modification_log', { token: u.token }));
  });

  it('needs writable for writes and a readable main-menu group when the role sets groups', async () => {
    const roleId = await makeRole(
      h,
      admin,
      'Read only tickets',
      { '/origination/tickets': 'r', '/log/import_log': 'r' },
      [{ id: LOG_GROUP, readable: false }],
    );
    const u = await makeAdmin(h, admin, 'ro_tickets', { role_id: roleId });
    ok(await h.call('GET', '/api/ticket/list', { token: u.token }));
    denied(await h.call('POST', '/api/ticket/create', { token: u.token, body: { subject: 'Hi' } }));
    // The Log group is not readable, so its items are not either.
    denied(await h.call('GET', '/api/log/import', { token: u.token }));
  });

  it('restricts everything when a role grants nothing', async () => {
    const roleId = await makeRole(h, admin, 'Empty', {});
    const u = await makeAdmin(h, admin, 'empty_handed', { role_id: roleId });
    denied(await h.call('GET', '/api/log/import', { token: u.token }));
    denied(await h.call('GET', '/api/ticket/list', { token: u.token }));
    // Session calls still work.
    ok(await h.call('GET', '/api/user', { token: u.token }));
  });
});

describe('PATCH /config/role/:id', () => {
  it('replaces name and privileges and logs before and after', async () => {
    const id = await makeRole(h, admin, 'Billing desk', { '/finance/invoice': 'rw' });
    ok(
      await h.call('PATCH', `/api/config/role/${id}`, {
        token: admin,
        body: { role_name: 'Billing team', role_privilegies: privileges({ '/finance/payment': 'r' }) },
      }),
    );
    const r = ok(await h.call<RoleDetail>('GET', `/api/config/role/${id}`, { token: admin }));
    expect(r.role_name).toBe('Billing team');
    expect(r.role_privilegies).toEqual(privileges({ '/finance/payment': 'r' }));
    const [audit] = await auditRows(h, 'role', id);
    expect(audit).toMatchObject({
      action: 'update',
      before: { role_name: 'Billing desk', role_privilegies: privileges({ '/finance/invoice': 'rw' }) },
      after: { role_name: 'Billing team' },
    });
  });

  it('refuses a name another role has, an unknown role, malformed input and missing permissions', async () => {
    const id = await makeRole(h, admin, 'Renamed later', {});
    fails(
      await h.call('PATCH', `/api/config/role/${id}`, { token: admin, body: { role_name: 'NOC SHIFT' } }),
      160,
    );
    ok(
      await h.call('PATCH', `/api/config/role/${id}`, { token: admin, body: { role_name: 'RENAMED LATER' } }),
    );
    notVisible(
      await h.call('PATCH', '/api/config/role/99999', { token: admin, body: { role_name: 'Ghost' } }),
    );
    invalid(
      await h.call('PATCH', `/api/config/role/${id}`, { token: admin, body: { role_name: '' } }),
      'role_name',
    );
    invalid(
      await h.call('PATCH', `/api/config/role/${id}`, {
        token: admin,
        body: { role_name: 'x', role_privilegies: 'all' },
      }),
      'role_privilegies',
    );
    denied(
      await h.call('PATCH', `/api/config/role/${id}`, {
        token: reader.token,
        body: { role_name: 'Mine now' },
      }),
    );
    denied(
      await h.call('PATCH', `/api/config/role/${id}`, { token: client, body: { role_name: 'Mine now' } }),
    );
    await expectSessionRequired(h, states, 'PATCH', `/api/config/role/${id}`, {
      body: { role_name: 'Mine now' },
    });
  });
});

describe('DELETE /config/role/:id', () => {
  it('refuses while a user has the role, deletes once it is free', async () => {
    const id = await makeRole(h, admin, 'Temporary', { '/log/import_log': 'r' });
    const u = await makeAdmin(h, admin, 'temp_user', { role_id: id });
    const r = await h.call('DELETE', `/api/config/role/${id}`, { token: admin });
    fails(r, 170, 'The role is assigned to 1 user(s) and cannot be deleted');
    expect(r.status).toBe(409);
    ok(await h.call<RoleDetail>('GET', `/api/config/role/${id}`, { token: admin }));
    ok(await h.call('PATCH', `/api/user/${u.userId}`, { token: admin, body: { role_id: 0 } }));
    expect(ok(await h.call('DELETE', `/api/config/role/${id}`, { token: admin }))).toBeNull();
    notVisible(await h.call('GET', `/api/config/role/${id}`, { token: admin }));
    notVisible(await h.call('DELETE', `/api/config/role/${id}`, { token: admin }));
    const [audit] = await auditRows(h, 'role', id);
    expect(audit).toMatchObject({
      action: 'delete',
      after: null,
      before: { role_name: 'Temporary', usage_count: 0 },
    });
    // The user's grants follow: no role means unrestricted.
    ok(await h.call('GET', '/api/config/role/list', { token: u.token }));
  });

  it('refuses without the roles write permission; 110 for a malformed id', async () => {
    const id = await makeRole(h, admin, 'Keep me', {});
    denied(await h.call('DELETE', `/api/config/role/${id}`, { token: reader.token }));
    denied(await h.call('DELETE', `/api/config/role/${id}`, { token: client }));
    invalid(await h.call('DELETE', '/api/config/role/0', { token: admin }), 'id');
    await expectSessionRequired(h, states, 'DELETE', `/api/config/role/${id}`);
    ok(await h.call('GET', `/api/config/role/${id}`, { token: admin }));
  });
});
