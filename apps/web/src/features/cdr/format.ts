import type { CdrRow } from '@tandem/contract';

/** A CDR value as the list and the call view show it: times in UTC to the second, booleans as words. */
export function formatCdrValue(v: CdrRow[string], type: string, t: (k: string) => string): string {
  if (v === null || v === undefined || v === '') return '—';
  if (type === 'time' && typeof v === 'string') return v.slice(0, 19).replace('T', ' ');
  if (type === 'bool') return v ? t('common.yes') : t('common.no');
  return String(v);
}
