import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  auditRows,
  denied,
  expectSessionRequired,
  fails,
  invalid,
  makeAdmin,
  makeAgent,
  makeCarrierUser,
  makeRestrictedAdmin,
  makeRole,
  makeSessionStates,
  notVisible,
  ok,
  startHarness,
  tinyPng,
  upload,
  USER_PASSWD,
  type Harness,
  type SessionStates,
} from './harness';

type SessionUser = Record<string, unknown> & {
  user_id: number;
  role_id: number;
  client: Record<string, unknown> | null;
};
type UserRow = {
  user_id: number;
  name: string;
  user_type: string;
  role_id: number;
  role_name: string | null;
  active: boolean;
  allowed_ips: string[];
  client_name: string | null;
  is_online: boolean;
};
type Paged<T> = { items: T[]; total: number };

let h: Harness;
let admin: string;
let states: SessionStates;
let client: { clientId: number; token: string; login: string };
let other: { clientId: number; token: string; login: string };
let restricted: { userId: number; token: string; roleId: number };

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('first-admin setup (POST /user/create while no user exists)', () => {
  it('has_user is false until the first admin exists; setup makes an unrestricted server admin', async () => {
    expect(ok(await h.call('GET', '/api/public/has_user'))).toEqual({ has_user: false });
    // Validation applies to setup too, and changes nothing.
    invalid(
      await h.call('POST', '/api/user/create', { body: { ...ADMIN, passwd: 'short' } }),
      'passwd',
      'Password must be 8 to 15 characters',
    );
    invalid(
      await h.call('POST', '/api/user/create', { body: { ...ADMIN, email: 'a@b.c;d@e.f' } }),
      'email',
      'Only one Email is allowed',
    );
    expect(ok(await h.call('GET', '/api/public/has_user'))).toEqual({ has_user: false });
    // Without the one-time code the server printed at start, nobody claims the instance (issue 18).
    expect(h.built.setupCode).toMatch(/^[\w]{4}-[\w]{4}-[\w]{4}$/);
    invalid(
      await h.call('POST', '/api/user/create', { body: ADMIN }),
      'setup_code',
      'setup_code is required',
    );
    invalid(
      await h.call('POST', '/api/user/create', { body: { ...ADMIN, setup_code: 'AAAA-BBBB-CCCC' } }),
      'setup_code',
      /not the one the server printed/,
    );
    expect(ok(await h.call('GET', '/api/public/has_user'))).toEqual({ has_user: false });

    // Whatever type or role the form sends, the first user is an unrestricted admin.
    const r = await h.call<{ object_id: number }>('POST', '/api/user/create', {
      body: { ...ADMIN, user_type: 'agent', role_id: 7, setup_code: h.built.setupCode ?? '' },
    });
    expect(ok(r).object_id).toBe(1);
    expect(ok(await h.call('GET', '/api/public/has_user'))).toEqual({ has_user: true });
    admin = await h.signIn(ADMIN.name, ADMIN.passwd);
    const me = ok(await h.call<SessionUser>('GET', '/api/user', { token: admin }));
    expect(me).toMatchObject({
      user_id: 1,
      name: 'admin',
      email: ADMIN.email,
      user_type: 'admin',
      role_id: 0,
      role_name: null,
      is_server_admin: true,
      client: null,
      client_id: null,
      agent: null,
    });
    states = await makeSessionStates(h);
    const audit = await auditRows(h, 'user', 1);
    expect(audit[0]).toMatchObject({ action: 'setup first admin', user_name: 'system' });
    expect((audit[0]!.after as Record<string, unknown>).password_hash).toBe('***');
  });

  it('is closed once a user exists: anonymous creation is refused', async () => {
    const r = await h.call('POST', '/api/user/create', {
      body: { name: 'intruder', passwd: 'Intrude#2026', email: 'i@example.com' },
    });
    fails(r, 140, 'The first administrator already exists');
    expect(r.status).toBe(403);
    const n = await h.built.services.db
      .selectFrom('users')
      .select('user_id')
      .where('name', '=', 'intruder')
      .execute();
    expect(n).toHaveLength(0);
  });

  it('sets up the fixtures of the other tests', async () => {
    client = await makeCarrierUser(h, admin, 'Acme', { company_type: 'termination' });
    other = await makeCarrierUser(h, admin, 'Globex', { client_type: 'vendor', company_type: 'origination' });
    restricted = await makeRestrictedAdmin(h, admin, 'viewer', {
      '/statistics/dashboard': 'r',
      '/log/import_log': 'r',
    });
  });
});

