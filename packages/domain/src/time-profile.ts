/**
 * Time profiles: when a routing-plan prefix row or a static-route item applies.
 *
 *   - all_time: always.
 *   - daily: every day from start_time (inclusive) to end_time (exclusive). When end <= start
 *     the window crosses midnight (22:00-06:00 means 22:00..23:59:59 and 00:00..05:59:59);
 *     start = end means the whole day.
 *   - weekly: from (start_weekday, start_time) to (end_weekday, end_time), end exclusive.
 *     When the end is not after the start the window wraps over the week end (Fri 18:00 to
 *     Mon 06:00); identical start and end mean the whole week.
 *
 * Weekdays are 0 = Sunday .. 6 = Saturday (as JavaScript's getUTCDay and PostgreSQL's
 * `extract(dow ...)`). Times are "HH:MM" or "HH:MM:SS", 00:00 .. 24:00. A profile is evaluated
 * in a fixed UTC offset in minutes (the profile's own, else the system default time zone).
 */

export type TimeProfileType = 'all_time' | 'daily' | 'weekly';

export interface TimeProfileConfig {
  readonly time_profile_id: number;
  readonly name?: string;
  readonly type: TimeProfileType;
  readonly start_time?: string | null;
  readonly end_time?: string | null;
  readonly start_weekday?: number | null;
  readonly end_weekday?: number | null;
  /** UTC offset in minutes the profile is read in; null = the system default. */
  readonly utc_offset_minutes?: number | null;
}

/** A profile turned into numbers: seconds of the day (daily) or of the week (weekly). */
export interface CompiledTimeProfile {
  readonly type: TimeProfileType;
  readonly start: number;
  readonly end: number;
  readonly utcOffsetMinutes: number | null;
}

export class TimeProfileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TimeProfileError';
  }
}

const DAY = 86_400;
const WEEK = 7 * DAY;
const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;

/** Seconds since midnight of "HH:MM" or "HH:MM:SS" (24:00 allowed as the end of the day). */
export function parseTimeOfDay(text: string): number {
  const match = TIME.exec(text.trim());
  if (!match) throw new TimeProfileError(`time must be HH:MM or HH:MM:SS, got "${text}"`);
  const [h, m, s] = [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
  if (m > 59 || s > 59 || h > 24 || (h === 24 && (m > 0 || s > 0))) {
    throw new TimeProfileError(`time out of range: "${text}"`);
  }
  return h * 3600 + m * 60 + s;
}

function weekday(value: number | null | undefined, field: string): number {
  if (value == null || !Number.isInteger(value) || value < 0 || value > 6) {
    throw new TimeProfileError(`${field} must be a weekday 0 (Sunday) .. 6 (Saturday), got ${value}`);
  }
  return value;
}

function timeField(value: string | null | undefined, field: string): number {
  if (value == null) throw new TimeProfileError(`${field} is required`);
  return parseTimeOfDay(value);
}

export function compileTimeProfile(profile: TimeProfileConfig): CompiledTimeProfile {
  const utcOffsetMinutes = profile.utc_offset_minutes ?? null;
  switch (profile.type) {
    case 'all_time':
      return { type: 'all_time', start: 0, end: 0, utcOffsetMinutes };
    case 'daily':
      return {
        type: 'daily',
        start: timeField(profile.start_time, 'start_time') % DAY,
        end: timeField(profile.end_time, 'end_time') % DAY,
        utcOffsetMinutes,
      };
    case 'weekly':
      return {
        type: 'weekly',
        start:
          (weekday(profile.start_weekday, 'start_weekday') * DAY +
            timeField(profile.start_time, 'start_time')) %
          WEEK,
        end:
          (weekday(profile.end_weekday, 'end_weekday') * DAY + timeField(profile.end_time, 'end_time')) %
          WEEK,
        utcOffsetMinutes,
      };
    default:
      throw new TimeProfileError(`unknown time profile type "${String(profile.type)}"`);
  }
}

function inWindow(position: number, start: number, end: number): boolean {
  if (start === end) return true;
  return start < end ? position >= start && position < end : position >= start || position < end;
}

/** Whether a compiled profile covers the instant `atMs` (epoch ms), read at `defaultOffsetMinutes` unless the profile has its own. */
export function timeProfileCovers(
  profile: CompiledTimeProfile,
  atMs: number,
  defaultOffsetMinutes = 0,
): boolean {
  if (profile.type === 'all_time') return true;
  const offset = profile.utcOffsetMinutes ?? defaultOffsetMinutes;
  const localSeconds = Math.floor(atMs / 1000) + offset * 60;
  const days = Math.floor(localSeconds / DAY);
  const secondOfDay = localSeconds - days * DAY;
  if (profile.type === 'daily') return inWindow(secondOfDay, profile.start, profile.end);
  // 1970-01-01 was a Thursday (weekday 4).
  const dow = (((days + 4) % 7) + 7) % 7;
  return inWindow(dow * DAY + secondOfDay, profile.start, profile.end);
}

/** Convenience: compile and evaluate in one call (the engine compiles once per snapshot). */
export function matchesTimeProfile(profile: TimeProfileConfig, atMs: number, utcOffsetMinutes = 0): boolean {
  return timeProfileCovers(compileTimeProfile(profile), atMs, utcOffsetMinutes);
}
