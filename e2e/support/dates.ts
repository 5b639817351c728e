/**
 * Calendar months the browser specs bill and rerate, counted back from today (UTC). The specs use
 * the month before last: always wholly in the past (so its invoices can be made, and a vendor
 * invoice dated in the month after it), and never more than about 62 days old, so the DB cleansing
 * (CDR retention 180 days by default, run at each server start) never drops its CDRs. Fixed dates
 * made the suite fail once the calendar moved on.
 */
export interface PastMonth {
  /** 'YYYY-MM-01' */
  readonly first: string;
  /** The month's last day, 'YYYY-MM-DD'. */
  readonly last: string;
  /** Day `d` of the month, 'YYYY-MM-DD'. */
  day(d: number): string;
  /** Day `d` of the month after it, 'YYYY-MM-DD'. */
  nextMonthDay(d: number): string;
}

/** The month `back` months before the current one (2: the month before last). */
export function pastMonth(back = 2, now = new Date()): PastMonth {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth() - back;
  const iso = (month: number, d: number) => new Date(Date.UTC(y, month, d)).toISOString().slice(0, 10);
  return {
    first: iso(m, 1),
    last: iso(m + 1, 0),
    day: (d) => iso(m, d),
    nextMonthDay: (d) => iso(m + 1, d),
  };
}
