import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { marginPercent, parseMoney } from '../src/money';
import {
  acd,
  addSums,
  aloc,
  asr,
  intervalOf,
  isNerEffective,
  isShortCall,
  ner,
  pdd,
  qosOf,
  type TrafficSums,
} from '../src/traffic-stats';

const EMPTY: TrafficSums = {
  attempts: 0,
  answered: 0,
  non_zero: 0,
  ner_calls: 0,
  duration: 0,
  pdd_sum: 0,
  pdd_calls: 0,
};

describe('QoS figures', () => {
  it('of an empty interval are all null, never 0 or NaN', () => {
    expect(qosOf(EMPTY)).toEqual({ asr: null, acd: null, aloc: null, pdd: null, ner: null });
    expect(qosOf(addSums([]))).toEqual({ asr: null, acd: null, aloc: null, pdd: null, ner: null });
  });

  it('of attempts none of which was answered: ASR 0, NER from the user causes, no ACD/ALOC', () => {
    const s = { ...EMPTY, attempts: 4, ner_calls: 1, pdd_sum: 6000, pdd_calls: 3 };
    expect(qosOf(s)).toEqual({ asr: 0, acd: null, aloc: null, pdd: 2000, ner: 25 });
  });

  it('computes ASR, ACD, ALOC, PDD and NER from the sums', () => {
    // 3 attempts: one answered 90 s, one answered 0 s, one busy (486)
    const s: TrafficSums = {
      attempts: 3,
      answered: 2,
      non_zero: 1,
      ner_calls: 3,
      duration: 90,
      pdd_sum: 3000,
      pdd_calls: 3,
    };
    expect(asr(s)).toBe(66.67);
    expect(acd(s)).toBe(0.75); // 90 s over 2 answered = 45 s
    expect(aloc(s)).toBe(1.5); // 90 s over 1 non-zero
    expect(pdd(s)).toBe(1000);
    expect(ner(s)).toBe(100);
  });

  it('NER counts answered calls and user busy, no answer and reject, not network failures', () => {
    expect(isNerEffective(true, 200)).toBe(true);
    for (const c of [486, 600, 480, 487, 603]) expect(isNerEffective(false, c)).toBe(true);
    for (const c of [404, 408, 500, 502, 503, 403]) expect(isNerEffective(false, c)).toBe(false);
    expect(isNerEffective(false, 500, 17)).toBe(true); // Q.850 user busy
    expect(isNerEffective(false, 500, 34)).toBe(false); // no circuit
    expect(isNerEffective(false, 503, null)).toBe(false);
  });

  it('short calls are answered calls of 1 to 5 seconds', () => {
    expect([0, 1, 5, 6, 60].map(isShortCall)).toEqual([false, true, true, false, false]);
  });

  it('margin (money.ts) of summed revenue and cost is exact, null without revenue', () => {
    expect(marginPercent(parseMoney('0.05'), parseMoney('0.025'))).toBe('50.00');
    expect(marginPercent(parseMoney('3'), parseMoney('2'))).toBe('33.33');
    expect(marginPercent(parseMoney('1'), parseMoney('1.5'))).toBe('-50.00');
    expect(marginPercent(0n, parseMoney('1'))).toBeNull();
  });

  it('intervals are 15-minute UTC buckets', () => {
    expect(new Date(intervalOf(Date.parse('2026-11-20T10:14:59.999Z'))).toISOString()).toBe(
      '2026-11-20T10:00:00.000Z',
    );
    expect(new Date(intervalOf(Date.parse('2026-11-20T10:15:00Z'))).toISOString()).toBe(
      '2026-11-20T10:15:00.000Z',
    );
  });
});

const sums = fc
  .record({
    attempts: fc.nat(10_000),
    answeredPart: fc.double({ min: 0, max: 1, noNaN: true }),
    nonZeroPart: fc.double({ min: 0, max: 1, noNaN: true }),
    nerPart: fc.double({ min: 0, max: 1, noNaN: true }),
    perCall: fc.nat(7200),
    pdd: fc.nat(30_000),
  })
  .map(({ attempts, answeredPart, nonZeroPart, nerPart, perCall, pdd }): TrafficSums => {
    const answered = Math.floor(attempts * answeredPart);
    const non_zero = Math.floor(answered * nonZeroPart);
    const ner_calls = answered + Math.floor((attempts - answered) * nerPart);
    return {
      attempts,
      answered,
      non_zero,
      ner_calls,
      duration: non_zero * perCall,
      pdd_sum: attempts * pdd,
      pdd_calls: attempts,
    };
  });

describe('QoS figures (properties)', () => {
  it('ratios stay within bounds and NER >= ASR; null exactly when the denominator is empty', () => {
    fc.assert(
      fc.property(sums, (s) => {
        const q = qosOf(s);
        if (s.attempts === 0) expect(q.asr).toBeNull();
        else {
          expect(q.asr!).toBeGreaterThanOrEqual(0);
          expect(q.asr!).toBeLessThanOrEqual(100);
          expect(q.ner!).toBeGreaterThanOrEqual(q.asr!);
          expect(q.ner!).toBeLessThanOrEqual(100);
        }
        expect(q.acd === null).toBe(s.answered === 0);
        expect(q.aloc === null).toBe(s.non_zero === 0);
        if (q.acd !== null && q.aloc !== null) expect(q.aloc).toBeGreaterThanOrEqual(q.acd);
      }),
    );
  });

  it('adding an empty interval changes no figure', () => {
    fc.assert(
      fc.property(sums, (s) => {
        expect(qosOf(addSums([s, EMPTY]))).toEqual(qosOf(s));
        expect(addSums([EMPTY, s])).toEqual(addSums([s]));
      }),
    );
  });
});
