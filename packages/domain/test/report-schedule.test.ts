import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { nextRunAfter, periodBefore, wallClock } from '../src/report-schedule';

const at = (iso: string) => Date.parse(iso);

describe('report schedules', () => {
  it('runs daily at the hour in the zone, strictly after the moment given', () => {
    // 06:00 at +0800 is 22:00 UTC the day before
    expect(new Date(nextRunAfter('daily', 6, 480, at('2026-11-27T10:00:00Z'))).toISOString()).toBe(
      '2026-11-27T22:00:00.000Z',
    );
    expect(new Date(nextRunAfter('daily', 6, 480, at('2026-11-27T22:00:00Z'))).toISOString()).toBe(
      '2026-11-28T22:00:00.000Z',
    );
    expect(new Date(nextRunAfter('daily', 0, 0, at('2026-11-27T23:59:00Z'))).toISOString()).toBe(
      '2026-11-28T00:00:00.000Z',
    );
  });

  it('runs weekly on Mondays and monthly on the 1st, local', () => {
    // 2026-11-27 is a Friday; next Monday is 11-30
    expect(new Date(nextRunAfter('weekly', 7, 0, at('2026-11-27T10:00:00Z'))).toISOString()).toBe(
      '2026-11-30T07:00:00.000Z',
    );
    // Monday 01:00 at -0500 is 06:00 UTC Monday
    expect(new Date(nextRunAfter('weekly', 1, -300, at('2026-11-27T10:00:00Z'))).toISOString()).toBe(
      '2026-11-30T06:00:00.000Z',
    );
    expect(new Date(nextRunAfter('monthly', 5, 0, at('2026-11-27T10:00:00Z'))).toISOString()).toBe(
      '2026-12-01T05:00:00.000Z',
    );
    // the 1st at 02:00 in +0800 is the 30th/31st at 18:00 UTC
    expect(new Date(nextRunAfter('monthly', 2, 480, at('2026-11-27T10:00:00Z'))).toISOString()).toBe(
      '2026-11-30T18:00:00.000Z',
    );
  });

  it('covers the whole period before the run, in the zone', () => {
    const run = nextRunAfter('daily', 6, 480, at('2026-11-27T10:00:00Z'));
    expect(periodBefore('daily', run, 480)).toEqual({ from: '2026-11-27 00:00', to: '2026-11-28 00:00' });
    const week = nextRunAfter('weekly', 7, 0, at('2026-11-27T10:00:00Z'));
    expect(periodBefore('weekly', week, 0)).toEqual({ from: '2026-11-23 00:00', to: '2026-11-30 00:00' });
    const month = nextRunAfter('monthly', 2, 480, at('2026-11-27T10:00:00Z'));
    expect(periodBefore('monthly', month, 480)).toEqual({ from: '2026-11-01 00:00', to: '2026-12-01 00:00' });
    expect(periodBefore('monthly', at('2027-01-01T09:00:00Z'), 0)).toEqual({
      from: '2026-12-01 00:00',
      to: '2027-01-01 00:00',
    });
  });

  it('every run is at the hour, on a matching local day, after the moment, and its period ends on the run day', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('daily' as const, 'weekly' as const, 'monthly' as const),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: -12, max: 12 }).map((h) => h * 60),
        fc.integer({ min: at('2020-01-01T00:00:00Z'), max: at('2035-01-01T00:00:00Z') }),
        (freq, hour, off, after) => {
          const run = nextRunAfter(freq, hour, off, after);
          expect(run).toBeGreaterThan(after);
          const local = wallClock(run, off);
          expect(local.slice(11)).toBe(`${String(hour).padStart(2, '0')}:00`);
          const d = new Date(local.slice(0, 10) + 'T00:00:00Z');
          if (freq === 'weekly') expect(d.getUTCDay()).toBe(1);
          if (freq === 'monthly') expect(d.getUTCDate()).toBe(1);
          // no matching run was skipped: the run before this one is not after `after`
          expect(run - after).toBeLessThanOrEqual(32 * 86_400_000);
          const p = periodBefore(freq, run, off);
          expect(p.to).toBe(`${local.slice(0, 10)} 00:00`);
          expect(p.from < p.to).toBe(true);
        },
      ),
    );
  });
});
