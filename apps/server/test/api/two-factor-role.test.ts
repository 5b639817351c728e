import { ErrorCode } from '@tandem/contract';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetPasswordCommand } from '../../src/cli-commands';
import {
  auditRows,
  denied,
  fails,
  makeAdmin,
  ok,
  privileges,
  startHarness,
  type Res,
  USER_PASSWD,
  type Harness,
} from './harness';

/**
 * Two-factor sign-in required per role (issue 18 point 8): the role flag, the session restricted to
 * enrolment until the user has it on, and the CLI clearing it putting the user back there.
 */
let h: Harness;
let admin: string;

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
});
afterAll(() => h.close());

type RoleDetail = { role_id: number; role_name: string; require_2fa: boolean };
type RoleRow = { role_id: number; role_name: string; require_2fa: boolean };
type SessionUser = { user_id: number; role_id: number; totp_enabled: boolean; two_factor_required: boolean };

const REFUSAL = 'Your role requires two-factor sign-in. Set it up to continue.';
/** The role grants reading users and roles, so a refusal of those is the two-factor rule, not a permission. */
const GRANTS = privileges({ '/configuration/users': 'r', '/configuration/roles': 'r' });

async function role(name: string, require_2fa?: boolean): Promise<number> {
  return ok(
    await h.call<{ object_id: number }>('POST', '/api/config/role/create', {
      token: admin,
      body: {
        role_name: name,
        role_privilegies: GRANTS,
        ...(require_2fa === undefined ? {} : { require_2fa }),
      },
    }),
  ).object_id;
}
const getRole = (id: number, token = admin) => h.call<RoleDetail>('GET', `/api/config/role/${id}`, { token });
const me = (token: string) => h.call<SessionUser>('GET', '/api/user', { token });
/** A call the role grants, refused only by the two-factor rule. */
const listUsers = (token: string, lang?: string) =>
  h.call('GET', '/api/user/list', { token, ...(lang ? { headers: { 'x-lang': lang } } : {}) });
const signIn = (name: string, code?: string) =>
  h.call<{ token: string }>('POST', '/api/auth', {
    body: { email_or_name: name, password: USER_PASSWD, ...(code ? { code } : {}) },
  });

function refused(r: Res) {
  fails(r, ErrorCode.twoFactorEnrolment, REFUSAL);
  expect(r.status).toBe(403);
}

/** Sets up and confirms TOTP for the session's user; answers the secret. */
async function enrol(token: string): Promise<string> {
  const { secret } = ok(await h.call<{ secret: string }>('POST', '/api/auth/2fa/setup', { token }));
  ok(await h.call('POST', '/api/auth/2fa/enable', { token, body: { code: await generate({ secret }) } }));
  return secret;
}

describe('roles.require_2fa', () => {
  it('round trips through create, get, list and update (off unless chosen), and is audited', async () => {
    const plain = await role('Plain role');
    const strict = await role('Strict role', true);
    expect(ok(await getRole(plain)).require_2fa).toBe(false);
    expect(ok(await getRole(strict)).require_2fa).toBe(true);
    const list = ok(
      await h.call<{ items: RoleRow[] }>('GET', '/api/config/role/list?role_name=role&per_page=100', {
        token: admin,
      }),
    ).items;
    expect(list.find((r) => r.role_id === plain)?.require_2fa).toBe(false);
    expect(list.find((r) => r.role_id === strict)?.require_2fa).toBe(true);

    ok(
      await h.call('PATCH', `/api/config/role/${plain}`, {
        token: admin,
        body: { role_name: 'Plain role', require_2fa: true, role_privilegies: GRANTS },
      }),
    );
    expect(ok(await getRole(plain)).require_2fa).toBe(true);
    // PATCH replaces the role: a body without the flag turns it off, as it drops omitted privileges.
    ok(
      await h.call('PATCH', `/api/config/role/${plain}`, {
        token: admin,
        body: { role_name: 'Plain role', role_privilegies: GRANTS },
      }),
    );
    expect(ok(await getRole(plain)).require_2fa).toBe(false);
    const [last, before] = await auditRows(h, 'role', plain);
    expect(before?.after).toMatchObject({ require_2fa: true });
    expect(last?.before).toMatchObject({ require_2fa: true });
    expect(last?.after).toMatchObject({ require_2fa: false });
    // Not a boolean: refused naming the field.
    const bad = await h.call('PATCH', `/api/config/role/${plain}`, {
      token: admin,
      body: { role_name: 'Plain role', require_2fa: 'yes' },
    });
    fails(bad, ErrorCode.validation);
    expect(bad.body.errors).toHaveProperty('require_2fa');
  });
});

