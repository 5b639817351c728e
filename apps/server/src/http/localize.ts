import { message, MESSAGE_KEYS, type Language, type MessageKey } from '@tandem/contract';
import type { FieldError } from './errors';

const isKey = (k: string): k is MessageKey => (MESSAGE_KEYS as string[]).includes(k);

/** Turns message keys into the caller's language; unknown keys pass through as text. */
export const localize = {
  message(key: string, lang: Language, params?: FieldError['params']): string {
    return isKey(key) ? message(key, lang, params) : key;
  },
  fields(fields: Record<string, FieldError>, lang: Language): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [field, fe] of Object.entries(fields))
      out[field] = localize.message(fe.key, lang, fe.params ?? [field]);
    return out;
  },
};
