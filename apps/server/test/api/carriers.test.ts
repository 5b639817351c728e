import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditRows,
  denied,
  fails,
  invalid,
  makeCarrierUser,
  makeRestrictedAdmin,
  notVisible,
  ok,
  startHarness,
  type Harness,
} from './harness';

let h: Harness;
let admin: string;
let changes = 0;
beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  h.built.services.configChanged.subscribe(() => changes++);
});
afterAll(() => h.close());

type Carrier = Record<string, unknown> & { client_id: number; name: string; login_name: string | null };
const create = (body: Record<string, unknown>, token = admin) =>
  h.call<{ object_id: number }>('POST', '/api/carrier/create', { token, body });
const get = (id: number, token = admin) => h.call<Carrier>('GET', `/api/carrier/${id}`, { token });
const patch = (id: number, body: Record<string, unknown>, token = admin) =>
  h.call('PATCH', `/api/carrier/${id}`, { token, body });
const list = (query: string, token = admin) =>
  h.call<{ items: Carrier[]; total: number }>('GET', `/api/carrier/list?${query}`, { token });
const client = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  company: `${name} Ltd`,
  main_email: `${name.toLowerCase().replace(/\W/g, '')}@example.com`,
  ...extra,
});

describe('carriers: create, read, list', () => {
  let id: number;
  it('creates a client with every edit section and its portal user', async () => {
    const term = ok(
      await h.call<{ object_id: number }>('POST', '/api/config/payment_term/create', {
        token: admin,
        body: { name: 'Net 15' },
      }),
    ).object_id;
    id = ok(
      await create(
        client('Acme Voice', {
          noc_email: 'noc@acme.example.com',
          billing_email: 'billing@acme.example.com',
          rates_email: 'rates@acme.example.com',
          address: '1 Main St',
          tax_id: 'VAT-1',
          mode: 'postpaid',
          credit_limit: '250.5',
          test_credit: '5',
          allowed_credit: '0',
          currency: 'EUR',
          payment_term_id: term,
          call_limit: 100,
          cps_limit: 10,
          port_limit: 50,
          min_profitability: '2.5',
          short_call_charge: '0.01',
          time_zone: '-0500',
          notify_low_balance: true,
          notify_daily_cdr: true,
          low_balance_threshold: '20',
          auto_invoice: true,
          invoice_format: 'excel',
          invoice_include_tax: true,
          is_panel_invoices: false,
          vendor_trunk_access: 'edit',
          allowed_ips: ['192.0.2.0/24'],
          login_name: 'acme_portal',
          passwd: 'Portal#2026',
        }),
      ),
    ).object_id;
    const c = ok(await get(id));
    expect(c).toMatchObject({
      name: 'Acme Voice',
      client_type: 'client',
      company_type: 'termination',
      is_active: true,
      mode: 'postpaid',
      credit_limit: '250.500000',
      currency: 'EUR',
      payment_term_id: term,
      payment_term_name: 'Net 15',
      call_limit: 100,
      time_zone: '-0500',
      notify_low_balance: true,
      notify_daily_cdr: true,
      notify_sign_in: false,
      invoice_format: 'excel',
      invoice_include_tax: true,
      invoice_include_summary: true,
      is_panel_invoices: false,
      is_panel_trunks: true,
      vendor_trunk_access: 'edit',
      allowed_ips: ['192.0.2.0/24'],
      login_name: 'acme_portal',
      registration_status: 'approved',
      trunk_count: 0,
      balance: '0.000000',
    });
    expect(c).not.toHaveProperty('passwd');
    expect(c).not.toHaveProperty('notifications');
    // The portal user is a client user of this carrier and can sign in.
    const token = await h.signIn('acme_portal', 'Portal#2026');
    const me = ok(await h.call<{ user_type: string; client_id: number }>('GET', '/api/user', { token }));
    expect(me).toMatchObject({ client_id: id });
  });

  it('lists clients and vendors with the filters and sorting', async () => {
    ok(await create(client('Zeta Vendor', { client_type: 'vendor', mode: 'prepaid' })));
    ok(await create(client('Beta Orig', { company_type: 'origination', is_active: false })));
    expect(ok(await list('client_type=vendor')).items.map((c) => c.name)).toEqual(['Zeta Vendor']);
    expect(
      ok(await list('client_type=client&order_by=name&order_dir=desc')).items.map((c) => c.name),
    ).toEqual(['Beta Orig', 'Acme Voice']);
    expect(ok(await list('is_active=false')).items.map((c) => c.name)).toEqual(['Beta Orig']);
    expect(ok(await list('company_type=origination')).total).toBe(1);
    expect(
      ok(await list(`payment_term_id=${ok(await get(id)).payment_term_id as number}`)).items.map(
        (c) => c.name,
      ),
    ).toEqual(['Acme Voice']);
    expect(ok(await list('name=acme')).total).toBe(1);
  });

  it('refuses duplicate carrier name, main e-mail and carrier username, naming the field', async () => {
    const dupName = fails(
      await create(client('acme voice', { main_email: 'other@example.com' })),
      160,
      'Carrier [acme voice] already exists',
    );
    expect(dupName.errors?.name).toBeDefined();
    fails(
      await create(client('Other', { main_email: 'ACMEVOICE@example.com' })),
      160,
      'Main e-mail [ACMEVOICE@example.com] already exists',
    );
    const dupLogin = fails(
      await create(client('Other', { login_name: 'ACME_portal', passwd: 'Portal#2026' })),
      160,
      'Carrier username [ACME_portal] already exists',
    );
    expect(dupLogin.errors?.login_name).toBeDefined();
    expect(ok(await list('name=other')).total).toBe(0);
  });

  it('validates fields with the catalogue messages', async () => {
    invalid(
      await create(client('Bad', { main_email: 'not-an-email' })),
      'main_email',
      'The main_email field must be a valid email',
    );
    invalid(await create(client('Bad', { main_email: ' ' })), 'main_email', 'main_email is required');
    invalid(await create(client('Bad', { noc_email: 'x@' })), 'noc_email');
    invalid(await create(client('Bad', { time_zone: '+1300' })), 'time_zone');
    invalid(
      await create(client('Bad', { credit_limit: '-5' })),
      'credit_limit',
      'credit_limit must be a valid positive floating number',
    );
    invalid(
      await create(client('Bad', { call_limit: -1 })),
      'call_limit',
      'call_limit must be a valid positive integer',
    );
    invalid(
      await create(client('Bad', { allowed_ips: ['300.1.1.1'] })),
      'allowed_ips.0',
      'IP format invalid',
    );
    invalid(await create(client('Bad', { login_name: 'bad_login' })), 'passwd', 'passwd is required');
    invalid(
      await create(client('Bad', { login_name: 'bad_login', passwd: 'short' })),
      'passwd',
      'Password must be 8 to 15 characters',
    );
    invalid(await create({ company: 'No name', main_email: 'n@example.com' }), 'name', 'name is required');
    invalid(await create(client('!!!')), 'name', 'Name must include alphanumeric characters');
  });

  it('updates one section without touching the others, and the portal credentials', async () => {
    ok(await patch(id, { notify_sign_in: true, vendor_block_list: false }));
    const c = ok(await get(id));
    expect(c).toMatchObject({
      notify_sign_in: true,
      notify_low_balance: true,
      notify_daily_cdr: true,
      vendor_block_list: false,
      vendor_trunk_access: 'edit',
    });
    ok(await patch(id, { login_name: 'acme_noc', passwd: 'Changed#2026' }));
    expect(ok(await get(id)).login_name).toBe('acme_noc');
    await h.signIn('acme_noc', 'Changed#2026');
    // A carrier without a portal user gets one when credentials are given.
    const v = ok(await list('client_type=vendor')).items[0]!;
    invalid(await patch(v.client_id, { login_name: 'zeta' }), 'passwd');
    ok(await patch(v.client_id, { login_name: 'zeta', passwd: 'Vendor#2026' }));
    const vt = await h.signIn('zeta', 'Vendor#2026');
    expect(ok(await h.call<{ user_type: string }>('GET', '/api/user', { token: vt })).user_type).toBe(
      'vendor',
    );
    const rows = await auditRows(h, 'carrier', id);
    expect(rows[0]?.after).toMatchObject({ login_name: 'acme_noc', passwd: '***' });
  });

  it('deactivates and re-activates a carrier and rebuilds the routing snapshot each time', async () => {
    const before = changes;
    ok(await h.call('PATCH', `/api/carrier/${id}/deactivate`, { token: admin }));
    expect(ok(await get(id)).is_active).toBe(false);
    ok(await h.call('PATCH', `/api/carrier/${id}/activate`, { token: admin }));
    expect(ok(await get(id)).is_active).toBe(true);
    expect(changes).toBe(before + 2);
  });

  it('refuses delete while trunks exist, with counts, and deletes the carrier and its portal user after', async () => {
    const c = ok(
      await create(client('Temp Carrier', { login_name: 'temp_portal', passwd: 'Portal#2026' })),
    ).object_id;
    const trunk = ok(
      await h.call<{ object_id: number }>('POST', '/api/trunk/create', {
        token: admin,
        body: { carrier_id: c, name: 'Temp in', direction: 'ingress', hosts: [{ host: '198.51.100.77' }] },
      }),
    ).object_id;
    const usage = ok(
      await h.call<{ items: { what: string; count: number }[]; total: number }>(
        'GET',
        `/api/carrier/${c}/usage`,
        { token: admin },
      ),
    );
    expect(usage.items).toContainEqual({ what: 'ingress trunk(s)', count: 1 });
    fails(
      await h.call('DELETE', `/api/carrier/${c}`, { token: admin }),
      170,
      'Carrier [' + c + '] is in use by 1 ingress trunk(s) record(s) and cannot be deleted',
    );
    ok(await h.call('DELETE', `/api/trunk/${trunk}`, { token: admin }));
    ok(await h.call('DELETE', `/api/carrier/${c}`, { token: admin }));
    notVisible(await get(c));
    fails(
      await h.call('POST', '/api/auth', { body: { email_or_name: 'temp_portal', password: 'Portal#2026' } }),
      190,
      'User name or password is incorrect',
    );
  });
});

