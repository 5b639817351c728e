import { z } from 'zod';

/**
 * Input rules every endpoint shares (docs/security.md, docs/api.md "Input rules"):
 * - integers are bounded by the column they land in: `integer()` by int4, `bigInteger()` by int8
 *   (within JavaScript's exact range); `checkInputRules` refuses, at registration, an endpoint whose
 *   input has an unbounded number, so a new endpoint cannot forget it;
 * - text refuses NUL and control characters (the server's `implement()` checks every string of every
 *   input before the schema, so no endpoint can forget it either);
 * - instants are within the valid date range.
 */
export const INT4_MAX = 2147483647;
export const INT4_MIN = -2147483648;
/** The largest integer JSON numbers carry exactly; fits every int8 column. */
export const INT8_SAFE_MAX = Number.MAX_SAFE_INTEGER;
/** Amounts and other decimals: the largest magnitude accepted (numeric(18,6) and similar columns). */
export const DECIMAL_MAX = 1e12;

/** Marks a number schema as an int8 column (checkInputRules then allows INT8_SAFE_MAX). */
const INT8 = 'int8';

interface IntOpts {
  min?: number;
  max?: number;
  /** Message key used for every refusal of this field (e.g. 'positiveInteger'). */
  message?: string;
}

const bounded = (s: z.ZodNumber, min: number, max: number, message?: string) => {
  const m = message ? { message } : undefined;
  return s.int(m).min(min, m).max(max, m);
};

/**
 * A signed int4 (INT4_MIN..INT4_MAX) to chain on (`int4().positive()`): every integer of the
 * contract starts from this or from `integer()` / `bigInteger()`.
 */
export const int4 = (m?: { message: string }) => z.number(m).int().min(INT4_MIN).max(INT4_MAX);
/** `int4()` for path and query strings ('12' -> 12). */
export const coercedInt4 = (m?: { message: string }) => z.coerce.number(m).int().min(INT4_MIN).max(INT4_MAX);

/** An integer bounded by an int4 column (default 0..INT4_MAX). */
export function integer(o: IntOpts = {}) {
  const m = o.message ? { message: o.message } : undefined;
  return bounded(z.number(m), o.min ?? 0, Math.min(o.max ?? INT4_MAX, INT4_MAX), o.message);
}
/** `integer()` for path and query strings ('12' -> 12). */
export function coercedInteger(o: IntOpts = {}) {
  const m = o.message ? { message: o.message } : undefined;
  return bounded(z.coerce.number(m), o.min ?? 0, Math.min(o.max ?? INT4_MAX, INT4_MAX), o.message);
}
/** An integer bounded by an int8 column (ids of CDRs, durations in ms): 0..2^53-1 by default. */
export function bigInteger(o: IntOpts = {}) {
  const m = o.message ? { message: o.message } : undefined;
  return bounded(
    z.number(m),
    o.min ?? 0,
    Math.min(o.max ?? INT8_SAFE_MAX, INT8_SAFE_MAX),
    o.message,
  ).describe(INT8);
}

/** Characters a person's text has no use for: C0 controls except tab, LF, CR; DEL. NUL among them. */
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/**
 * The first string in `value` (a parsed JSON body, query or params) holding a control character, as
 * a dotted field path; null when there is none. Cheap: one regex test per string.
 */
export function controlCharField(value: unknown): string | null {
  const at = controlCharPath(value);
  return at === null ? null : at.length ? at.join('.') : '_';
}

/** The path of controlCharField as its parts, made only on a find (a CDR batch has 250,000 strings). */
export function controlCharPath(value: unknown): (string | number)[] | null {
  if (typeof value === 'string') return CONTROL_CHARS.test(value) ? [] : null;
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const at = controlCharPath(value[i]);
      if (at) return (at.unshift(i), at);
    }
    return null;
  }
  for (const k of Object.keys(value)) {
    if (CONTROL_CHARS.test(k)) return [];
    const at = controlCharPath((value as Record<string, unknown>)[k]);
    if (at) return (at.unshift(k), at);
  }
  return null;
}

/** Earliest and latest instants accepted anywhere (a call time, a filter). */
export const INSTANT_MIN_MS = Date.UTC(1970, 0, 1);
export const INSTANT_MAX_MS = Date.UTC(2200, 0, 1);

/** Whether epoch milliseconds `ms` is a valid instant of the accepted range (NaN is not). */
export const inInstantRange = (ms: number): boolean => ms >= INSTANT_MIN_MS && ms <= INSTANT_MAX_MS;

/**
 * Numbers in an input schema that no column bound holds: an integer above INT4_MAX (unless marked
 * int8 by bigInteger(), then above 2^53-1), or any number without a finite maximum and minimum.
 * Returns the paths; `implement()` refuses to register an endpoint with any.
 */
export function unboundedNumbers(schema: z.ZodType, path = '', seen = new Set<unknown>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  const sub = (s: unknown, p: string) => unboundedNumbers(s as z.ZodType, p, seen);
  switch (def.type) {
    case 'number': {
      const n = schema as z.ZodNumber;
      const max = n.maxValue ?? Infinity;
      const min = n.minValue ?? -Infinity;
      const isInt = n.isInt === true;
      const [lo, hi] = !isInt
        ? [-DECIMAL_MAX, DECIMAL_MAX]
        : schema.description === INT8
          ? [-INT8_SAFE_MAX, INT8_SAFE_MAX]
          : [INT4_MIN, INT4_MAX];
      return max <= hi && min >= lo ? [] : [path || '_'];
    }
    case 'object': {
      const shape = def.shape as Record<string, unknown>;
      return Object.entries(shape).flatMap(([k, v]) => sub(v, path ? `${path}.${k}` : k));
    }
    case 'array':
      return sub(def.element, path + '[]');
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return sub(def.innerType, path);
    case 'pipe':
      return [...sub(def.in, path), ...sub(def.out, path)];
    case 'union':
      return (def.options as unknown[]).flatMap((o) => sub(o, path));
    case 'intersection':
      return [...sub(def.left, path), ...sub(def.right, path)];
    case 'record':
      return sub(def.valueType, path + '{}');
    case 'tuple':
      return (def.items as unknown[]).flatMap((o, i) => sub(o, `${path}.${i}`));
    case 'lazy':
      return sub((def.getter as () => unknown)(), path);
    default:
      return [];
  }
}
