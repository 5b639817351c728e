import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { tuneCollector } from '../../src/gc-helpers';

describe('tuneCollector (GC_HELPERS)', () => {
  it('turns the pause helpers off on two cores or fewer by default, never when told on', () => {
    expect(tuneCollector('auto', 1)).toBe(true);
    expect(tuneCollector('auto', 2)).toBe(true);
    expect(tuneCollector('auto', 4)).toBe(false);
    expect(tuneCollector('on', 2)).toBe(false);
    expect(tuneCollector('off', 64)).toBe(true);
  });

  it('reads GC_HELPERS, auto by default, and refuses anything else naming it', () => {
    expect(loadConfig({}).gcHelpers).toBe('auto');
    expect(loadConfig({ GC_HELPERS: 'off' }).gcHelpers).toBe('off');
    expect(() => loadConfig({ GC_HELPERS: 'maybe' })).toThrow(/GC_HELPERS must be auto, on or off/);
  });
});
