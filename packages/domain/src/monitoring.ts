/**
 * Monitoring (issue 15): the pure rules behind fraud detection, monitoring rules and loop
 * detection (docs/monitoring.md).
 *
 * - Sliding windows. A rule over the last N minutes looks at [now - N min, now], not "since the
 *   hour began". The traffic summaries keep 15-minute buckets, so a window is read as the raw CDRs
 *   of its leading edge [from, first bucket boundary) plus the summary buckets from that boundary
 *   on (the current bucket holds everything up to now): `windowPlan`.
 * - Metrics (ASR, ACD, SDP, PDD, NER, profitability, minutes, revenue, cost, attempts) as exact
 *   fractions of the summed figures, compared with a decimal threshold without floats: `metricFraction`,
 *   `conditionHolds`.
 * - A rule's verdict per subject (a trunk, an ANI): breach, ok, or not enough calls to judge
 *   (`evaluateConditions`), and the fire-once state machine: a subject fires when it goes from
 *   clear to breached, and again only after it cleared (`nextRuleState`).
 * - Blocks and loop detection as the route API reads them, in memory (`MonitorState`): blocks of
 *   an ingress trunk, of an ANI on an ingress trunk, of a trunk for some codes (a route) or of an
 *   egress trunk, each until its time is up; and the loop counter: the same ANI and DNIS more than
 *   N times in S seconds on a listed trunk (or number range) is refused for the block time.
 */
import { MICROS_PER_UNIT, parseMoney, type Micros } from './money';
import { SUMMARY_INTERVAL_MS } from './traffic-stats';

// ---------------------------------------------------------------------------------------------
// Windows

export interface WindowPlan {
  /** Start of the window (inclusive), epoch ms. */
  readonly from: number;
  /** End of the window (inclusive), epoch ms. */
  readonly to: number;
  /** Raw CDRs with start_time in [from, edgeTo) are read from the CDR table (empty when from is a boundary). */
  readonly edgeTo: number;
  /** Summary buckets with bucket >= bucketsFrom (and <= to) are read from the summaries (none when bucketsFrom > to). */
  readonly bucketsFrom: number;
}

/** How to read the last `minutes` before `now` from raw CDRs and 15-minute summaries. */
export function windowPlan(now: number, minutes: number): WindowPlan {
  const from = now - minutes * 60_000;
  const boundary = Math.ceil(from / SUMMARY_INTERVAL_MS) * SUMMARY_INTERVAL_MS;
  // A window inside one bucket is read from the raw CDRs alone, now included.
  if (boundary > now) return { from, to: now, edgeTo: now + 1, bucketsFrom: boundary };
  return { from, to: now, edgeTo: boundary, bucketsFrom: boundary };
}

// ---------------------------------------------------------------------------------------------
// Figures and metrics

/** Sums over a set of call attempts (a window of one subject). */
export interface MonitorFigures {
  attempts: number;
  answered: number;
  non_zero_calls: number;
  ner_calls: number;
  short_calls: number;
  /** Seconds, answer to end. */
  duration: number;
  pdd_sum: number;
  pdd_calls: number;
  /** Revenue (customer side), micro-units. */
  revenue: Micros;
  /** Cost (vendor side), micro-units. */
  cost: Micros;
}

export function emptyFigures(): MonitorFigures {
  return {
    attempts: 0,
    answered: 0,
    non_zero_calls: 0,
    ner_calls: 0,
    short_calls: 0,
    duration: 0,
    pdd_sum: 0,
    pdd_calls: 0,
    revenue: 0n,
    cost: 0n,
  };
}

/** Adds `b` into `a` (in place) and returns `a`. */
export function addFigures(a: MonitorFigures, b: MonitorFigures): MonitorFigures {
  a.attempts += b.attempts;
  a.answered += b.answered;
  a.non_zero_calls += b.non_zero_calls;
  a.ner_calls += b.ner_calls;
  a.short_calls += b.short_calls;
  a.duration += b.duration;
  a.pdd_sum += b.pdd_sum;
  a.pdd_calls += b.pdd_calls;
  a.revenue += b.revenue;
  a.cost += b.cost;
  return a;
}

export const MONITOR_METRICS = [
  'asr',
  'acd',
  'sdp',
  'pdd',
  'ner',
  'profitability',
  'minutes',
  'revenue',
  'cost',
  'attempts',
] as const;
export type MonitorMetric = (typeof MONITOR_METRICS)[number];

