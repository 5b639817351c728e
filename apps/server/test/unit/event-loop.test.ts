import { describe, expect, it } from 'vitest';

/** Holds the thread for `ms` (a slice of background work). */
const hold = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
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
