import { api, MENU_MODULES } from '@tandem/contract';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { baseUrl, call, createAgent, createCarrierUser, unique } from '../support/api';
import { randomIp, rateTableWith, vendorWithTrunk } from '../support/switch';
import {
  declaredRoutes,
  fillParams,
  portalMenuPaths,
  settledTexts,
  untranslated,
} from '../support/translations';
import { adminToken, enterAs, FIRST_ADMIN, HOME } from '../support/ui';

/**
 * Issue 17 point 2: no built page shows English in de or ch. The routes come from the web app's
 * declarations (support/translations.ts), with the routes it generates from the contract (one page per
 * declared report) and every menu entry a screen serves, so a new page is checked without touching
 * this file (a new route parameter needs a sample value below). Per role one signed-in page in de and
 * one in ch, navigated by hash side by side, collect each route's visible texts (headings, menus,
 * buttons, labels, table headers, tags, empty states; not the rows' data) and fail on any text that
 * reads as in English (support/translations.ts `untranslated`), apart from the allow-list of names,
 * codes and units. A German string copied from English is the catalogue test's to find.
 */

type Role = 'admin' | 'client' | 'vendor' | 'agent';

interface Ids {
  rateTable: number;
  rateTableName: string;
  vendor: number;
  egressTrunk: number;
  client: number;
  clientName: string;
  agent: number;
  dynamicRoute: number;
  product: number;
}

/** Sample values of the route parameters; a path-specific one first. */
function sample(route: string, param: string, ids: Ids): string | undefined {
  const byRoute: Record<string, Record<string, string>> = {
    '/termination/clients/edit/:id': { id: String(ids.client) },
    '/termination/clients/edit/:id/:infoType': { id: String(ids.client), infoType: 'ip' },
    '/routing/trunks/edit/:id/:type': { id: String(ids.egressTrunk), type: 'egress' },
    '/routing/rate_table/edit/:id': { id: String(ids.rateTable) },
    '/routing/rate_table/editing_ratetable/:id': { id: String(ids.rateTable) },
    '/routing/rate_table/editing_rates/:id': { id: String(ids.rateTable) },
    '/routing/rate_table/code_desk/:id': { id: String(ids.rateTable) },
    '/routing/rate_table/:redirect/editing_rates/:id': { id: String(ids.rateTable), redirect: 'rate_table' },
    '/template/send_rate/:type/:name/:rateType/:id': {
      type: 'rate_table',
      name: 'deck',
      rateType: 'a_z',
      id: String(ids.rateTable),
    },
    '/tools/rate_generation/history/:id/:type': { type: 'rates' },
    '/tools/rate_generation/history/:id/:type/apply': { type: 'rates' },
    '/statistics/cdrs_list/:tab': { tab: 'summary' },
    '/statistics/dashboard/:tab': { tab: 'charts' },
    '/configuration/user_management/:tab': { tab: 'carrier' },
    '/configuration/trunk_group/:tab': { tab: 'egress' },
    // A carrier's name (data) in the path, not an English word.
    '/agents/client/client_payment/:client_name/:client_id': {
      client_name: ids.clientName,
      client_id: String(ids.client),
    },
    // The dynamic route made in beforeAll (id 1 exists only when an earlier spec made one).
    '/routing/dynamic_routing/:id/qos_parameters': { id: String(ids.dynamicRoute) },
    '/routing/dynamic_routing/:id/trunk_priority': { id: String(ids.dynamicRoute) },
    '/routing/dynamic_routing/:id/trunk_priority/new': { id: String(ids.dynamicRoute) },
    '/routing/dynamic_routing/:id/trunk_priority/:trunkId/edit': {
      id: String(ids.dynamicRoute),
      trunkId: String(ids.egressTrunk),
    },
    // The agent made in beforeAll (id 1 is whichever agent an earlier spec made, with data of its own
    // such as its referral key).
    '/agent/agent_management/edit/:id': { id: String(ids.agent) },
    '/agent/agent_management/:id': { id: String(ids.agent) },
    '/agent/agent_manage_clients/:name/:id': { id: String(ids.agent), name: 'route' },
    // The rate table of the product the agent may sell (beforeAll).
    '/agents/management/products/view_rates/:rate_table_name/:rate_table_id': {
      rate_table_name: ids.rateTableName,
      rate_table_id: String(ids.rateTable),
    },
    // The same product, which the client may buy too (beforeAll).
    '/clients/termination/view_rates/:product_id': { product_id: String(ids.product) },
  };
  const general: Record<string, string> = {
    id: '1',
    tab: 'ingress',
    type: 'ingress',
    eiType: 'ingress',
    carrierType: 'client',
    infoType: 'ip',
    rateTableId: String(ids.rateTable),
    egressId: String(ids.egressTrunk),
    trunkId: String(ids.egressTrunk),
    carrierId: String(ids.vendor),
    termId: '1',
    roleId: '1',
    planId: '1',
    groupId: '1',
    name: 'route',
    it: '1',
    client_id: String(ids.client),
    client_name: 'client',
    info_type: 'ip',
    invoice_number: '1',
    paid_status: 'unpaid',
    paymentType: 'received',
  };
  return byRoute[route]?.[param] ?? general[param];
}