/** A metric as an exact fraction num / den (den > 0), or null when it has no value (no calls). */
export function metricFraction(
  metric: MonitorMetric,
  f: MonitorFigures,
): { num: bigint; den: bigint } | null {
  const B = BigInt;
  const frac = (num: bigint, den: bigint) => (den > 0n ? { num, den } : null);
  switch (metric) {
    case 'asr': // percent
      return frac(B(f.answered) * 100n, B(f.attempts));
    case 'acd': // minutes per answered call
      return frac(B(f.duration), B(f.answered) * 60n);
    case 'sdp': // short calls, percent of the non-zero ones
      return frac(B(f.short_calls) * 100n, B(f.non_zero_calls));
    case 'pdd': // milliseconds
      return frac(B(f.pdd_sum), B(f.pdd_calls));
    case 'ner': // percent
      return frac(B(f.ner_calls) * 100n, B(f.attempts));
    case 'profitability': // (revenue - cost) / revenue, percent
      return frac((f.revenue - f.cost) * 100n, f.revenue);
    case 'minutes':
      return { num: B(f.duration), den: 60n };
    case 'revenue':
      return { num: f.revenue, den: MICROS_PER_UNIT };
    case 'cost':
      return { num: f.cost, den: MICROS_PER_UNIT };
    case 'attempts':
      return { num: B(f.attempts), den: 1n };
  }
}

/** The metric's value as a number rounded to 2 decimals, for logs and screens (null without calls). */
export function metricValue(metric: MonitorMetric, f: MonitorFigures): number | null {
  const q = metricFraction(metric, f);
  if (q === null) return null;
  const n = q.num * 100n;
  const r = ((n < 0n ? -n : n) * 2n + q.den) / (2n * q.den); // half away from zero
  return Number(n < 0n ? -r : r) / 100;
}

export type MonitorOp = 'gt' | 'lt';

export interface MonitorCondition {
  readonly metric: MonitorMetric;
  readonly op: MonitorOp;
  /** Decimal threshold (up to 6 decimals). */
  readonly value: string;
  /** The window it looks at, minutes. */
  readonly window_minutes: number;
}

/** Whether `metric op value` holds for the figures, exactly; null when the metric has no value. */
export function conditionHolds(c: MonitorCondition, f: MonitorFigures): boolean | null {
  const q = metricFraction(c.metric, f);
  if (q === null) return null;
  const t = parseMoney(c.value); // micros
  const left = q.num * MICROS_PER_UNIT;
  const right = t * q.den;
  return c.op === 'gt' ? left > right : left < right;
}

export type Verdict = 'breach' | 'ok' | 'insufficient';

export interface Evaluation {
  readonly verdict: Verdict;
  /** The conditions that held (breach) with the values seen. */
  readonly hits: readonly { condition: MonitorCondition; value: number | null }[];
}

/**
 * A subject's verdict over its windows (`figures` by window minutes). A condition whose window has
 * fewer than `minAttempts` attempts is not judged (too few calls to say anything); one whose
 * metric has no value (ACD without an answered call) does not hold. `match: 'any'`: a breach when
 * a judged condition holds, `insufficient` when none could be judged. `match: 'all'`: a breach
 * when every condition was judged and holds, `insufficient` when any could not be judged.
 */
export function evaluateConditions(
  conditions: readonly MonitorCondition[],
  figures: ReadonlyMap<number, MonitorFigures>,
  minAttempts: number,
  match: 'any' | 'all' = 'any',
): Evaluation {
  if (conditions.length === 0) return { verdict: 'ok', hits: [] };
  const hits: { condition: MonitorCondition; value: number | null }[] = [];
  let judged = 0;
  for (const c of conditions) {
    const f = figures.get(c.window_minutes) ?? emptyFigures();
    if (f.attempts < minAttempts || f.attempts === 0) continue;
    judged++;
    if (conditionHolds(c, f) === true) hits.push({ condition: c, value: metricValue(c.metric, f) });
  }
  if (match === 'all') {
    if (judged < conditions.length) return { verdict: 'insufficient', hits: [] };
    return hits.length === conditions.length ? { verdict: 'breach', hits } : { verdict: 'ok', hits: [] };
  }
  if (hits.length > 0) return { verdict: 'breach', hits };
  return { verdict: judged === 0 ? 'insufficient' : 'ok', hits: [] };
}

/** A fraud rule's thresholds (null = not used). */
export interface FraudThresholds {
  readonly hour_minutes: string | null;
  readonly hour_revenue: string | null;
  readonly hour_cost: string | null;
  readonly day_minutes: string | null;
  readonly day_revenue: string | null;
  readonly day_cost: string | null;
  readonly asr_below: string | null;
  readonly acd_below: string | null;
}