describe('a role that requires two-factor sign-in', () => {
  it('signs in with the password, but the session may only enrol until it is on', async () => {
    const roleId = await role('Finance 2FA', true);
    const other = await role('Other role');
    const u = await makeAdmin(h, admin, 'needs_totp', { role_id: roleId });
    expect(u.token).toBeTruthy();

    // Refused on a call the role grants, in the caller's language; nothing of the data leaks.
    refused(await listUsers(u.token));
    const de = await listUsers(u.token, 'de');
    expect(de.body.error?.message).toBe(
      'Ihre Rolle verlangt die Zwei-Faktor-Anmeldung. Richten Sie sie ein, um fortzufahren.',
    );
    refused(await h.call('GET', '/api/config/role/list', { token: u.token }));
    refused(await h.call('PATCH', '/api/user', { token: u.token, body: { first_name: 'Mallory' } }));
    refused(await h.call('POST', '/api/auth/check-password', { token: u.token, body: { password: 'x' } }));
    refused(await h.call('GET', `/api/user/${u.userId}`, { token: u.token }));

    // What the frame needs to render, and the enrolment itself, answer.
    const session = ok(await me(u.token));
    expect(session).toMatchObject({ role_id: roleId, totp_enabled: false, two_factor_required: true });
    ok(await h.call('GET', '/api/config/system', { token: u.token }));
    ok(
      await h.call('GET', '/api/config/sys_submenu/list?page=0&per_page=9999', {
        token: u.token,
      }),
    );
    expect(ok(await getRole(roleId, u.token)).role_name).toBe('Finance 2FA');
    // Its role reads roles, but not before enrolling: only the own role.
    denied(await getRole(other, u.token));
    // A public endpoint serves the session as it serves anyone without one: creating a user, which
    // the role could not do anyway, answers as to an anonymous caller.
    fails(
      await h.call('POST', '/api/user/create', {
        token: u.token,
        body: { name: 'sneaky', passwd: USER_PASSWD, email: 'sneaky@example.com', user_type: 'admin' },
      }),
      ErrorCode.forbidden,
      'The first administrator already exists',
    );
    ok(await h.call('GET', '/api/config/login/public', { token: u.token }));

    // Enrolment lifts the restriction for this very session.
    await enrol(u.token);
    ok(await listUsers(u.token));
    expect(ok(await getRole(other, u.token)).role_name).toBe('Other role');
    expect(ok(await me(u.token))).toMatchObject({ totp_enabled: true, two_factor_required: true });
    // The role keeps it on: turning it off is refused (and the password is not even checked).
    fails(
      await h.call('POST', '/api/auth/2fa/disable', { token: u.token, body: { password: USER_PASSWD } }),
      ErrorCode.rule,
      'Your role requires two-factor sign-in: it cannot be turned off',
    );
    // From now on signing in asks for the code.
    fails(await signIn(u.name), ErrorCode.twoFactor);
  });

  it('signing out works while enrolment is pending', async () => {
    const roleId = await role('Logout 2FA', true);
    const u = await makeAdmin(h, admin, 'leaves_early', { role_id: roleId });
    ok(await h.call('POST', '/api/auth/logout', { token: u.token }));
    fails(await me(u.token), ErrorCode.logout);
  });

  it('takes effect at once for a live session when the operator turns the flag on, and lifts when off', async () => {
    const roleId = await role('Switched later');
    const u = await makeAdmin(h, admin, 'switched_user', { role_id: roleId });
    ok(await listUsers(u.token));
    const patch = (require_2fa: boolean) =>
      h.call('PATCH', `/api/config/role/${roleId}`, {
        token: admin,
        body: { role_name: 'Switched later', require_2fa, role_privilegies: GRANTS },
      });
    ok(await patch(true));
    refused(await listUsers(u.token));
    ok(await patch(false));
    ok(await listUsers(u.token));
  });

  it('leaves users of a role without the flag, and admins without a role, alone', async () => {
    const roleId = await role('No 2FA needed', false);
    const u = await makeAdmin(h, admin, 'free_user', { role_id: roleId });
    ok(await listUsers(u.token));
    expect(ok(await me(u.token))).toMatchObject({ two_factor_required: false, totp_enabled: false });
    const unrestricted = await makeAdmin(h, admin, 'no_role_user');
    ok(await listUsers(unrestricted.token));
    // Turning it off stays possible where no role requires it.
    await enrol(u.token);
    ok(await h.call('POST', '/api/auth/2fa/disable', { token: u.token, body: { password: USER_PASSWD } }));
  });

  it("the CLI's reset-password --clear-2fa puts the user back into enrolment", async () => {
    const roleId = await role('Lost phone role', true);
    const u = await makeAdmin(h, admin, 'lost_phone', { role_id: roleId });
    const secret = await enrol(u.token);
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    const second = ok(await signIn(u.name, code)).token;
    ok(await listUsers(second));

    const lines: string[] = [];
    await resetPasswordCommand(
      h.built.services,
      { name: u.name, password: USER_PASSWD, clear2fa: true },
      (l) => lines.push(l),
    );
    expect(lines.join('\n')).toContain("two-factor sign-in turned off (the user's role requires it");
    // Sessions were revoked; the password alone signs in again, into the enrolment restriction.
    fails(await listUsers(second), ErrorCode.logout);
    const token = ok(await signIn(u.name)).token;
    refused(await listUsers(token));
    expect(ok(await me(token))).toMatchObject({ totp_enabled: false, two_factor_required: true });
    await enrol(token);
    ok(await listUsers(token));
  });
});
