import { yieldToLoop } from '../event-loop';

/** A scalar a bulk statement sends in an array parameter. */
export type ArrayItem = string | number | bigint | boolean | null | undefined;

const NEEDS_ESCAPE = /["\\]/;

/**
 * The PostgreSQL array literal of scalars (`{1,NULL,"a \"b\""}`), the text the pg driver would
 * send for a JavaScript array: texts quoted (backslash and quote escaped), numbers and booleans as
 * they print, null and undefined as NULL. Sent as a text parameter with a cast (`$1::int4[]`),
 * it reads the same on PostgreSQL and PGlite.
 */
export function arrayLiteral(values: readonly ArrayItem[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) parts[i] = 'NULL';
    else if (typeof v === 'string')
      parts[i] = NEEDS_ESCAPE.test(v) ? `"${v.replace(/[\\"]/g, '\\$&')}"` : `"${v}"`;
    else parts[i] = String(v);
  }
  return `{${parts.join(',')}}`;
}

/**
 * Each column's array literal, yielding to the event loop between columns: a bulk statement of
 * 10,000 rows by 50 columns is half a million values, too long to turn into text in one go while
 * the route API waits (issue 16).
 */
export async function arrayLiterals<K extends string>(
  cols: Readonly<Record<K, readonly ArrayItem[]>>,
): Promise<Record<K, string>> {
  const out = {} as Record<K, string>;
  for (const k of Object.keys(cols) as K[]) {
    out[k] = arrayLiteral(cols[k]);
    await yieldToLoop();
  }
  return out;
}