describe('GET /user (session user)', () => {
  it('answers the carrier panel flags for a client user', async () => {
    const me = ok(await h.call<SessionUser>('GET', '/api/user', { token: client.token }));
    expect(me).toMatchObject({
      name: 'acme_user',
      user_type: 'client',
      company_type: 'termination',
      client_id: client.clientId,
      role_id: 0,
      agent: null,
      referal_key: null,
      is_server_admin: false,
      language: 'en',
    });
    expect(me.client).toMatchObject({
      client_id: client.clientId,
      name: 'Acme',
      client_type: 'client',
      company_type: 'termination',
      is_panel_balance: true,
      is_panel_block_list: true,
      ticket_menu: 'true',
    });
    expect(me.cdr_api_token).toMatch(/^cdr_/);
    expect(Date.parse(String(me.cdr_api_token_expiration))).toBeGreaterThan(Date.now());
  });

  it('answers vendor as the type of a vendor carrier user', async () => {
    const me = ok(await h.call<SessionUser>('GET', '/api/user', { token: other.token }));
    expect(me).toMatchObject({ user_type: 'vendor', company_type: 'origination', client_id: other.clientId });
    expect(me.client).toMatchObject({ client_type: 'vendor' });
  });

  it('answers the agent and its referral key for an agent user', async () => {
    const agent = await makeAgent(h, admin, 'Resell');
    const me = ok(await h.call<SessionUser>('GET', '/api/user', { token: agent.token }));
    expect(me).toMatchObject({
      user_type: 'agent',
      agent: { agent_id: agent.agentId, agent_name: 'Resell' },
      referal_key: agent.referralKey,
      client: null,
    });
  });

  it('answers role id and name for a restricted admin', async () => {
    const me = ok(await h.call<SessionUser>('GET', '/api/user', { token: restricted.token }));
    expect(me).toMatchObject({
      user_type: 'admin',
      role_id: restricted.roleId,
      role_name: 'viewer role',
      is_server_admin: false,
    });
  });

  it('refuses unusable sessions', async () => {
    await expectSessionRequired(h, states, 'GET', '/api/user');
  });
});

describe('GET /user/:id (profile)', () => {
  it('answers the own profile, and any profile to an admin', async () => {
    const me = ok(await h.call<SessionUser>('GET', '/api/user', { token: client.token }));
    const own = ok(await h.call('GET', `/api/user/${me.user_id}`, { token: client.token }));
    expect(own).toEqual({
      user_id: me.user_id,
      name: 'acme_user',
      first_name: '',
      last_name: '',
      email: 'acme@example.com',
      avatar_id: null,
      landing_page: null,
      is_show_daily_usage: false,
      is_daily_balance_notification: false,
      zero_balance_notice: false,
      totp_enabled: false,
    });
    expect(ok(await h.call('GET', `/api/user/${me.user_id}`, { token: admin }))).toEqual(own);
  });

  it("refuses another user's profile to a client and to an admin without the users permission", async () => {
    denied(await h.call('GET', '/api/user/1', { token: client.token }));
    const otherId = ok(await h.call<SessionUser>('GET', '/api/user', { token: other.token })).user_id;
    denied(await h.call('GET', `/api/user/${otherId}`, { token: client.token }));
    denied(await h.call('GET', '/api/user/1', { token: restricted.token }));
  });

  it('answers 150 for an unknown id and 110 for a malformed one', async () => {
    notVisible(await h.call('GET', '/api/user/99999', { token: admin }));
    invalid(await h.call('GET', '/api/user/abc', { token: admin }), 'id');
    invalid(await h.call('GET', '/api/user/-3', { token: admin }), 'id');
  });

  it('refuses unusable sessions', async () => {
    await expectSessionRequired(h, states, 'GET', '/api/user/1');
  });
});

