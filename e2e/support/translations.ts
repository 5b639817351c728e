import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { api } from '@tandem/contract';
import { allowedIn, wordy } from '../../apps/web/src/i18n/same-words';

/**
 * The translation check of issue 17 point 2 (spec 44): the signed-in routes the web app declares,
 * read from its route declarations (`apps/web/src/app/routes.tsx` and every
 * `apps/web/src/features/<area>/routes.ts`, plus the portal menus), so a new page is checked without
 * editing a list; and the visible texts of a page, to compare English with de and ch.
 */

const web = path.resolve(import.meta.dirname, '../../apps/web/src');

export interface DeclaredRoute {
  path: string;
  file: string;
}

/**
 * Route paths the web app builds from the contract instead of writing them out, by the expression of
 * their `path:`: every declared report is served at its own path by one report page
 * (`features/statistics/routes.ts`). A `path:` expression not listed here fails declaredRoutes(), so
 * a new generated route is added here (and checked) rather than skipped.
 */
const GENERATED: Record<string, () => string[]> = {
  'api.reports.REPORTS[n].func': () => api.reports.REPORT_NAMES.map((n) => api.reports.REPORTS[n].func),
  'api.reports.CHANNEL_FUNC': () => [api.reports.CHANNEL_FUNC],
  'api.stats.FUNC.activeCalls': () => [api.stats.FUNC.activeCalls],
};
/** `path:` occurrences that are not route declarations (the RouteDef type, the matcher). */
const NOT_A_ROUTE = new Set(['string', 'r.path']);

/**
 * Every signed-in, framed route declared by the web app (not the public and frameless pages, not
 * /logout), written out or generated from the contract (GENERATED).
 */
export function declaredRoutes(): DeclaredRoute[] {
  const files = [
    path.join(web, 'app/routes.tsx'),
    ...fs
      .readdirSync(path.join(web, 'features'))
      .map((f) => path.join(web, 'features', f, 'routes.ts'))
      .filter((f) => fs.existsSync(f)),
  ];
  const out: DeclaredRoute[] = [];
  for (const file of files) {
    const src = fs.readFileSync(file, 'utf8');
    const rel = path.relative(web, file);
    // A route declaration is an object literal without nested braces: { path: '...', title, page, public? }.
    const literal = new Set<number>();
    for (const m of src.matchAll(/\{[^{}]*?\bpath:\s*'([^']+)'[^{}]*\}/g)) {
      literal.add(m.index + m[0].indexOf('path:'));
      const decl = m[0];
      if (/\b(public|frameless):\s*true/.test(decl) || m[1] === '/logout') continue;
      out.push({ path: m[1]!, file: rel });
    }
    for (const m of src.matchAll(/\bpath:\s*([^,;}\n]+)/g)) {
      if (literal.has(m.index)) continue;
      const expr = m[1]!.trim();
      if (NOT_A_ROUTE.has(expr)) continue;
      const generated = GENERATED[expr];
      if (!generated)
        throw new Error(
          `spec 44: the route path \`${expr}\` in ${rel} is neither a plain declaration nor in GENERATED (support/translations.ts)`,
        );
      for (const p of generated()) out.push({ path: p, file: rel });
    }
  }
  return out;
}

/** The paths the client, vendor and agent menus link to (built, or answered by the "later version" page). */
export function portalMenuPaths(): string[] {
  const src = fs.readFileSync(path.join(web, 'app/frame/portalMenus.ts'), 'utf8');
  return [...new Set([...src.matchAll(/\bto:\s*'([^']+)'/g)].map((m) => m[1]!))];
}

/** A route path with its `:params` filled from `values`; throws naming a parameter without a value. */
export function fillParams(route: string, values: (param: string) => string | undefined): string {
  return route.replace(/:(\w+)/g, (_, p: string) => {
    const v = values(p);
    if (v === undefined)
      throw new Error(`spec 44: give the route parameter :${p} of ${route} a sample value`);
    return v;
  });
}

/** Visible texts of the frame and page (and the tab's title), not the data rows nor the values of inputs. */
export async function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const skip =
      '.ant-table-tbody, input, textarea, code, pre, [data-testid="clock"], .ant-select-selection-item, .ant-picker, [data-i18n-ignore], .brand, footer';
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      const t = (n.textContent ?? '').replace(/\s+/g, ' ').trim();
      if (!el || !t || el.closest(skip)) continue;
      if (!el.checkVisibility()) continue;
      out.push(t);
    }
    // The tab's title, without its " - program name".
    out.push(document.title.replace(/ - [^-]+$/, ''));
    return out;
  });
}

/**
 * Waits until the page has settled (no spinner, the same texts twice in a row) and returns its
 * visible texts.
 */
export async function settledTexts(page: Page, timeoutMs = 8_000): Promise<Set<string>> {
  const until = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    await page.waitForTimeout(150);
    const busy = await page
      .locator('.ant-spin-spinning, .ant-skeleton-active, [data-testid="spinner"]')
      .first()
      .isVisible()
      .catch(() => false);
    const texts = await visibleTexts(page);
    const now = texts.join('\n');
    if ((!busy && now === last) || Date.now() > until) return new Set(texts);
    last = now;
  }
}

/** Chinese (or full-width) characters: a text that has them is written for a Chinese reader. */
const CJK = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;

/**
 * The texts of the same page in de and in ch that read as in English and are neither allowed in that
 * language nor part of the data's `names`:
 * - in ch, any text of Latin words without a Chinese character (English by itself: a Chinese page
 *   has no other use for them);
 * - in de, a text that the ch page shows too, word for word (left in English in both: hard-coded).
 * A German string that is its English copy shows in de only: the catalogue test finds it
 * (apps/web/src/i18n/catalogues.test.ts), so no English pass is needed here.
 */
export function untranslated(
  de: Set<string>,
  ch: Set<string>,
  names: string[] = [],
): { de: string[]; ch: string[] } {
  const data = (t: string) => names.some((n) => t.includes(n));
  return {
    ch: [...ch].filter((t) => wordy(t) && !CJK.test(t) && !allowedIn(t, 'ch') && !data(t)),
    de: [...de].filter((t) => ch.has(t) && wordy(t) && !allowedIn(t, 'de') && !data(t)),
  };
}
