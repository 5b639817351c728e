import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  conditionHolds,
  emptyFigures,
  evaluateConditions,
  fraudConditions,
  ruleConditions,
  inNumberRange,
  metricValue,
  MonitorState,
  nextRuleState,
  parseNumberRange,
  windowPlan,
  type MonitorCondition,
  type MonitorFigures,
  type RuleState,
  type Verdict,
} from '../src/monitoring';
import { SUMMARY_INTERVAL_MS } from '../src/traffic-stats';
import { buildSnapshot } from '../src/snapshot';
import { decide } from '../src/routing';
import { baseConfig, call, T0 } from './fixtures';

const figures = (over: Partial<MonitorFigures>): MonitorFigures => ({ ...emptyFigures(), ...over });
const cond = (over: Partial<MonitorCondition>): MonitorCondition => ({
  metric: 'asr',
  op: 'lt',
  value: '20',
  window_minutes: 60,
  ...over,
});

describe('sliding windows', () => {
  it('a 60-minute window at 10:07 reads raw CDRs 09:07-09:15 and the buckets from 09:15 on', () => {
    const now = Date.UTC(2026, 0, 1, 10, 7, 30);
    const p = windowPlan(now, 60);
    expect(new Date(p.from).toISOString()).toBe('2026-01-01T09:07:30.000Z');
    expect(new Date(p.edgeTo).toISOString()).toBe('2026-01-01T09:15:00.000Z');
    expect(p.bucketsFrom).toBe(p.edgeTo);
    expect(p.to).toBe(now);
  });

  it('a window starting on a boundary has no raw edge', () => {
    const now = Date.UTC(2026, 0, 1, 10, 0, 0);
    const p = windowPlan(now, 60);
    expect(p.edgeTo).toBe(p.from);
  });

  it('property: edge + buckets cover exactly [from, now], the edge is shorter than a bucket, buckets start on a boundary', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_600_000_000_000, max: 1_900_000_000_000 }),
        fc.integer({ min: 1, max: 24 * 60 }),
        (now0, minutes) => {
          const now = now0 % 3 === 0 ? Math.floor(now0 / 60_000) * 60_000 : now0;
          const p = windowPlan(now, minutes);
          expect(p.from).toBe(now - minutes * 60_000);
          expect(p.edgeTo).toBeGreaterThanOrEqual(p.from);
          expect(p.edgeTo - p.from).toBeLessThan(SUMMARY_INTERVAL_MS);
          expect(p.edgeTo <= now + 1).toBe(true);
          expect(p.bucketsFrom % SUMMARY_INTERVAL_MS).toBe(0);
          // a CDR at time t is read exactly once when from <= t <= now
          for (const t of [p.from, p.edgeTo - 1, p.edgeTo, now - 1, now, Math.floor((p.from + now) / 2)]) {
            if (t < p.from || t > now) continue;
            const inEdge = t >= p.from && t < p.edgeTo;
            const bucket = Math.floor(t / SUMMARY_INTERVAL_MS) * SUMMARY_INTERVAL_MS;
            const inBuckets = bucket >= p.bucketsFrom;
            expect(Number(inEdge) + Number(inBuckets)).toBe(1);
          }
        },
      ),
    );
  });
});

