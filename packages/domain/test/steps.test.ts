import { describe, expect, it } from 'vitest';
import {
  buildSnapshot,
  buildSnapshotSteps,
  decide,
  ROWS_PER_STEP,
  runSteps,
  runStepsSliced,
  type EngineConfig,
} from '../src/index';
import { baseConfig, call, rates, seededRandom } from './fixtures';

/** baseConfig with vendor table 11 grown to `n` random codes (44 and 447 keep their rates). */
function bigConfig(n: number): EngineConfig {
  const config = baseConfig();
  const random = seededRandom(7);
  const rows = [...(config.rate_tables.find((t) => t.rate_table_id === 11)?.rows ?? [])];
  for (let i = 0; i < n; i++) {
    rows.push({ code: `9${Math.floor(random() * 1e9)}`, rate: `0.${String(1000 + (i % 9000))}` });
  }
  return {
    ...config,
    rate_tables: config.rate_tables.map((t) => (t.rate_table_id === 11 ? rates(11, rows) : t)),
  };
}

describe('snapshot builds as steps', () => {
  it('pauses about once per ROWS_PER_STEP rows and builds what buildSnapshot builds', () => {
    const config = bigConfig(5 * ROWS_PER_STEP);
    const steps = buildSnapshotSteps(config);
    let pauses = 0;
    let r = steps.next();
    while (!r.done) {
      pauses++;
      r = steps.next();
    }
    // Three passes over the rows (trie, entries, rows in deck order): at least one pause per step's rows.
    expect(pauses).toBeGreaterThanOrEqual(10);
    const stepped = r.value;
    const whole = buildSnapshot(config);
    expect(stepped.rates.size).toBe(whole.rates.size);
    for (const dnis of ['442071234567', '447911123456', '9123', '0000']) {
      const a = decide(stepped, call({ dnis }));
      const b = decide(whole, call({ dnis }));
      expect(a).toEqual(b);
    }
    expect(decide(stepped, call()).routes.map((x) => x.trunk_id)).toEqual([12, 11, 13]);
  });

  it('a small configuration builds without a pause; runSteps returns the value', () => {
    let pauses = 0;
    function* counted(): Generator<void, number, void> {
      const built = yield* buildSnapshotSteps(baseConfig());
      return built.trunks.size;
    }
    const steps = counted();
    for (let r = steps.next(); !r.done; r = steps.next()) pauses++;
    expect(pauses).toBe(0);
    expect(runSteps(counted())).toBe(4);
  });

  it('runStepsSliced gives the event loop back between slices and stops when cancelled', async () => {
    function* work(): Generator<void, string, void> {
      for (let i = 0; i < 50; i++) {
        const until = performance.now() + 1;
        while (performance.now() < until);
        yield;
      }
      return 'done';
    }
    let turns = 0;
    const pause = () => {
      turns++;
      return new Promise<void>((resolve) => setImmediate(resolve));
    };
    await expect(runStepsSliced(work(), { sliceMs: 5, pause })).resolves.toBe('done');
    expect(turns).toBeGreaterThanOrEqual(5); // 50 ms of work in 5 ms slices
    expect(turns).toBeLessThanOrEqual(50);

    let cancel = false;
    const cancelled = runStepsSliced(work(), {
      sliceMs: 2,
      pause: () => {
        cancel = true;
        return pause();
      },
      cancelled: () => cancel,
    });
    await expect(cancelled).resolves.toBeNull();
  });

  it('a bad code found mid-build fails the build as buildSnapshot does', () => {
    const big = bigConfig(2 * ROWS_PER_STEP);
    const config = {
      ...big,
      rate_tables: big.rate_tables.map((t, i) =>
        i === 1 ? { ...t, rows: [...t.rows, { code: '44x', rate: '0.1' }] } : t,
      ),
    };
    expect(() => runSteps(buildSnapshotSteps(config))).toThrow(/rate_tables\[1\]\.rows\[\d+\]\.code/);
  });
});
