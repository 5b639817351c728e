import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fails,
  invalid,
  makeCarrierUser,
  makeRestrictedAdmin,
  makeSessionStates,
  ok,
  startHarness,
  type Envelope,
  type Harness,
  type SessionStates,
} from './harness';

let h: Harness;
let admin: string;
let states: SessionStates;
let client: string;
let restricted: string;

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  states = await makeSessionStates(h);
  client = (await makeCarrierUser(h, admin, 'Acme')).token;
  restricted = (await makeRestrictedAdmin(h, admin, 'dash_only')).token;
});
afterAll(() => h.close());

/** Every answer, success or not, is exactly the envelope. */
function expectEnvelope(body: unknown): asserts body is Envelope<unknown> {
  expect(Object.keys(body as object).sort()).toEqual(['error', 'errors', 'payload', 'success']);
  const b = body as Envelope<unknown>;
  expect(typeof b.success).toBe('boolean');
  if (b.success) {
    expect(b.error).toBeNull();
    expect(b.errors).toBeNull();
  } else {
    expect(b.payload).toBeNull();
    expect(Object.keys(b.error ?? {}).sort()).toEqual(['code', 'message']);
    expect(typeof b.error?.code).toBe('number');
    expect(b.error?.message).toMatch(/\S/);
    if (b.errors !== null) for (const v of Object.values(b.errors)) expect(typeof v).toBe('string');
  }
  expect(JSON.stringify(b)).not.toMatch(/\bat \S+\.(ts|js):\d+|node_modules|stack/);
}

describe('the envelope', () => {
  it('wraps successes and every kind of failure, with matching HTTP statuses', async () => {
    const cases: [
      string,
      string,
      { token?: string | null; body?: unknown; raw?: string },
      number,
      number | null,
    ][] = [
      ['GET', '/api/public/has_user', {}, 200, null],
      ['GET', '/api/user', { token: admin }, 200, null],
      ['GET', '/api/user', {}, 401, 130],
      ['GET', '/api/user', { token: states.expired }, 401, 120],
      ['GET', '/api/user/list', { token: client }, 403, 140],
      ['GET', '/api/user/99999/details', { token: admin }, 404, 150],
      ['GET', '/api/nowhere', {}, 404, 150],
      [
        'POST',
        '/api/user/create',
        { token: admin, body: { name: 'admin', passwd: 'Admin#2026', email: 'x@example.com' } },
        409,
        160,
      ],
      ['DELETE', '/api/user/1', { token: admin }, 409, 170],
      ['POST', '/api/auth', { body: { email_or_name: 'nobody', password: 'x' } }, 401, 190],
      ['POST', '/api/auth', { body: {} }, 400, 110],
      ['POST', '/api/auth', { raw: '{' }, 400, 110],
    ];
    for (const [method, url, opts, status, code] of cases) {
      const r = await h.call(method, url, opts);
      expectEnvelope(r.body);
      expect([method, url, r.status]).toEqual([method, url, status]);
      expect(r.body.error?.code ?? null).toBe(code);
    }
  });
});

describe('unknown routes', () => {
  it('answer 150 naming method and path, for unknown paths and unknown methods', async () => {
    const r = await h.call('GET', '/api/no/such/thing?x=1', { token: admin });
    fails(r, 150, 'Unknown API route: GET /api/no/such/thing');
    expect(r.status).toBe(404);
    fails(
      await h.call('PUT', '/api/user', { token: admin, body: {} }),
      150,
      'Unknown API route: PUT /api/user',
    );
    fails(await h.call('POST', '/api/user/list', { token: admin, body: {} }), 150);
    fails(await h.call('GET', '/not-an-api-page'), 150);
  });
});

