import { expect, test, type Page } from '@playwright/test';
import { api, MENU_MODULES } from '@tandem/contract';
import { call, createAgent, createCarrierUser, signIn } from '../support/api';
import { adminToken, enterAs, enterAsAdmin, HOME } from '../support/ui';

/**
 * Issue 17 point 1 and 10: every admin module's entries are a readable list (columns above 14),
 * each entry visible, separate from the others and inside the window at 1280 and 1920 pixels, and
 * the menus work from the keyboard; the waiting counters never overlap the clock.
 */

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width - 0.5 &&
  b.x < a.x + a.width - 0.5 &&
  a.y < b.y + b.height - 0.5 &&
  b.y < a.y + a.height - 0.5;

async function checkPanel(page: Page, module: string, width: number, height: number) {
  const panel = page.getByTestId(`menu-panel-${module}`);
  await expect(panel).toBeVisible();
  // Measure after the opening animation (a zoom): the panel's box stops changing.
  await expect
    .poll(async () => {
      const a = JSON.stringify(await panel.boundingBox());
      await page.waitForTimeout(100);
      return a === JSON.stringify(await panel.boundingBox());
    })
    .toBe(true);
  const links = panel.locator('a');
  const n = await links.count();
  expect(n, `${module} has entries`).toBeGreaterThan(0);
  const boxes: Box[] = [];
  for (let k = 0; k < n; k++) {
    const link = links.nth(k);
    await expect(link).toBeVisible();
    const b = (await link.boundingBox())!;
    const text = (await link.innerText()).trim();
    expect(text.length, `${module} entry ${k} has text`).toBeGreaterThan(0);
    expect(b.x, `${module} "${text}" starts inside the window`).toBeGreaterThanOrEqual(0);
    expect(b.x + b.width, `${module} "${text}" ends inside the window`).toBeLessThanOrEqual(width);
    expect(b.y + b.height, `${module} "${text}" is above the window's bottom`).toBeLessThanOrEqual(height);
    // The whole text is shown, not cut by the panel.
    const clipped = await link.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
    expect(clipped, `${module} "${text}" is not cut`).toBe(false);
    for (const o of boxes)
      expect(overlap(b, o), `${module} "${text}" is separate from the others`).toBe(false);
    boxes.push(b);
  }
  // One entry a row, or columns of at most 14 rows.
  const rows = new Set(boxes.map((b) => Math.round(b.y)));
  const cols = new Set(boxes.map((b) => Math.round(b.x)));
  if (!module.startsWith('Statistics')) {
    expect(rows.size, `${module}: at most 14 rows`).toBeLessThanOrEqual(14);
    expect(rows.size * cols.size, `${module}: a list, entries not run together`).toBeGreaterThanOrEqual(n);
    if (n <= 14) expect(cols.size, `${module}: one column up to 14 entries`).toBe(1);
  }
}

for (const [width, height] of [
  [1280, 800],
  [1920, 1080],
] as const) {
  test(`every admin module menu is a readable list inside the window at ${width}px`, async ({ page }) => {
    test.slow();
    await adminToken();
    await page.setViewportSize({ width, height });
    await enterAsAdmin(page, HOME.admin);
    const menu = page.getByTestId('admin-menu');
    for (const m of MENU_MODULES) {
      const button = menu.getByTestId(`menu-${m.group_name}`);
      await expect(button).toBeVisible();
      const bb = (await button.boundingBox())!;
      expect(bb.x + bb.width, `${m.group_name} button inside the window`).toBeLessThanOrEqual(width);
      await button.click();
      await checkPanel(page, m.group_name, width, height);
      await page.keyboard.press('Escape');
      await page.mouse.move(width / 2, height - 10);
      await expect(page.getByTestId(`menu-panel-${m.group_name}`)).toBeHidden();
    }
  });
}

