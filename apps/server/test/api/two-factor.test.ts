import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetPasswordCommand } from '../../src/cli-commands';
import { fails, invalid, makeAdmin, ok, startHarness, USER_PASSWD, type Harness } from './harness';

/** Two-factor sign-in (issue 18 point 8): TOTP by otplib, recovery codes, the CLI clearing it. */
let h: Harness;
let admin: string;

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
});
afterAll(() => h.close());

const signIn = (name: string, code?: string) =>
  h.call<{ token: string }>('POST', '/api/auth', {
    body: { email_or_name: name, password: USER_PASSWD, ...(code !== undefined ? { code } : {}) },
    headers: { 'x-forwarded-for': '10.77.0.1' },
  });
/** A code of the next time step (the current one may already be used up by enrolment). */
const nextCode = (secret: string, steps = 1) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * steps });

describe('two-factor sign-in', () => {
  it('enrols with a confirmed code, then asks for a code at sign-in; a code works once', async () => {
    const u = await makeAdmin(h, admin, 'totp_user');
    const setup = ok(
      await h.call<{ secret: string; otpauth_url: string }>('POST', '/api/auth/2fa/setup', {
        token: u.token,
      }),
    );
    expect(setup.otpauth_url).toMatch(/^otpauth:\/\/totp\/Tandem:.*secret=/);
    // Not on until confirmed: sign-in needs no code yet.
    ok(await signIn(u.name));
    invalid(
      await h.call('POST', '/api/auth/2fa/enable', { token: u.token, body: { code: '000000' } }),
      'code',
      'The code is not valid',
    );
    const { recovery_codes } = ok(
      await h.call<{ recovery_codes: string[] }>('POST', '/api/auth/2fa/enable', {
        token: u.token,
        body: { code: await generate({ secret: setup.secret }) },
      }),
    );
    expect(recovery_codes).toHaveLength(10);
    expect(new Set(recovery_codes).size).toBe(10);
    // The profile tells it is on (the web's Two-factor sign-in card).
    const me = ok(await h.call<{ user_id: number }>('GET', '/api/user', { token: u.token }));
    expect(
      ok(await h.call<{ totp_enabled: boolean }>('GET', `/api/user/${me.user_id}`, { token: u.token }))
        .totp_enabled,
    ).toBe(true);

    const none = await signIn(u.name);
    fails(none, 200, 'Enter the code of your authenticator app (or a recovery code)');
    expect(none.status).toBe(401);
    fails(await signIn(u.name, '123456'), 190, 'The code is not valid');
    const code = await nextCode(setup.secret);
    ok(await signIn(u.name, code));
    // The same code again (replay) is refused.
    fails(await signIn(u.name, code), 190);
    // A recovery code works once.
    ok(await signIn(u.name, recovery_codes[0]));
    fails(await signIn(u.name, recovery_codes[0]), 190);
    // Wrong codes count as failed guesses of the account.
    const history = await h.built.services.db
      .selectFrom('signin_history')
      .select('reason')
      .where('name', '=', u.name)
      .where('result', '=', 'failed')
      .execute();
    expect(history.filter((r) => r.reason === 'wrong code').length).toBeGreaterThanOrEqual(3);
  });

  it('turns off with the current password', async () => {
    const u = await makeAdmin(h, admin, 'totp_off');
    const { secret } = ok(
      await h.call<{ secret: string }>('POST', '/api/auth/2fa/setup', { token: u.token }),
    );
    ok(
      await h.call('POST', '/api/auth/2fa/enable', {
        token: u.token,
        body: { code: await generate({ secret }) },
      }),
    );
    fails(await h.call('POST', '/api/auth/2fa/setup', { token: u.token }), 170);
    invalid(
      await h.call('POST', '/api/auth/2fa/disable', { token: u.token, body: { password: 'wrong-one' } }),
      'password',
    );
    ok(await h.call('POST', '/api/auth/2fa/disable', { token: u.token, body: { password: USER_PASSWD } }));
    ok(await signIn(u.name));
  });

  it("the CLI's reset-password --clear-2fa turns it off for a user who lost the authenticator", async () => {
    const u = await makeAdmin(h, admin, 'totp_lost');
    const { secret } = ok(
      await h.call<{ secret: string }>('POST', '/api/auth/2fa/setup', { token: u.token }),
    );
    ok(
      await h.call('POST', '/api/auth/2fa/enable', {
        token: u.token,
        body: { code: await generate({ secret }) },
      }),
    );
    fails(await signIn(u.name), 200);
    const lines: string[] = [];
    await resetPasswordCommand(
      h.built.services,
      { name: u.name, password: USER_PASSWD, clear2fa: true },
      (l) => lines.push(l),
    );
    expect(lines.join('\n')).toContain('two-factor sign-in turned off');
    ok(await signIn(u.name));
  });
});
