import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alertStep, carrierAvailableCredit, parseMoney, toCents, topUpCharge } from '../src';

const m = parseMoney;

describe('balance alerts', () => {
  it('mails once at the crossing, not on every debit below the line', () => {
    const line = m('50');
    let below = false;
    const sends: string[] = [];
    for (const v of ['80', '55', '49.99', '30', '10', '0', '-5']) {
      const s = alertStep(below, m(v), line);
      below = s.below;
      if (s.send) sends.push(v);
    }
    expect(sends).toEqual(['49.99']);
  });

  it('re-arms only after recovering to the line', () => {
    const line = m('50');
    let below = false;
    const sends: string[] = [];
    for (const v of ['40', '49.99', '50', '45', '100', '10']) {
      const s = alertStep(below, m(v), line);
      below = s.below;
      if (s.send) sends.push(v);
    }
    expect(sends).toEqual(['40', '45', '10']);
  });

  it('counts zero as zero balance when asked', () => {
    expect(alertStep(false, 0n, 0n, true)).toEqual({ below: true, send: true });
    expect(alertStep(false, 0n, 0n, false)).toEqual({ below: false, send: false });
  });

  it('sends exactly once per downward crossing, for any sequence of balances (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: -1_000_000_000n, max: 1_000_000_000n }), { maxLength: 200 }),
        fc.bigInt({ min: -1_000_000n, max: 1_000_000n }),
        (values, line) => {
          let below = false;
          let sends = 0;
          let crossings = 0;
          let prevBelow = false;
          for (const v of values) {
            const s = alertStep(below, v, line);
            below = s.below;
            if (s.send) sends++;
            const nowBelow = v < line;
            if (nowBelow && !prevBelow) crossings++;
            prevBelow = nowBelow;
          }
          expect(sends).toBe(crossings);
          // Never two sends without a recovery between them.
          expect(sends).toBeLessThanOrEqual(Math.ceil(values.length / 2) + 1);
        },
      ),
    );
  });

  it('uses the credit floor of the carrier mode', () => {
    const base = {
      balance: m('-20'),
      credit_limit: m('100'),
      allowed_credit: m('5'),
      unlimited_credit: false,
    };
    expect(carrierAvailableCredit({ ...base, mode: 'postpaid' })).toBe(m('80'));
    expect(carrierAvailableCredit({ ...base, mode: 'prepaid' })).toBe(m('-15'));
    expect(carrierAvailableCredit({ ...base, mode: 'prepaid', unlimited_credit: true })).toBeNull();
  });
});

describe('online top-up charge', () => {
  it('adds the service charge and computes the provider fee to the cent', () => {
    const r = topUpCharge(m('25'), m('2.9'), m('2.9'), m('0.30'));
    expect(r.serviceCharge).toBe(m('0.73')); // 0.725 rounds half up
    expect(r.charge).toBe(m('25.73'));
    expect(r.fee).toBe(m('1.05')); // 25.73 * 2.9% = 0.746... + 0.30
    expect(toCents(r.charge)).toBe(2573n);
  });

  it('is exact for any amount in cents (property): charge = amount + service charge, whole cents', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 2500n, max: 100_000_000n }),
        fc.integer({ min: 0, max: 10_000 }),
        (cents, bp) => {
          const amount = cents * 10_000n;
          const pct = BigInt(bp) * 100n; // 0..100% in micro-units of a percent with 2 decimals
          const r = topUpCharge(amount, pct, pct, 0n);
          expect(r.charge - amount).toBe(r.serviceCharge);
          expect(r.charge % 10_000n).toBe(0n);
          expect(r.fee % 10_000n).toBe(0n);
          expect(toCents(r.charge)).toBe(cents + r.serviceCharge / 10_000n);
        },
      ),
    );
  });

  it('refuses fractions of a cent', () => {
    expect(() => toCents(m('10.001'))).toThrow();
  });
});
