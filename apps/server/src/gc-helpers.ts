import os from 'node:os';
import v8 from 'node:v8';

/** GC_HELPERS: whether the garbage collector's pauses use helper threads (docs/operations.md). */
export type GcHelpers = 'auto' | 'on' | 'off';

/**
 * The V8 flags that make the collector's pauses wait on helper threads: a scavenge, and a major
 * collection's compaction and pointer update, hand pages to helpers and the server's thread waits
 * for all of them. Concurrent marking (in the background, not waited on) stays.
 */
const PAUSE_HELPER_FLAGS = [
  '--no-parallel-scavenge',
  '--no-parallel-compaction',
  '--no-parallel-pointer-update',
];

/**
 * Turns the collector's pause helpers off when `mode` says so, or, on 'auto', on a machine of two
 * cores or fewer. There the helpers have no core of their own: the database, the switch and the
 * server's thread take both, a helper that holds a page is descheduled, and the pause waits for it.
 * Measured (issue 16, docs/performance.md "Collector pauses without helpers"), PostgreSQL on two
 * cores, the 1,000,000-CDR export's worst wait: 55 and 106.4 ms with helpers (a 93 ms scavenge),
 * 29 and 92.2 ms without; the route rate 0.70-0.76 of the baseline with, 0.80-0.81 without. The flags
 * are read at each collection, so setting them once the process runs takes effect at the next one.
 * Returns whether they were set.
 */
export function tuneCollector(mode: GcHelpers, cores = os.availableParallelism()): boolean {
  const off = mode === 'off' || (mode === 'auto' && cores <= 2);
  if (off) for (const flag of PAUSE_HELPER_FLAGS) v8.setFlagsFromString(flag);
  return off;
}
