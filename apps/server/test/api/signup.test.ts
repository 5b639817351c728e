import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  auditRows,
  denied,
  expectSessionRequired,
  fails,
  invalid,
  makeAgent,
  makeCarrierUser,
  makeRestrictedAdmin,
  makeSessionStates,
  notVisible,
  ok,
  startHarness,
  USER_PASSWD,
  type Harness,
  type SessionStates,
} from './harness';

type Created = { object_id: number; status: 'pending' | 'approved' };

let h: Harness;
let admin: string;
let states: SessionStates;
let agent: { agentId: number; token: string; login: string; referralKey: string };
let rival: { agentId: number; token: string; referralKey: string };
let client: string;
let restricted: string;

const signup = (body: Record<string, unknown>, token?: string) =>
  h.call<Created>('POST', '/api/carrier/basic/create', {
    body: { company: `${String(body.name)} Ltd`, passwd: USER_PASSWD, ...body },
    token: token ?? null,
  });

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('before the first admin exists', () => {
  it('refuses self sign-up, so the first user is always the administrator set up at /setup', async () => {
    const r = await signup({ name: 'Early Bird', email: 'early@example.com', login_name: 'early' });
    fails(r, 170, "Registration can't be processed now, contact admin");
    expect(ok(await h.call('GET', '/api/public/has_user'))).toEqual({ has_user: false });
  });

  it('lets exactly one of several concurrent setups create the first admin', async () => {
    const names = [ADMIN.name, 'rival_admin', 'third_admin'];
    const results = await Promise.all(
      names.map((name) =>
        h.call<{ object_id: number }>('POST', '/api/user/create', {
          body: { ...ADMIN, name, email: `${name}@example.com`, setup_code: h.built.setupCode ?? '' },
        }),
      ),
    );
    const winners = results.filter((r) => r.body.success);
    expect(winners).toHaveLength(1);
    expect(winners[0]!.body.payload.object_id).toBe(1);
    for (const r of results.filter((x) => !x.body.success))
      fails(r, 140, 'The first administrator already exists');
    const users = await h.built.services.db.selectFrom('users').select(['user_id', 'name']).execute();
    expect(users).toHaveLength(1);
    admin = await h.signIn(users[0]!.name, ADMIN.passwd);
    states = await makeSessionStates(h, users[0]!.name, ADMIN.passwd);
    agent = await makeAgent(h, admin, 'Broker');
    rival = await makeAgent(h, admin, 'Rival');
    client = (await makeCarrierUser(h, admin, 'Acme')).token;
    restricted = (await makeRestrictedAdmin(h, admin, 'dash_only')).token;
    // Self-registration is off until the operator turns it on (issue 18).
    const sys = ok(
      await h.call<{ user_registration_enabled: boolean }>('GET', '/api/config/system', { token: admin }),
    );
    expect(sys.user_registration_enabled).toBe(false);
    fails(await signup({ name: 'Too Early', email: 'too.early@example.com', login_name: 'too_early' }), 170);
    ok(
      await h.call('PATCH', '/api/config/system', {
        token: admin,
        body: { user_registration_enabled: true },
      }),
    );
  });
});

