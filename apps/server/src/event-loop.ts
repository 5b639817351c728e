/**
 * Long work on the server's thread gives the event loop back between slices, so the route API and
 * health checks are answered in between (issue 16, docs/performance.md "Nothing stalls the call
 * path"). One place for the yield, the slice size, and the call path's priority.
 *
 * The call path comes first. While the switch is asking for routes (a route request within the last
 * CALL_PATH_ACTIVE_MS), a yield pauses the work for up to SHARE_MAX times as long as the slice before
 * it held the thread, so background work (imports, snapshot loads, exports, rerates, CDR batches)
 * takes at most about a quarter of a thread the route API keeps busy. How long is learned from the
 * pause before: the share of it the loop spent busy (answering calls); a route API with little to do
 * lets the work go on at nearly full speed. Without route requests a yield is one turn of the loop
 * (setImmediate).
 */
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

/** How long after a route request the call path counts as busy. */
const CALL_PATH_ACTIVE_MS = 100;
/**
 * The longest pause, as a multiple of the slice before it: 3 leaves background work a quarter of a
 * thread the route API keeps busy (the database and the switch's connections need their turns too).
 */
const SHARE_MAX = 3;
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

let callPathAt = Number.NEGATIVE_INFINITY;
/** The loop's utilisation when the last yield returned: what the work used since is its slice. */
let resumed: EventLoopUtilization = performance.eventLoopUtilization();
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
}

/** Items handled between two yields when a per-item step is small (rating, checking): about 10 ms. */
export const SLICE_ITEMS = 1000;

/** `items.map(fn)`, yielding to the event loop every `slice` items. */
export async function mapInSlices<T, R>(
  items: readonly T[],
  fn: (item: T, index: number) => R,
  slice = SLICE_ITEMS,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % slice === 0) await yieldToLoop();
    out[i] = fn(items[i]!, i);
  }
  return out;
}