describe('malformed requests', () => {
  it('a malformed JSON body is a clear 110, never a stack trace', async () => {
    for (const raw of ['{"subject": "x",}', '{', 'null x', "{'a':1}"]) {
      const r = await h.call('POST', '/api/ticket/create', { token: client, raw });
      expectEnvelope(r.body);
      expect(r.body.error).toEqual({ code: 110, message: 'The request body is not valid JSON' });
      expect(r.body.errors).toEqual({ _: 'The request body is not valid JSON' });
    }
  });

  it('an empty JSON body, a body of the wrong shape and a text body are 110', async () => {
    fails(await h.call('POST', '/api/auth', { raw: '' }), 110, 'The request body is not valid JSON');
    invalid(await h.call('POST', '/api/auth', { raw: '[1,2]' }), '_', 'request body is not valid');
    invalid(await h.call('POST', '/api/auth', { raw: '"text"' }), '_');
    invalid(
      await h.call('POST', '/api/auth', { raw: 'hello', headers: { 'content-type': 'text/plain' } }),
      '_',
    );
    fails(
      await h.call('POST', '/api/auth', { raw: '<a/>', headers: { 'content-type': 'application/xml' } }),
      110,
    );
  });

  it('a prototype-polluting body is refused', async () => {
    fails(
      await h.call('POST', '/api/auth', {
        raw: '{"__proto__": {"admin": true}, "email_or_name": "a", "password": "b"}',
      }),
      110,
    );
  });

  it('a body over the limit is refused with its size and the limit', async () => {
    const big = Buffer.alloc(11 * 1024 * 1024, 0x20);
    const res = await h.built.app.inject({
      method: 'POST',
      url: '/api/auth',
      headers: { 'content-type': 'application/json' },
      payload: big,
    });
    expect(res.statusCode).toBe(413);
    const body = res.json() as Envelope<null>;
    expectEnvelope(body);
    expect(body.error).toEqual({ code: 110, message: 'File is too big (11.0MB). Max file size: 10MB' });
  });

  it('a malformed or overlong URL component is 110', async () => {
    const bad = await h.call('GET', '/api/user/%E0%A4%A', { token: admin });
    fails(bad, 110, 'URL is not valid');
    expect(bad.status).toBe(400);
    fails(
      await h.call('POST', `/api/auth/reset/${'t'.repeat(150)}`, { body: { password: 'Valid#2026' } }),
      110,
    );
  });

  it('names every failing field, one message each', async () => {
    const r = await h.call('POST', '/api/user/create', {
      token: admin,
      body: {
        name: 'ok_name',
        passwd: 'short',
        email: 'nope',
        first_name: 'X1',
        allowed_ips: ['1.2.3.4', '300.1.1.1'],
        user_type: 'boss',
      },
    });
    const body = fails(r, 110);
    expect(body.errors).toEqual({
      passwd: 'Password must be 8 to 15 characters',
      email: 'The email field must be a valid email',
      first_name: 'first_name may contain letters and spaces only',
      'allowed_ips.1': 'IP format invalid',
      user_type: 'user_type must be one of: admin, client, agent',
    });
    // The message repeats the field messages for clients that show only one line.
    for (const m of Object.values(body.errors!)) expect(body.error!.message).toContain(m);
  });

  it('a field of the wrong type is "not valid", a missing one "required"', async () => {
    invalid(
      await h.call('POST', '/api/ticket/create', { token: client, body: { subject: 42 } }),
      'subject',
      'subject is not valid',
    );
    invalid(
      await h.call('POST', '/api/ticket/create', { token: client, body: { subject: null } }),
      'subject',
      'subject is required',
    );
    invalid(
      await h.call('PATCH', '/api/ticket/1/status', { token: admin, body: {} }),
      'ticket_status',
      'ticket_status is required',
    );
  });
});

describe('languages', () => {
  it('answers messages in the language of Accept-Language or X-Lang', async () => {
    const de = await h.call('POST', '/api/ticket/create', {
      token: client,
      body: { subject: ' ' },
      headers: { 'accept-language': 'de-CH, de;q=0.9' },
    });
    invalid(de, 'subject', 'Betreff ist erforderlich');
    const ch = await h.call('GET', '/api/nowhere', { headers: { 'x-lang': 'ch' } });
    fails(ch, 150, '未知的 API 路径：GET /api/nowhere');
    fails(await h.call('GET', '/api/nowhere', { headers: { 'accept-language': 'zh-CN' } }), 150, /未知/);
    fails(
      await h.call('GET', '/api/nowhere', { headers: { 'accept-language': 'fr-FR' } }),
      150,
      /^Unknown API route/,
    );
  });

  it('keeps the phrases the web app matches in every language', async () => {
    for (const lang of ['en', 'ch', 'de']) {
      const headers = { 'x-lang': lang };
      fails(
        await h.call('GET', '/api/user', { token: 'z'.repeat(43), headers }),
        130,
        /Incorrect token provided/,
      );
      fails(await h.call('GET', '/api/user', { token: states.revoked, headers }), 130, /token is disabled/);
      fails(
        await h.call('GET', '/api/user/list', { token: restricted, headers }),
        140,
        /don't have permissions/,
      );
    }
  });
});

describe('internal errors', () => {
  it('are logged, never shown: a generic message with code 100 and no detail', async () => {
    await sql`drop table sip_hosts`.execute(h.built.services.db);
    const r = await h.call('GET', '/api/switch/sip_host/list', { token: admin });
    expect(r.status).toBe(500);
    expectEnvelope(r.body);
    expect(r.body.error).toEqual({ code: 100, message: 'Internal error. The error has been logged.' });
    expect(JSON.stringify(r.body)).not.toMatch(/sip_hosts|relation|select/i);
    // The rest of the server keeps working.
    ok(await h.call('GET', '/api/user', { token: admin }));
  });
});
