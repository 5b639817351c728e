import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  closedPeriods,
  commissionCorrection,
  commissionOf,
  nextPeriod,
  periodContaining,
  periodKey,
  trafficByPeriod,
  type CommissionFrequency,
} from '../src/commission';
import { formatMoney, parseMoney } from '../src/money';

const at = (iso: string) => new Date(iso);
const m = parseMoney;
const FREQS: CommissionFrequency[] = ['daily', 'weekly', 'monthly'];
const money = fc.bigInt({ min: 0n, max: 10n ** 15n });
const percent = fc.bigInt({ min: 0n, max: 100_000_000n }); // 0 .. 100 % in micros

describe('commission periods (UTC, end exclusive)', () => {
  it('daily, weekly from Monday, monthly from the 1st', () => {
    const t = at('2026-11-26T13:45:00Z'); // a Thursday
    expect(periodContaining('daily', t)).toEqual({
      start: at('2026-11-26T00:00:00Z'),
      end: at('2026-11-27T00:00:00Z'),
    });
    expect(periodContaining('weekly', t)).toEqual({
      start: at('2026-11-23T00:00:00Z'),
      end: at('2026-11-30T00:00:00Z'),
    });
    expect(periodContaining('monthly', t)).toEqual({
      start: at('2026-11-01T00:00:00Z'),
      end: at('2026-12-01T00:00:00Z'),
    });
    // A Sunday belongs to the week that began on the Monday before; a Monday starts one.
    expect(periodKey(periodContaining('weekly', at('2026-11-29T23:59:59Z')))).toBe('2026-11-23');
    expect(periodKey(periodContaining('weekly', at('2026-11-30T00:00:00Z')))).toBe('2026-11-30');
    // December rolls into the next year; February of a leap year has 29 days.
    expect(periodContaining('monthly', at('2026-12-31T23:59:59Z')).end).toEqual(at('2027-01-01T00:00:00Z'));
    expect(periodContaining('monthly', at('2028-02-10T00:00:00Z')).end).toEqual(at('2028-03-01T00:00:00Z'));
  });

  it('closed periods are those ended by now, the first one starting on the day of since', () => {
    const ps = closedPeriods('weekly', at('2026-11-04T10:00:00Z'), at('2026-11-26T00:00:00Z'));
    expect(ps.map(periodKey)).toEqual(['2026-11-04', '2026-11-09', '2026-11-16']);
    expect(ps[0]).toEqual({ start: at('2026-11-04T00:00:00Z'), end: at('2026-11-09T00:00:00Z') });
    expect(closedPeriods('monthly', at('2026-11-04T00:00:00Z'), at('2026-11-30T23:00:00Z'))).toEqual([]);
    expect(
      closedPeriods('monthly', at('2026-10-01T00:00:00Z'), at('2026-11-01T00:00:00Z')).map(periodKey),
    ).toEqual(['2026-10-01']);
    expect(
      closedPeriods('daily', at('2026-10-30T00:00:00Z'), at('2026-11-01T12:00:00Z')).map(periodKey),
    ).toEqual(['2026-10-30', '2026-10-31']);
  });

  it('property: periods tile time (every instant in exactly one, contiguous, next starts at end)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FREQS),
        fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) }),
        (f, ms) => {
          const t = new Date(ms);
          const p = periodContaining(f, t);
          expect(p.start.getTime()).toBeLessThanOrEqual(ms);
          expect(p.end.getTime()).toBeGreaterThan(ms);
          expect(periodContaining(f, p.start)).toEqual(p);
          expect(periodContaining(f, new Date(p.end.getTime() - 1))).toEqual(p);
          const n = nextPeriod(f, p);
          expect(n.start).toEqual(p.end);
          const days = (p.end.getTime() - p.start.getTime()) / 86_400_000;
          if (f === 'daily') expect(days).toBe(1);
          if (f === 'weekly') expect([days, p.start.getUTCDay()]).toEqual([7, 1]);
          if (f === 'monthly') expect([days >= 28 && days <= 31, p.start.getUTCDate()]).toEqual([true, 1]);
        },
      ),
    );
  });
});

