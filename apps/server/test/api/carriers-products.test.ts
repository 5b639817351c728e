import { api } from '@tandem/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  denied,
  fails,
  invalid,
  makeAgent,
  makeCarrierUser,
  makeRestrictedAdmin,
  notVisible,
  ok,
  startHarness,
  type Harness,
} from './harness';

let h: Harness;
let admin: string;
let rateTable: number;
let plan: number;
beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  const db = h.built.services.db;
  rateTable = (
    await db
      .insertInto('rate_tables')
      .values({ name: 'Wholesale' })
      .returning('rate_table_id')
      .executeTakeFirstOrThrow()
  ).rate_table_id;
  plan = (
    await db
      .insertInto('routing_plans')
      .values({ name: 'Main plan' })
      .returning('route_plan_id')
      .executeTakeFirstOrThrow()
  ).route_plan_id;
});
afterAll(() => h.close());

const product = (body: Record<string, unknown>, token = admin) =>
  h.call<{ object_id: number }>('POST', '/api/product/create', { token, body });

describe('products', () => {
  it('creates public and private products with carrier and agent assignment; clients see theirs', async () => {
    const mine = await makeCarrierUser(h, admin, 'Buyer');
    const other = await makeCarrierUser(h, admin, 'Stranger');
    const agent = await makeAgent(h, admin, 'Reseller');
    ok(
      await product({
        name: 'Public CLI',
        tech_prefix: '11',
        rate_table_id: rateTable,
        routing_plan_id: plan,
        description: 'CLI route',
      }),
    );
    const priv = ok(
      await product({
        name: 'Private NCLI',
        tech_prefix: '22',
        rate_table_id: rateTable,
        routing_plan_id: plan,
        scope: 'private',
        carrier_ids: [mine.clientId],
        agent_ids: [agent.agentId],
      }),
    ).object_id;
    expect(
      ok(await h.call<Record<string, unknown>>('GET', `/api/product/${priv}`, { token: admin })),
    ).toMatchObject({
      scope: 'private',
      carrier_ids: [mine.clientId],
      agent_ids: [agent.agentId],
      rate_table_name: 'Wholesale',
      routing_plan_name: 'Main plan',
      trunk_count: 0,
    });
    const names = async (token: string, q = '') =>
      ok(await h.call<{ items: { name: string }[] }>('GET', `/api/product/list?${q}`, { token })).items.map(
        (p) => p.name,
      );
    expect(await names(mine.token)).toEqual(['Private NCLI', 'Public CLI']);
    expect(await names(other.token)).toEqual(['Public CLI']);
    notVisible(await h.call('GET', `/api/product/${priv}`, { token: other.token }));
    expect(await names(admin, 'scope=private')).toEqual(['Private NCLI']);
    expect(await names(admin, `carrier_id=${mine.clientId}`)).toEqual(['Private NCLI']);
    denied(await product({ name: 'X', rate_table_id: rateTable, routing_plan_id: plan }, mine.token));
  });

  it('validates and refuses duplicates', async () => {
    fails(
      await product({ name: 'public cli', rate_table_id: rateTable, routing_plan_id: plan }),
      160,
      'Product [public cli] already exists',
    );
    invalid(
      await product({ name: 'P2', routing_plan_id: plan }),
      'rate_table_id',
      'rate_table_id is required',
    );
    invalid(await product({ name: 'P2', rate_table_id: 9999, routing_plan_id: plan }), 'rate_table_id');
    invalid(
      await product({ name: 'P2', rate_table_id: rateTable, routing_plan_id: plan, carrier_ids: [9999] }),
      'carrier_ids',
    );
    invalid(
      await product({ name: 'P2', rate_table_id: rateTable, routing_plan_id: plan, tech_prefix: 'ab' }),
      'tech_prefix',
    );
  });

  it('refuses delete while trunks use it; a plan change reaches the trunk rows', async () => {
    const carrier = ok(
      await h.call<{ object_id: number }>('POST', '/api/carrier/create', {
        token: admin,
        body: { name: 'Product User', company: 'PU', main_email: 'pu@example.com' },
      }),
    ).object_id;
    const p = ok(
      await product({ name: 'Used', tech_prefix: '33', rate_table_id: rateTable, routing_plan_id: plan }),
    ).object_id;
    const trunk = ok(
      await h.call<{ object_id: number }>('POST', '/api/trunk/create', {
        token: admin,
        body: {
          carrier_id: carrier,
          name: 'PU In',
          direction: 'ingress',
          hosts: [{ host: '192.0.2.200' }],
          routing_rows: [{ product_id: p }],
        },
      }),
    ).object_id;
    fails(
      await h.call('DELETE', `/api/product/${p}`, { token: admin }),
      170,
      `Product [${p}] is in use by 1 trunk routing row(s) record(s) and cannot be deleted`,
    );
    const plan2 = (
      await h.built.services.db
        .insertInto('routing_plans')
        .values({ name: 'Backup plan' })
        .returning('route_plan_id')
        .executeTakeFirstOrThrow()
    ).route_plan_id;
    ok(await h.call('PATCH', `/api/product/${p}`, { token: admin, body: { routing_plan_id: plan2 } }));
    const t = ok(
      await h.call<{ routing_rows: { routing_plan_id: number }[] }>('GET', `/api/trunk/${trunk}`, {
        token: admin,
      }),
    );
    expect(t.routing_rows[0]?.routing_plan_id).toBe(plan2);
  });
});