describe('PATCH /user (own profile, password, landing page)', () => {
  it('changes names, e-mail and notification flags of a client, trimmed, and logs before/after', async () => {
    const me = ok(await h.call<SessionUser>('GET', '/api/user', { token: client.token }));
    const body = {
      first_name: '  Ann Marie ',
      last_name: 'Lévy',
      email: 'ann@acme.example.com',
      is_show_daily_usage: true,
      is_daily_balance_notification: true,
      zero_balance_notice: true,
    };
    expect(ok(await h.call('PATCH', '/api/user', { token: client.token, body }))).toBeNull();
    const p = ok(await h.call('GET', `/api/user/${me.user_id}`, { token: client.token }));
    expect(p).toMatchObject({
      first_name: 'Ann Marie',
      last_name: 'Lévy',
      email: 'ann@acme.example.com',
      is_show_daily_usage: true,
      is_daily_balance_notification: true,
      zero_balance_notice: true,
    });
    const [row] = await auditRows(h, 'user', me.user_id);
    expect(row).toMatchObject({ action: 'update', user_name: 'acme_user' });
    expect(row!.before).toMatchObject({ first_name: '', email: 'acme@example.com' });
    expect(row!.after).toMatchObject({ first_name: 'Ann Marie', email: 'ann@acme.example.com' });
  });

  it('names each malformed field and changes nothing', async () => {
    invalid(
      await h.call('PATCH', '/api/user', { token: client.token, body: { first_name: 'R2D2' } }),
      'first_name',
      'first_name may contain letters and spaces only',
    );
    invalid(
      await h.call('PATCH', '/api/user', { token: client.token, body: { email: 'a@x.com;b@x.com' } }),
      'email',
      'Only one Email is allowed',
    );
    invalid(
      await h.call('PATCH', '/api/user', { token: client.token, body: { email: 'not-an-email' } }),
      'email',
      'The email field must be a valid email',
    );
    invalid(
      await h.call('PATCH', '/api/user', { token: client.token, body: { passwd: 'x'.repeat(16) } }),
      'passwd',
      'Password must be 8 to 15 characters',
    );
    invalid(
      await h.call('PATCH', '/api/user', { token: client.token, body: { language: 'fr' } }),
      'language',
      'language must be one of: en, ch, de',
    );
    invalid(
      await h.call('PATCH', '/api/user', { token: client.token, body: { is_show_daily_usage: 'yes' } }),
      'is_show_daily_usage',
    );
    // A portal user cannot give itself a role, IPs or the active flag through its own profile.
    fails(await h.call('PATCH', '/api/user', { token: client.token, body: { role_id: 0 } }), 110);
    fails(await h.call('PATCH', '/api/user', { token: client.token, body: { active: true } }), 110);
    fails(
      await h.call('PATCH', '/api/user', { token: client.token, raw: '{"first_name":' }),
      110,
      'The request body is not valid JSON',
    );
    const me = ok(await h.call<SessionUser>('GET', '/api/user', { token: client.token }));
    expect(me.first_name).toBe('Ann Marie');
  });

  it('changes the own password: this session stays, the others end, the new password signs in', async () => {
    const u = await makeAdmin(h, admin, 'pw_owner');
    const second = await h.signIn(u.name, USER_PASSWD);
    ok(await h.call('PATCH', '/api/user', { token: u.token, body: { passwd: 'Changed#2026' } }));
    ok(await h.call('GET', '/api/user', { token: u.token }));
    fails(await h.call('GET', '/api/user', { token: second }), 130, 'token is disabled');
    await h.signIn(u.name, 'Changed#2026');
    fails(await h.call('POST', '/api/auth', { body: { email_or_name: u.name, password: USER_PASSWD } }), 190);
    const [row] = await auditRows(h, 'user', u.userId);
    expect(row).toMatchObject({
      action: 'change password',
      before: { passwd: '***' },
      after: { passwd: '***' },
    });
    expect(JSON.stringify(row)).not.toContain('Changed#2026');
  });

  it('accepts a landing page the role may read and refuses one it may not', async () => {
    ok(
      await h.call('PATCH', '/api/user', {
        token: restricted.token,
        body: { landing_page: '/log/import_log' },
      }),
    );
    expect(ok(await h.call<SessionUser>('GET', '/api/user', { token: restricted.token })).landing_page).toBe(
      '/log/import_log',
    );
    invalid(
      await h.call('PATCH', '/api/user', {
        token: restricted.token,
        body: { landing_page: '/configuration/users' },
      }),
      'landing_page',
      'The landing page must be one the role may read',
    );
    invalid(
      await h.call('PATCH', '/api/user', {
        token: restricted.token,
        body: { landing_page: 'log/import_log' },
      }),
      'landing_page',
    );
    invalid(
      await h.call('PATCH', '/api/user', { token: admin, body: { landing_page: '/no/such/page' } }),
      'landing_page',
    );
    ok(await h.call('PATCH', '/api/user', { token: admin, body: { landing_page: '/statistics/dashboard' } }));
    expect(ok(await h.call<SessionUser>('GET', '/api/user', { token: restricted.token })).landing_page).toBe(
      '/log/import_log',
    );
  });

  it('sets the avatar to an uploaded image and refuses an id that is not an uploaded image', async () => {
    const up = ok(
      await upload(
        h,
        '/api/config/import',
        client.token,
        { entity: 'avatar', format: 'png' },
        { name: 'me.png', data: tinyPng(), type: 'image/png' },
      ),
    );
    ok(await h.call('PATCH', '/api/user', { token: client.token, body: { avatar_id: up.object_id } }));
    expect(ok(await h.call<SessionUser>('GET', '/api/user', { token: client.token })).avatar_id).toBe(
      up.object_id,
    );
    invalid(
      await h.call('PATCH', '/api/user', { token: client.token, body: { avatar_id: 987654 } }),
      'avatar_id',
    );
    ok(await h.call('PATCH', '/api/user', { token: client.token, body: { avatar_id: null } }));
    expect(ok(await h.call<SessionUser>('GET', '/api/user', { token: client.token })).avatar_id).toBeNull();
  });

  it('changes the language', async () => {
    ok(await h.call('PATCH', '/api/user', { token: other.token, body: { language: 'de' } }));
    expect(ok(await h.call<SessionUser>('GET', '/api/user', { token: other.token })).language).toBe('de');
  });

  it('refuses unusable sessions', async () => {
    await expectSessionRequired(h, states, 'PATCH', '/api/user', { body: { first_name: 'X' } });
  });
});

