import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  expectSessionRequired,
  expireToken,
  fails,
  denied,
  invalid,
  makeAdmin,
  makeRestrictedAdmin,
  makeSessionStates,
  ok,
  startHarness,
  startSmtp,
  USER_PASSWD,
  userIdOf,
  type Harness,
  type SessionStates,
} from './harness';

type Token = { token: string; cdr_api_token: string; cdr_api_token_expiration: string; expires_at: string };
type History = {
  items: { name: string; ip: string; result: string; reason: string; user_id: number | null }[];
  total: number;
};

let h: Harness;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let admin: string;
let states: SessionStates;

beforeAll(async () => {
  smtp = await startSmtp();
  h = await startHarness({
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp.port),
    SMTP_FROM: 'noc@tandem.test',
  });
  admin = await h.setupAdmin();
  states = await makeSessionStates(h);
});
afterAll(async () => {
  await h.close();
  await smtp.close();
});

const signIn = (email_or_name: string, password: string, ip = '127.0.0.1') =>
  h.call<Token>('POST', '/api/auth', {
    body: { email_or_name, password },
    headers: { 'x-forwarded-for': ip },
  });
const history = async (name: string) =>
  ok(
    await h.call<History>(
      'GET',
      `/api/log/user_signin_history?name=${encodeURIComponent(name)}&per_page=100`,
      { token: admin },
    ),
  );

