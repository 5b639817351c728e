import { describe, expect, it, vi } from 'vitest';

/** Holds the thread for `ms` (a slice of background work). */
const hold = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};
/** Counts the turns of the event loop until stop() (which returns the count). */
const countTurns = () => {
  let turns = 0;
  let running = true;
  const count = () => {
    if (!running) return;
    turns++;
    setImmediate(count);
  };
  setImmediate(count);
  return {
    stop() {
      running = false;
      return turns;
    },
  };
};
const timed = async (f: () => Promise<void>) => {
  const t = performance.now();
  await f();
  return performance.now() - t;
};

describe('yieldToLoop: the call path comes first', () => {
  it('is one turn of the loop while no route request came; a pause as long as the slice while they come, shorter when the call path left it unused', async () => {
    const { yieldToLoop, callPathAsked } = await import('../../src/event-loop');
    await yieldToLoop();
    hold(30);
    expect(await timed(yieldToLoop)).toBeLessThan(20);

    callPathAsked();
    await yieldToLoop(); // the slice starts now
    hold(30);
    callPathAsked();
    // the first pause gives back as long as the slice held the thread
    expect(await timed(yieldToLoop)).toBeGreaterThanOrEqual(25);
    // nothing used that pause (no calls came): the next ones are a tenth of the slice (the least of
    // three, as the loop's own upkeep can make one pause look busy)
    const shorts: number[] = [];
    for (let i = 0; i < 3; i++) {
      hold(30);
      callPathAsked();
      shorts.push(await timed(yieldToLoop));
    }
    expect(Math.min(...shorts)).toBeGreaterThanOrEqual(2);
    expect(Math.min(...shorts)).toBeLessThan(25);

    // calls keep the loop busy during the pause: the pause grows back to the slice's length
    const busy = setInterval(() => hold(4), 5);
    try {
      for (let i = 0; i < 3; i++) {
        hold(30);
        callPathAsked();
        await yieldToLoop();
      }
      hold(30);
      callPathAsked();
      expect(await timed(yieldToLoop)).toBeGreaterThanOrEqual(25);
    } finally {
      clearInterval(busy);
    }
  });
});

describe('turnLoop: a turn without the pause, owed to the next yield', () => {
  it('lets waiting I/O run and starts a new slice at once while the call path is busy; the next yieldToLoop pauses for every slice since the last one', async () => {
    // a fresh module: the pause's share as at start (1), not as the tests before left it
    vi.resetModules();
    const { yieldToLoop, turnLoop, sliceUsed, callPathAsked } = await import('../../src/event-loop');
    let ticked = false;
    setImmediate(() => (ticked = true));
    hold(20);
    expect(sliceUsed()).toBe(true);
    callPathAsked();
    // no pause although the call path is busy: one turn, in which the waiting callback ran
    expect(await timed(turnLoop)).toBeLessThan(10);
    expect(ticked).toBe(true);
    expect(sliceUsed()).toBe(false);
    hold(20);
    callPathAsked();
    // both slices (40 ms) are owed: the pause is longer than the last slice (20 ms) alone
    expect(await timed(yieldToLoop)).toBeGreaterThanOrEqual(35);
  });
});

describe('slices bounded by time', () => {
  it('mapInSlices yields whenever a slice (SLICE_MS) is used, however slow the items are', async () => {
    const { mapInSlices, SLICE_MS } = await import('../../src/event-loop');
    const turns = countTurns();
    // 20 items of 3 ms: a count of items per slice would hold the thread 60 ms; time gives ~8 ms
    const out = await mapInSlices(
      Array.from({ length: 20 }, (_, i) => i),
      (i) => {
        hold(3);
        return i * 2;
      },
    );
    expect(out).toEqual(Array.from({ length: 20 }, (_, i) => i * 2));
    expect(turns.stop()).toBeGreaterThanOrEqual(Math.floor((20 * 3) / (SLICE_MS + 3)) - 1);
  });

  it('runStepsInSlices runs domain steps to their result, yielding whenever a slice is used', async () => {
    const { runStepsInSlices, SLICE_MS } = await import('../../src/event-loop');
    const turns = countTurns();
    // 20 steps of 3 ms (a rate store's columns allocated one per step, say): in one go 60 ms
    function* steps() {
      let sum = 0;
      for (let i = 0; i < 20; i++) {
        hold(3);
        sum += i;
        yield;
      }
      return sum;
    }
    expect(await runStepsInSlices(steps())).toBe(190);
    expect(turns.stop()).toBeGreaterThanOrEqual(Math.floor((20 * 3) / (SLICE_MS + 3)) - 1);
  });

  it('forTimedSlices starts small and sizes each slice by the time per item of the one before', async () => {
    const { forTimedSlices, SLICE_ITEMS } = await import('../../src/event-loop');
    const ranges: [number, number][] = [];
    await forTimedSlices(5000, (start, end) => {
      ranges.push([start, end]);
      for (let i = start; i < end; i++) hold(0.05); // 50 µs an item: 160 items fill a slice
    });
    // every item once, in order
    expect(ranges[0]).toEqual([0, 100]);
    for (let k = 1; k < ranges.length; k++) expect(ranges[k]![0]).toBe(ranges[k - 1]![1]);
    expect(ranges.at(-1)![1]).toBe(5000);
    // later slices near 8 ms / 50 µs = 160 items (timer noise aside), never over SLICE_ITEMS
    const sizes = ranges.slice(1, -1).map(([a, b]) => b - a);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(Math.min(SLICE_ITEMS, 200));
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(50);
    // fast items: slices grow to SLICE_ITEMS
    const fast: number[] = [];
    await forTimedSlices(10_000, (start, end) => fast.push(end - start));
    expect(fast.slice(1)).toContain(SLICE_ITEMS);
  });
});