/** A fraud rule's conditions: minutes, revenue, cost above per hour and 24 hours; ASR, ACD below over the hour. */
export function fraudConditions(r: FraudThresholds): MonitorCondition[] {
  const out: MonitorCondition[] = [];
  const add = (v: string | null, metric: MonitorMetric, op: MonitorOp, window_minutes: number) => {
    if (v !== null) out.push({ metric, op, value: v, window_minutes });
  };
  add(r.hour_minutes, 'minutes', 'gt', 60);
  add(r.hour_revenue, 'revenue', 'gt', 60);
  add(r.hour_cost, 'cost', 'gt', 60);
  add(r.day_minutes, 'minutes', 'gt', 1440);
  add(r.day_revenue, 'revenue', 'gt', 1440);
  add(r.day_cost, 'cost', 'gt', 1440);
  add(r.asr_below, 'asr', 'lt', 60);
  add(r.acd_below, 'acd', 'lt', 60);
  return out;
}

/** A monitoring rule's thresholds over its sample (null = not used). */
export interface RuleThresholds {
  readonly asr_below: string | null;
  readonly acd_below: string | null;
  readonly ner_below: string | null;
  readonly profit_below: string | null;
  readonly sdp_above: string | null;
  readonly pdd_above: string | null;
  readonly sample_minutes: number;
}

/** A monitoring rule's conditions: ASR, ACD, NER, profitability below; SDP, PDD above; all over the sample. */
export function ruleConditions(r: RuleThresholds): MonitorCondition[] {
  const out: MonitorCondition[] = [];
  const add = (v: string | null, metric: MonitorMetric, op: MonitorOp) => {
    if (v !== null) out.push({ metric, op, value: v, window_minutes: r.sample_minutes });
  };
  add(r.asr_below, 'asr', 'lt');
  add(r.acd_below, 'acd', 'lt');
  add(r.ner_below, 'ner', 'lt');
  add(r.profit_below, 'profitability', 'lt');
  add(r.sdp_above, 'sdp', 'gt');
  add(r.pdd_above, 'pdd', 'gt');
  return out;
}

/** The figures as metric -> value for logs and e-mails. */
export function figuresSummary(f: MonitorFigures): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const m of MONITOR_METRICS) out[m] = metricValue(m, f);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Fire once per breach

export type RuleState = 'clear' | 'breached';
export type RuleStep = 'fire' | 'clear' | 'none';

/**
 * The fire-once state machine of one (rule, subject): clear + breach fires and becomes breached;
 * breached + breach does nothing (the same breach goes on); breached + ok clears (the next breach
 * fires again); `insufficient` changes nothing. A block that ends by its time re-arms the subject
 * (`rearm`), so traffic that is still bad after the auto-unblock fires again.
 */
export function nextRuleState(prev: RuleState, verdict: Verdict): { state: RuleState; step: RuleStep } {
  if (verdict === 'insufficient') return { state: prev, step: 'none' };
  if (verdict === 'breach')
    return prev === 'clear' ? { state: 'breached', step: 'fire' } : { state: prev, step: 'none' };
  return prev === 'breached' ? { state: 'clear', step: 'clear' } : { state: prev, step: 'none' };
}

// ---------------------------------------------------------------------------------------------
// Number ranges (loop rules)

export interface NumberRange {
  readonly from: string;
  readonly to: string;
}

/**
 * A number range as written: `4420` (every number starting 4420) or `4420700000-4420799999` (numbers
 * of that length between the two, inclusive). Null when it is not one.
 */
export function parseNumberRange(text: string): NumberRange | null {
  const t = text.trim();
  const m = /^(\d{1,32})(?:\s*-\s*(\d{1,32}))?$/.exec(t);
  if (m === null) return null;
  if (m[2] === undefined) return { from: m[1]!, to: m[1]! };
  if (m[1]!.length !== m[2].length || m[1]! > m[2]) return null;
  return { from: m[1]!, to: m[2] };
}

/** Whether the number is in the range: a prefix (from = to) starts it, a from-to range of its length holds it. */
export function inNumberRange(number: string, r: NumberRange): boolean {
  if (r.from === r.to) return number.startsWith(r.from);
  return number.length === r.from.length && number >= r.from && number <= r.to;
}

// ---------------------------------------------------------------------------------------------
// Blocks and loops in the route API

export type MonitorBlockKind = 'trunk' | 'ani' | 'route' | 'loop';

