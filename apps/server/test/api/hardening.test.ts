import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installErrorHandling } from '../../src/http/register';
import { invalid, makeCarrierUser, notVisible, ok, startHarness, type Harness } from './harness';
import { customerCall, switchKey, switchRoute } from './routing-fixtures';

/** The findings of issue 18 one by one (the probe, probe.test.ts, walks every endpoint). */
let h: Harness;
let admin: string;
let key: string;

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  key = await switchKey(h, admin);
});
afterAll(() => h.close());

describe('text: NUL and control characters', () => {
  it('refuses them with 110 naming the field, also on the unauthenticated endpoints', async () => {
    invalid(
      await h.call('POST', '/api/auth', { body: { email_or_name: 'ad\u0000min', password: 'x' } }),
      'email_or_name',
      'email_or_name may not contain control characters (such as NUL)',
    );
    invalid(
      await h.call('POST', '/api/auth/reset-password', { body: { email_or_name: 'a\u0000' } }),
      'email_or_name',
    );
    invalid(
      await h.call('POST', '/api/config/payment_term/create', {
        token: admin,
        body: { name: 'Net\u001b30' },
      }),
      'name',
    );
    // Tabs and line breaks are text.
    ok(
      await h.call('POST', '/api/config/payment_term/create', {
        token: admin,
        body: { name: 'Net\t30' },
      }),
    );
    invalid(await h.call('GET', '/api/carrier/list?name=%00', { token: admin }), 'name');
  });

  it('the route API and the call simulation refuse them too', async () => {
    invalid(await switchRoute(h, customerCall('1555\u00002220000'), key), 'dnis');
    invalid(await switchRoute(h, customerCall('15552220000', { ani: '1\u0000' }), key), 'ani');
    invalid(
      await h.call('POST', '/api/tools/call_simulation', {
        token: admin,
        body: { source_ip: '198.51.100.7', dnis: '1555\u00002220000' },
      }),
      'dnis',
    );
  });
});

describe('integers bounded by their columns', () => {
  it('refuses 2^31 in ids, counts and limits with 110 naming the field', async () => {
    invalid(await h.call('GET', '/api/carrier/2147483648', { token: admin }), 'id');
    invalid(await h.call('GET', '/api/carrier/list?page=2147483648', { token: admin }), 'page');
    invalid(
      await h.call('POST', '/api/config/payment_term/create', {
        token: admin,
        body: { name: 'Big grace', grace_days: 2147483648 },
      }),
      'grace_days',
    );
    invalid(
      await h.call('POST', '/api/user/create', {
        token: admin,
        body: { name: 'big_client', passwd: 'Client#2026', email: 'b@example.com', client_id: 2147483648 },
      }),
      'client_id',
    );
    // The largest int4 is a valid value: answered as missing, not refused.
    notVisible(await h.call('GET', '/api/carrier/2147483647', { token: admin }));
  });

  it('refuses loose values: a null body, negative min profitability, call times out of range', async () => {
    const nullBody = await h.call('POST', '/api/config/payment_term/create', { token: admin, raw: 'null' });
    invalid(nullBody, '_', 'request body is required');
    invalid(
      await h.call('POST', '/api/template/carrier/create', {
        token: admin,
        body: { name: 'Loss maker', min_profitability: -1 },
      }),
      'min_profitability',
    );
    for (const time of [1e308, 2 ** 53, -1, '9999999-01-01'])
      invalid(await switchRoute(h, customerCall('15552220000', { time }), key), 'time');
    invalid(
      await h.call('POST', '/api/template/carrier/create', {
        token: admin,
        body: { name: 'Rich', credit_limit: 1e15 },
      }),
      'credit_limit',
    );
  });
});