describe('metrics and conditions', () => {
  const f = figures({
    attempts: 10,
    answered: 4,
    non_zero_calls: 4,
    short_calls: 1,
    ner_calls: 7,
    duration: 480,
    pdd_sum: 30_000,
    pdd_calls: 10,
    revenue: 2_000_000n,
    cost: 1_500_000n,
  });

  it('computes every metric', () => {
    expect(metricValue('asr', f)).toBe(40);
    expect(metricValue('acd', f)).toBe(2);
    expect(metricValue('sdp', f)).toBe(25);
    expect(metricValue('ner', f)).toBe(70);
    expect(metricValue('pdd', f)).toBe(3000);
    expect(metricValue('profitability', f)).toBe(25);
    expect(metricValue('minutes', f)).toBe(8);
    expect(metricValue('revenue', f)).toBe(2);
    expect(metricValue('cost', f)).toBe(1.5);
    expect(metricValue('attempts', f)).toBe(10);
    expect(metricValue('asr', emptyFigures())).toBeNull();
    expect(metricValue('profitability', emptyFigures())).toBeNull();
  });

  it('compares exactly at the threshold (no float error)', () => {
    expect(conditionHolds(cond({ metric: 'asr', op: 'lt', value: '40' }), f)).toBe(false);
    expect(conditionHolds(cond({ metric: 'asr', op: 'lt', value: '40.000001' }), f)).toBe(true);
    expect(conditionHolds(cond({ metric: 'revenue', op: 'gt', value: '2' }), f)).toBe(false);
    expect(conditionHolds(cond({ metric: 'revenue', op: 'gt', value: '1.999999' }), f)).toBe(true);
    // 1/3 of a percent is not 0.333333
    const third = figures({ attempts: 300, answered: 1 });
    expect(conditionHolds(cond({ metric: 'asr', op: 'gt', value: '0.333333' }), third)).toBe(true);
    expect(conditionHolds(cond({ metric: 'asr', op: 'lt', value: '0.333334' }), third)).toBe(true);
    expect(conditionHolds(cond({ metric: 'acd' }), emptyFigures())).toBeNull();
  });

  it('property: exactly one of gt, lt, or equality holds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1e6 }),
        fc.integer({ min: 0, max: 1e6 }),
        fc.integer({ min: 0, max: 100_000_000 }),
        (attempts, answered, micros) => {
          const g = figures({ attempts, answered: Math.min(answered, attempts) });
          const value = (micros / 1e6).toFixed(6);
          const gt = conditionHolds(cond({ op: 'gt', value }), g);
          const lt = conditionHolds(cond({ op: 'lt', value }), g);
          const equal = BigInt(g.answered) * 100n * 1_000_000n === BigInt(micros) * BigInt(attempts);
          expect(Number(gt) + Number(lt) + Number(equal)).toBe(1);
        },
      ),
    );
  });

  it('a window below the minimum attempts is insufficient; any/all matching', () => {
    const windows = new Map([[60, f]]);
    const low = cond({ metric: 'asr', op: 'lt', value: '50' }); // holds (40 < 50)
    const high = cond({ metric: 'acd', op: 'gt', value: '5' }); // does not (2 > 5)
    expect(evaluateConditions([low], windows, 11).verdict).toBe('insufficient');
    // any: a judged window decides even when another window has too few calls
    const two = new Map([
      [60, f],
      [1440, figures({ attempts: 2 })],
    ]);
    expect(evaluateConditions([low, cond({ window_minutes: 1440 })], two, 5, 'any').verdict).toBe('breach');
    expect(evaluateConditions([low, cond({ window_minutes: 1440 })], two, 5, 'all').verdict).toBe(
      'insufficient',
    );
    expect(evaluateConditions([low], windows, 10).verdict).toBe('breach');
    expect(evaluateConditions([low, high], windows, 1, 'any')).toMatchObject({
      verdict: 'breach',
      hits: [{ value: 40 }],
    });
    expect(evaluateConditions([low, high], windows, 1, 'all').verdict).toBe('ok');
    expect(evaluateConditions([], windows, 1).verdict).toBe('ok');
    // a window nobody read counts as no traffic
    expect(evaluateConditions([cond({ window_minutes: 1440 })], windows, 1).verdict).toBe('insufficient');
  });
});

describe('rule conditions', () => {
  it('maps fraud and monitoring thresholds to conditions over their windows', () => {
    const none = {
      hour_minutes: null,
      hour_revenue: null,
      hour_cost: null,
      day_minutes: null,
      day_revenue: null,
      day_cost: null,
      asr_below: null,
      acd_below: null,
    };
    expect(fraudConditions(none)).toEqual([]);
    expect(fraudConditions({ ...none, hour_revenue: '10', day_minutes: '600', asr_below: '5' })).toEqual([
      { metric: 'revenue', op: 'gt', value: '10', window_minutes: 60 },
      { metric: 'minutes', op: 'gt', value: '600', window_minutes: 1440 },
      { metric: 'asr', op: 'lt', value: '5', window_minutes: 60 },
    ]);
    expect(
      ruleConditions({
        asr_below: '20',
        acd_below: null,
        ner_below: null,
        profit_below: '-1',
        sdp_above: '30',
        pdd_above: null,
        sample_minutes: 15,
      }),
    ).toEqual([
      { metric: 'asr', op: 'lt', value: '20', window_minutes: 15 },
      { metric: 'profitability', op: 'lt', value: '-1', window_minutes: 15 },
      { metric: 'sdp', op: 'gt', value: '30', window_minutes: 15 },
    ]);
  });

  it('a negative profitability threshold compares exactly', () => {
    const loss = figures({ attempts: 1, revenue: 1_000_000n, cost: 1_020_000n }); // -2 %
    expect(conditionHolds(cond({ metric: 'profitability', op: 'lt', value: '-1' }), loss)).toBe(true);
    expect(conditionHolds(cond({ metric: 'profitability', op: 'lt', value: '-2' }), loss)).toBe(false);
  });
});

