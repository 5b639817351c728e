/**
 * Long work on the server's thread gives the event loop back between slices, so the route API and
 * health checks are answered in between (issue 16, docs/performance.md "Nothing stalls the call
 * path"). One place for the yield, the slice size, and the call path's priority.
 *
 * The call path comes first. While the switch is asking for routes (a route request within the last
 * CALL_PATH_ACTIVE_MS), a yield pauses the work for up to SHARE_MAX times as long as the slice before
 * it held the thread, so background work (imports, snapshot loads, exports, rerates, CDR batches)
 * takes at most about a seventh of a thread the route API keeps busy. How long is learned from the
 * pause before: the share of it the loop spent busy (answering calls); a route API with little to do
 * lets the work go on at nearly full speed. Without route requests a yield is one turn of the loop
 * (setImmediate).
 */
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { Steps } from '@tandem/domain';

/** How long after a route request the call path counts as busy. */
const CALL_PATH_ACTIVE_MS = 100;
/**
 * The longest pause, as a multiple of the slice before it: 6 leaves background work a seventh of a
 * thread the route API keeps busy. The database needs its turns too: on a machine the database
 * shares, a snapshot load's pages held the route rate at 0.47 of its baseline with 3 (a quarter) and
 * 0.79 with 6, while the load took 25 s instead of 17 (docs/performance.md "A seventh"). With the
 * switch quiet the work runs at full speed whatever this is.
 */
const SHARE_MAX = 6;
/**
 * The loop's utilisation during a pause that counts as a call path wanting all of it: a switch's
 * connections wait for each answer before the next request, so even back to back they keep the
 * loop busy only about half the time (the rest is their round trips).
 */
const BUSY_FULL = 0.5;
/** A utilisation below this is the loop's own upkeep (timers, garbage collection), not calls. */
const BUSY_IDLE = 0.1;
/** The longest pause one yield makes (a slice that held the thread longer gets this much back). */
const MAX_PAUSE_MS = 100;

/**
 * How long background work holds the thread before it yields: a slice is bounded by time, not by a
 * count of items, so cold code (a batch's first items run before the JIT has compiled them, several
 * times slower) and big items cannot stretch it.
 */
export const SLICE_MS = 8;

let callPathAt = Number.NEGATIVE_INFINITY;
/** The loop's utilisation when the last yield returned: what the work used since is its slice. */
let resumed: EventLoopUtilization = performance.eventLoopUtilization();
/** When the last yield returned. */
let resumedAt = performance.now();
/** The pause as a share of the slice, learned from how busy the loop was in the last pause. */
let share = 1;

/** The route API calls this for every route request (cheap: one clock read). */
export function callPathAsked(): void {
  callPathAt = performance.now();
}

const immediate = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Lets the event loop run the I/O that is waiting: one turn (setImmediate: after poll, before the
 * timers' next turn), or, while the call path is busy, a pause as long as the slice just held.
 */
export async function yieldToLoop(): Promise<void> {
  // while the call path is busy: as long as the thread was busy since the last yield returned (the
  // slice, and what ran inside its awaits), times the share learned
  const pause =
    performance.now() - callPathAt < CALL_PATH_ACTIVE_MS
      ? Math.min(performance.eventLoopUtilization(resumed).active * share, MAX_PAUSE_MS)
      : 0;
  if (pause >= 1) {
    const before = performance.eventLoopUtilization();
    await sleep(pause);
    const busy = performance.eventLoopUtilization(before).utilization;
    const demand = Math.min(1, Math.max(0, (busy - BUSY_IDLE) / (BUSY_FULL - BUSY_IDLE)));
    share = Math.max(0.1, demand * SHARE_MAX);
  } else await immediate();
  resumed = performance.eventLoopUtilization();
  resumedAt = performance.now();
}

/**
 * One turn of the loop (the I/O that is waiting: route calls, pings) in the middle of work that must
 * let go of what it holds soon, without the call path's pause: a page of export rows kept across
 * pauses outlived two scavenges and was promoted to the old space, whose major collections then
 * stalled the loop (docs/performance.md, issue 16). The pause the call path is owed for the slices
 * run this way comes with the next yieldToLoop, which counts them.
 */
export async function turnLoop(): Promise<void> {
  await immediate();
  resumedAt = performance.now();
}

/**
 * True once the work since the last yield returned has run for a slice (SLICE_MS): a loop over many
 * small items asks this per item (one clock read) and yields when it says so.
 */
export function sliceUsed(): boolean {
  return performance.now() - resumedAt >= SLICE_MS;
}

/**
 * Runs a domain computation written as steps (packages/domain steps.ts), yielding to the event loop
 * before a step whenever a slice is used: the slice is the shared one, so steps run right after
 * other work (or another computation's steps) do not stretch it.
 */
export async function runStepsInSlices<T>(steps: Steps<T>): Promise<T> {
  for (;;) {
    if (sliceUsed()) await yieldToLoop();
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * A body array longer than this is checked in slices (register.ts); about what a warm slice of a
 * small per-item step (checking, rating) handles in SLICE_MS.
 */
export const SLICE_ITEMS = 1000;

/** `items.map(fn)`, yielding to the event loop whenever a slice is used. */
export async function mapInSlices<T, R>(
  items: readonly T[],
  fn: (item: T, index: number) => R,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  for (let i = 0; i < items.length; i++) {
    if (sliceUsed()) await yieldToLoop();
    out[i] = fn(items[i]!, i);
  }
  return out;
}

/**
 * Runs `step(start, end)` over [0, n) in slices sized to take about SLICE_MS each, yielding
 * between them: for a step that handles a range in one call (a schema check of a slice of a
 * body's array). The first slice is small (cold code is slow); each next one is sized by the time
 * per item the slice before it took, at most SLICE_ITEMS.
 */
export async function forTimedSlices(
  n: number,
  step: (start: number, end: number) => void,
  first = 100,
): Promise<void> {
  let size = first;
  for (let start = 0; start < n;) {
    if (start > 0) await yieldToLoop();
    const end = Math.min(n, start + size);
    const t = performance.now();
    step(start, end);
    const perItem = (performance.now() - t) / (end - start);
    size = Math.max(10, Math.min(SLICE_ITEMS, Math.floor(SLICE_MS / Math.max(perItem, 1e-6))));
    start = end;
  }
}