describe('POST /auth (sign-in)', () => {
  it('answers a token, a CDR API token and the expiry of the access window', async () => {
    const before = Date.now();
    const p = ok(await signIn(ADMIN.name, ADMIN.passwd));
    expect(p.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(p.cdr_api_token).toMatch(/^cdr_/);
    expect(p.cdr_api_token).not.toBe(p.token);
    const expires = Date.parse(p.expires_at);
    expect(expires - before).toBeGreaterThan(11 * 3600_000);
    expect(expires - before).toBeLessThanOrEqual(12 * 3600_000 + 5000);
    expect(Date.parse(p.cdr_api_token_expiration)).toBeGreaterThan(before);
    const me = ok(
      await h.call<{ name: string; cdr_api_token: string }>('GET', '/api/user', { token: p.token }),
    );
    expect(me.name).toBe(ADMIN.name);
    expect(me.cdr_api_token).toBe(p.cdr_api_token);
  });

  it('accepts the e-mail address or the name in any case', async () => {
    ok(await signIn(ADMIN.email, ADMIN.passwd));
    ok(await signIn('ADMIN', ADMIN.passwd));
  });

  it('accepts the token in an Authorization: Token header too', async () => {
    const t = ok(await signIn(ADMIN.name, ADMIN.passwd)).token;
    const me = await h.call<{ name: string }>('GET', '/api/user', {
      headers: { authorization: `Token ${t}` },
    });
    expect(ok(me).name).toBe(ADMIN.name);
  });

  it('refuses a wrong password or an unknown user with 190 and logs both as failed', async () => {
    fails(await signIn(ADMIN.name, 'wrong-pass', '10.0.0.11'), 190, 'User name or password is incorrect');
    const r = await signIn('nobody_here', 'whatever1', '10.0.0.11');
    fails(r, 190, 'User name or password is incorrect');
    expect(r.status).toBe(401);
    const rows = (await history('nobody_here')).items;
    expect(rows[0]).toMatchObject({
      name: 'nobody_here',
      ip: '10.0.0.11',
      result: 'failed',
      reason: 'unknown user',
      user_id: null,
    });
    const adminRows = (await history(ADMIN.name)).items.filter((x) => x.ip === '10.0.0.11');
    expect(adminRows[0]).toMatchObject({ result: 'failed', reason: 'wrong password', user_id: 1 });
  });

  it('logs a success with the user and the caller IP', async () => {
    ok(await signIn(ADMIN.name, ADMIN.passwd, '10.0.0.12'));
    const row = (await history(ADMIN.name)).items.find((x) => x.ip === '10.0.0.12');
    expect(row).toMatchObject({ result: 'success', reason: '', user_id: 1 });
  });

  it('answers the sign-in failure in the caller language', async () => {
    const r = await h.call('POST', '/api/auth', {
      body: { email_or_name: 'nobody_de', password: 'x' },
      headers: { 'accept-language': 'de-DE,de;q=0.9', 'x-forwarded-for': '10.0.0.13' },
    });
    fails(r, 190, 'Benutzername oder Passwort ist falsch');
  });

  it('validates the body: missing fields named, malformed JSON a clear 110', async () => {
    invalid(
      await h.call('POST', '/api/auth', { body: { password: 'x' } }),
      'email_or_name',
      'email_or_name is required',
    );
    invalid(
      await h.call('POST', '/api/auth', { body: { email_or_name: 'admin' } }),
      'password',
      'password is required',
    );
    invalid(
      await h.call('POST', '/api/auth', { body: { email_or_name: '   ', password: 'x' } }),
      'email_or_name',
    );
    invalid(
      await h.call('POST', '/api/auth', { body: { email_or_name: 'admin', password: 12345678 } }),
      'password',
      'password is not valid',
    );
    const bad = await h.call('POST', '/api/auth', { raw: '{"email_or_name": "admin", ' });
    fails(bad, 110, 'The request body is not valid JSON');
    expect(JSON.stringify(bad.body)).not.toMatch(/at .*\.(ts|js):\d+/);
  });

  it('backs an account off after 5 failures (180, logged as forbidden, not counted), even with the right password', async () => {
    const u = await makeAdmin(h, admin, 'throttled_admin');
    for (let i = 0; i < 5; i++) fails(await signIn(u.name, `wrong-${i}-pass`, `10.0.1.${i + 1}`), 190);
    const r = await signIn(u.name, USER_PASSWD, '10.0.1.99');
    fails(r, 180, /Too many attempts\. Try again in (29|30) seconds\./);
    expect(r.status).toBe(429);
    // Attempts refused while waiting are not counted and do not extend the wait.
    for (let i = 0; i < 5; i++) fails(await signIn(u.name, 'still-wrong', '10.0.1.98'), 180);
    const rows = (await history(u.name)).items;
    expect(rows.filter((x) => x.result === 'failed')).toHaveLength(5);
    expect(rows[0]).toMatchObject({ result: 'forbidden', reason: 'throttled', ip: '10.0.1.98' });
    // Another user from the same place is not affected.
    ok(await signIn(ADMIN.name, ADMIN.passwd, '10.0.1.99'));
    // Once the wait is over (the last failure moved back 31 s), the right password signs in.
    await h.built.services.db
      .updateTable('signin_history')
      .set({ created_at: new Date(Date.now() - 31_000) })
      .where('user_id', '=', u.userId)
      .execute();
    ok(await signIn(u.name, USER_PASSWD, '10.0.1.99'));
  });

  it('counts failures per account whether it was named by user name or e-mail', async () => {
    const u = await makeAdmin(h, admin, 'two_names');
    for (let i = 0; i < 3; i++) fails(await signIn(u.name, `wrong-${i}-pass`, `10.0.5.${i + 1}`), 190);
    for (let i = 0; i < 2; i++)
      fails(await signIn('TWO_NAMES@example.com', `bad-${i}-pass`, `10.0.5.${i + 10}`), 190);
    fails(await signIn('two_names@example.com', USER_PASSWD, '10.0.5.99'), 180);
    fails(await signIn(u.name, USER_PASSWD, '10.0.5.99'), 180);
  });

  it('slows an IP after 20 failures whatever the names, without locking the other accounts behind it', async () => {
    for (let i = 0; i < 20; i++) fails(await signIn(`ghost_${i}`, 'nope-nope', '10.0.2.1'), 190);
    // Right after a failure the IP waits a few seconds (not counted) ...
    fails(await signIn(ADMIN.name, ADMIN.passwd, '10.0.2.1'), 180, /Try again in [1-3] seconds/);
    ok(await signIn(ADMIN.name, ADMIN.passwd, '10.0.2.2'));
    // ... then a colleague behind the same NAT signs in with the right password.
    await h.built.services.db
      .updateTable('signin_history')
      .set({ created_at: new Date(Date.now() - 4000) })
      .where('ip', '=', '10.0.2.1')
      .where('created_at', '>', new Date(Date.now() - 60_000))
      .execute();
    ok(await signIn(ADMIN.name, ADMIN.passwd, '10.0.2.1'));
  });

  it('counts wrong passwords of the live check toward the account backoff', async () => {
    const u = await makeAdmin(h, admin, 'live_checker');
    for (let i = 0; i < 5; i++)
      expect(
        ok(
          await h.call<{ valid: boolean }>('POST', '/api/auth/check-password', {
            token: u.token,
            body: { password: `guess-${i}` },
            headers: { 'x-forwarded-for': '10.0.6.1' },
          }),
        ),
      ).toEqual({ valid: false });
    const r = await h.call('POST', '/api/auth/check-password', {
      token: u.token,
      body: { password: USER_PASSWD },
      headers: { 'x-forwarded-for': '10.0.6.1' },
    });
    fails(r, 180);
    fails(await signIn(u.name, USER_PASSWD, '10.0.6.2'), 180);
  });

  it('allows a user with allowed IPs to sign in only from them (others logged as forbidden)', async () => {
    const u = await makeAdmin(h, admin, 'ip_bound', { allowed_ips: ['10.1.2.0/24', '192.168.7.7'] });
    const t = ok(await signIn(u.name, USER_PASSWD, '10.1.2.3')).token;
    ok(await signIn(u.name, USER_PASSWD, '192.168.7.7'));
    const r = await signIn(u.name, USER_PASSWD, '10.1.3.3');
    fails(r, 190, 'Sign-in from IP 10.1.3.3 is not allowed for this user');
    expect(r.status).toBe(403);
    const rows = (await history(u.name)).items;
    expect(rows[0]).toMatchObject({ result: 'forbidden', ip: '10.1.3.3', reason: 'ip 10.1.3.3 not allowed' });
    expect(
      rows
        .filter((x) => x.result === 'success')
        .map((x) => x.ip)
        .sort(),
    ).toEqual(['10.1.2.3', '192.168.7.7']);
    // The token cannot be renewed from another address either.
    fails(
      await h.call('POST', '/api/auth/check-token', { token: t, headers: { 'x-forwarded-for': '10.9.9.9' } }),
      130,
      'token is disabled',
    );
    ok(
      await h.call('POST', '/api/auth/check-token', { token: t, headers: { 'x-forwarded-for': '10.1.2.3' } }),
    );
  });

  it('refuses an inactive user (190, forbidden in the history)', async () => {
    const u = await makeAdmin(h, admin, 'sleepy_admin');
    ok(await h.call('PATCH', `/api/user/${u.userId}/deactivate`, { token: admin }));
    fails(await signIn(u.name, USER_PASSWD, '10.0.3.1'), 190, 'This user is inactive');
    expect((await history(u.name)).items[0]).toMatchObject({ result: 'forbidden', reason: 'user inactive' });
  });

  it('refuses the user of a carrier whose self sign-up is still pending', async () => {
    ok(
      await h.call('PATCH', '/api/config/system', {
        token: admin,
        body: { user_registration_enabled: true },
      }),
    );
    ok(
      await h.call('POST', '/api/carrier/basic/create', {
        body: {
          name: 'Pending Co',
          company: 'Pending Co Ltd',
          email: 'p@pending.example.com',
          login_name: 'pending_user',
          passwd: USER_PASSWD,
        },
      }),
    );
    fails(await signIn('pending_user', USER_PASSWD, '10.0.3.2'), 190, 'This user is inactive');
  });
});

describe('POST /auth/check-token', () => {
  it('extends a live token and answers it with its CDR API token', async () => {
    const p = ok(await signIn(ADMIN.name, ADMIN.passwd));
    const r = ok(await h.call<Token>('POST', '/api/auth/check-token', { token: p.token }));
    expect(r.token).toBe(p.token);
    expect(r.cdr_api_token).toBe(p.cdr_api_token);
    expect(Date.parse(r.expires_at)).toBeGreaterThanOrEqual(Date.parse(p.expires_at));
  });

  it('renews a token past its access window: a new token works, the old one is disabled', async () => {
    const old = ok(await signIn(ADMIN.name, ADMIN.passwd)).token;
    await expireToken(h, old);
    const stale = await h.call('GET', '/api/user', { token: old });
    fails(stale, 120, 'Your session has expired');
    expect(stale.status).toBe(401);
    const r = ok(await h.call<Token>('POST', '/api/auth/check-token', { token: old }));
    expect(r.token).not.toBe(old);
    expect(r.cdr_api_token).toMatch(/^cdr_/);
    expect(Date.parse(r.expires_at)).toBeGreaterThan(Date.now() + 11 * 3600_000);
    expect(ok(await h.call<{ name: string }>('GET', '/api/user', { token: r.token })).name).toBe(ADMIN.name);
    fails(await h.call('GET', '/api/user', { token: old }), 130, 'token is disabled');
    fails(await h.call('POST', '/api/auth/check-token', { token: old }), 130, 'token is disabled');
  });

  it('refuses a token past its refresh window (130: log out)', async () => {
    const t = ok(await signIn(ADMIN.name, ADMIN.passwd)).token;
    await expireToken(h, t, { beyondRefresh: true });
    fails(await h.call('POST', '/api/auth/check-token', { token: t }), 130, 'Your session has expired');
    fails(await h.call('GET', '/api/user', { token: t }), 130);
  });

  it('refuses no token, an unknown token and a revoked token', async () => {
    fails(await h.call('POST', '/api/auth/check-token'), 130);
    fails(
      await h.call('POST', '/api/auth/check-token', { token: 'y'.repeat(43) }),
      130,
      'Incorrect token provided',
    );
    fails(await h.call('POST', '/api/auth/check-token', { token: states.revoked }), 130, 'token is disabled');
  });

  it('refuses the token of a user deactivated meanwhile', async () => {
    const u = await makeAdmin(h, admin, 'soon_gone');
    ok(await h.call('PATCH', `/api/user/${u.userId}/deactivate`, { token: admin }));
    fails(await h.call('POST', '/api/auth/check-token', { token: u.token }), 130, 'token is disabled');
  });
});

describe('POST /auth/check-password', () => {
  it('says whether the password is the signed-in user current one', async () => {
    const u = await makeAdmin(h, admin, 'pw_checker');
    expect(
      ok(
        await h.call('POST', '/api/auth/check-password', { token: u.token, body: { password: USER_PASSWD } }),
      ),
    ).toEqual({ valid: true });
    expect(
      ok(
        await h.call('POST', '/api/auth/check-password', {
          token: u.token,
          body: { password: ADMIN.passwd },
        }),
      ),
    ).toEqual({ valid: false });
    // Someone else's password is not this user's.
    expect(
      ok(await h.call('POST', '/api/auth/check-password', { token: admin, body: { password: USER_PASSWD } })),
    ).toEqual({ valid: false });
  });

  it('refuses unusable sessions and names a malformed field', async () => {
    await expectSessionRequired(h, states, 'POST', '/api/auth/check-password', { body: { password: 'x' } });
    invalid(
      await h.call('POST', '/api/auth/check-password', { token: admin, body: {} }),
      'password',
      'password is required',
    );
    invalid(
      await h.call('POST', '/api/auth/check-password', { token: admin, body: { password: 42 } }),
      'password',
      'password is not valid',
    );
    fails(await h.call('POST', '/api/auth/check-password', { token: admin, raw: 'password=x' }), 110);
  });
});

describe('POST /auth/logout', () => {
  it('revokes only the current token', async () => {
    const a = await h.signIn(ADMIN.name, ADMIN.passwd);
    const b = await h.signIn(ADMIN.name, ADMIN.passwd);
    expect(ok(await h.call('POST', '/api/auth/logout', { token: a }))).toBeNull();
    fails(await h.call('GET', '/api/user', { token: a }), 130, 'token is disabled');
    fails(await h.call('POST', '/api/auth/logout', { token: a }), 130, 'token is disabled');
    ok(await h.call('GET', '/api/user', { token: b }));
    const row = await h.built.services.db
      .selectFrom('sessions')
      .select(['revoked_reason'])
      .where('revoked_at', 'is not', null)
      .orderBy('revoked_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(row.revoked_reason).toBe('signed out');
  });

  it('refuses unusable sessions', async () => {
    await expectSessionRequired(h, states, 'POST', '/api/auth/logout');
  });
});

describe('password reset by e-mail', () => {
  const mailFor = async (to: string, count: number) => {
    for (let i = 0; i < 100 && smtp.mails.filter((m) => m.to.includes(to)).length < count; i++)
      await new Promise((r) => setTimeout(r, 20));
    const mails = smtp.mails.filter((m) => m.to.includes(to));
    expect(mails).toHaveLength(count);
    return mails[count - 1]!;
  };
  const linkToken = (text: string, origin: string) => {
    const m = new RegExp(`${origin.replace(/[.:/]/g, '\\$&')}/#/auth/reset/([A-Za-z0-9_-]+)`).exec(text);
    expect(m, text).not.toBeNull();
    return m![1]!;
  };

  it('mails a link; the link sets a new password once; old sessions and password stop working', async () => {
    const u = await makeAdmin(h, admin, 'forgetful');
    ok(await h.call('PATCH', `/api/user/${u.userId}`, { token: admin, body: { first_name: 'Fiona' } }));
    ok(
      await h.call('PATCH', '/api/config/system', {
        token: admin,
        body: { base_url: 'https://portal.carrier.test' },
      }),
    );
    // A caller's base_url (link poisoning, issue 18) never reaches the mail.
    const r = await h.call('POST', '/api/auth/reset-password', {
      body: { email_or_name: 'forgetful@example.com', base_url: 'https://evil.example.org/steal' },
    });
    expect(ok(r)).toEqual({ sent: true });
    const mail = await mailFor('forgetful@example.com', 1);
    expect(mail.from).toBe('noc@tandem.test');
    expect(mail.subject).toBe('Reset your Tandem password');
    expect(mail.text).toContain('Hello Fiona');
    expect(mail.text).toContain('"forgetful"');
    expect(mail.text).not.toContain('evil.example.org');
    const token = linkToken(mail.text, 'https://portal.carrier.test');

    const done = await h.call('POST', `/api/auth/reset/${token}`, { body: { password: 'NewPass#2026' } });
    expect(ok(done)).toEqual({ name: 'forgetful' });
    fails(await h.call('GET', '/api/user', { token: u.token }), 130, 'token is disabled');
    fails(await signIn('forgetful', USER_PASSWD, '10.0.4.1'), 190);
    ok(await signIn('forgetful', 'NewPass#2026', '10.0.4.1'));

    const again = await h.call('POST', `/api/auth/reset/${token}`, { body: { password: 'Other#20266' } });
    fails(again, 170, 'This password reset link is invalid or has expired');
    ok(await signIn('forgetful', 'NewPass#2026', '10.0.4.1'));

    const log = await h.built.services.db
      .selectFrom('retrieve_password_log')
      .select(['status', 'name'])
      .where('user_id', '=', u.userId)
      .orderBy('id')
      .execute();
    expect(log.map((x) => x.status)).toEqual(['email_sent', 'modified_successfully']);
    const audit = await h.built.services.db
      .selectFrom('modification_log')
      .selectAll()
      .where('entity', '=', 'user')
      .where('entity_id', '=', String(u.userId))
      .where('action', '=', 'password reset')
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit[0])).not.toContain('NewPass');
  });

  it('Log > Retrieve Password Log lists the mails and the resets made, newest first, with filters', async () => {
    type Row = { name: string; email: string; status: string; ip: string; user_id: number | null };
    const log = (query = '', token = admin) =>
      h.call<{ items: Row[]; total: number }>('GET', `/api/log/retrieve_password_log${query}`, { token });
    const mine = ok(await log('?name=forgetful'));
    expect(mine.items.map((r) => [r.name, r.email, r.status])).toEqual([
      ['forgetful', 'forgetful@example.com', 'modified_successfully'],
      ['forgetful', 'forgetful@example.com', 'email_sent'],
    ]);
    expect(mine.items[0]!.ip).not.toBe('');
    // by e-mail, by status, by time
    expect(ok(await log('?name=FORGETFUL@EXAMPLE')).total).toBe(2);
    expect(ok(await log('?name=forgetful&status=email_sent')).items.map((r) => r.status)).toEqual([
      'email_sent',
    ]);
    expect(ok(await log('?created_from=2100-01-01')).total).toBe(0);
    expect((await log('?status=lost')).body.errors).toHaveProperty('status');
    const stranger = await makeRestrictedAdmin(h, admin, 'reset_log_stranger');
    denied(await log('', stranger.token));
    const reader = await makeRestrictedAdmin(h, admin, 'reset_log_reader', {
      '/log/retrieve_password_log': 'r',
    });
    expect(ok(await log('?name=forgetful', reader.token)).total).toBe(2);
  });

  it('uses the configured base URL by default and finds the user by name', async () => {
    await makeAdmin(h, admin, 'by_name');
    ok(
      await h.call('PATCH', '/api/config/system', {
        token: admin,
        body: { base_url: 'https://noc.example.net' },
      }),
    );
    ok(await h.call('POST', '/api/auth/reset-password', { body: { email_or_name: 'BY_NAME' } }));
    const mail = await mailFor('by_name@example.com', 1);
    linkToken(mail.text, 'https://noc.example.net');
  });

  it('falls back to PUBLIC_URL without a configured base URL, whatever the caller sends', async () => {
    ok(await h.call('PATCH', '/api/config/system', { token: admin, body: { base_url: '' } }));
    await makeAdmin(h, admin, 'public_url_user');
    ok(
      await h.call('POST', '/api/auth/reset-password', {
        body: { email_or_name: 'public_url_user', base_url: 'https://attacker.test' },
      }),
    );
    const mail = await mailFor('public_url_user@example.com', 1);
    expect(mail.text).not.toContain('attacker.test');
    linkToken(mail.text, h.built.services.config.publicUrl);
    ok(
      await h.call('PATCH', '/api/config/system', {
        token: admin,
        body: { base_url: 'https://noc.example.net' },
      }),
    );
  });

  it('ignores a caller base URL that is not http(s)', async () => {
    await makeAdmin(h, admin, 'js_link');
    ok(
      await h.call('POST', '/api/auth/reset-password', {
        body: { email_or_name: 'js_link', base_url: 'javascript:alert(1)' },
      }),
    );
    const mail = await mailFor('js_link@example.com', 1);
    expect(mail.text).not.toContain('javascript:');
    linkToken(mail.text, 'https://noc.example.net');
  });

  it('answers the same for an unknown user or an inactive one and sends nothing', async () => {
    const before = smtp.mails.length;
    expect(
      ok(
        await h.call('POST', '/api/auth/reset-password', { body: { email_or_name: 'no.such@example.com' } }),
      ),
    ).toEqual({ sent: true });
    const u = await makeAdmin(h, admin, 'inactive_forgetter');
    ok(await h.call('PATCH', `/api/user/${u.userId}/deactivate`, { token: admin }));
    expect(ok(await h.call('POST', '/api/auth/reset-password', { body: { email_or_name: u.name } }))).toEqual(
      { sent: true },
    );
    await new Promise((r) => setTimeout(r, 100));
    expect(smtp.mails.length).toBe(before);
  });

  it('refuses an expired link, an unknown one and a short password', async () => {
    const u = await makeAdmin(h, admin, 'late_reader');
    ok(await h.call('POST', '/api/auth/reset-password', { body: { email_or_name: u.name } }));
    const token = linkToken((await mailFor('late_reader@example.com', 1)).text, 'https://noc.example.net');
    invalid(
      await h.call('POST', `/api/auth/reset/${token}`, { body: { password: 'short' } }),
      'password',
      'Password must be 8 to 15 characters',
    );
    invalid(
      await h.call('POST', `/api/auth/reset/${token}`, { body: {} }),
      'password',
      'password is required',
    );
    invalid(await h.call('POST', '/api/auth/reset/abc', { body: { password: 'Valid#2026' } }), 'token');
    fails(
      await h.call('POST', `/api/auth/reset/${'z'.repeat(43)}`, { body: { password: 'Valid#2026' } }),
      170,
    );
    await h.built.services.db
      .updateTable('password_resets')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', u.userId)
      .execute();
    fails(
      await h.call('POST', `/api/auth/reset/${token}`, { body: { password: 'Valid#2026' } }),
      170,
      'This password reset link is invalid or has expired',
    );
    ok(await signIn(u.name, USER_PASSWD, '10.0.4.2'));
  });

  it('validates the request', async () => {
    invalid(
      await h.call('POST', '/api/auth/reset-password', { body: {} }),
      'email_or_name',
      'email_or_name is required',
    );
    fails(
      await h.call('POST', '/api/auth/reset-password', { raw: '{oops' }),
      110,
      'The request body is not valid JSON',
    );
  });

  it('logs every mail in the e-mail log', async () => {
    const id = await userIdOf(h, 'forgetful');
    expect(id).toBeGreaterThan(1);
    const rows = await h.built.services.db
      .selectFrom('email_log')
      .selectAll()
      .where('to_address', '=', 'forgetful@example.com')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: 'password_reset',
      status: 'sent',
      subject: 'Reset your Tandem password',
    });
  });
});