describe('fire once per breach', () => {
  it('fires on the first breach, not again while it lasts, again after it cleared', () => {
    let s: RuleState = 'clear';
    const steps: string[] = [];
    for (const v of ['ok', 'breach', 'breach', 'insufficient', 'breach', 'ok', 'ok', 'breach'] as Verdict[]) {
      const n = nextRuleState(s, v);
      s = n.state;
      steps.push(n.step);
    }
    expect(steps).toEqual(['none', 'fire', 'none', 'none', 'none', 'clear', 'none', 'fire']);
  });

  it('property: fires equal the number of breach runs (maximal, ignoring insufficient)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom<Verdict>('breach', 'ok', 'insufficient'), { maxLength: 60 }),
        (vs) => {
          let s: RuleState = 'clear';
          let fires = 0;
          let clears = 0;
          for (const v of vs) {
            const n = nextRuleState(s, v);
            if (n.step === 'fire') fires++;
            if (n.step === 'clear') clears++;
            s = n.state;
          }
          const judged = vs.filter((v) => v !== 'insufficient');
          let runs = 0;
          for (let i = 0; i < judged.length; i++)
            if (judged[i] === 'breach' && (i === 0 || judged[i - 1] !== 'breach')) runs++;
          expect(fires).toBe(runs);
          expect(fires - clears).toBe(s === 'breached' ? 1 : 0);
        },
      ),
    );
  });
});

describe('number ranges', () => {
  it('parses prefixes and ranges of equal length', () => {
    expect(parseNumberRange('4420')).toEqual({ from: '4420', to: '4420' });
    expect(parseNumberRange(' 4420700-4420799 ')).toEqual({ from: '4420700', to: '4420799' });
    expect(parseNumberRange('4420799-4420700')).toBeNull();
    expect(parseNumberRange('44-4420')).toBeNull();
    expect(parseNumberRange('44a')).toBeNull();
    expect(inNumberRange('442071234', { from: '4420', to: '4420' })).toBe(true);
    expect(inNumberRange('4420750', { from: '4420700', to: '4420799' })).toBe(true);
    expect(inNumberRange('44207500', { from: '4420700', to: '4420799' })).toBe(false);
    expect(inNumberRange('4420800', { from: '4420700', to: '4420799' })).toBe(false);
  });
});

