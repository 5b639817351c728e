import { ErrorCode, type Endpoint } from '@tandem/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { registeredEndpoints } from '../../src/http/register';
import { makeAgent, makeCarrierUser, ok, startHarness, type Harness, type Res } from './harness';
import { switchKey } from './routing-fixtures';

/**
 * The hostile probe of issue 18 as a test: it walks every endpoint the server registered (so a new
 * endpoint is covered without anyone writing a test for it) and
 * - as client, vendor and agent users, fills every path parameter with another tenant's ids: no 5xx,
 *   nothing of the other tenant in any answer, none of its rows changed;
 * - as the admin (past every permission check), sends each body field hostile values (NUL, 2^31,
 *   2^53, negative, 100 KB text, wrong types), a null body and unknown fields, and hostile path and
 *   query values: no 5xx, and every 110 names its field and stores nothing.
 */

let h: Harness;
let admin: string;
let switchKeyText: string;
const portal: Record<'client' | 'vendor' | 'agent', string> = { client: '', vendor: '', agent: '' };
let victim: { clientId: number; vendorId: number; agentId: number; userIds: number[] };
const MARK = 'victimprobe';
/** Probe calls come from their own address, so the sign-in throttle of the set-up is untouched. */
const IP = { 'x-forwarded-for': '10.66.0.1' };

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  switchKeyText = await switchKey(h, admin, 'probe');
  // The victims: a client, a vendor and an agent of other tenants.
  const vc = await makeCarrierUser(h, admin, `${MARK}Client`);
  const vv = await makeCarrierUser(h, admin, `${MARK}Vendor`, { client_type: 'vendor' });
  const va = await makeAgent(h, admin, `${MARK}Agent`);
  const users = await h.built.services.db
    .selectFrom('users')
    .select('user_id')
    .where('name', 'in', [vc.login, vv.login, va.login])
    .execute();
  victim = {
    clientId: vc.clientId,
    vendorId: vv.clientId,
    agentId: va.agentId,
    userIds: users.map((u) => u.user_id),
  };
  // The prober's own tenants.
  portal.client = (await makeCarrierUser(h, admin, 'ProberClient')).token;
  portal.vendor = (await makeCarrierUser(h, admin, 'ProberVendor', { client_type: 'vendor' })).token;
  portal.agent = (await makeAgent(h, admin, 'ProberAgent')).token;
}, 120_000);
afterAll(() => h.close());

// ---------------------------------------------------------------------------------------------
// A plausible body of a schema, to carry one hostile field at a time past the others' checks.

type Def = { type: string } & Record<string, unknown>;
const defOf = (s: unknown): Def => (s as { _zod: { def: Def } })._zod.def;

function sample(s: z.ZodType, depth = 0): unknown {
  const def = defOf(s);
  if (depth > 6) return undefined;
  switch (def.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        const t = defOf(v).type;
        if (t === 'optional' || t === 'default' || t === 'prefault') continue;
        out[k] = sample(v, depth + 1);
      }
      return out;
    }
    case 'string':
      return 'probe1234';
    case 'number': {
      const n = s as z.ZodNumber;
      return Number.isFinite(n.minValue ?? NaN) && (n.minValue ?? 0) > 0 ? n.minValue : 1;
    }
    case 'boolean':
      return false;
    case 'enum':
      return Object.values(def.entries as Record<string, unknown>)[0];
    case 'literal':
      return (def.values as unknown[])[0];
    case 'array':
      return [];
    case 'nullable':
      return null;
    case 'optional':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return sample(def.innerType as z.ZodType, depth);
    case 'pipe':
      return sample(def.in as z.ZodType, depth);
    case 'union':
      return sample((def.options as z.ZodType[])[0]!, depth);
    case 'record':
      return {};
    default:
      return undefined;
  }
}

/** The top-level field names of a body schema (through wrappers and pipes). */
function fieldsOf(s: z.ZodType): string[] {
  const def = defOf(s);
  if (def.type === 'object') return Object.keys(def.shape as object);
  if (def.type === 'pipe') return fieldsOf(def.in as z.ZodType);
  if (['optional', 'default', 'nullable', 'prefault'].includes(def.type))
    return fieldsOf(def.innerType as z.ZodType);
  if (def.type === 'intersection')
    return [...fieldsOf(def.left as z.ZodType), ...fieldsOf(def.right as z.ZodType)];
  return [];
}