test('module menus work from the keyboard', async ({ page }) => {
  await adminToken();
  await page.setViewportSize({ width: 1280, height: 800 });
  await enterAsAdmin(page, HOME.admin);
  const button = page.getByTestId('menu-Tools');
  await button.focus();
  await page.keyboard.press('Enter');
  const panel = page.getByTestId('menu-panel-Tools');
  await expect(panel).toBeVisible();
  // Measure after the opening animation (a zoom): the panel's box stops changing.
  await expect
    .poll(async () => {
      const a = JSON.stringify(await panel.boundingBox());
      await page.waitForTimeout(100);
      return a === JSON.stringify(await panel.boundingBox());
    })
    .toBe(true);
  const links = panel.locator('a');
  await expect(links.first()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(links.nth(1)).toBeFocused();
  await page.keyboard.press('End');
  await expect(links.last()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(button).toBeFocused();
  // Enter on an entry opens its page.
  await page.keyboard.press('Enter');
  await expect(links.first()).toBeFocused();
  const href = await links.first().getAttribute('href');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`${href!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
});

test('unbuilt entries carry a later-version badge; their page names itself instead of "Page not found"', async ({
  page,
}) => {
  await adminToken();
  await enterAsAdmin(page, HOME.admin);
  await page.getByTestId('menu-Finance').click();
  const invoice = page.getByTestId('menu-item-/finance/invoice');
  await expect(invoice.locator('.menu-later')).toHaveText('later');
  // A built entry has no badge.
  await page.keyboard.press('Escape');
  await page.getByTestId('menu-Routing').click();
  await expect(page.getByTestId('menu-item-/routing/rate_table').locator('.menu-later')).toHaveCount(0);
  await page.goto('/#/finance/invoice');
  await expect(page.getByTestId('page-title')).toHaveText('Invoice');
  await expect(page.getByTestId('not-available')).toContainText('later version');
  await expect(page).toHaveTitle('Invoice - Tandem');
  await expect(page.getByText('Page not found')).toHaveCount(0);
});

test('portal pages not built yet name themselves in the user language, with badges in the menu', async ({
  page,
  browser,
}) => {
  const token = await adminToken();
  const client = await createCarrierUser(token);
  await enterAs(page, client.name, client.password, HOME.client);
  await page.getByTestId('menu-billing').hover();
  await expect(page.getByTestId('menu-item-invoices').locator('.menu-later')).toBeVisible();
  await page.goto('/#/clients/billing/invoices');
  await expect(page.getByTestId('page-title')).toHaveText('Invoices');
  await expect(page.getByTestId('not-available')).toContainText('later version');
  await expect(page).toHaveTitle('Invoices - Tandem');

  const agent = await createAgent(token);
  const ctx = await browser.newContext();
  const ap = await ctx.newPage();
  await ap.addInitScript(() => localStorage.setItem('languages', 'de'));
  await enterAs(ap, agent.name, agent.password, '/agents/client/client_list');
  await expect(ap.getByTestId('page-title')).toHaveText('Kundenliste');
  await expect(ap.getByTestId('not-available')).toContainText('späteren Version');
  await ctx.close();
});

test('the waiting counters sit beside the clock without covering it', async ({ page }) => {
  const token = await adminToken();
  const client = await createCarrierUser(token);
  // A waiting ticket makes the counter appear.
  const clientToken = await signIn(client.name, client.password);
  const { object_id } = await call(api.ticket.createTicket, {
    token: clientToken,
    body: { subject: 'Counter check', content: 'Please look' },
  });
  await call(api.ticket.sendTicket, { token: clientToken, params: { id: object_id } });
  for (const width of [1280, 1920]) {
    await page.setViewportSize({ width, height: 800 });
    await enterAsAdmin(page, HOME.admin);
    const counter = page.getByTestId('counter-tickets');
    await expect(counter).toBeVisible();
    const a = (await counter.boundingBox())!;
    const badge = (await counter.locator('.ant-badge').boundingBox())!;
    const clock = (await page.getByTestId('clock').boundingBox())!;
    expect(overlap(a, clock)).toBe(false);
    expect(overlap(badge, clock)).toBe(false);
    expect(badge.x + badge.width).toBeLessThanOrEqual(a.x + a.width + 0.5);
  }
});