describe('carriers: permissions and tenancy', () => {
  it('a role without the carrier pages gets 140; the credit limit needs Credit Management write', async () => {
    const none = await makeRestrictedAdmin(h, admin, 'nocarrier');
    denied(await list('', none.token));
    const sales = await makeRestrictedAdmin(h, admin, 'sales', { '/termination/client': 'rw' });
    const id = ok(await create(client('Sales Client'), sales.token)).object_id;
    denied(await create(client('Sales Credit', { credit_limit: '100' }), sales.token));
    denied(await patch(id, { credit_limit: '100' }, sales.token));
    ok(await patch(id, { credit_limit: '0', mode: 'postpaid' }, sales.token));
    denied(
      await h.call('PATCH', `/api/carrier/${id}/credit`, {
        token: sales.token,
        body: { credit_limit: '100' },
      }),
    );
    const finance = await makeRestrictedAdmin(h, admin, 'finance', {
      '/termination/client': 'rw',
      '/termination/credit_management': 'rw',
    });
    ok(await patch(id, { credit_limit: '100' }, finance.token));
    expect(ok(await get(id)).credit_limit).toBe('100.000000');
  });

  it('a client sees only its own carrier and cannot write', async () => {
    const own = await makeCarrierUser(h, admin, 'Tenant');
    const other = ok(await create(client('Neighbour'))).object_id;
    const seen = ok(await list('per_page=100', own.token));
    expect(seen.items.map((c) => c.client_id)).toEqual([own.clientId]);
    ok(await get(own.clientId, own.token));
    notVisible(await get(other, own.token));
    denied(await patch(own.clientId, { credit_limit: '999999' }, own.token));
    denied(await create(client('Sneaky'), own.token));
  });
});

