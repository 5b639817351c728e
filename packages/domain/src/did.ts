/**
 * DID (origination) rules that need no database: what a valid number is, ranges, and the
 * recurring-charge rule (docs/did.md, "Recurring charges").
 *
 * The charge rule, written down once:
 *   - Periods are calendar months in the DID client's time zone (a fixed UTC offset such as
 *     "+0800"; the carrier's `time_zone`), keyed "YYYY-MM".
 *   - A client pays the monthly price of a DID in advance. The month of assignment is prorated
 *     by local days: assigned on day a of a month of D days, it pays (D - a + 1) / D of the price
 *     (the day of assignment counts). Each later month it pays the whole price, charged by the
 *     first run of the charge job on or after the month's first local day.
 *   - On release on local day r it gets back the days after the release day: (D - r) / D.
 *   - What is billed is the ASSIGNMENT: each assignment of a DID to a client (the same client or
 *     another, any number of times in a month) pays for the local days it holds the number, from
 *     its first day to its last, each month once and refunded at most once, whatever restarts,
 *     top-ups or re-runs happen: the ledger reference names the DID, the assignment (its instant)
 *     and the month (didChargeRef), and the ledger keeps (carrier, kind, side, reference) unique.
 *     So a DID released and assigned again in the same month is charged again for the rest of
 *     that month (never free), and each assignment only once (never twice).
 *   - A day is the smallest unit: two clients holding the number on the same day each pay it. The
 *     SAME client taking back, on the day it released it, a number it held pays that day once: the
 *     new assignment starts on the next day (assignmentCharge's `dayPaid`).
 *   - Amounts are exact: micro-units, rounded half up once to 6 places.
 */
import { divideRoundHalfUp, type Micros } from './money';

/** A DID: the number as dialled, digits only, 7 to 15 long (E.164 without the +). */
export const DID_PATTERN = /^\d{7,15}$/;
export const DID_MIN_LENGTH = 7;
export const DID_MAX_LENGTH = 15;

export function isValidDid(number: string): boolean {
  return DID_PATTERN.test(number);
}

/** A DID import list or file: one number per line; blank lines and surrounding spaces ignored. */
export interface ParsedDidLines {
  readonly numbers: string[];
  /** 1-based line numbers of lines that are not a valid DID, with the text found. */
  readonly invalid: { line: number; text: string }[];
  /** Lines with more than one field (a comma or semicolon): "only one field for DID import". */
  readonly multiField: { line: number; text: string }[];
}

export function parseDidLines(text: string): ParsedDidLines {
  const numbers: string[] = [];
  const invalid: { line: number; text: string }[] = [];
  const multiField: { line: number; text: string }[] = [];
  const lines = text.split(/\r\n|\n|\r/);
  for (let i = 0; i < lines.length; i++) {
    let t = (lines[i] as string).trim();
    if (i === 0 && t.charCodeAt(0) === 0xfeff) t = t.slice(1).trim();
    if (t === '') continue;
    // A CSV cell may be quoted.
    if (t.length >= 2 && t.startsWith('"') && t.endsWith('"')) t = t.slice(1, -1).trim();
    if (/[,;\t]/.test(t)) {
      multiField.push({ line: i + 1, text: t.slice(0, 40) });
      continue;
    }
    const n = t.startsWith('+') ? t.slice(1) : t;
    if (!isValidDid(n)) invalid.push({ line: i + 1, text: t.slice(0, 40) });
    else numbers.push(n);
  }
  return { numbers, invalid, multiField };
}

/**
 * `count` consecutive numbers from `start` (same length: a range that would grow a digit is
 * refused with null, as is an invalid start).
 */
export function didRange(start: string, count: number): string[] | null {
  if (!isValidDid(start) || !Number.isSafeInteger(count) || count < 1) return null;
  const first = BigInt(start);
  const last = first + BigInt(count - 1);
  if (last.toString().padStart(start.length, '0').length !== start.length) return null;
  const out: string[] = new Array<string>(count);
  for (let k = 0; k < count; k++) out[k] = (first + BigInt(k)).toString().padStart(start.length, '0');
  return out;
}