describe('GET /agent/:id', () => {
  it('tells a sign-up page only the agent name, and only with the right referral key', async () => {
    const p = ok(await h.call('GET', `/api/agent/${agent.agentId}?ref_key=${agent.referralKey}`));
    expect(p).toEqual({ agent_id: agent.agentId, agent_name: 'Broker' });
    notVisible(await h.call('GET', `/api/agent/${agent.agentId}`));
    notVisible(await h.call('GET', `/api/agent/${agent.agentId}?ref_key=${rival.referralKey}`));
    notVisible(await h.call('GET', `/api/agent/${agent.agentId}`, { token: client }));
    notVisible(await h.call('GET', '/api/agent/99999?ref_key=x'));
  });

  it('answers the full agent to admins with the agents permission and to the agent itself', async () => {
    const full = ok(await h.call('GET', `/api/agent/${agent.agentId}`, { token: admin }));
    expect(full).toEqual({
      agent_id: agent.agentId,
      agent_name: 'Broker',
      status: 'active',
      email: 'broker@agents.example.com',
      commission_method: 'profit',
      commission_percent: '0.0000',
      frequency: 'monthly',
      referral_key: agent.referralKey,
    });
    expect(ok(await h.call('GET', `/api/agent/${agent.agentId}`, { token: agent.token }))).toEqual(full);
    // Another agent, or an admin without the permission, gets nothing without the key.
    notVisible(await h.call('GET', `/api/agent/${agent.agentId}`, { token: rival.token }));
    notVisible(await h.call('GET', `/api/agent/${agent.agentId}`, { token: restricted }));
    expect(
      ok(
        await h.call('GET', `/api/agent/${agent.agentId}?ref_key=${agent.referralKey}`, {
          token: restricted,
        }),
      ),
    ).toEqual({ agent_id: agent.agentId, agent_name: 'Broker' });
  });

  it('hides an inactive agent from sign-up pages', async () => {
    const a = await makeAgent(h, admin, 'Retired');
    await h.built.services.db
      .updateTable('agents')
      .set({ status: 'inactive' })
      .where('agent_id', '=', a.agentId)
      .execute();
    notVisible(await h.call('GET', `/api/agent/${a.agentId}?ref_key=${a.referralKey}`));
  });

  it('names a malformed id and refuses a stale session instead of answering anonymously', async () => {
    invalid(await h.call('GET', '/api/agent/broker'), 'id');
    invalid(await h.call('GET', `/api/agent/${agent.agentId}?ref_key=${'k'.repeat(101)}`), 'ref_key');
    fails(await h.call('GET', `/api/agent/${agent.agentId}`, { token: states.expired }), 120);
    fails(
      await h.call('GET', `/api/agent/${agent.agentId}`, { token: states.revoked }),
      130,
      'token is disabled',
    );
  });
});

describe('POST /agent/create', () => {
  it('creates an agent with its portal user, a referral key and a log row', async () => {
    const r = await h.call<{ object_id: number }>('POST', '/api/agent/create', {
      token: admin,
      body: {
        agent_name: 'Channel Partner',
        email: 'cp@example.com',
        commission_method: 'revenue',
        commission_percent: '7.5',
        frequency: 'weekly',
        name: 'cp_login',
        passwd: USER_PASSWD,
      },
    });
    const id = ok(r).object_id;
    const p = ok(await h.call<Record<string, string>>('GET', `/api/agent/${id}`, { token: admin }));
    expect(p).toMatchObject({
      agent_name: 'Channel Partner',
      commission_method: 'revenue',
      commission_percent: '7.5000',
      frequency: 'weekly',
      status: 'active',
    });
    expect(p.referral_key).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const t = await h.signIn('cp_login', USER_PASSWD);
    const me = ok(
      await h.call<{ user_type: string; agent: unknown; referal_key: string }>('GET', '/api/user', {
        token: t,
      }),
    );
    expect(me).toMatchObject({
      user_type: 'agent',
      agent: { agent_id: id, agent_name: 'Channel Partner' },
      referal_key: p.referral_key,
    });
    const [row] = await auditRows(h, 'agent', id);
    expect(row).toMatchObject({ action: 'create', before: null, after: { agent_name: 'Channel Partner' } });
  });

  it('refuses duplicates with 160 naming the field', async () => {
    const base = { email: 'x@example.com', passwd: USER_PASSWD };
    expect(
      fails(
        await h.call('POST', '/api/agent/create', {
          token: admin,
          body: { ...base, agent_name: 'BROKER', name: 'new_login' },
        }),
        160,
      ).errors,
    ).toEqual({ agent_name: 'Agent [BROKER] already exists' });
    expect(
      fails(
        await h.call('POST', '/api/agent/create', {
          token: admin,
          body: { ...base, agent_name: 'Fresh', name: 'broker_agent' },
        }),
        160,
      ).errors,
    ).toEqual({ name: 'User [broker_agent] already exists' });
  });

  it('names malformed fields', async () => {
    const base = { agent_name: 'Valid', email: 'v@example.com', name: 'valid_login', passwd: USER_PASSWD };
    invalid(
      await h.call('POST', '/api/agent/create', {
        token: admin,
        body: { ...base, commission_percent: 'ten' },
      }),
      'commission_percent',
      'commission_percent is not valid',
    );
    invalid(
      await h.call('POST', '/api/agent/create', {
        token: admin,
        body: { ...base, commission_method: 'flat' },
      }),
      'commission_method',
    );
    invalid(
      await h.call('POST', '/api/agent/create', { token: admin, body: { ...base, frequency: 'hourly' } }),
      'frequency',
    );
    invalid(
      await h.call('POST', '/api/agent/create', {
        token: admin,
        body: { ...base, email: 'v@x.com;w@x.com' },
      }),
      'email',
      'Only one Email is allowed',
    );
    invalid(
      await h.call('POST', '/api/agent/create', { token: admin, body: { ...base, passwd: '1234567' } }),
      'passwd',
      'Password must be 8 to 15 characters',
    );
    invalid(
      await h.call('POST', '/api/agent/create', { token: admin, body: { ...base, agent_name: '' } }),
      'agent_name',
      'agent_name is required',
    );
    fails(
      await h.call('POST', '/api/agent/create', { token: admin, raw: '{"agent_name":' }),
      110,
      'The request body is not valid JSON',
    );
    expect(
      await h.built.services.db
        .selectFrom('agents')
        .select('agent_id')
        .where('agent_name', '=', 'Valid')
        .execute(),
    ).toHaveLength(0);
  });

  it('refuses portal users and admins without the agents write permission', async () => {
    const body = { agent_name: 'Nope', email: 'n@example.com', name: 'nope_login', passwd: USER_PASSWD };
    denied(await h.call('POST', '/api/agent/create', { token: client, body }));
    denied(await h.call('POST', '/api/agent/create', { token: agent.token, body }));
    denied(await h.call('POST', '/api/agent/create', { token: restricted, body }));
    await expectSessionRequired(h, states, 'POST', '/api/agent/create', { body });
  });
});