describe('commission amount: base × percent / 100, rounded once half up to 2 places', () => {
  it('by revenue and by profit', () => {
    const traffic = { revenue: m('1234.567891'), cost: m('1000.000001') };
    expect(commissionOf({ method: 'revenue', percent: m('5') }, traffic)).toEqual({
      base: m('1234.567891'),
      amount: m('61.73'), // 61.72839455
    });
    expect(commissionOf({ method: 'profit', percent: m('10') }, traffic)).toEqual({
      base: m('234.56789'),
      amount: m('23.46'), // 23.456789
    });
  });

  it('rounds half up exactly at the half cent, never through floats', () => {
    // 0.10 × 5 % = 0.005 -> 0.01 ; 0.09 × 5 % = 0.0045 -> 0.00
    expect(commissionOf({ method: 'revenue', percent: m('5') }, { revenue: m('0.1'), cost: 0n }).amount).toBe(
      m('0.01'),
    );
    expect(
      commissionOf({ method: 'revenue', percent: m('5') }, { revenue: m('0.09'), cost: 0n }).amount,
    ).toBe(0n);
    // 0.1 + 0.2 style amounts stay exact: 0.3 × 33.3333 % = 0.09999990 -> 0.10
    expect(
      commissionOf({ method: 'revenue', percent: m('33.3333') }, { revenue: m('0.3'), cost: 0n }).amount,
    ).toBe(m('0.1'));
  });

  it('a loss earns nothing and takes nothing back', () => {
    expect(commissionOf({ method: 'profit', percent: m('50') }, { revenue: m('10'), cost: m('12') })).toEqual(
      {
        base: m('-2'),
        amount: 0n,
      },
    );
  });

  it('property: amount is the exact product rounded half up to cents', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('profit' as const, 'revenue' as const),
        money,
        money,
        percent,
        (method, r, c, p) => {
          const { base, amount } = commissionOf({ method, percent: p }, { revenue: r, cost: c });
          expect(base).toBe(method === 'revenue' ? r : r - c);
          if (base <= 0n) {
            expect(amount).toBe(0n);
            return;
          }
          expect(amount % 10_000n).toBe(0n); // whole cents
          // |amount − exact| ≤ half a cent, and exactly half a cent only rounds up
          const exact2 = base * p * 2n; // 2 × exact × 1e8 (exact = base × p / 1e8)
          const diff = amount * 100_000_000n * 2n - exact2;
          expect(diff <= 10_000n * 100_000_000n && diff > -10_000n * 100_000_000n).toBe(true);
          expect(amount).toBeGreaterThanOrEqual(0n);
          expect(amount).toBeLessThanOrEqual(base + 5_000n); // never more than the base (≤ 100 %)
        },
      ),
    );
  });

  it('property: revenue method is profit method with no cost; more traffic never earns less', () => {
    fc.assert(
      fc.property(money, money, money, percent, (r, extra, c, p) => {
        expect(commissionOf({ method: 'revenue', percent: p }, { revenue: r, cost: c })).toEqual(
          commissionOf({ method: 'profit', percent: p }, { revenue: r, cost: 0n }),
        );
        const a = commissionOf({ method: 'profit', percent: p }, { revenue: r, cost: c }).amount;
        const b = commissionOf({ method: 'profit', percent: p }, { revenue: r + extra, cost: c }).amount;
        expect(b).toBeGreaterThanOrEqual(a);
      }),
    );
  });
});

describe('traffic folded into periods and corrections', () => {
  it('property: folding days into periods keeps every amount (any frequency)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FREQS),
        fc.array(
          fc.record({
            day: fc.integer({ min: 0, max: 400 }),
            revenue: fc.bigInt({ min: 0n, max: 10n ** 12n }),
            cost: fc.bigInt({ min: 0n, max: 10n ** 12n }),
          }),
          { maxLength: 60 },
        ),
        (f, days) => {
          const rows = days.map((d) => ({ at: new Date(Date.UTC(2026, 0, 1) + d.day * 86_400_000), ...d }));
          const byPeriod = trafficByPeriod(f, rows);
          const sum = (k: 'revenue' | 'cost') => rows.reduce((s, r) => s + r[k], 0n);
          let rev = 0n;
          let cost = 0n;
          for (const [key, t] of byPeriod) {
            expect(periodKey(periodContaining(f, new Date(`${key}T00:00:00Z`)))).toBe(key);
            rev += t.revenue;
            cost += t.cost;
          }
          expect([rev, cost]).toEqual([sum('revenue'), sum('cost')]);
        },
      ),
    );
  });

  it('rerated traffic: accrued plus the correction is always what is due now', () => {
    fc.assert(
      fc.property(money, money, money, percent, (r1, r2, c, p) => {
        const terms = { method: 'profit' as const, percent: p };
        const first = commissionOf(terms, { revenue: r1, cost: c }).amount;
        const rerated = commissionOf(terms, { revenue: r2, cost: c }).amount;
        expect(first + commissionCorrection(rerated, first)).toBe(rerated);
        expect(commissionCorrection(first, first)).toBe(0n);
      }),
    );
  });

  it('the demo case: 5 % of a month of revenue', () => {
    const days = Array.from({ length: 30 }, (_, i) => ({
      at: new Date(Date.UTC(2026, 10, 1 + i, 12)),
      revenue: m('123.456789'),
      cost: m('100'),
    }));
    const t = trafficByPeriod('monthly', days).get('2026-11-01');
    expect(t && formatMoney(t.revenue)).toBe('3703.703670');
    expect(formatMoney(commissionOf({ method: 'revenue', percent: m('5') }, t!).amount, 2)).toBe('185.19');
  });
});