describe('PATCH /user/:id (admin variant)', () => {
  it("sets another user's password, role and allowed IPs; the user's sessions end on a password change", async () => {
    const u = await makeAdmin(h, admin, 'managed');
    const roleId = await makeRole(h, admin, 'Managed role', { '/log/modification_log': 'r' });
    ok(
      await h.call('PATCH', `/api/user/${u.userId}`, {
        token: admin,
        body: { passwd: 'Reset#20260', role_id: roleId, allowed_ips: ['10.1.2.0/24'] },
      }),
    );
    fails(await h.call('GET', '/api/user', { token: u.token }), 130, 'token is disabled');
    const row = ok(await h.call<UserRow>('GET', `/api/user/${u.userId}/details`, { token: admin }));
    expect(row).toMatchObject({ role_id: roleId, role_name: 'Managed role', allowed_ips: ['10.1.2.0/24'] });
    fails(
      await h.call('POST', '/api/auth', { body: { email_or_name: u.name, password: 'Reset#20260' } }),
      190,
      /not allowed/,
    );
    const t = await h.call<{ token: string }>('POST', '/api/auth', {
      body: { email_or_name: u.name, password: 'Reset#20260' },
      headers: { 'x-forwarded-for': '10.1.2.3' },
    });
    expect(ok(t).token).toBeTruthy();
    const [audit] = await auditRows(h, 'user', u.userId);
    expect(audit).toMatchObject({
      action: 'update',
      user_name: 'admin',
      before: { passwd: '***', role_id: null, allowed_ips: [] },
      after: { passwd: '***', role_id: roleId, allowed_ips: ['10.1.2.0/24'] },
    });
  });

  it('lets a portal user change itself through its id, never its role, IPs or active flag', async () => {
    const me = ok(await h.call<SessionUser>('GET', '/api/user', { token: other.token }));
    ok(
      await h.call('PATCH', `/api/user/${me.user_id}`, { token: other.token, body: { last_name: 'Vendor' } }),
    );
    denied(
      await h.call('PATCH', `/api/user/${me.user_id}`, { token: other.token, body: { allowed_ips: [] } }),
    );
    denied(await h.call('PATCH', `/api/user/${me.user_id}`, { token: other.token, body: { role_id: 0 } }));
  });

  it("refuses to change another carrier's user or any user without the users write permission", async () => {
    const target = ok(await h.call<SessionUser>('GET', '/api/user', { token: other.token })).user_id;
    denied(
      await h.call('PATCH', `/api/user/${target}`, { token: client.token, body: { passwd: 'Hijack#2026' } }),
    );
    denied(
      await h.call('PATCH', '/api/user/1', { token: restricted.token, body: { passwd: 'Hijack#2026' } }),
    );
    await h.signIn(other.login, 'Client#2026');
  });

  it('protects the first admin and the caller itself', async () => {
    const roleId = await makeRole(h, admin, 'Would restrict', { '/log/import_log': 'r' });
    fails(
      await h.call('PATCH', '/api/user/1', { token: admin, body: { role_id: roleId } }),
      170,
      'The first administrator cannot be deleted, deactivated or restricted',
    );
    const u = await makeAdmin(h, admin, 'self_minded');
    fails(
      await h.call('PATCH', `/api/user/${u.userId}`, { token: u.token, body: { active: false } }),
      170,
      'You cannot delete or deactivate your own user',
    );
  });

  it('names malformed fields and answers 150 for an unknown user', async () => {
    const id = restricted.userId;
    invalid(
      await h.call('PATCH', `/api/user/${id}`, { token: admin, body: { allowed_ips: ['10.1.2.300'] } }),
      'allowed_ips.0',
      'IP format invalid',
    );
    invalid(
      await h.call('PATCH', `/api/user/${id}`, { token: admin, body: { allowed_ips: ['10.0.0.0/33'] } }),
      'allowed_ips.0',
    );
    invalid(await h.call('PATCH', `/api/user/${id}`, { token: admin, body: { role_id: 424242 } }), 'role_id');
    invalid(await h.call('PATCH', `/api/user/${id}`, { token: admin, body: { role_id: -1 } }), 'role_id');
    invalid(await h.call('PATCH', `/api/user/${id}`, { token: admin, body: { nickname: 'x' } }), '_');
    expect(ok(await h.call<UserRow>('GET', `/api/user/${id}/details`, { token: admin }))).toMatchObject({
      role_id: restricted.roleId,
      allowed_ips: [],
    });
    notVisible(await h.call('PATCH', '/api/user/99999', { token: admin, body: { first_name: 'Ghost' } }));
  });

  it('refuses unusable sessions', async () => {
    await expectSessionRequired(h, states, 'PATCH', '/api/user/2', { body: { first_name: 'X' } });
  });
});

