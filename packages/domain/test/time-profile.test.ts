import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  TimeProfileError,
  compileTimeProfile,
  matchesTimeProfile,
  parseTimeOfDay,
  timeProfileCovers,
} from '../src/time-profile';

// 2024-06-03 was a Monday.
const at = (day: number, hh: number, mm = 0, ss = 0) => Date.UTC(2024, 5, day, hh, mm, ss);
const MON = 3;
const FRI = 7;
const SAT = 8;
const SUN = 9;

describe('parseTimeOfDay', () => {
  it('reads HH:MM and HH:MM:SS', () => {
    expect(parseTimeOfDay('00:00')).toBe(0);
    expect(parseTimeOfDay('08:30')).toBe(8 * 3600 + 1800);
    expect(parseTimeOfDay('23:59:59')).toBe(86_399);
    expect(parseTimeOfDay('24:00')).toBe(86_400);
  });
  it.each(['8', '25:00', '24:01', '12:60', 'noon', '12:00:61'])('refuses %s', (t) => {
    expect(() => parseTimeOfDay(t)).toThrow(TimeProfileError);
  });
});

describe('all time', () => {
  it('always matches', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4e12 }), (t) =>
        matchesTimeProfile({ time_profile_id: 1, type: 'all_time' }, t),
      ),
    );
  });
});

describe('daily profiles', () => {
  const business = { time_profile_id: 1, type: 'daily' as const, start_time: '08:00', end_time: '18:00' };
  const night = { time_profile_id: 2, type: 'daily' as const, start_time: '22:00', end_time: '06:00' };

  it('covers start inclusive, end exclusive', () => {
    expect(matchesTimeProfile(business, at(MON, 7, 59, 59))).toBe(false);
    expect(matchesTimeProfile(business, at(MON, 8))).toBe(true);
    expect(matchesTimeProfile(business, at(MON, 17, 59, 59))).toBe(true);
    expect(matchesTimeProfile(business, at(MON, 18))).toBe(false);
    expect(matchesTimeProfile(business, at(SUN, 12))).toBe(true);
  });

  it('crosses midnight', () => {
    expect(matchesTimeProfile(night, at(MON, 21, 59))).toBe(false);
    expect(matchesTimeProfile(night, at(MON, 22))).toBe(true);
    expect(matchesTimeProfile(night, at(MON, 23, 59, 59))).toBe(true);
    expect(matchesTimeProfile(night, at(MON + 1, 0))).toBe(true);
    expect(matchesTimeProfile(night, at(MON + 1, 5, 59))).toBe(true);
    expect(matchesTimeProfile(night, at(MON + 1, 6))).toBe(false);
    expect(matchesTimeProfile(night, at(MON + 1, 12))).toBe(false);
  });

  it('is read in the given UTC offset', () => {
    // 08:00 at UTC+2 is 06:00 UTC; 17:30 at UTC-5 is 22:30 UTC
    expect(matchesTimeProfile(business, at(MON, 6), 120)).toBe(true);
    expect(matchesTimeProfile(business, at(MON, 5, 59), 120)).toBe(false);
    expect(matchesTimeProfile(business, at(MON, 22, 30), -300)).toBe(true);
    expect(matchesTimeProfile(business, at(MON, 23), -300)).toBe(false);
    // the profile's own offset wins over the default
    expect(matchesTimeProfile({ ...business, utc_offset_minutes: 120 }, at(MON, 6), -300)).toBe(true);
  });

  it('treats equal start and end as the whole day, and 24:00 as midnight', () => {
    expect(matchesTimeProfile({ ...business, end_time: '08:00' }, at(MON, 3))).toBe(true);
    const evening = { ...business, start_time: '18:00', end_time: '24:00' };
    expect(matchesTimeProfile(evening, at(MON, 23, 59, 59))).toBe(true);
    expect(matchesTimeProfile(evening, at(MON + 1, 0))).toBe(false);
  });

  it('property: a night window and its complementary day window split every instant', () => {
    const day = { time_profile_id: 3, type: 'daily' as const, start_time: '06:00', end_time: '22:00' };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4e12 }), fc.integer({ min: -720, max: 720 }), (t, offset) => {
        return matchesTimeProfile(night, t, offset) !== matchesTimeProfile(day, t, offset);
      }),
    );
  });
});

