import { buildPath, type Endpoint } from '@tandem/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredEndpoints } from '../../src/http/register';
import { allEndpoints } from '../../src/modules';
import { startHarness, type Harness } from './harness';

/** The frame's calls of spec 01 section 7, each of which must be declared in the contract. */
const SPEC_CALLS = [
  'POST /auth',
  'GET /user',
  'GET /user/:id',
  'POST /auth/check-token',
  'POST /auth/check-password',
  'PATCH /user',
  'PATCH /user/:id',
  'POST /config/import',
  'GET /config/export/public/:id',
  'GET /config/role/:id',
  'GET /config/role/list',
  'GET /config/sys_submenu/list',
  'GET /config/system',
  'GET /config/login/public',
  'GET /public/has_user',
  'GET /log/versions',
  'GET /log/export',
  'GET /log/import',
  'GET /tool/did_number_upload_task/list',
  'GET /tool/rate/import/list',
  'GET /ticket/list',
  'POST /ticket/create',
  'PATCH /ticket/:id/send',
  'GET /ticket/:id',
  'GET /home/client',
  'GET /home/client/message/list',
  'GET /home/client/alert/list',
  'GET /home/client/invoice/list',
  'GET /home/agent/client_balances',
  'GET /switch/sip_host/list',
  'GET /switch/full/list',
  'GET /watchdog/server/:server/status',
  'POST /user/create',
  'GET /agent/:id',
  'POST /agent/create',
  'POST /carrier/basic/create',
];
/** The other frame calls: roles, users, logs, password reset, sign-out. */
const FRAME_CALLS = [
  'POST /config/role/create',
  'PATCH /config/role/:id',
  'DELETE /config/role/:id',
  'GET /user/list',
  'GET /user/:id/details',
  'DELETE /user/:id',
  'PATCH /user/:id/activate',
  'PATCH /user/:id/deactivate',
  'GET /log/user_signin_history',
  'GET /log/modification_log',
  'POST /auth/reset-password',
  'POST /auth/reset/:token',
  'POST /auth/logout',
];

const key = (e: Pick<Endpoint, 'method' | 'path'>) => `${e.method} ${e.path}`;
const samplePath = (e: Endpoint) =>
  '/api' +
  buildPath(
    e.path,
    Object.fromEntries(
      [...e.path.matchAll(/:(\w+)/g)].map(([, p]) => [
        p!,
        p === 'token' ? 'x'.repeat(43) : p === 'server' ? 'local' : 1,
      ]),
    ),
  );

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('the contract and the app agree', () => {
  it('declares every call of the spec and of the frame', () => {
    const declared = new Set(allEndpoints().map(key));
    for (const call of [...SPEC_CALLS, ...FRAME_CALLS]) expect(declared, call).toContain(call);
  });

  it('declares each method and path once', () => {
    const keys = allEndpoints().map(key);
    expect(keys.length).toBe(new Set(keys).size);
  });

  it('registers every declared endpoint through implement()', () => {
    expect(registeredEndpoints.map(key).sort()).toEqual(allEndpoints().map(key).sort());
  });

  it('serves every declared endpoint: none answers "Unknown API route"', async () => {
    for (const e of allEndpoints()) {
      const url = samplePath(e);
      const hasBody = e.method !== 'GET' && e.method !== 'DELETE' && !e.multipart;
      const res = await h.built.app.inject({ method: e.method, url, ...(hasBody ? { payload: {} } : {}) });
      const text = res.body;
      expect(text, `${e.method} ${url}`).not.toMatch(/Unknown API route/);
      if (!e.raw || res.statusCode >= 400) {
        const body = res.json() as { success: boolean; error: { code: number } | null };
        expect(typeof body.success, `${e.method} ${url}`).toBe('boolean');
        // Without a token, every call that needs a session asks the caller to sign in.
        if (e.access.kind === 'session' || e.access.kind === 'admin')
          expect(body.error?.code, `${e.method} ${url}`).toBe(130);
        if (e.access.kind === 'switch') expect(body.success, `${e.method} ${url}`).toBe(false);
      }
    }
  });
});

describe('GET /api/docs/json (OpenAPI)', () => {
  it('is an OpenAPI 3.1 document of Tandem 11.0.0 with the token scheme', async () => {
    const res = await h.built.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as {
      openapi: string;
      info: { title: string; version: string };
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toMatchObject({ title: 'Tandem API', version: '11.0.0' });
    expect(doc.components.securitySchemes.token).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'X-Auth-Token',
    });
  });

  it('lists every endpoint with its summary, tag, parameters, body, security and envelope answer', async () => {
    const doc = (await h.built.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<
        string,
        Record<
          string,
          {
            summary: string;
            tags: string[];
            security?: unknown;
            parameters: { name: string; in: string; required: boolean }[];
            requestBody?: { content: Record<string, unknown> };
            responses: Record<
              string,
              { content: Record<string, { schema?: { properties?: Record<string, unknown> } }> }
            >;
          }
        >
      >;
    };
    let count = 0;
    for (const e of allEndpoints()) {
      const p = '/api' + e.path.replace(/:(\w+)/g, '{$1}');
      const op = doc.paths[p]?.[e.method.toLowerCase()];
      expect(op, `${e.method} ${p}`).toBeDefined();
      count++;
      expect(op!.summary).toBe(e.summary);
      expect(op!.tags).toEqual([e.tag]);
      if (e.access.kind === 'public') expect(op!.security).toBeUndefined();
      else expect(op!.security).toEqual([{ token: [] }]);
      for (const [, name] of e.path.matchAll(/:(\w+)/g)) {
        expect(op!.parameters).toContainEqual(expect.objectContaining({ name, in: 'path', required: true }));
      }
      if (e.body) expect(Object.keys(op!.requestBody!.content)).toEqual(['application/json']);
      if (e.multipart) expect(Object.keys(op!.requestBody!.content)).toEqual(['multipart/form-data']);
      if (!e.raw) {
        const schema = op!.responses['200']!.content['application/json']!.schema!;
        expect(Object.keys(schema.properties ?? {}).sort()).toEqual([
          'error',
          'errors',
          'payload',
          'success',
        ]);
      }
    }
    expect(count).toBe(allEndpoints().length);
    const ops = Object.values(doc.paths).reduce((n, m) => n + Object.keys(m).length, 0);
    expect(ops).toBe(allEndpoints().length);
    // Query parameters of list calls are documented too.
    const list = doc.paths['/api/ticket/list']!.get!;
    expect(list.parameters.map((x) => x.name)).toEqual(
      expect.arrayContaining(['page', 'per_page', 'order_by', 'order_dir', 'ticket_status']),
    );
  });

  it('is browsable at /api/docs', async () => {
    const res = await h.built.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toMatch(/swagger/i);
  });
});