describe('GET /user/list and /user/:id/details', () => {
  it('lists users with role and carrier names, filtered, paged and sorted', async () => {
    const all = ok(
      await h.call<Paged<UserRow>>('GET', '/api/user/list?page=0&per_page=100&order_by=name&order_dir=asc', {
        token: admin,
      }),
    );
    const names = all.items.map((u) => u.name);
    expect(all.total).toBe(all.items.length);
    expect(names).toEqual([...names].sort());
    expect(all.items.find((u) => u.name === 'acme_user')).toMatchObject({
      user_type: 'client',
      client_name: 'Acme',
      role_id: 0,
      active: true,
    });
    expect(all.items.find((u) => u.name === 'viewer')).toMatchObject({
      user_type: 'admin',
      role_id: restricted.roleId,
      role_name: 'viewer role',
      is_online: true,
    });

    const clients = ok(
      await h.call<Paged<UserRow>>('GET', '/api/user/list?user_type=client&per_page=100', { token: admin }),
    );
    expect(clients.items.map((u) => u.name).sort()).toEqual(['acme_user', 'globex_user']);
    const byRole = ok(
      await h.call<Paged<UserRow>>(`GET`, `/api/user/list?role_id=${restricted.roleId}`, { token: admin }),
    );
    expect(byRole.items.map((u) => u.name)).toEqual(['viewer']);
    const search = ok(await h.call<Paged<UserRow>>('GET', '/api/user/list?name=GLOBEX', { token: admin }));
    expect(search.items.map((u) => u.name)).toEqual(['globex_user']);
    const page = ok(
      await h.call<Paged<UserRow>>('GET', '/api/user/list?page=1&per_page=2&order_by=user_id', {
        token: admin,
      }),
    );
    expect(page.items.map((u) => u.user_id)).toEqual([3, 4]);
    expect(page.total).toBe(all.total);
    const desc = ok(
      await h.call<Paged<UserRow>>('GET', '/api/user/list?per_page=1&order_by=user_id&order_dir=desc', {
        token: admin,
      }),
    );
    expect(desc.items[0]!.user_id).toBe(Math.max(...all.items.map((u) => u.user_id)));
  });

  it('filters by active', async () => {
    const u = await makeAdmin(h, admin, 'listed_inactive');
    ok(await h.call('PATCH', `/api/user/${u.userId}/deactivate`, { token: admin }));
    const inactive = ok(
      await h.call<Paged<UserRow>>('GET', '/api/user/list?active=false&per_page=100', { token: admin }),
    );
    expect(inactive.items.map((x) => x.name)).toContain('listed_inactive');
    expect(inactive.items.every((x) => !x.active)).toBe(true);
  });

  it('answers one row for the edit page, 150 when unknown', async () => {
    const row = ok(await h.call<UserRow>('GET', '/api/user/1/details', { token: admin }));
    expect(row).toMatchObject({
      user_id: 1,
      name: 'admin',
      user_type: 'admin',
      role_id: 0,
      active: true,
      allowed_ips: [],
    });
    expect(row).not.toHaveProperty('password_hash');
    notVisible(await h.call('GET', '/api/user/99999/details', { token: admin }));
  });

  it('names malformed query fields', async () => {
    invalid(await h.call('GET', '/api/user/list?per_page=abc', { token: admin }), 'per_page');
    invalid(await h.call('GET', '/api/user/list?per_page=0', { token: admin }), 'per_page');
    invalid(
      await h.call('GET', '/api/user/list?order_dir=sideways', { token: admin }),
      'order_dir',
      'order_dir must be one of: asc, desc',
    );
    invalid(await h.call('GET', '/api/user/list?user_type=robot', { token: admin }), 'user_type');
    invalid(await h.call('GET', '/api/user/list?active=maybe', { token: admin }), 'active');
  });

  it('refuses portal users and admins without the users permission', async () => {
    denied(await h.call('GET', '/api/user/list', { token: client.token }));
    denied(await h.call('GET', '/api/user/list', { token: restricted.token }));
    denied(await h.call('GET', '/api/user/1/details', { token: client.token }));
    denied(await h.call('GET', '/api/user/1/details', { token: restricted.token }));
  });

  it('refuses unusable sessions', async () => {
    await expectSessionRequired(h, states, 'GET', '/api/user/list');
    await expectSessionRequired(h, states, 'GET', '/api/user/1/details');
  });
});