describe('blocks and loops in the route API', () => {
  const loopRule = {
    rule_id: 1,
    name: 'loops',
    trunk_ids: [1],
    ranges: [],
    max_calls: 3,
    window_s: 10,
    block_s: 60,
  };

  it('refuses the call after more than N in S seconds, for the block time, then admits again', () => {
    const m = new MonitorState();
    m.setLoopRules([loopRule]);
    const t = T0;
    for (let i = 0; i < 3; i++) expect(m.ingress(1, 'a', 'd', t + i * 1000, true)).toBeNull();
    expect(m.ingress(1, 'a', 'd', t + 3000, true)).toMatchObject({ kind: 'loop', until: t + 3000 + 60_000 });
    expect(m.drainLoopEvents()).toMatchObject([{ trunk_id: 1, ani: 'a', dnis: 'd', calls: 4 }]);
    // other pairs and other trunks are not affected
    expect(m.ingress(1, 'a', 'other', t + 3000, true)).toBeNull();
    expect(m.ingress(2, 'a', 'd', t + 3000, true)).toBeNull();
    // blocked for the block time, seen by the read-only view too (which counts nothing)
    expect(m.view().ingress(1, 'a', 'd', t + 62_999)).toMatchObject({ kind: 'loop' });
    expect(m.ingress(1, 'a', 'd', t + 63_001, true)).toBeNull();
  });

  it('the window slides: calls spread wider than S seconds never loop', () => {
    const m = new MonitorState();
    m.setLoopRules([loopRule]);
    for (let i = 0; i < 50; i++) expect(m.ingress(1, 'a', 'd', T0 + i * 3400, true)).toBeNull();
  });

  it('the simulation view never counts', () => {
    const m = new MonitorState();
    m.setLoopRules([loopRule]);
    const v = m.view();
    for (let i = 0; i < 10; i++) expect(v.ingress(1, 'a', 'd', T0)).toBeNull();
    expect(m.loopCounterCount()).toBe(0);
  });

  it('number ranges limit a rule; a rule without trunks watches every trunk in its range', () => {
    const m = new MonitorState();
    m.setLoopRules([{ ...loopRule, trunk_ids: [], ranges: [{ from: '44', to: '44' }], max_calls: 1 }]);
    expect(m.ingress(7, 'a', '4412', T0, true)).toBeNull();
    expect(m.ingress(7, 'a', '4412', T0 + 1, true)).toMatchObject({ kind: 'loop' });
    expect(m.ingress(7, 'a', '3312', T0 + 2, true)).toBeNull();
    expect(m.ingress(7, 'a', '3312', T0 + 3, true)).toBeNull();
  });

  it('property: a pair is refused exactly when its count in the window would pass N (or it is blocked)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 4000 }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 5 }),
        (gaps, n) => {
          const m = new MonitorState();
          m.setLoopRules([{ ...loopRule, max_calls: n, window_s: 5, block_s: 7 }]);
          let t = T0;
          let times: number[] = [];
          let blockedUntil = 0;
          for (const g of gaps) {
            t += g;
            const got = m.ingress(1, 'a', 'd', t, true) !== null;
            let want: boolean;
            if (blockedUntil > t) want = true;
            else {
              times = times.filter((x) => x > t - 5000);
              times.push(t);
              want = times.length > n;
              if (want) {
                blockedUntil = t + 7000;
                times = [];
              }
            }
            expect(got).toBe(want);
          }
        },
      ),
    );
  });

  it('counters are forgotten after their window', () => {
    const m = new MonitorState();
    m.setLoopRules([loopRule]);
    m.ingress(1, 'a', 'd', T0, true);
    expect(m.loopCounterCount()).toBe(1);
    m.ingress(1, 'b', 'd', T0 + 20_000, true);
    expect(m.loopCounterCount()).toBe(1);
  });

  it('blocks of a trunk, an ANI, a route (codes) and an egress trunk, each until its time', () => {
    const m = new MonitorState();
    const base = { side: 'ingress' as const, ani: null, codes: null, rule_name: 'r' };
    m.setBlocks([
      { ...base, block_id: 1, trunk_id: 1, until: T0 + 1000 },
      { ...base, block_id: 2, trunk_id: 2, ani: '123', until: null },
      { ...base, block_id: 3, trunk_id: 3, codes: ['44'], until: null },
      { ...base, block_id: 4, trunk_id: 11, side: 'egress', until: null },
    ]);
    expect(m.ingress(1, 'x', '1', T0, true)).toMatchObject({ kind: 'trunk', block_id: 1 });
    expect(m.ingress(1, 'x', '1', T0 + 1000, true)).toBeNull(); // time is up
    expect(m.ingress(2, '123', '1', T0, true)).toMatchObject({ kind: 'ani' });
    expect(m.ingress(2, '124', '1', T0, true)).toBeNull();
    expect(m.ingress(3, 'x', '4420', T0, true)).toMatchObject({ kind: 'route' });
    expect(m.ingress(3, 'x', '3320', T0, true)).toBeNull();
    expect(m.egress(11, '44', T0)).toMatchObject({ kind: 'trunk', block_id: 4 });
    expect(m.egress(12, '44', T0)).toBeNull();
  });

  it('decide() refuses a blocked ingress trunk (403 trunk_blocked), a loop (482) and skips a blocked vendor', () => {
    const snapshot = buildSnapshot(baseConfig());
    const m = new MonitorState();
    const base = { side: 'ingress' as const, ani: null, codes: null, rule_name: 'fraud', until: null };
    m.setBlocks([{ ...base, block_id: 9, trunk_id: 1 }]);
    const d = decide(snapshot, call(), { monitor: m.guard() }, { trace: true });
    expect(d).toMatchObject({ result: 'reject', reject_code: 403, reject_reason: 'trunk_blocked' });
    expect(d.trace.some((s) => s.step === 'monitoring' && s.outcome === 'fail')).toBe(true);

    const free = decide(snapshot, call(), {}).routes.map((r) => r.trunk_id);
    m.setBlocks([{ ...base, block_id: 10, side: 'egress', trunk_id: free[0]! }]);
    const routed = decide(snapshot, call(), { monitor: m.guard() }).routes.map((r) => r.trunk_id);
    expect(routed).toEqual(free.slice(1));

    m.setBlocks([]);
    m.setLoopRules([
      { rule_id: 1, name: 'l', trunk_ids: [1], ranges: [], max_calls: 1, window_s: 10, block_s: 10 },
    ]);
    const g = m.guard();
    expect(decide(snapshot, call(), { monitor: g }).result).toBe('route');
    expect(decide(snapshot, call({ time: T0 + 1 }), { monitor: g })).toMatchObject({
      result: 'reject',
      reject_code: 482,
      reject_reason: 'loop_detected',
    });
  });
});
