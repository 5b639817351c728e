import { MENU_MODULES, menuItemLabel, menuModuleLabel, messagesFor } from '@tandem/contract';
import { describe, expect, it, vi } from 'vitest';
import { ch } from './ch';
import { de } from './de';
import { en } from './en';
import { allowedIn, wordy } from './same-words';

/**
 * Every catalogue in en, ch and de (issue 17 point 2): the base bundles and every area's strings
 * (registerTranslations, captured here instead of added to i18next), so a key missing in German or
 * Chinese is found even where spec 44 cannot see it (messages, dialogs, errors). A missing key would
 * show the English text.
 */

type Tree = { [k: string]: string | Tree };
const registered: { area: string; dicts: Record<string, Tree> }[] = [];
vi.mock('./register', () => ({
  registerTranslations: (area: string, dicts: Record<string, Tree>) => registered.push({ area, dicts }),
}));
// Every area's catalogue, whatever its file name (i18n.ts, reports-i18n.ts).
await Promise.all(Object.values(import.meta.glob('../features/**/*i18n.ts')).map((load) => load()));

const paths = (t: Tree, prefix = ''): string[] =>
  Object.entries(t).flatMap(([k, v]) => (typeof v === 'string' ? [prefix + k] : paths(v, `${prefix}${k}.`)));
const at = (t: Tree, path: string): unknown =>
  path.split('.').reduce<unknown>((o, k) => (o as Tree | undefined)?.[k], t);
const holes = (s: string) => (s.match(/\{\{\w+\}\}/g) ?? []).sort();

function sameKeys(name: string, dicts: Record<string, Tree>) {
  const base = dicts.en!;
  for (const lang of ['de', 'ch'] as const) {
    const other = dicts[lang];
    expect(other, `${name}: ${lang}`).toBeDefined();
    for (const p of paths(base)) {
      const text = at(other!, p);
      expect(typeof text === 'string' && text.length > 0, `${name} ${lang}: ${p}`).toBe(true);
      expect(holes(text as string), `${name} ${lang}: ${p} placeholders`).toEqual(
        holes(at(base, p) as string),
      );
    }
    expect(paths(other!).sort(), `${name} ${lang}: keys English lacks`).toEqual(paths(base).sort());
  }
}

describe('translation catalogues', () => {
  it('finds the areas', () => {
    expect(registered.length).toBeGreaterThan(15);
  });

  it('the base bundle: every English key in de and ch, with the same placeholders', () => {
    sameKeys('base', { en, de, ch } as unknown as Record<string, Tree>);
  });

  it("every area's strings: every English key in de and ch, with the same placeholders", () => {
    for (const { area, dicts } of registered) sameKeys(area, dicts);
  });
});

/**
 * A translation that is the English text itself (copied, not translated): the browser check compares
 * de with ch and cannot see a German string left in English, so the catalogues are read here.
 */
function copiedEnglish(name: string, dicts: Record<string, Tree>): string[] {
  const out: string[] = [];
  // The words of a text outside its placeholders, each of which a language may keep.
  const words = (t: string) => t.replace(/\{\{?\w+\}\}?/g, ' ').match(/[A-Za-z][A-Za-z-]+/g) ?? [];
  const kept = (t: string, lang: 'de' | 'ch') =>
    allowedIn(t, lang) || words(t).every((w) => allowedIn(w, lang));
  for (const p of paths(dicts.en!)) {
    const en = at(dicts.en!, p) as string;
    if (!wordy(en)) continue;
    for (const lang of ['de', 'ch'] as const)
      if (at(dicts[lang]!, p) === en && !kept(en, lang)) out.push(`${name} ${lang} ${p}: ${en}`);
  }
  return out;
}

/** The admin menu's module and item labels as catalogues keyed by module id and web_url. */
function menuTrees(): Record<string, Tree> {
  const tree = (lang: 'en' | 'de' | 'ch'): Tree =>
    Object.fromEntries(
      MENU_MODULES.flatMap((m): [string, string][] => [
        [`module ${m.id}`, menuModuleLabel(m.id, m.group_name, lang)],
        ...m.items.map((i): [string, string] => [
          i.web_url.replaceAll('.', '_'),
          menuItemLabel(m.group_name, i.display_name, i.web_url, lang),
        ]),
      ]),
    );
  return { en: tree('en'), de: tree('de'), ch: tree('ch') };
}

describe('no translation is the English text', () => {
  it('in the base bundle and every area', () => {
    const found = [
      ...copiedEnglish('base', { en, de, ch } as unknown as Record<string, Tree>),
      ...registered.flatMap(({ area, dicts }) => copiedEnglish(area, dicts)),
      // The server's messages and the admin menu's labels (contract catalogues).
      ...copiedEnglish('messages', {
        en: messagesFor('en'),
        de: messagesFor('de'),
        ch: messagesFor('ch'),
      } as unknown as Record<string, Tree>),
      ...copiedEnglish('menu', menuTrees()),
    ];
    expect(found).toEqual([]);
  });
});