describe('credit management', () => {
  it('lists balances with the available credit and changes credit with an audit row', async () => {
    const id = ok(await create(client('Credit Co', { mode: 'prepaid', allowed_credit: '15' }))).object_id;
    await h.built.services.db
      .updateTable('carriers')
      .set({ balance: '10.25' })
      .where('client_id', '=', id)
      .execute();
    const row = ok(
      await h.call<{ items: Record<string, unknown>[] }>('GET', '/api/carrier/credit/list?name=Credit', {
        token: admin,
      }),
    ).items[0];
    expect(row).toMatchObject({
      name: 'Credit Co',
      balance: '10.250000',
      allowed_credit: '15.000000',
      available: '25.250000',
      mode: 'prepaid',
    });
    const before = changes;
    fails(
      await h.call('PATCH', `/api/carrier/${id}/credit`, { token: admin, body: { mode: 'postpaid' } }),
      110,
    );
    invalid(
      await h.call('PATCH', `/api/carrier/${id}/credit`, { token: admin, body: { credit_limit: 'abc' } }),
      'credit_limit',
    );
    ok(
      await h.call('PATCH', `/api/carrier/${id}/credit`, {
        token: admin,
        body: { credit_limit: '300', unlimited_credit: true },
      }),
    );
    expect(ok(await get(id))).toMatchObject({ credit_limit: '300.000000', unlimited_credit: true });
    expect(changes).toBe(before + 1);
    expect((await auditRows(h, 'carrier', id))[0]).toMatchObject({
      action: 'credit',
      after: { credit_limit: '300', unlimited_credit: true },
    });
  });
});