describe('POST /user/create (by an admin)', () => {
  it('creates a restricted admin with a landing page its role may read', async () => {
    const roleId = await makeRole(h, admin, 'Log reader', { '/log/modification_log': 'r' });
    const r = await h.call<{ object_id: number }>('POST', '/api/user/create', {
      token: admin,
      body: {
        name: 'log_reader',
        passwd: USER_PASSWD,
        email: 'lr@example.com',
        first_name: 'Lou',
        role_id: roleId,
        landing_page: '/log/modification_log',
      },
    });
    const id = ok(r).object_id;
    const row = ok(await h.call<UserRow>('GET', `/api/user/${id}/details`, { token: admin }));
    expect(row).toMatchObject({
      name: 'log_reader',
      first_name: 'Lou',
      user_type: 'admin',
      role_id: roleId,
      landing_page: '/log/modification_log',
      active: true,
    });
    const [audit] = await auditRows(h, 'user', id);
    expect(audit).toMatchObject({ action: 'create', user_name: 'admin' });
    expect(audit!.after).toMatchObject({ name: 'log_reader', password_hash: '***' });
    invalid(
      await h.call('POST', '/api/user/create', {
        token: admin,
        body: {
          name: 'log_reader2',
          passwd: USER_PASSWD,
          email: 'lr2@example.com',
          role_id: roleId,
          landing_page: '/configuration/users',
        },
      }),
      'landing_page',
      'The landing page must be one the role may read',
    );
  });

  it('creates a client user for an existing carrier only', async () => {
    const id = ok(
      await h.call<{ object_id: number }>('POST', '/api/user/create', {
        token: admin,
        body: {
          name: 'acme_second',
          passwd: USER_PASSWD,
          email: 'two@acme.example.com',
          user_type: 'client',
          client_id: client.clientId,
        },
      }),
    ).object_id;
    expect(ok(await h.call<UserRow>('GET', `/api/user/${id}/details`, { token: admin }))).toMatchObject({
      user_type: 'client',
      client_name: 'Acme',
    });
    invalid(
      await h.call('POST', '/api/user/create', {
        token: admin,
        body: { name: 'orphan', passwd: USER_PASSWD, email: 'o@example.com', user_type: 'client' },
      }),
      'client_id',
      'client_id is required',
    );
    invalid(
      await h.call('POST', '/api/user/create', {
        token: admin,
        body: {
          name: 'orphan',
          passwd: USER_PASSWD,
          email: 'o@example.com',
          user_type: 'client',
          client_id: 9999,
        },
      }),
      'client_id',
    );
    invalid(
      await h.call('POST', '/api/user/create', {
        token: admin,
        body: { name: 'orphan', passwd: USER_PASSWD, email: 'o@example.com', user_type: 'agent' },
      }),
      'agent_id',
    );
  });

  it('refuses a duplicate name (any case) with 160 naming the field', async () => {
    const r = await h.call('POST', '/api/user/create', {
      token: admin,
      body: { name: 'ACME_USER', passwd: USER_PASSWD, email: 'dup@example.com' },
    });
    const body = fails(r, 160, 'User [ACME_USER] already exists');
    expect(body.errors).toEqual({ name: 'User [ACME_USER] already exists' });
  });

  it('names malformed fields', async () => {
    const base = { name: 'new_one', passwd: USER_PASSWD, email: 'n@example.com' };
    invalid(
      await h.call('POST', '/api/user/create', { token: admin, body: { ...base, name: 'has space' } }),
      'name',
      'name is not valid',
    );
    invalid(
      await h.call('POST', '/api/user/create', { token: admin, body: { ...base, name: undefined } }),
      'name',
      'name is required',
    );
    invalid(
      await h.call('POST', '/api/user/create', { token: admin, body: { ...base, email: '' } }),
      'email',
    );
    invalid(
      await h.call('POST', '/api/user/create', { token: admin, body: { ...base, user_type: 'vendor' } }),
      'user_type',
    );
    invalid(
      await h.call('POST', '/api/user/create', { token: admin, body: { ...base, allowed_ips: ['nope'] } }),
      'allowed_ips.0',
      'IP format invalid',
    );
    invalid(
      await h.call('POST', '/api/user/create', { token: admin, body: { ...base, role_id: 555 } }),
      'role_id',
    );
    fails(
      await h.call('POST', '/api/user/create', { token: admin, raw: '[1,2' }),
      110,
      'The request body is not valid JSON',
    );
  });

  it('refuses portal users and admins without the users write permission', async () => {
    const body = { name: 'sneaky', passwd: USER_PASSWD, email: 's@example.com' };
    denied(await h.call('POST', '/api/user/create', { token: client.token, body }));
    denied(await h.call('POST', '/api/user/create', { token: restricted.token, body }));
  });

  it('refuses unusable sessions (a stale token is not an anonymous setup)', async () => {
    const body = { name: 'stale_maker', passwd: USER_PASSWD, email: 's@example.com' };
    fails(await h.call('POST', '/api/user/create', { token: 'q'.repeat(43), body }), 140);
    fails(
      await h.call('POST', '/api/user/create', { token: states.revoked, body }),
      130,
      'token is disabled',
    );
    fails(await h.call('POST', '/api/user/create', { token: states.expired, body }), 120);
  });
});