export interface MonitorBlock {
  readonly block_id: number;
  readonly side: 'ingress' | 'egress';
  readonly trunk_id: number;
  /** ANI blocks: the caller refused on this ingress trunk. */
  readonly ani: string | null;
  /** Route blocks: the destination code prefixes refused on this trunk; null = the whole trunk. */
  readonly codes: readonly string[] | null;
  /** Epoch ms; null = until lifted by hand. */
  readonly until: number | null;
  readonly rule_name: string;
}

export interface LoopRule {
  readonly rule_id: number;
  readonly name: string;
  /** Ingress trunks it watches; empty = every trunk (then `ranges` must say which numbers). */
  readonly trunk_ids: readonly number[];
  /** DNIS ranges it watches; empty = every number. */
  readonly ranges: readonly NumberRange[];
  /** More than this many calls with the same ANI and DNIS ... */
  readonly max_calls: number;
  /** ... within this many seconds is a loop ... */
  readonly window_s: number;
  /** ... refused for this many seconds. */
  readonly block_s: number;
}

export interface MonitorHit {
  readonly kind: MonitorBlockKind;
  readonly block_id: number | null;
  readonly rule_name: string;
  readonly until: number | null;
}

/** A loop found by the counter (reported once, when the pair gets blocked). */
export interface LoopEvent {
  readonly rule_id: number;
  readonly rule_name: string;
  readonly trunk_id: number;
  readonly ani: string;
  readonly dnis: string;
  readonly at: number;
  readonly until: number;
  readonly calls: number;
}

interface LoopEntry {
  /** Times of the calls inside the window, oldest first. */
  times: number[];
  blockedUntil: number;
}

/**
 * Whether a block holds at `now` (epoch ms): not lifted (by hand, or by the job when its time was
 * up) and its time not up. The one rule the route API, the job and the screens apply; its SQL twin
 * is the server's `blockActiveSql`.
 */
export function blockInForce(b: { until: number | null; lifted_at?: number | null }, now: number): boolean {
  return (b.lifted_at === undefined || b.lifted_at === null) && (b.until === null || b.until > now);
}

function codeMatch(codes: readonly string[] | null, dnis: string): boolean {
  if (codes === null) return true;
  for (let i = 0; i < codes.length; i++) if (dnis.startsWith(codes[i]!)) return true;
  return false;
}

/**
 * The blocks and loop counters the route API reads (one per server process). `setBlocks` and
 * `setLoopRules` replace the configuration (the server polls it from the database every second);
 * `ingress` and `egress` answer per call in a few map lookups. `ingress(..., count = true)` counts
 * the call for loop detection (the route API); the call simulation passes false and only sees
 * what is already blocked.
 */
export class MonitorState {
  private ingressBlocks = new Map<number, MonitorBlock[]>();
  private egressBlocks = new Map<number, MonitorBlock[]>();
  private loopByTrunk = new Map<number, LoopRule[]>();
  private loopAnyTrunk: LoopRule[] = [];
  private readonly loops = new Map<string, LoopEntry>();
  private nextSweep = 0;
  /** Loops found since the last `drainLoopEvents` (the server logs them). */
  private events: LoopEvent[] = [];

  setBlocks(blocks: readonly MonitorBlock[]): void {
    const ing = new Map<number, MonitorBlock[]>();
    const eg = new Map<number, MonitorBlock[]>();
    for (const b of blocks) {
      const m = b.side === 'ingress' ? ing : eg;
      const list = m.get(b.trunk_id);
      if (list) list.push(b);
      else m.set(b.trunk_id, [b]);
    }
    this.ingressBlocks = ing;
    this.egressBlocks = eg;
  }

  setLoopRules(rules: readonly LoopRule[]): void {
    const byTrunk = new Map<number, LoopRule[]>();
    const any: LoopRule[] = [];
    for (const r of rules) {
      if (r.trunk_ids.length === 0) any.push(r);
      for (const t of r.trunk_ids) {
        const list = byTrunk.get(t);
        if (list) list.push(r);
        else byTrunk.set(t, [r]);
      }
    }
    this.loopByTrunk = byTrunk;
    this.loopAnyTrunk = any;
  }