describe('references', () => {
  it('a template refers only to rows that exist, held by a foreign key', async () => {
    invalid(
      await h.call('POST', '/api/template/carrier/create', {
        token: admin,
        body: { name: 'Ghost terms', payment_term_id: 99999 },
      }),
      'payment_term_id',
      'payment_term_id refers to a record that does not exist',
    );
    invalid(
      await h.call('POST', '/api/template/ingress_trunk/create', {
        token: admin,
        body: { name: 'Ghost table', rate_table_id: 99999 },
      }),
      'rate_table_id',
    );
    invalid(
      await h.call('POST', '/api/template/egress_trunk/create', {
        token: admin,
        body: { name: 'Ghost plan', routing_plan_id: 99999 },
      }),
      'routing_plan_id',
    );
    invalid(
      await h.call('POST', '/api/template/egress_trunk/create', {
        token: admin,
        body: { name: 'Ghost ANI', random_ani_group_id: 3 },
      }),
      'random_ani_group_id',
    );
    const term = ok(
      await h.call<{ object_id: number }>('POST', '/api/config/payment_term/create', {
        token: admin,
        body: { name: 'Net 45' },
      }),
    ).object_id;
    const tpl = ok(
      await h.call<{ object_id: number }>('POST', '/api/template/carrier/create', {
        token: admin,
        body: { name: 'Real terms', payment_term_id: term },
      }),
    ).object_id;
    const row = ok(
      await h.call<{ payment_term_id: number | null }>('GET', `/api/template/carrier/${tpl}`, {
        token: admin,
      }),
    );
    expect(row.payment_term_id).toBe(term);
    invalid(
      await h.call('PATCH', `/api/template/carrier/${tpl}`, {
        token: admin,
        body: { payment_term_id: 99998 },
      }),
      'payment_term_id',
    );
    // The database holds it too: a row written past the API cannot point nowhere.
    await expect(
      h.built.services.db
        .updateTable('carrier_templates')
        .set({ payment_term_id: 99997 })
        .where('template_id', '=', tpl)
        .execute(),
    ).rejects.toThrow();
  });
});

describe('tenancy of usage counts', () => {
  it("answers another tenant's id exactly as a missing one", async () => {
    const mine = await makeCarrierUser(h, admin, 'UsageOwn');
    const other = await makeCarrierUser(h, admin, 'UsageOther');
    ok(await h.call('GET', `/api/carrier/${mine.clientId}/usage`, { token: mine.token }));
    const foreign = await h.call('GET', `/api/carrier/${other.clientId}/usage`, { token: mine.token });
    const missing = await h.call('GET', '/api/carrier/999999/usage', { token: mine.token });
    notVisible(foreign);
    expect(foreign.body).toEqual(missing.body);
  });
});

describe('the error handler as a safety net', () => {
  it('answers data PostgreSQL refuses (22xxx) with 110 and a reference to nothing (23503) with 160', async () => {
    // The database's own codes, as a handler missing a rule would meet them.
    const err = await h.built.services.db
      .selectFrom('carriers')
      .select('client_id')
      .where('client_id', '=', 2147483648)
      .execute()
      .then(
        () => null,
        (e: unknown) => e as Error & { code?: string },
      );
    expect(err?.code).toBe('22003');
    const app = Fastify({ logger: false });
    installErrorHandling(app, h.built.services);
    app.get('/range', () => Promise.reject(err ?? new Error('no database error')));
    app.get('/fk', () =>
      Promise.reject(
        Object.assign(new Error('violates foreign key'), { code: '23503', column: 'payment_term_id' }),
      ),
    );
    const range = await app.inject({ method: 'GET', url: '/range' });
    expect(range.statusCode).toBe(400);
    expect(range.json()).toMatchObject({ success: false, error: { code: 110 } });
    const fk = await app.inject({ method: 'GET', url: '/fk' });
    expect(fk.statusCode).toBe(409);
    expect(fk.json()).toMatchObject({
      error: { code: 160 },
      errors: { payment_term_id: 'payment_term_id refers to a record that does not exist' },
    });
    await app.close();
  });
});