describe('activate, deactivate and delete', () => {
  it('deactivation ends the sessions and blocks sign-in; activation allows it again', async () => {
    const u = await makeAdmin(h, admin, 'toggled');
    expect(ok(await h.call('PATCH', `/api/user/${u.userId}/deactivate`, { token: admin }))).toBeNull();
    fails(await h.call('GET', '/api/user', { token: u.token }), 130, 'token is disabled');
    fails(
      await h.call('POST', '/api/auth', { body: { email_or_name: u.name, password: USER_PASSWD } }),
      190,
      'This user is inactive',
    );
    expect(ok(await h.call<UserRow>('GET', `/api/user/${u.userId}/details`, { token: admin })).active).toBe(
      false,
    );
    expect(ok(await h.call('PATCH', `/api/user/${u.userId}/activate`, { token: admin }))).toBeNull();
    await h.signIn(u.name, USER_PASSWD);
    const rows = await auditRows(h, 'user', u.userId);
    expect(rows.slice(0, 2).map((r) => [r.before, r.after])).toEqual([
      [{ active: false }, { active: true }],
      [{ active: true }, { active: false }],
    ]);
  });

  it('refuses to deactivate or delete oneself or the first admin', async () => {
    const u = await makeAdmin(h, admin, 'second_admin');
    fails(
      await h.call('PATCH', `/api/user/${u.userId}/deactivate`, { token: u.token }),
      170,
      'You cannot delete or deactivate your own user',
    );
    fails(
      await h.call('DELETE', `/api/user/${u.userId}`, { token: u.token }),
      170,
      'You cannot delete or deactivate your own user',
    );
    fails(
      await h.call('PATCH', '/api/user/1/deactivate', { token: u.token }),
      170,
      'The first administrator cannot be deleted, deactivated or restricted',
    );
    fails(
      await h.call('DELETE', '/api/user/1', { token: u.token }),
      170,
      'The first administrator cannot be deleted, deactivated or restricted',
    );
  });

  it('deletes a user: its sessions go, it cannot sign in, the log keeps it (password redacted)', async () => {
    const u = await makeAdmin(h, admin, 'doomed');
    expect(ok(await h.call('DELETE', `/api/user/${u.userId}`, { token: admin }))).toBeNull();
    fails(await h.call('GET', '/api/user', { token: u.token }), 130, 'Incorrect token provided');
    fails(await h.call('POST', '/api/auth', { body: { email_or_name: u.name, password: USER_PASSWD } }), 190);
    notVisible(await h.call('GET', `/api/user/${u.userId}/details`, { token: admin }));
    notVisible(await h.call('DELETE', `/api/user/${u.userId}`, { token: admin }));
    const [row] = await auditRows(h, 'user', u.userId);
    expect(row).toMatchObject({
      action: 'delete',
      after: null,
      before: { name: 'doomed', password_hash: '***' },
    });
  });

  it('refuses portal users and admins without the users write permission; 150 for unknown ids', async () => {
    for (const [m, p] of [
      ['PATCH', '/activate'],
      ['PATCH', '/deactivate'],
      ['DELETE', ''],
    ] as const) {
      denied(await h.call(m, `/api/user/2${p}`, { token: client.token }));
      denied(await h.call(m, `/api/user/2${p}`, { token: restricted.token }));
      notVisible(await h.call(m, `/api/user/99999${p}`, { token: admin }));
      invalid(await h.call(m, `/api/user/x${p}`, { token: admin }), 'id');
      await expectSessionRequired(h, states, m, `/api/user/2${p}`);
    }
  });
});