describe('registration approvals', () => {
  const signup = (name: string) =>
    h.call<{ object_id: number; status: string }>('POST', '/api/carrier/basic/create', {
      body: {
        name,
        company: `${name} Inc`,
        email: `${name.toLowerCase().replace(/\W/g, '')}@signup.example.com`,
        login_name: `${name.toLowerCase().replace(/\W/g, '')}_su`,
        passwd: 'Signup#2026',
        first_name: 'Sam',
        last_name: 'Signer',
      },
    });
  it('lists pending sign-ups, shows what was entered, approves and rejects once', async () => {
    // self-registration is off until the operator turns it on (issue 18)
    ok(
      await h.call('PATCH', '/api/config/system', {
        token: admin,
        body: { user_registration_enabled: true },
      }),
    );
    const a = ok(await signup('Pending One')).object_id;
    const b = ok(await signup('Pending Two')).object_id;
    const pending = ok(
      await h.call<{ items: { client_id: number; login_name: string }[]; total: number }>(
        'GET',
        '/api/carrier/registration/list',
        { token: admin },
      ),
    );
    expect(pending.items.map((r) => r.client_id)).toEqual([a, b]);
    const detail = ok(
      await h.call<Record<string, unknown>>('GET', `/api/carrier/registration/${a}`, { token: admin }),
    );
    expect(detail).toMatchObject({
      name: 'Pending One',
      company: 'Pending One Inc',
      login_name: 'pendingone_su',
      first_name: 'Sam',
      last_name: 'Signer',
      registration_status: 'pending',
    });
    ok(await h.call('PATCH', `/api/carrier/${a}/approve`, { token: admin }));
    ok(await h.call('PATCH', `/api/carrier/${b}/reject`, { token: admin }));
    expect(ok(await get(a))).toMatchObject({ registration_status: 'approved', is_active: true });
    expect(ok(await get(b))).toMatchObject({ registration_status: 'rejected', is_active: false });
    await h.signIn('pendingone_su', 'Signup#2026');
    fails(
      await h.call('PATCH', `/api/carrier/${a}/reject`, { token: admin }),
      170,
      'This registration is not pending review',
    );
    expect(
      ok(await h.call<{ total: number }>('GET', '/api/carrier/registration/list', { token: admin })).total,
    ).toBe(0);
    expect(
      ok(
        await h.call<{ total: number }>('GET', '/api/carrier/registration/list?status=rejected', {
          token: admin,
        }),
      ).total,
    ).toBe(1);
    const clerk = await makeRestrictedAdmin(h, admin, 'clerk', { '/termination/registration': 'r' });
    ok(await h.call('GET', '/api/carrier/registration/list', { token: clerk.token }));
    denied(await h.call('PATCH', `/api/carrier/${b}/approve`, { token: clerk.token }));
  });
});

describe('clients export', () => {
  it('exports the matching carriers as CSV with formula cells escaped, and logs the export', async () => {
    ok(await create(client('=Formula1', { main_email: 'formula@example.com', address: 'Street, 1' })));
    const res = await h.built.app.inject({
      method: 'GET',
      url: '/api/carrier/export?client_type=client&columns=name,address,mode',
      headers: { 'x-auth-token': admin },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/clients-\d{4}-\d\d-\d\d\.csv/);
    const lines = res.body.replace('\uFEFF', '').trim().split('\r\n');
    expect(lines[0]).toBe('name,address,mode');
    expect(lines).toContain(`'=Formula1,"Street, 1",prepaid`);
    expect(lines.some((l) => l.startsWith('Zeta Vendor'))).toBe(false);
    const log = await h.built.services.db
      .selectFrom('export_log')
      .selectAll()
      .where('entity', '=', 'carrier')
      .execute();
    expect(log).toHaveLength(1);
    invalid(
      await h.call('GET', '/api/carrier/export?columns=name,password_hash', { token: admin }),
      'columns',
    );
  });
});
