/**
 * Long work on the server's thread gives the event loop back between slices, so the route API and
 * health checks are answered in between (issue 16, docs/performance.md "Nothing stalls the call
 * path"). One place for the yield and the slice size.
 */

/** Lets the event loop run the I/O that is waiting (setImmediate: after poll, before timers' next turn). */
export const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

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