describe('weekly profiles', () => {
  const weekdays = {
    time_profile_id: 4,
    type: 'weekly' as const,
    start_weekday: 1,
    start_time: '08:00',
    end_weekday: 5,
    end_time: '18:00',
  };
  const weekend = {
    time_profile_id: 5,
    type: 'weekly' as const,
    start_weekday: 5,
    start_time: '18:00',
    end_weekday: 1,
    end_time: '08:00',
  };

  it('spans weekdays from the start to the end instant', () => {
    expect(matchesTimeProfile(weekdays, at(MON, 7, 59))).toBe(false);
    expect(matchesTimeProfile(weekdays, at(MON, 8))).toBe(true);
    expect(matchesTimeProfile(weekdays, at(MON + 2, 3))).toBe(true); // Wednesday night: inside the span
    expect(matchesTimeProfile(weekdays, at(FRI, 17, 59))).toBe(true);
    expect(matchesTimeProfile(weekdays, at(FRI, 18))).toBe(false);
    expect(matchesTimeProfile(weekdays, at(SAT, 12))).toBe(false);
  });

  it('wraps over the end of the week', () => {
    expect(matchesTimeProfile(weekend, at(FRI, 17, 59))).toBe(false);
    expect(matchesTimeProfile(weekend, at(FRI, 18))).toBe(true);
    expect(matchesTimeProfile(weekend, at(SAT, 12))).toBe(true);
    expect(matchesTimeProfile(weekend, at(SUN, 23, 59))).toBe(true);
    expect(matchesTimeProfile(weekend, at(MON + 7, 7, 59))).toBe(true);
    expect(matchesTimeProfile(weekend, at(MON + 7, 8))).toBe(false);
  });

  it('uses the local weekday in the offset', () => {
    // Friday 23:00 UTC is Saturday 01:00 at UTC+2 and Friday 18:00 at UTC-5
    const saturdayOnly = {
      ...weekdays,
      start_weekday: 6,
      start_time: '00:00',
      end_weekday: 0,
      end_time: '00:00',
    };
    expect(matchesTimeProfile(saturdayOnly, at(FRI, 23))).toBe(false);
    expect(matchesTimeProfile(saturdayOnly, at(FRI, 23), 120)).toBe(true);
    expect(matchesTimeProfile(weekend, at(FRI, 23), -300)).toBe(true);
    expect(matchesTimeProfile(weekend, at(FRI, 22, 59), -300)).toBe(false);
  });

  it('handles instants before 1970 and the weekday of the epoch', () => {
    const thursday = {
      ...weekdays,
      start_weekday: 4,
      start_time: '00:00',
      end_weekday: 5,
      end_time: '00:00',
    };
    expect(matchesTimeProfile(thursday, 0)).toBe(true);
    expect(matchesTimeProfile(thursday, -1)).toBe(false); // Wednesday 23:59:59.999
    expect(matchesTimeProfile(thursday, Date.UTC(1969, 11, 25, 12))).toBe(true);
  });

  it('property: weekdays and weekend windows split every instant', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 4e12 }), fc.integer({ min: -720, max: 720 }), (t, offset) => {
        return matchesTimeProfile(weekdays, t, offset) !== matchesTimeProfile(weekend, t, offset);
      }),
    );
  });

  it('refuses incomplete or invalid profiles', () => {
    expect(() => compileTimeProfile({ ...weekdays, start_weekday: 7 })).toThrow(/weekday/);
    expect(() => compileTimeProfile({ ...weekdays, end_time: null })).toThrow(/end_time is required/);
    expect(() => compileTimeProfile({ time_profile_id: 9, type: 'daily' })).toThrow(TimeProfileError);
  });

  it('compiles once and evaluates many times', () => {
    const compiled = compileTimeProfile(weekdays);
    expect(compiled).toEqual({
      type: 'weekly',
      start: 86_400 + 8 * 3600,
      end: 5 * 86_400 + 18 * 3600,
      utcOffsetMinutes: null,
    });
    expect(timeProfileCovers(compiled, at(MON, 9))).toBe(true);
  });
});