const isPortal = (p: string) => p.startsWith('/clients/') || p.startsWith('/agents/');
const matches = (route: string, url: string) =>
  new RegExp(`^${route.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+')}$`).test(url);

function routesOf(role: Role, ids: Ids): string[] {
  const declared = declaredRoutes().map((r) => r.path);
  if (role === 'admin') {
    const built = declared.filter((p) => !isPortal(p)).map((p) => fillParams(p, (x) => sample(p, x, ids)));
    const menu = MENU_MODULES.flatMap((m) => m.items.map((i) => i.web_url));
    // Every menu entry a screen serves, as the menu links it (its own parameter values).
    const linked = menu.filter((u) => declared.some((r) => matches(r, u)));
    // One catalogue entry without a screen yet: the "later version" page.
    const later = menu.find((u) => !declared.some((r) => matches(r, u)));
    return [...new Set([...built, ...linked, ...(later ? [later] : [])])];
  }
  const prefix = role === 'agent' ? '/agents/' : '/clients/';
  const mine = [...declared, ...portalMenuPaths()].filter((p) => p.startsWith(prefix));
  return [...new Set(['/my_profile', ...mine.map((p) => fillParams(p, (x) => sample(p, x, ids)))])];
}

async function go(page: Page, path: string): Promise<Set<string>> {
  await page.evaluate((h) => {
    window.location.hash = h;
  }, path);
  // The page in its frame, or the error page an edit page sends a missing sample record to.
  await expect(page.getByTestId('frame-header').or(page.locator('.ant-result')).first(), path).toBeVisible({
    timeout: 30_000,
  });
  return settledTexts(page);
}

async function setLanguage(page: Page, lang: 'de' | 'ch') {
  await page.evaluate((l) => localStorage.setItem('languages', l), lang);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', lang === 'ch' ? 'zh' : lang, {
    timeout: 30_000,
  });
  await expect(page.getByTestId('frame-header')).toBeVisible({ timeout: 60_000 });
}

const LANGUAGES = ['de', 'ch'] as const;

/**
 * One signed-in page per language, each in its own browser context (its own storage), made once per
 * role and worker and reused by its tests; they open every route side by side and a route's texts in
 * de and ch are checked at once (soft: every finding is reported).
 */
const sessions = new Map<Role, Page[]>();

async function pagesOf(browser: Browser, role: Role): Promise<Page[]> {
  const known = sessions.get(role);
  if (known) return known;
  const l = logins[role];
  const pages: Page[] = [];
  for (const lang of LANGUAGES) {
    const context = await browser.newContext({ baseURL: baseUrl(), timezoneId: 'UTC' });
    const page = await context.newPage();
    await enterAs(page, l.name, l.password, HOME[role], { timeout: 60_000 });
    await setLanguage(page, lang);
    pages.push(page);
  }
  sessions.set(role, pages);
  return pages;
}

async function check(browser: Browser, role: Role, routes: string[]): Promise<void> {
  const pages = await pagesOf(browser, role);
  const names = logins[role].names;
  for (const r of routes) {
    const [de, ch] = await Promise.all(pages.map((p) => go(p, r)));
    const found = untranslated(de!, ch!, names);
    expect.soft(found.de, `de ${r}`).toEqual([]);
    expect.soft(found.ch, `ch ${r}`).toEqual([]);
  }
}

test.afterAll(async () => {
  for (const pages of sessions.values()) await Promise.all(pages.map((p) => p.context().close()));
  sessions.clear();
});

let ids: Ids;
const logins = {} as Record<Role, { name: string; password: string; names: string[] }>;