describe('carrier templates', () => {
  it('stores preset settings and a new carrier starts from them', async () => {
    const id = ok(
      await h.call<{ object_id: number }>('POST', '/api/template/carrier/create', {
        token: admin,
        body: {
          name: 'Postpaid wholesale',
          mode: 'postpaid',
          min_profitability: '5',
          cps_limit: 20,
          call_limit: 300,
          automatic_report: true,
          short_call_charge: '0.002',
          auto_invoice: true,
        },
      }),
    ).object_id;
    const t = ok(
      await h.call<Record<string, unknown>>('GET', `/api/template/carrier/${id}`, { token: admin }),
    );
    expect(t).toMatchObject({
      name: 'Postpaid wholesale',
      mode: 'postpaid',
      cps_limit: 20,
      call_limit: 300,
      automatic_report: true,
      short_call_charge: '0.002',
      auto_invoice: true,
    });
    expect(t).not.toHaveProperty('currency');
    invalid(
      await h.call('POST', '/api/template/carrier/create', {
        token: admin,
        body: { name: 'Bad', cps_limit: -1 },
      }),
      'cps_limit',
    );
    fails(
      await h.call('POST', '/api/template/carrier/create', {
        token: admin,
        body: { name: 'postpaid WHOLESALE' },
      }),
      160,
      'Carrier Template [postpaid WHOLESALE] already exists',
    );
    const body = {
      ...api.carriers.carrierFromTemplate(t as never),
      name: 'From Tpl',
      company: 'From Tpl Ltd',
      main_email: 'tpl@example.com',
    };
    const c = ok(
      await h.call<{ object_id: number }>('POST', '/api/carrier/create', { token: admin, body }),
    ).object_id;
    expect(
      ok(await h.call<Record<string, unknown>>('GET', `/api/carrier/${c}`, { token: admin })),
    ).toMatchObject({ mode: 'postpaid', cps_limit: 20, min_profitability: '5.0000', auto_invoice: true });
    const none = await makeRestrictedAdmin(h, admin, 'notemplates');
    denied(await h.call('GET', '/api/template/carrier/list', { token: none.token }));
  });
});