  /** Whether an ingress call is refused: a block of the trunk, its ANI or the route, or a loop. */
  ingress(trunkId: number, ani: string, dnis: string, now: number, count: boolean): MonitorHit | null {
    const blocks = this.ingressBlocks.get(trunkId);
    if (blocks !== undefined) {
      for (const b of blocks) {
        if (!blockInForce(b, now)) continue;
        if (b.ani !== null && b.ani !== ani) continue;
        if (!codeMatch(b.codes, dnis)) continue;
        const kind: MonitorBlockKind = b.ani !== null ? 'ani' : b.codes !== null ? 'route' : 'trunk';
        return { kind, block_id: b.block_id, rule_name: b.rule_name, until: b.until };
      }
    }
    const rules = this.loopByTrunk.get(trunkId);
    if (rules === undefined && this.loopAnyTrunk.length === 0) return null;
    return this.loop(rules, trunkId, ani, dnis, now, count);
  }

  /** Whether an egress trunk is blocked for this number. */
  egress(trunkId: number, dnis: string, now: number): MonitorHit | null {
    const blocks = this.egressBlocks.get(trunkId);
    if (blocks === undefined) return null;
    for (const b of blocks) {
      if (!blockInForce(b, now) || !codeMatch(b.codes, dnis)) continue;
      return {
        kind: b.codes !== null ? 'route' : 'trunk',
        block_id: b.block_id,
        rule_name: b.rule_name,
        until: b.until,
      };
    }
    return null;
  }

  private loop(
    rules: readonly LoopRule[] | undefined,
    trunkId: number,
    ani: string,
    dnis: string,
    now: number,
    count: boolean,
  ): MonitorHit | null {
    if (count) this.sweep(now);
    let hit: MonitorHit | null = null;
    const check = (r: LoopRule) => {
      if (hit !== null) return;
      if (r.ranges.length > 0 && !r.ranges.some((g) => inNumberRange(dnis, g))) return;
      const key = `${r.rule_id}|${trunkId}|${ani}|${dnis}`;
      let e = this.loops.get(key);
      if (e !== undefined && e.blockedUntil > now) {
        hit = { kind: 'loop', block_id: null, rule_name: r.name, until: e.blockedUntil };
        return;
      }
      if (!count) return;
      if (e === undefined) {
        e = { times: [], blockedUntil: 0 };
        this.loops.set(key, e);
      }
      const since = now - r.window_s * 1000;
      const t = e.times;
      while (t.length > 0 && t[0]! <= since) t.shift();
      t.push(now);
      if (t.length > r.max_calls) {
        e.blockedUntil = now + r.block_s * 1000;
        const calls = t.length;
        t.length = 0;
        this.events.push({
          rule_id: r.rule_id,
          rule_name: r.name,
          trunk_id: trunkId,
          ani,
          dnis,
          at: now,
          until: e.blockedUntil,
          calls,
        });
        if (this.events.length > 10_000) this.events.shift();
        hit = { kind: 'loop', block_id: null, rule_name: r.name, until: e.blockedUntil };
      }
    };
    if (rules !== undefined) for (const r of rules) check(r);
    for (const r of this.loopAnyTrunk) check(r);
    return hit;
  }

  /** Forgets counters whose window and block are over (at most once a second). */
  sweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + 1000;
    if (this.loops.size === 0) return;
    const longest = this.longestWindowMs();
    for (const [key, e] of this.loops) {
      const last = e.times.length > 0 ? e.times[e.times.length - 1]! : 0;
      if (e.blockedUntil <= now && last <= now - longest) this.loops.delete(key);
    }
  }

  private longestWindowMs(): number {
    let w = 0;
    for (const list of this.loopByTrunk.values()) for (const r of list) w = Math.max(w, r.window_s * 1000);
    for (const r of this.loopAnyTrunk) w = Math.max(w, r.window_s * 1000);
    return w;
  }

  /** Counters kept now (tests, status). */
  loopCounterCount(): number {
    return this.loops.size;
  }

  drainLoopEvents(): LoopEvent[] {
    const out = this.events;
    this.events = [];
    return out;
  }

  /** A read-only view for the call simulation: sees blocks and loops, counts nothing. */
  view(): MonitorGuard {
    return {
      ingress: (t, a, d, now) => this.ingress(t, a, d, now, false),
      egress: (t, d, now) => this.egress(t, d, now),
    };
  }

  /** The route API's guard: counts each call for loop detection. */
  guard(): MonitorGuard {
    return {
      ingress: (t, a, d, now) => this.ingress(t, a, d, now, true),
      egress: (t, d, now) => this.egress(t, d, now),
    };
  }
}

/** What decide() asks of monitoring per call (routing-types RoutingState.monitor). */
export interface MonitorGuard {
  ingress(trunkId: number, ani: string, dnis: string, now: number): MonitorHit | null;
  egress(trunkId: number, dnis: string, now: number): MonitorHit | null;
}
