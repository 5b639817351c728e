/**
 * Traffic statistics (issue 11): the QoS figures of a set of call attempts, computed from the sums
 * a summary row (or a CDR list) keeps. Every figure of an empty set is null ("no calls", shown as a
 * dash), never 0 or NaN: an interval without attempts has no ASR.
 *
 * - ASR (answer-seizure ratio) = answered / attempts, percent.
 * - ACD (average call duration) = duration / answered, minutes.
 * - ALOC (average length of call) = duration / non-zero calls, minutes (answered calls that lasted
 *   at least a second: what was billed).
 * - PDD (post-dial delay) = average PDD of the attempts that reported one (pdd > 0), milliseconds.
 * - NER (network effectiveness ratio, ITU-T E.425) = (answered + attempts the called user ended:
 *   busy, no answer, reject) / attempts, percent: what the network did right whatever the user did.
 * - Margin = profit / revenue: money.ts marginPercent (exact, as text).
 */
/** The sums a report adds up (one summary row, or many added together). */
export interface TrafficSums {
  readonly attempts: number;
  readonly answered: number;
  readonly non_zero: number;
  /** Attempts counted by NER: answered or ended by the called user (isNerEffective). */
  readonly ner_calls: number;
  /** Seconds, answer to end. */
  readonly duration: number;
  readonly pdd_sum: number;
  /** Attempts with a PDD (pdd > 0). */
  readonly pdd_calls: number;
}

/**
 * SIP final responses that mean the called user (not the network) ended the attempt, for NER:
 * 486 Busy Here, 600 Busy Everywhere (user busy); 480 Temporarily Unavailable, 487 Request
 * Terminated (no answer: nobody picked up, or the caller gave up while it rang); 603 Decline
 * (user reject).
 */
export const NER_USER_CAUSES: readonly number[] = [480, 486, 487, 600, 603];
/** Q.850 causes with the same meaning (17 user busy, 18 no user responding, 19 no answer, 21 call rejected). */
export const NER_USER_Q850: readonly number[] = [17, 18, 19, 21];

/** Whether an attempt counts toward NER: answered, or ended by the called user. */
export function isNerEffective(answered: boolean, sipCause: number, q850Cause?: number | null): boolean {
  if (answered) return true;
  if (NER_USER_CAUSES.includes(sipCause)) return true;
  return q850Cause !== undefined && q850Cause !== null && NER_USER_Q850.includes(q850Cause);
}

/** Calls that lasted under this many seconds are "short calls" in statistics (a fraud and quality signal). */
export const SHORT_CALL_STAT_SECONDS = 6;

/** Whether a call is a short call for statistics: answered, lasted at least a second and under 6 s. */
export function isShortCall(durationSeconds: number): boolean {
  return durationSeconds > 0 && durationSeconds < SHORT_CALL_STAT_SECONDS;
}

const round2 = (v: number) => Math.round(v * 100) / 100;
const ratio = (num: number, den: number, scale: number): number | null =>
  den > 0 ? round2((num * scale) / den) : null;

/** Answered / attempts, percent with 2 decimals; null without attempts. */
export const asr = (s: TrafficSums): number | null => ratio(s.answered, s.attempts, 100);
/** (Answered + user-ended) / attempts, percent with 2 decimals; null without attempts. */
export const ner = (s: TrafficSums): number | null => ratio(s.ner_calls, s.attempts, 100);
/** Duration / answered, minutes with 2 decimals; null without answered calls. */
export const acd = (s: TrafficSums): number | null => ratio(s.duration, s.answered * 60, 1);
/** Duration / non-zero calls, minutes with 2 decimals; null without non-zero calls. */
export const aloc = (s: TrafficSums): number | null => ratio(s.duration, s.non_zero * 60, 1);
/** Average PDD in whole milliseconds; null when no attempt reported one. */
export const pdd = (s: TrafficSums): number | null =>
  s.pdd_calls > 0 ? Math.round(s.pdd_sum / s.pdd_calls) : null;

/** The QoS figures of a set of sums. */
export function qosOf(s: TrafficSums): {
  asr: number | null;
  acd: number | null;
  aloc: number | null;
  pdd: number | null;
  ner: number | null;
} {
  return { asr: asr(s), acd: acd(s), aloc: aloc(s), pdd: pdd(s), ner: ner(s) };
}

/** Adds sums (an empty list gives all zeros). */
export function addSums(list: Iterable<TrafficSums>): TrafficSums {
  const t = { attempts: 0, answered: 0, non_zero: 0, ner_calls: 0, duration: 0, pdd_sum: 0, pdd_calls: 0 };
  for (const s of list) {
    t.attempts += s.attempts;
    t.answered += s.answered;
    t.non_zero += s.non_zero;
    t.ner_calls += s.ner_calls;
    t.duration += s.duration;
    t.pdd_sum += s.pdd_sum;
    t.pdd_calls += s.pdd_calls;
  }
  return t;
}

/** A UTC day in milliseconds (daily summaries, commission periods, retention in days). */
export const DAY_MS = 86_400_000;
/** Length of a summary interval: 15 minutes. */
export const SUMMARY_INTERVAL_MS = 15 * 60_000;
/** Start of the 15-minute UTC interval holding `ms`. */
export const intervalOf = (ms: number): number => Math.floor(ms / SUMMARY_INTERVAL_MS) * SUMMARY_INTERVAL_MS;
