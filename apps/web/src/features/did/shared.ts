import { ApiError } from '../../api/client';

/** The server's message for a failed call: the first field error, else the error's text. */
export function errorText(e: unknown): string {
  if (e instanceof ApiError) return Object.values(e.errors ?? {})[0] ?? e.message;
  return e instanceof Error ? e.message : String(e);
}

export const time = (v: string | null | undefined) => (v ? v.replace('T', ' ').slice(0, 16) : '');
