/**
 * Long computations written as steps: a generator that yields now and then (every few thousand
 * rows) so that its caller can pause it. `runSteps` runs one to the end at once (tests, benchmarks,
 * small inputs); a server runs the same generator in time slices, giving the event loop back
 * between them, so a snapshot build of a million rate rows never holds answers for more than a
 * slice (apps/server/src/modules/routing/snapshot-service.ts).
 *
 * Why not a worker thread: the snapshot is read by every routing decision on the main thread, and
 * its row objects (trunks, plans, routes) cannot cross threads without a structured copy that costs
 * about as much as building them; the heavy columns (code deck, rate store) are typed arrays, but
 * their input, the rate rows read from the database, would have to cross first. See
 * docs/decisions.md.
 */
export type Steps<T> = Generator<void, T, void>;

/** Rows handled between two yields in the row loops (about a millisecond of work or less). */
export const ROWS_PER_STEP = 4096;

/** Runs the steps to the end without pausing. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * Runs the steps in slices of about `sliceMs`, awaiting `pause()` between slices (e.g. a
 * setImmediate promise, so queued I/O runs). Resolves with the result; `cancelled()` checked
 * between slices abandons the work (resolves null).
 */
export async function runStepsSliced<T>(
  steps: Steps<T>,
  opts: { sliceMs: number; pause: () => Promise<void>; cancelled?: () => boolean },
): Promise<T | null> {
  for (;;) {
    const deadline = performance.now() + opts.sliceMs;
    do {
      const r = steps.next();
      if (r.done) return r.value;
    } while (performance.now() < deadline);
    await opts.pause();
    if (opts.cancelled?.()) {
      steps.return(undefined as never);
      return null;
    }
  }
}
