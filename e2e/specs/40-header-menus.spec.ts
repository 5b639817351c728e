import { expect, test, type Locator, type Page } from '@playwright/test';
import { api, MENU_MODULES } from '@tandem/contract';
import { call, createCarrierUser, FIRST_ADMIN, signIn } from '../support/api';
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

/** How many distinct lines the positions fall on, positions within 4 px being one line. */
function lines(positions: number[]): number {
  const sorted = [...positions].sort((a, b) => a - b);
  return sorted.filter((p, k) => k === 0 || p - sorted[k - 1]! > 4).length;
}

/**
 * Waits for a menu panel's opening animation (a zoom) to finish: on a busy machine its frames can
 * stall, so a box that stays put for a moment is no proof; the browser is asked for its animations.
 */
async function settled(panel: Locator) {
  await expect
    .poll(() =>
      panel.evaluate((el) => {
        const popup = el.closest('.ant-dropdown, .ant-popover') ?? el;
        const moving = popup.getAnimations({ subtree: true }).some((a) => a.playState === 'running');
        return !moving && !/-(enter|appear)/.test(popup.getAttribute('class') ?? '');
      }),
    )
    .toBe(true);
}

async function checkPanel(page: Page, module: string, width: number, height: number) {
  const panel = page.getByTestId(`menu-panel-${module}`);
  await expect(panel).toBeVisible();
  await settled(panel);
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
  // Rows and columns from one snapshot of the panel (not box by box while anything may still move).
  const snapshot: Box[] = await links.evaluateAll((els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    }),
  );
  // One entry a row, or columns of at most 14 rows.
  // Positions within 4 px are one row or column (an entry with a badge sits a fraction of a pixel
  // off its neighbour in the next column).
  const rows = { size: lines(snapshot.map((b) => b.y)) };
  const cols = { size: lines(snapshot.map((b) => b.x)) };
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
  await settled(panel);
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
  await page.getByTestId('menu-Tools').click();
  const later = page.getByTestId('menu-item-/tools/sip_packet_search');
  await expect(later.locator('.menu-later')).toHaveText('later');
  // A built entry has no badge.
  await page.keyboard.press('Escape');
  await page.getByTestId('menu-Routing').click();
  await expect(page.getByTestId('menu-item-/routing/rate_table').locator('.menu-later')).toHaveCount(0);
  await page.goto('/#/tools/sip_packet_search');
  await expect(page.getByTestId('page-title')).toHaveText('SIP Packet Search');
  await expect(page.getByTestId('not-available')).toContainText('later version');
  await expect(page).toHaveTitle('SIP Packet Search - Tandem');
  await expect(page.getByText('Page not found')).toHaveCount(0);
});

test('every page of the client portal menu is built; a page still to come names itself in the user language', async ({
  page,
  browser,
}) => {
  const token = await adminToken();
  const client = await createCarrierUser(token);
  await enterAs(page, client.name, client.password, HOME.client);
  await page.getByTestId('menu-company').hover();
  await expect(page.getByTestId('menu-item-block_list')).toBeVisible();
  await expect(page.getByTestId('menu-item-my_ip_address')).toBeVisible();
  await expect(page.getByTestId('client-menu').locator('.menu-later')).toHaveCount(0);
  await expect(page.getByTestId('menu-products')).toBeVisible();
  await expect(page.locator('.menu-later')).toHaveCount(0);

  // In German: an operator page of a later version (the portals' menu pages are all built).
  const ctx = await browser.newContext();
  const cp = await ctx.newPage();
  await cp.addInitScript(() => localStorage.setItem('languages', 'de'));
  await enterAs(cp, FIRST_ADMIN.name, FIRST_ADMIN.passwd, '/tools/sip_packet_search');
  await expect(cp.getByTestId('not-available')).toContainText('späteren Version');
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

test('the de header is one row at 1440 pixels, with every module, the counters, the clock and the user menu', async ({
  page,
}) => {
  const token = await adminToken();
  // A waiting ticket makes the counter appear: the widest header an admin sees.
  const client = await createCarrierUser(token);
  const clientToken = await signIn(client.name, client.password);
  const { object_id } = await call(api.ticket.createTicket, {
    token: clientToken,
    body: { subject: 'Header row check', content: 'Please look' },
  });
  await call(api.ticket.sendTicket, { token: clientToken, params: { id: object_id } });
  await page.setViewportSize({ width: 1440, height: 900 });
  await enterAsAdmin(page, HOME.admin);
  await page.evaluate(() => localStorage.setItem('languages', 'de'));
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de', { timeout: 30_000 });
  await expect(page.getByTestId(`menu-${MENU_MODULES.at(-1)!.group_name}`)).toHaveText(/Werkzeuge/);
  await expect(page.getByTestId('counter-tickets')).toBeVisible();
  const parts = [
    page.locator('.frame-header .brand'),
    ...MENU_MODULES.map((m) => page.getByTestId(`menu-${m.group_name}`)),
    page.getByTestId('counter-tickets'),
    page.getByTestId('clock'),
    page.getByTestId('user-menu'),
  ];
  const header = (await page.getByTestId('frame-header').boundingBox())!;
  const first = (await parts[0]!.boundingBox())!;
  for (const part of parts) {
    await expect(part).toBeVisible();
    const b = (await part.boundingBox())!;
    const what = (await part.innerText()).trim() || 'brand';
    // One row: every part centred on the same line, inside the window.
    expect(
      Math.abs(b.y + b.height / 2 - (first.y + first.height / 2)),
      `"${what}" on the first row`,
    ).toBeLessThan(4);
    expect(b.x + b.width, `"${what}" inside the window`).toBeLessThanOrEqual(1440);
  }
  expect(header.height, 'the header keeps its one-row height').toBeLessThanOrEqual(56);
});
