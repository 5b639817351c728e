/**
 * When a saved report schedule runs and what period each run covers (issue 11, docs/statistics.md
 * "Schedules"). Times are UTC milliseconds; `offMin` is the schedule's time zone as minutes east
 * of UTC. A run mails the whole period before it, in the schedule's zone: daily the previous day,
 * weekly the previous Monday-to-Sunday week, monthly the previous calendar month.
 */
export type ScheduleFrequency = 'daily' | 'weekly' | 'monthly';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** Local midnight (as UTC ms) of the local day containing `utcMs`. */
function localMidnight(utcMs: number, offMin: number): number {
  const off = offMin * MIN;
  return Math.floor((utcMs + off) / DAY) * DAY - off;
}

/** Whether the local day starting at `midnightUtc` is a day this frequency runs on. */
function runsOn(freq: ScheduleFrequency, midnightUtc: number, offMin: number): boolean {
  const local = new Date(midnightUtc + offMin * MIN);
  if (freq === 'weekly') return local.getUTCDay() === 1; // Monday
  if (freq === 'monthly') return local.getUTCDate() === 1;
  return true;
}

/** The first run strictly after `afterMs`: `hour`:00 local on a day the frequency runs on. */
export function nextRunAfter(freq: ScheduleFrequency, hour: number, offMin: number, afterMs: number): number {
  let day = localMidnight(afterMs, offMin);
  for (let i = 0; i < 40; i++, day += DAY) {
    const at = day + hour * HOUR;
    if (at > afterMs && runsOn(freq, day, offMin)) return at;
  }
  throw new Error('no run within 40 days'); // unreachable: every month has a 1st
}

/** `YYYY-MM-DD HH:mm` of a UTC instant in the zone. */
export function wallClock(utcMs: number, offMin: number): string {
  return new Date(utcMs + offMin * MIN).toISOString().slice(0, 16).replace('T', ' ');
}

/** The period a run at `runAtMs` covers, as wall-clock times in the zone (end exclusive). */
export function periodBefore(
  freq: ScheduleFrequency,
  runAtMs: number,
  offMin: number,
): { from: string; to: string } {
  const today = localMidnight(runAtMs, offMin);
  const local = new Date(today + offMin * MIN);
  let to = today;
  let from = today - DAY;
  if (freq === 'weekly') {
    const sinceMonday = (local.getUTCDay() + 6) % 7;
    to = today - sinceMonday * DAY;
    from = to - 7 * DAY;
  } else if (freq === 'monthly') {
    const y = local.getUTCFullYear();
    const m = local.getUTCMonth();
    to = Date.UTC(y, m, 1) - offMin * MIN;
    from = Date.UTC(y, m - 1, 1) - offMin * MIN;
  }
  return { from: wallClock(from, offMin), to: wallClock(to, offMin) };
}
