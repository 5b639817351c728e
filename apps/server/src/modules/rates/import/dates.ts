import { type DateFormat } from '../contract';

const TIME = String.raw`(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?`;
const PATTERNS: Record<DateFormat, { re: RegExp; y: number; m: number; d: number }> = {
  'YYYY-MM-DD': { re: new RegExp(String.raw`^(\d{4})-(\d{1,2})-(\d{1,2})${TIME}$`), y: 1, m: 2, d: 3 },
  'YYYY/MM/DD': { re: new RegExp(String.raw`^(\d{4})/(\d{1,2})/(\d{1,2})${TIME}$`), y: 1, m: 2, d: 3 },
  'MM/DD/YYYY': { re: new RegExp(String.raw`^(\d{1,2})/(\d{1,2})/(\d{4})${TIME}$`), y: 3, m: 1, d: 2 },
  'DD/MM/YYYY': { re: new RegExp(String.raw`^(\d{1,2})/(\d{1,2})/(\d{4})${TIME}$`), y: 3, m: 2, d: 1 },
  'DD.MM.YYYY': { re: new RegExp(String.raw`^(\d{1,2})\.(\d{1,2})\.(\d{4})${TIME}$`), y: 3, m: 2, d: 1 },
  'DD-MM-YYYY': { re: new RegExp(String.raw`^(\d{1,2})-(\d{1,2})-(\d{4})${TIME}$`), y: 3, m: 2, d: 1 },
};

/**
 * A reader of rate file dates in one format (with an optional time and zone; UTC when no zone is
 * given). ISO 8601 is always accepted too (XLSX date cells arrive as ISO). Answers the instant as a
 * fixed-width UTC text with microseconds ('2010-07-02T11:06:58.484053Z': texts compare like the
 * instants and PostgreSQL keeps every digit), or null when the text is not a date.
 * The last answer is remembered: a deck's rows mostly share one date.
 */
export function dateReader(format: DateFormat): (text: string) => string | null {
  const p = PATTERNS[format];
  const iso = PATTERNS['YYYY-MM-DD'];
  let lastText = '';
  let lastValue: string | null = null;
  return (raw: string) => {
    if (raw === lastText) return lastValue;
    const text = raw.trim();
    let m = p.re.exec(text);
    let parts = p;
    if (!m && p !== iso) {
      m = iso.re.exec(text);
      parts = iso;
    }
    const value = m ? fromParts(m, parts) : null;
    lastText = raw;
    lastValue = value;
    return value;
  };
}

/** Epoch ms as the fixed-width UTC text of dateReader. */
export const utcText = (ms: number): string => new Date(ms).toISOString().slice(0, 23) + '000Z';

function fromParts(m: RegExpExecArray, p: { y: number; m: number; d: number }): string | null {
  const y = Number(m[p.y]);
  const mo = Number(m[p.m]);
  const d = Number(m[p.d]);
  const h = Number(m[4] ?? 0);
  const mi = Number(m[5] ?? 0);
  const s = Number(m[6] ?? 0);
  const fraction = (m[7] ?? '').slice(0, 6).padEnd(6, '0');
  const ms = Number(fraction.slice(0, 3));
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  let t = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const check = new Date(t);
  if (check.getUTCDate() !== d || check.getUTCMonth() !== mo - 1) return null;
  const zone = m[8];
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    t -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4))) * 60_000;
  }
  if (y < 1000 || Number.isNaN(t)) return null;
  return new Date(t).toISOString().slice(0, 23) + fraction.slice(3) + 'Z';
}
