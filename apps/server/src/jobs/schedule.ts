/**
 * When a recurring job is due. Times are UTC. A schedule names its slots; the latest slot at or
 * before now is the one a runner claims (so a run missed while every process was down is caught
 * up once, not once per missed slot).
 */
export type Schedule =
  /** Every day at HH:MM UTC, e.g. { daily: '01:00' }. */
  | { daily: string }
  /** Every hour at the given minute (0-59). */
  | { hourly: number }
  /** Every n minutes from midnight UTC (n divides a day best: 1, 5, 15, 30...). */
  | { everyMinutes: number };

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** Epoch ms of the latest slot of `schedule` at or before `nowMs`. */
export function latestSlot(schedule: Schedule, nowMs: number): number {
  if ('daily' in schedule) {
    const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(schedule.daily);
    if (!m) throw new Error(`daily schedule wants HH:MM, got ${schedule.daily}`);
    const offset = Number(m[1]) * HOUR + Number(m[2]) * MINUTE;
    const today = Math.floor(nowMs / DAY) * DAY + offset;
    return today <= nowMs ? today : today - DAY;
  }
  if ('hourly' in schedule) {
    if (!Number.isInteger(schedule.hourly) || schedule.hourly < 0 || schedule.hourly > 59)
      throw new Error(`hourly schedule wants a minute 0-59, got ${schedule.hourly}`);
    const slot = Math.floor(nowMs / HOUR) * HOUR + schedule.hourly * MINUTE;
    return slot <= nowMs ? slot : slot - HOUR;
  }
  if (!Number.isInteger(schedule.everyMinutes) || schedule.everyMinutes < 1)
    throw new Error(`everyMinutes wants a whole number >= 1, got ${schedule.everyMinutes}`);
  const step = schedule.everyMinutes * MINUTE;
  const day = Math.floor(nowMs / DAY) * DAY;
  return day + Math.floor((nowMs - day) / step) * step;
}

/** Epoch ms of the first slot of `schedule` after `nowMs` (when the next run is due). */
export function nextSlot(schedule: Schedule, nowMs: number): number {
  const period = 'daily' in schedule ? DAY : 'hourly' in schedule ? HOUR : schedule.everyMinutes * MINUTE;
  const next = latestSlot(schedule, nowMs) + period;
  // every n minutes restarts at midnight: a day that n does not divide ends with a short step
  return 'everyMinutes' in schedule ? Math.min(next, Math.floor(nowMs / DAY) * DAY + DAY) : next;
}

/** A schedule in words for the scheduler log ("daily 01:00 UTC"). */
export function describeSchedule(schedule: Schedule): string {
  if ('daily' in schedule) return `daily ${schedule.daily} UTC`;
  if ('hourly' in schedule) return `hourly at :${String(schedule.hourly).padStart(2, '0')}`;
  return `every ${schedule.everyMinutes} min`;
}
