import { deflateSync } from 'node:zlib';
import { expect, type Locator, type Page } from '@playwright/test';
import { FIRST_ADMIN, setupFirstAdmin, signIn } from './api';

/**
 * Page helpers shared by the specs: sign-in through the login form, the user menu, hash paths.
 * The first admin (created through the UI by 01-setup.spec.ts) is FIRST_ADMIN from ./api; specs
 * prepare their own data through ./api with a token from `adminToken()`.
 */

export { FIRST_ADMIN };

/** Home path per user type (spec 01 section 4). */
export const HOME = {
  admin: '/statistics/dashboard',
  client: '/clients/management/analytics_dashboard',
  vendor: '/clients/management/analytics_dashboard',
  agent: '/agents/management/agent_dashboard',
} as const;

/** A token of the first admin (creates it over the API when a spec runs on its own). */
export const adminToken = () => setupFirstAdmin();

/** The hash route of the page's URL, without the query (e.g. '/auth/login'). */
export function hashPath(page: Page): string {
  const hash = new URL(page.url()).hash.replace(/^#/, '');
  return hash.split('?')[0] || '/';
}

/** Waits until the hash route is `path` (query allowed after it). */
export async function expectPath(page: Page, path: string): Promise<void> {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await expect(page).toHaveURL(new RegExp(`#${escaped}(\\?.*)?$`));
  // The address changes before React commits the page (navigations are transitions): wait for the
  // page itself (Guard marks <html data-path> when it renders a path), or the next action may land
  // on the page being left.
  await expect(page.locator('html')).toHaveAttribute('data-path', path);
}

/** Opens a hash route (e.g. '/my_profile'). */
export async function open(page: Page, path: string): Promise<void> {
  await page.goto(`/#${path}`);
}

export const loginForm = (page: Page) => ({
  name: page.getByTestId('login-name'),
  password: page.getByTestId('login-password'),
  submit: page.getByTestId('login-submit'),
  error: page.getByTestId('login-error'),
  notice: page.getByTestId('login-notice'),
});

/** Fills and submits the login form (opens the login page first). */
export async function submitLogin(page: Page, name: string, password: string): Promise<void> {
  await open(page, '/auth/login');
  const f = loginForm(page);
  await f.name.fill(name);
  await f.password.fill(password);
  await f.submit.click();
}

/** Signs in through the login form and waits for the signed-in frame. */
export async function login(page: Page, name: string, password: string): Promise<void> {
  await submitLogin(page, name, password);
  await expect(page.getByTestId('frame-header')).toBeVisible();
}

export const loginAsAdmin = (page: Page) => login(page, FIRST_ADMIN.name, FIRST_ADMIN.passwd);

/**
 * Signs in over the API and opens `path` with the token already in the browser (quicker than the
 * form, for specs where signing in is not what is tested). The token is placed once per tab, so a
 * sign-out in the test stays a sign-out after reloads.
 */
export async function enterAs(
  page: Page,
  name: string,
  password: string,
  path: string,
  opts: { timeout?: number } = {},
): Promise<void> {
  const token = await signIn(name, password);
  await page.addInitScript((t) => {
    if (sessionStorage.getItem('e2e-token-placed')) return;
    sessionStorage.setItem('e2e-token-placed', '1');
    localStorage.setItem('token', t);
  }, token);
  await open(page, path);
  // A new context loads the whole app; on a busy two-core machine that took over 10 s at times.
  await expect(page.getByTestId('frame-header')).toBeVisible({ timeout: opts.timeout ?? 30_000 });
  // Entered means settled: the page the address names is the one on screen (the app's first
  // navigation can commit after the header shows; a click made before it was undone by it).
  await page.waitForFunction(
    () => {
      const shown = document.documentElement.dataset.path;
      return shown !== undefined && location.hash.replace(/^#/, '').split('?')[0] === shown;
    },
    null,
    { timeout: opts.timeout ?? 30_000 },
  );
}

export const enterAsAdmin = (page: Page, path: string) =>
  enterAs(page, FIRST_ADMIN.name, FIRST_ADMIN.passwd, path);

/** Opens the user menu (top right) and returns it. */
export async function openUserMenu(page: Page): Promise<Locator> {
  await page.getByTestId('user-menu').click();
  const menu = page.locator('.ant-dropdown:not(.ant-dropdown-hidden)').last();
  await expect(menu).toBeVisible();
  return menu;
}

/** Clicks an entry of the user menu by its key (data-testid usermenu-{key}). */
export async function userMenuAction(page: Page, key: string, opens?: Locator): Promise<void> {
  if (!opens) {
    await openUserMenu(page);
    await page.getByTestId(`usermenu-${key}`).click();
    return;
  }
  // A click that lands while the menu or a closing dialog still animates can be lost: try again
  // until what the entry opens shows (opening the menu only when it is not already open).
  const item = page.getByTestId(`usermenu-${key}`);
  await expect(async () => {
    if (await opens.isVisible()) return;
    if (!(await item.isVisible())) await page.getByTestId('user-menu').click({ timeout: 3_000 });
    await item.click({ timeout: 3_000 });
    await expect(opens).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
}

/** Signs out through the user menu and waits for the login page. */
export async function logout(page: Page): Promise<void> {
  await userMenuAction(page, 'logout', loginForm(page).submit);
  await expectPath(page, '/auth/login');
  await expect(loginForm(page).submit).toBeVisible();
}

/** The transient message banner. */
export const flash = (page: Page) => page.getByTestId('flash');

/** The visible antd modal with the given title. */
export const dialog = (page: Page, title: string | RegExp) =>
  page.locator('.ant-modal').filter({ has: page.locator('.ant-modal-title', { hasText: title }) });

/** A small valid PNG (solid colour, `size` x `size` pixels), for avatar uploads. */
export function pngBuffer(size = 8, rgb: [number, number, number] = [31, 95, 139]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