const HOSTILE: [string, unknown][] = [
  ['NUL', 'ab\u0000cd'],
  ['control', 'line\u0007bell'],
  ['2^31', 2147483648],
  ['2^53', 2 ** 53],
  ['1e308', 1e308],
  ['negative', -1],
  ['100 KB', 'x'.repeat(100_000)],
  ['object', { nested: { deeper: [1, 2, 3] } }],
  ['array', ['a', 1, null]],
  ['boolean', true],
];
const HOSTILE_PARAMS = ['2147483648', '9007199254740993', '-1', 'abc', '%00', '1e308', '0'];

/** A path value the walk uses when it sends none: an enum's first choice (a valid path), else a missing id. */
function defaultParam(e: Endpoint, k: string): string {
  if (k === 'token') return 'probe-missing-token';
  const shape = e.params
    ? (defOf(e.params as z.ZodType).shape as Record<string, z.ZodType> | undefined)
    : undefined;
  const field = shape?.[k];
  if (field && defOf(field).type === 'enum') return String(sample(field));
  return '999999';
}

const pathOf = (e: Endpoint, params: Record<string, string>) =>
  '/api' + e.path.replace(/:(\w+)/g, (_, k: string) => encodeURIComponent(params[k] ?? defaultParam(e, k)));
const paramNames = (e: Endpoint) => [...e.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);

/** Endpoints the walk leaves out: ending the prober's own session. */
const SKIP = new Set(['POST /auth/logout']);
const walkable = () => registeredEndpoints.filter((e) => !e.multipart && !SKIP.has(`${e.method} ${e.path}`));