describe('termination wizard', () => {
  const trunk = (name: string, ip: string) => ({ name, hosts: [{ host: ip }] });
  const carrier = (name: string) => ({
    name,
    company: `${name} Ltd`,
    main_email: `${name.toLowerCase().replace(/\W/g, '')}@wizard.example.com`,
  });
  const body = (suffix: string, customerIp = '198.51.100.20') => ({
    vendor: carrier(`Wiz Vendor ${suffix}`),
    vendor_trunk: { ...trunk(`Wiz Vendor ${suffix} Out`, '198.51.100.10'), rate_table_id: rateTable },
    customer: { ...carrier(`Wiz Customer ${suffix}`), mode: 'prepaid' },
    customer_trunk: {
      ...trunk(`Wiz Customer ${suffix} In`, customerIp),
      rate_table_id: rateTable,
      routing_plan_id: plan,
    },
  });

  it('creates vendor, vendor trunk, customer and customer trunk together', async () => {
    const r = ok(
      await h.call<{
        vendor_id: number;
        vendor_trunk_id: number;
        customer_id: number;
        customer_trunk_id: number;
      }>('POST', '/api/termination/wizard', { token: admin, body: body('A') }),
    );
    expect(
      ok(await h.call<Record<string, unknown>>('GET', `/api/carrier/${r.vendor_id}`, { token: admin })),
    ).toMatchObject({ client_type: 'vendor', egress_count: 1 });
    expect(
      ok(await h.call<Record<string, unknown>>('GET', `/api/carrier/${r.customer_id}`, { token: admin })),
    ).toMatchObject({ client_type: 'client', ingress_count: 1 });
    expect(
      ok(await h.call<Record<string, unknown>>('GET', `/api/trunk/${r.vendor_trunk_id}`, { token: admin })),
    ).toMatchObject({ direction: 'egress', carrier_id: r.vendor_id });
    expect(
      ok(await h.call<Record<string, unknown>>('GET', `/api/trunk/${r.customer_trunk_id}`, { token: admin })),
    ).toMatchObject({ direction: 'ingress', carrier_id: r.customer_id, routing_plan_id: plan });
  });

  it('leaves nothing behind when the last step is refused, naming the step field', async () => {
    const before = ok(await h.call<{ total: number }>('GET', '/api/carrier/list', { token: admin })).total;
    const r = fails(
      await h.call('POST', '/api/termination/wizard', { token: admin, body: body('B', '198.51.100.20') }),
      160,
      '198.51.100.20 is already used by ingress trunk [Wiz Customer A In]',
    );
    expect(r.errors?.['customer_trunk.hosts.0.host']).toBeDefined();
    expect(ok(await h.call<{ total: number }>('GET', '/api/carrier/list', { token: admin })).total).toBe(
      before,
    );
    invalid(
      await h.call('POST', '/api/termination/wizard', {
        token: admin,
        body: { ...body('C'), customer: { name: 'X' } },
      }),
      'customer.company',
    );
  });

  it('checks one step at a time with the same rules', async () => {
    const check = (step: string, data: unknown) =>
      h.call('POST', '/api/termination/wizard/check', { token: admin, body: { step, data } });
    ok(await check('vendor', carrier('Fresh Vendor')));
    fails(await check('vendor', carrier('Wiz Vendor A')), 160, 'Carrier [Wiz Vendor A] already exists');
    fails(
      await check('customer_trunk', trunk('Fresh In', '198.51.100.20')),
      160,
      '198.51.100.20 is already used by ingress trunk [Wiz Customer A In]',
    );
    ok(await check('vendor_trunk', trunk('Fresh Out', '198.51.100.20')));
    const bad = invalid(await check('vendor_trunk', trunk('Fresh Out', '1.2.3')), 'data.hosts.0.host');
    expect(bad).toBe('IP format invalid');
    const clerk = await makeRestrictedAdmin(h, admin, 'wizardless', { '/termination/client': 'rw' });
    denied(await h.call('POST', '/api/termination/wizard', { token: clerk.token, body: body('D') }));
  });
});