describe('POST /carrier/basic/create', () => {
  it('registers a self sign-up as pending: no sign-in until approved', async () => {
    const p = ok(
      await signup({
        name: 'Newco',
        email: 'ops@newco.example.com',
        login_name: 'newco',
        first_name: 'Nia',
        last_name: 'Ode',
      }),
    );
    expect(p.status).toBe('pending');
    const c = await h.built.services.db
      .selectFrom('carriers')
      .selectAll()
      .where('client_id', '=', p.object_id)
      .executeTakeFirstOrThrow();
    expect(c).toMatchObject({
      name: 'Newco',
      company: 'Newco Ltd',
      client_type: 'client',
      company_type: 'termination',
      registration_status: 'pending',
      is_active: false,
      main_email: 'ops@newco.example.com',
      agent_id: null,
    });
    fails(
      await h.call('POST', '/api/auth', { body: { email_or_name: 'newco', password: USER_PASSWD } }),
      190,
      'This user is inactive',
    );
    const [row] = await auditRows(h, 'carrier', p.object_id);
    expect(row).toMatchObject({ action: 'sign-up', user_name: 'system' });
  });

  it("links a sign-up through an agent's referral link to the agent", async () => {
    const p = ok(
      await signup({
        name: 'Referred',
        email: 'r@example.com',
        login_name: 'referred',
        ref_key: agent.referralKey,
        agent_id: agent.agentId,
      }),
    );
    const c = await h.built.services.db
      .selectFrom('carriers')
      .select('agent_id')
      .where('client_id', '=', p.object_id)
      .executeTakeFirstOrThrow();
    expect(c.agent_id).toBe(agent.agentId);
    const balances = ok(
      await h.call<{ items: { name: string }[] }>('GET', '/api/home/agent/client_balances', {
        token: agent.token,
      }),
    );
    expect(balances.items.map((x) => x.name)).toEqual(['Referred']);
  });

  it('refuses a referral that does not match the agent', async () => {
    invalid(
      await signup({ name: 'Spoof', email: 's@example.com', login_name: 'spoof', agent_id: agent.agentId }),
      'ref_key',
      'This referral link is not valid',
    );
    invalid(
      await signup({
        name: 'Spoof',
        email: 's@example.com',
        login_name: 'spoof',
        agent_id: agent.agentId,
        ref_key: rival.referralKey.slice(0, 10),
      }),
      'ref_key',
    );
    invalid(
      await signup({ name: 'Spoof', email: 's@example.com', login_name: 'spoof', ref_key: 'not-a-key' }),
      'ref_key',
    );
    expect(
      await h.built.services.db
        .selectFrom('carriers')
        .select('client_id')
        .where('name', '=', 'Spoof')
        .execute(),
    ).toHaveLength(0);
  });

  it('lets an admin with the carrier permission create an approved carrier whose user signs in', async () => {
    const p = ok(
      await signup(
        {
          name: 'Direct',
          email: 'd@example.com',
          login_name: 'direct',
          client_type: 'vendor',
          company_type: 'origination',
        },
        admin,
      ),
    );
    expect(p.status).toBe('approved');
    const t = await h.signIn('direct', USER_PASSWD);
    expect(
      ok(await h.call<{ user_type: string; company_type: string }>('GET', '/api/user', { token: t })),
    ).toMatchObject({ user_type: 'vendor', company_type: 'origination' });
    // Without the permission an admin's request is an ordinary sign-up.
    expect(
      ok(
        await signup(
          { name: 'Via Restricted', email: 'vr@example.com', login_name: 'via_restricted' },
          restricted,
        ),
      ).status,
    ).toBe('pending');
  });

  it('refuses self sign-up while registration is disabled, but not an admin', async () => {
    ok(
      await h.call('PATCH', '/api/config/system', {
        token: admin,
        body: { user_registration_enabled: false },
      }),
    );
    fails(
      await signup({ name: 'Closed', email: 'c@example.com', login_name: 'closed' }),
      170,
      "Registration can't be processed now, contact admin",
    );
    expect(
      ok(await signup({ name: 'Closed', email: 'c@example.com', login_name: 'closed' }, admin)).status,
    ).toBe('approved');
    ok(
      await h.call('PATCH', '/api/config/system', {
        token: admin,
        body: { user_registration_enabled: true },
      }),
    );
  });

  it('refuses a carrier name or login already taken (any case) with 160 naming the field', async () => {
    expect(
      fails(await signup({ name: 'ACME', email: 'a@example.com', login_name: 'acme_two' }), 160).errors,
    ).toEqual({ name: 'Carrier [ACME] already exists' });
    expect(
      fails(await signup({ name: 'Acme Two', email: 'a@example.com', login_name: 'ACME_USER' }), 160).errors,
    ).toEqual({ login_name: 'User [ACME_USER] already exists' });
  });

  it('names malformed fields and changes nothing', async () => {
    const base = { name: 'Broken', email: 'b@example.com', login_name: 'broken' };
    invalid(await signup({ ...base, company: '' }), 'company', 'company is required');
    invalid(await signup({ ...base, email: 'nope' }), 'email', 'The email field must be a valid email');
    invalid(
      await signup({ ...base, client_type: 'reseller' }),
      'client_type',
      'client_type must be one of: client, vendor',
    );
    invalid(
      await signup({ ...base, first_name: 'B0b' }),
      'first_name',
      'first_name may contain letters and spaces only',
    );
    invalid(await signup({ ...base, login_name: 'bad login' }), 'login_name', 'login_name is not valid');
    invalid(
      await signup({ ...base, passwd: 'x'.repeat(20) }),
      'passwd',
      'Password must be 8 to 15 characters',
    );
    invalid(await signup({ ...base, is_active: true }), '_');
    fails(await h.call('POST', '/api/carrier/basic/create', { raw: 'name=Broken' }), 110);
    expect(
      await h.built.services.db
        .selectFrom('carriers')
        .select('client_id')
        .where('name', '=', 'Broken')
        .execute(),
    ).toHaveLength(0);
  });

  it('refuses a stale admin session instead of turning it into a pending sign-up', async () => {
    fails(await signup({ name: 'Stale', email: 's@example.com', login_name: 'stale' }, states.expired), 120);
    fails(
      await signup({ name: 'Stale', email: 's@example.com', login_name: 'stale' }, states.revoked),
      130,
      'token is disabled',
    );
    expect(
      await h.built.services.db
        .selectFrom('carriers')
        .select('client_id')
        .where('name', '=', 'Stale')
        .execute(),
    ).toHaveLength(0);
  });
});