const auditCount = async () =>
  Number(
    (
      await h.built.services.db
        .selectFrom('modification_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Every answer: not a 5xx; a 110 is the envelope naming at least one field. */
function checkAnswer(what: string, r: Res<unknown>, problems: string[]): void {
  if (r.status >= 500) problems.push(`${what}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
  else if (r.body?.error?.code === ErrorCode.validation) {
    if (r.status !== 400 && r.status !== 413) problems.push(`${what}: 110 with status ${r.status}`);
    if (r.status === 400 && (!r.body.errors || Object.keys(r.body.errors).length === 0))
      problems.push(`${what}: 110 naming no field: ${r.body.error.message}`);
  }
}

async function victimRows(): Promise<string> {
  const db = h.built.services.db;
  const [carriers, users, agents] = await Promise.all([
    db
      .selectFrom('carriers')
      .selectAll()
      .where('client_id', 'in', [victim.clientId, victim.vendorId])
      .orderBy('client_id')
      .execute(),
    db
      .selectFrom('users')
      .select(['user_id', 'name', 'email', 'password_hash', 'active', 'client_id', 'agent_id', 'role_id'])
      .where('user_id', 'in', victim.userIds)
      .orderBy('user_id')
      .execute(),
    db.selectFrom('agents').selectAll().where('agent_id', '=', victim.agentId).execute(),
  ]);
  return JSON.stringify({ carriers, users, agents });
}

describe('the probe: every registered endpoint', () => {
  it('covers the contract: more than 200 endpoints registered', () => {
    expect(walkable().length).toBeGreaterThan(200);
  });

  it('reads only the head of a stream that stays open (server-sent events)', async () => {
    const r = await h.call('GET', '/api/monitoring/live_event/stream?after_id=0', {
      token: admin,
      stream: true,
    });
    expect(r.status).toBe(200);
  });

  it("never answers a portal user another tenant's record, nor changes one", async () => {
    const before = await victimRows();
    const problems: string[] = [];
    const foreign = [victim.clientId, victim.vendorId, victim.agentId, ...victim.userIds, 1];
    for (const [type, token] of Object.entries(portal)) {
      for (const e of walkable()) {
        if (e.access.kind === 'switch') continue;
        const names = paramNames(e);
        const idSets = names.length
          ? foreign.map((id) => Object.fromEntries(names.map((n) => [n, String(id)])))
          : [{}];
        for (const params of idSets) {
          const body = e.body ? sample(e.body) : undefined;
          const query = '?client_id=' + victim.clientId + '&carrier_id=' + victim.clientId;
          const r = await h.call(e.method, pathOf(e, params) + (e.method === 'GET' ? query : ''), {
            token,
            stream: e.stream,
            headers: IP,
            ...(body !== undefined && e.method !== 'GET' ? { body } : {}),
          });
          const what = `${type} ${e.method} ${e.path} ${JSON.stringify(params)}`;
          checkAnswer(what, r, problems);
          if (
            r.status < 300 &&
            JSON.stringify(r.body ?? '')
              .toLowerCase()
              .includes(MARK.toLowerCase())
          )
            problems.push(`${what}: answered another tenant's record`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(await victimRows()).toBe(before);
  }, 600_000);

  it('refuses hostile path and query values with 110 and never fails', async () => {
    const problems: string[] = [];
    for (const e of walkable()) {
      const names = paramNames(e);
      const queryFields = e.query ? fieldsOf(e.query) : [];
      if (!names.length && !queryFields.length) continue;
      const headers = e.access.kind === 'switch' ? { ...IP, 'x-switch-key': switchKeyText } : IP;
      for (const v of HOSTILE_PARAMS) {
        const params = Object.fromEntries(names.map((n) => [n, v]));
        const q = queryFields.map((f) => `${f}=${encodeURIComponent(v)}`).join('&');
        const r = await h.call(e.method, pathOf(e, params) + (q ? `?${q}` : ''), {
          token: admin,
          headers,
          stream: e.stream,
        });
        checkAnswer(`${e.method} ${e.path} with ${v}`, r, problems);
      }
    }
    expect(problems).toEqual([]);
  }, 600_000);

  it('refuses hostile bodies field by field with 110 naming the field, storing nothing', async () => {
    const problems: string[] = [];
    for (const e of walkable()) {
      if (!e.body || e.method === 'GET') continue;
      // A missing record behind the path: whatever the body, nothing existing can change.
      const url = pathOf(e, {});
      const headers = e.access.kind === 'switch' ? { ...IP, 'x-switch-key': switchKeyText } : IP;
      const base = (sample(e.body) ?? {}) as Record<string, unknown>;
      const variants: [string, unknown][] = [
        ['null body', null],
        ['array body', [1, 2]],
        ['unknown field', { ...base, __proto__x: 1, probe_unknown: 'x' }],
      ];
      for (const f of fieldsOf(e.body))
        for (const [name, v] of HOSTILE) variants.push([`${f}=${name}`, { ...base, [f]: v }]);
      for (const [name, body] of variants) {
        const audit = await auditCount();
        const r = await h.call(e.method, url, {
          token: e.access.kind === 'switch' ? null : admin,
          headers,
          stream: e.stream,
          raw: JSON.stringify(body),
        });
        const what = `${e.method} ${e.path} ${name}`;
        checkAnswer(what, r, problems);
        if (r.body?.error?.code === ErrorCode.validation && (await auditCount()) !== audit)
          problems.push(`${what}: refused with 110 but stored a change`);
        if (
          name.includes('NUL') ||
          name.includes('control') ||
          name.includes('2^31') ||
          name.includes('2^53')
        ) {
          // Never accepted as such: 2^31 and 2^53 fit no int4 field, and no field keeps control characters.
          const field = name.split('=')[0]!;
          if (r.status < 300 && (name.includes('NUL') || name.includes('control')))
            problems.push(`${what}: accepted a control character`);
          if (r.body?.error?.code === ErrorCode.validation && r.body.errors && !(field in r.body.errors))
            if (!Object.keys(r.body.errors).some((k) => k === field || k.startsWith(`${field}.`)))
              if (name.includes('NUL') || name.includes('control'))
                problems.push(`${what}: 110 names ${Object.keys(r.body.errors).join(',')}, not ${field}`);
        }
      }
    }
    expect(problems).toEqual([]);
    // The admin's session survived the walk (the probe did not lock itself out).
    ok(await h.call('GET', '/api/user', { token: admin }));
  }, 600_000);
});