test.beforeAll(async () => {
  const token = await adminToken();
  const rt = await rateTableWith(token, 'i18n_rt', [{ code: '1', code_name: 'USA', rate: '0.01' }]);
  const vendor = await vendorWithTrunk(token, { rateTableId: rt.id, ip: randomIp() });
  const client = await createCarrierUser(token);
  const vendorUser = await createCarrierUser(token, { client_type: 'vendor' });
  const agent = await createAgent(token);
  // A product the agent may sell and the client buy, so both portals' View Rates show a rate table.
  const plan = await call(api.routing.routingPlan.create, { token, body: { name: unique('i18n_plan') } });
  const dynamicRoute = await call(api.routing.dynamicRoute.create, {
    token,
    body: { name: unique('i18n_dyn'), rule: 'lcr' },
  });
  await call(api.routing.addDynamicTrunk, {
    token,
    params: { id: dynamicRoute.object_id },
    body: { trunk_id: vendor.trunkId },
  });
  const product = unique('i18n_product');
  const productId = (
    await call(api.carriers.product.create, {
      token,
      body: {
        name: product,
        rate_table_id: rt.id,
        routing_plan_id: plan.object_id,
        scope: 'private',
        agent_ids: [agent.agentId],
        carrier_ids: [client.clientId],
      } as never,
    })
  ).object_id;
  ids = {
    rateTable: rt.id,
    rateTableName: rt.name,
    vendor: vendor.carrierId,
    egressTrunk: vendor.trunkId,
    client: client.clientId,
    clientName: client.carrierName,
    agent: agent.agentId,
    dynamicRoute: dynamicRoute.object_id,
    product: productId,
  };
  const data = [
    rt.name,
    vendor.carrierName,
    vendor.trunkName,
    client.carrierName,
    agent.agentName,
    agent.name,
    // shown cut to its first ten characters
    agent.referralKey.slice(0, 10),
  ];
  logins.admin = { name: FIRST_ADMIN.name, password: FIRST_ADMIN.passwd, names: data };
  logins.client = { name: client.name, password: client.password, names: [client.name, client.carrierName] };
  logins.vendor = {
    name: vendorUser.name,
    password: vendorUser.password,
    names: [vendorUser.name, vendorUser.carrierName],
  };
  logins.agent = {
    name: agent.name,
    password: agent.password,
    names: [agent.name, agent.agentName, product, rt.name, client.carrierName],
  };
});

/** The admin's routes by menu area (first path segment), one test each: findings and time per area. */
const adminAreas = () => [...new Set(routesOf('admin', ids).map((r) => r.split('/')[1]!))];
const ADMIN_AREAS = [
  ...new Set(
    declaredRoutes()
      .map((r) => r.path)
      .filter((p) => !isPortal(p))
      .map((p) => p.split('/')[1]!),
  ),
];

for (const area of ADMIN_AREAS) {
  test(`every admin page under /${area} reads in de and ch, not in English`, async ({ browser }) => {
    expect(adminAreas()).toContain(area);
    const routes = routesOf('admin', ids).filter((r) => r.split('/')[1] === area);
    // Each route is read twice and waits to settle: time by the area's size (routing: 60 routes).
    test.setTimeout(Math.max(600_000, routes.length * 30_000));
    await check(browser, 'admin', routes);
  });
}

test('every admin route is in one of the areas checked', () => {
  const routes = routesOf('admin', ids);
  expect(routes.length).toBeGreaterThan(100);
  // The "later version" page of a catalogue entry without a screen belongs to an area above too.
  expect(routes.filter((r) => !ADMIN_AREAS.includes(r.split('/')[1]!))).toEqual([]);
});

/**
 * The tab's title of a page whose strings load with it (registerTranslations), on a first load: the
 * checks above read each title after their session has loaded most areas, and showed the bare key
 * ('finance.actualTransaction - Tandem') in every language.
 */
test('a page opened first is titled in the language, not with its key', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: baseUrl(), timezoneId: 'UTC' });
  const page = await context.newPage();
  await page.addInitScript(() => localStorage.setItem('languages', 'de'));
  await enterAs(page, FIRST_ADMIN.name, FIRST_ADMIN.passwd, '/finance/actual_transaction', {
    timeout: 60_000,
  });
  await expect(page).toHaveTitle('Tatsächliche Buchungen - Tandem');
  await page.goto('/#/configuration/mail_template');
  await page.reload();
  await expect(page.getByTestId('frame-header')).toBeVisible({ timeout: 60_000 });
  await expect(page).toHaveTitle('Mail-Vorlage - Tandem');
  await context.close();
});

for (const role of ['client', 'vendor', 'agent'] as const) {
  test(`every ${role} page reads in de and ch, not in English`, async ({ browser }) => {
    test.setTimeout(300_000);
    const routes = routesOf(role, ids);
    expect(routes.length).toBeGreaterThan(3);
    await check(browser, role, routes);
  });
}
