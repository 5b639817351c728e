import type { Services } from '../../../services';

/**
 * Where a running rate import is, in rows: read from the file and checked (parsed), written to the
 * staging table (staged), written to the rate table (applied, in slices inside the one transaction).
 * Kept in the memory of the process that runs the import and answered with the task; the percentage
 * is also stored in rate_import_tasks.progress while the file is read (and, on PostgreSQL, while it is
 * applied: another connection of the pool), so other processes see it move too.
 */
export interface ImportProgress {
  phase: 'reading' | 'applying' | 'finishing';
  rows_parsed: number;
  rows_staged: number;
  rows_applied: number;
  /** Rows the apply step will go through (the staged rows), 0 before it starts. */
  rows_to_apply: number;
  percent: number;
}

const live = new WeakMap<Services, Map<number, ImportProgress>>();

/** The running imports of this process, by task id. */
export function liveImports(s: Services): Map<number, ImportProgress> {
  let m = live.get(s);
  if (!m) live.set(s, (m = new Map<number, ImportProgress>()));
  return m;
}

/** Share of the bar the file's reading and staging takes; applying takes the rest up to 99. */
export const READ_SHARE = 60;