export interface LocalDay {
  readonly year: number;
  /** 1..12 */
  readonly month: number;
  /** 1..31 */
  readonly day: number;
  /** Days in this month. */
  readonly daysInMonth: number;
  /** "YYYY-MM" */
  readonly period: string;
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function didMonthKey(year: number, month: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`;
}

/** The local calendar day of an instant in a zone of `offsetMinutes`. */
export function localDay(atMs: number, offsetMinutes: number): LocalDay {
  const d = new Date(atMs + offsetMinutes * 60_000);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth() + 1;
  return {
    year,
    month,
    day: d.getUTCDate(),
    daysInMonth: daysInMonth(year, month),
    period: didMonthKey(year, month),
  };
}

/** The UTC instant where a local period ("YYYY-MM") starts. */
export function periodStartMs(period: string, offsetMinutes: number): number {
  const [y, m] = period.split('-').map(Number) as [number, number];
  return Date.UTC(y, m - 1, 1) - offsetMinutes * 60_000;
}

/** `price` × days / daysInMonth, exact, rounded half up to micro-units. */
export function prorate(price: Micros, days: number, monthDays: number): Micros {
  if (days <= 0) return 0n;
  if (days >= monthDays) return price;
  return divideRoundHalfUp(price * BigInt(days), BigInt(monthDays));
}

/**
 * What an assignment at `atMs` costs for the rest of its month: the assignment day counts, unless
 * `dayPaid` (the same client paid that day in the assignment it released earlier that day).
 */
export function assignmentCharge(
  monthly: Micros,
  atMs: number,
  offsetMinutes: number,
  dayPaid = false,
): { period: string; amount: Micros; days: number } {
  const d = localDay(atMs, offsetMinutes);
  const days = d.daysInMonth - d.day + (dayPaid ? 0 : 1);
  return { period: d.period, amount: prorate(monthly, days, d.daysInMonth), days };
}

/** What a release at `atMs` gives back: the days of its month after the release day. */
export function releaseRefund(
  monthly: Micros,
  atMs: number,
  offsetMinutes: number,
): { period: string; amount: Micros; days: number } {
  const d = localDay(atMs, offsetMinutes);
  const days = d.daysInMonth - d.day;
  return { period: d.period, amount: prorate(monthly, days, d.daysInMonth), days };
}

/**
 * The periods a DID held since `assignedMs` owes at `nowMs` beyond its assignment month: every
 * local month after the assignment month up to and including the current one (the charge job
 * charges each once; a missed run catches up).
 */
export function didMonthsDue(assignedMs: number, nowMs: number, offsetMinutes: number): string[] {
  const a = localDay(assignedMs, offsetMinutes);
  const n = localDay(nowMs, offsetMinutes);
  const out: string[] = [];
  let y = a.year;
  let m = a.month;
  for (;;) {
    m++;
    if (m > 12) {
      m = 1;
      y++;
    }
    if (y > n.year || (y === n.year && m > n.month)) break;
    out.push(didMonthKey(y, m));
  }
  return out;
}

/** Whether two instants fall on the same local day of a zone. */
export function sameLocalDay(aMs: number, bMs: number, offsetMinutes: number): boolean {
  const a = localDay(aMs, offsetMinutes);
  const b = localDay(bMs, offsetMinutes);
  return a.period === b.period && a.day === b.day;
}

/**
 * The ledger and did_charges reference of a client's DID charge: one per assignment (named by the
 * instant it began, in ms) and, for the monthly price and the release refund, per month. Unique per
 * carrier, so a charge is made once whatever re-runs happen, and a new assignment never finds the
 * month already "charged" by an earlier one.
 */
export function didChargeRef(
  kind: 'setup' | 'monthly' | 'refund',
  didId: number,
  assignedMs: number,
  period = '',
): string {
  return kind === 'setup'
    ? `did-setup:${didId}:${assignedMs}`
    : `did-${kind}:${didId}:${assignedMs}:${period}`;
}
