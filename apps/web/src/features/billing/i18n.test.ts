import { describe, expect, it } from 'vitest';
import { billingMessages } from './messages';
import { extrasMessages } from './messages-extras';

type Tree = { [k: string]: string | Tree };
const paths = (t: Tree, prefix = ''): string[] =>
  Object.entries(t).flatMap(([k, v]) => (typeof v === 'string' ? [prefix + k] : paths(v, `${prefix}${k}.`)));
const at = (t: Tree, path: string): unknown =>
  path.split('.').reduce<unknown>((o, k) => (o as Tree | undefined)?.[k], t);

describe('billing translations', () => {
  it.each([
    ['billing', billingMessages],
    ['finx', extrasMessages],
  ] as const)(
    '%s: every English key has a non-empty German and Chinese text with the same placeholders',
    (_n, messages) => {
      const en = messages.en as Tree;
      for (const lang of ['de', 'ch'] as const) {
        const other = messages[lang] as Tree;
        for (const p of paths(en)) {
          const text = at(other, p);
          expect(typeof text === 'string' && text.length > 0, `${lang}: ${p}`).toBe(true);
          const holes = (s: string) => (s.match(/\{\{\w+\}\}/g) ?? []).sort();
          expect(holes(text as string), `${lang}: ${p}`).toEqual(holes(at(en, p) as string));
        }
        expect(paths(other).sort()).toEqual(paths(en).sort());
      }
    },
  );
});
