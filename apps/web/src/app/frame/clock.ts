import { DATE_FORMAT } from '@tandem/contract';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);

/** Minutes east of UTC from "+0500" / "-1200" (default 0). */
export function offsetMinutes(offset: string | null | undefined): number {
  const m = /^([+-])(\d{2})(\d{2})$/.exec(offset ?? '');
  if (!m) return 0;
  const v = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === '-' ? -v : v;
}

/** "YYYY-MM-DD HH:mm:ss" in the configured zone plus its GMT offset, e.g. "2026-11-21 14:03:05 GMT+2:0". */
export function formatClock(now: Date, offset: string | null | undefined): string {
  const mins = offsetMinutes(offset);
  const sign = mins < 0 ? '-' : '+';
  const abs = Math.abs(mins);
  return `${dayjs(now).utcOffset(mins).format(DATE_FORMAT)} GMT${sign}${Math.floor(abs / 60)}:${abs % 60}`;
}
