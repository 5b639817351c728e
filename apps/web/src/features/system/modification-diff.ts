/** One changed field of a modification log row. */
export interface FieldChange {
  field: string;
  before: string;
  after: string;
}

const SECRET = /pass|secret|token|hash|api_?key|private/i;
export const MASK = '••••••';

const text = (v: unknown): string =>
  v === null || v === undefined
    ? ''
    : typeof v === 'object'
      ? JSON.stringify(v)
      : String(v as string | number | boolean);

/** A record with its secrets masked (any field whose name says password, secret, token, hash or key). */
export function maskSecrets(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(maskSecrets);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v as Record<string, unknown>).map(([k, x]) => [
        k,
        SECRET.test(k) && x !== null && x !== '' ? MASK : maskSecrets(x),
      ]),
    );
  return v;
}

/**
 * What a modification changed: every field whose value differs between the records before and
 * after (a creation lists every field, a deletion every field it had), secrets masked, in the
 * record's field order. Values that are not records compare as a whole ("value").
 */
export function changesOf(before: unknown, after: unknown): FieldChange[] {
  const isRecord = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === 'object' && !Array.isArray(v);
  const b = maskSecrets(before);
  const a = maskSecrets(after);
  if (!isRecord(b) && !isRecord(a))
    return text(b) === text(a) ? [] : [{ field: 'value', before: text(b), after: text(a) }];
  const br = isRecord(b) ? b : {};
  const ar = isRecord(a) ? a : {};
  const fields = [...new Set([...Object.keys(ar), ...Object.keys(br)])];
  return fields
    .filter((f) => f !== 'updated_at')
    .map((f) => ({ field: f, before: text(br[f]), after: text(ar[f]) }))
    .filter((c) => c.before !== c.after);
}
