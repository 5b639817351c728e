/**
 * Rules of the tag input (spec 01 section 5), pure and DOM-free: email mode checks the format and
 * rejects duplicates ignoring case; number mode allows digits only; pasted text is split on commas,
 * semicolons, spaces and line breaks.
 */

export type TagMode = 'email' | 'number';
export type TagErrorReason = 'invalidEmail' | 'digitsOnly' | 'duplicate';

export interface TagError {
  value: string;
  reason: TagErrorReason;
}

/** Characters that end a tag while typing. */
export const TAG_SEPARATOR_KEYS = [',', ';', ' '] as const;

// Local part of dot-atoms, then a domain of labels with a top-level part of at least two letters.
const EMAIL =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

export const isEmail = (value: string) => value.length <= 254 && EMAIL.test(value);
export const isDigits = (value: string) => /^\d+$/.test(value);

/** Splits typed or pasted text into candidate tags. */
export function splitTags(text: string): string[] {
  return text
    .split(/[,;\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

const same = (mode: TagMode, a: string, b: string) =>
  mode === 'email' ? a.toLowerCase() === b.toLowerCase() : a === b;

/** Checks one candidate against the mode and the tags already present. */
export function checkTag(value: string, mode: TagMode, existing: readonly string[]): TagErrorReason | null {
  if (mode === 'email' ? !isEmail(value) : !isDigits(value))
    return mode === 'email' ? 'invalidEmail' : 'digitsOnly';
  if (existing.some((e) => same(mode, e, value))) return 'duplicate';
  return null;
}

/**
 * Adds every valid, new candidate of the text to the list (in order); the others are reported.
 * Candidates repeated within the text count as duplicates after their first occurrence.
 */
export function addTags(
  current: readonly string[],
  text: string,
  mode: TagMode,
): { value: string[]; errors: TagError[] } {
  const value = [...current];
  const errors: TagError[] = [];
  for (const candidate of splitTags(text)) {
    const reason = checkTag(candidate, mode, value);
    if (reason) errors.push({ value: candidate, reason });
    else value.push(candidate);
  }
  return { value, errors };
}

/** Removes the tag at an index. */
export const removeTag = (current: readonly string[], index: number) => current.filter((_, i) => i !== index);
