import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  dueDateOf,
  formatMoney,
  invoiceAmounts,
  invoiceBalance,
  localDate,
  localMidnight,
  parseMoney,
  periodContaining,
  periodsDue,
  statementTotals,
  tzOffsetMinutes,
} from '../src';

const iso = (ms: number) => new Date(ms).toISOString();

describe('invoice amounts: the rounding rule', () => {
  it('rounds the exact usage once, half up, then the tax on the rounded subtotal; total = subtotal + tax', () => {
    const a = invoiceAmounts(parseMoney('10.004999'), parseMoney('0'), 2);
    expect(formatMoney(a.subtotal, 2)).toBe('10.00');
    const b = invoiceAmounts(parseMoney('10.005'), parseMoney('0'), 2);
    expect(formatMoney(b.subtotal, 2)).toBe('10.01');
    const c = invoiceAmounts(parseMoney('-10.005'), parseMoney('0'), 2);
    expect(formatMoney(c.subtotal, 2)).toBe('-10.01');
    // 19.99 × 7.5 % = 1.49925 -> 1.50
    const t = invoiceAmounts(parseMoney('19.994'), parseMoney('7.5'), 2);
    expect([t.subtotal, t.tax, t.total].map((v) => formatMoney(v, 2))).toEqual(['19.99', '1.50', '21.49']);
    const z = invoiceAmounts(parseMoney('123.456789'), parseMoney('20'), 0);
    expect([z.subtotal, z.tax, z.total].map((v) => formatMoney(v, 0))).toEqual(['123', '25', '148']);
  });

  it('property: every figure is exact to the decimal places and total = subtotal + tax, within half a unit of exact', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        fc.bigInt({ min: 0n, max: 100_000_000n }),
        fc.integer({ min: 0, max: 6 }),
        (usage, pct, dp) => {
          const { subtotal, tax, total } = invoiceAmounts(usage, pct, dp);
          const step = 10n ** BigInt(6 - dp);
          expect(subtotal % step).toBe(0n);
          expect(tax % step).toBe(0n);
          expect(total).toBe(subtotal + tax);
          const diff = subtotal - usage;
          expect(2n * (diff < 0n ? -diff : diff) <= step).toBe(true);
        },
      ),
    );
  });
});

describe('invoice balance and state', () => {
  it('unpaid, partially paid, paid (credit notes count, debit notes add)', () => {
    const m = parseMoney;
    expect(invoiceBalance(m('100'), 0n, 0n, 0n)).toEqual({ due: m('100'), payStatus: 'unpaid' });
    expect(invoiceBalance(m('100'), 0n, m('40'), 0n)).toEqual({ due: m('60'), payStatus: 'partially_paid' });
    expect(invoiceBalance(m('100'), 0n, m('40'), m('60'))).toEqual({ due: 0n, payStatus: 'paid' });
    expect(invoiceBalance(m('100'), m('10'), m('100'), 0n)).toEqual({
      due: m('10'),
      payStatus: 'partially_paid',
    });
    expect(invoiceBalance(0n, 0n, 0n, 0n).payStatus).toBe('paid');
  });

  it('property: for any split of payments and notes, due = total + debits − payments − credits, paid exactly when due <= 0', () => {
    const amt = fc.bigInt({ min: 1n, max: 10n ** 12n });
    fc.assert(
      fc.property(
        amt,
        fc.array(amt, { maxLength: 8 }),
        fc.array(amt, { maxLength: 4 }),
        fc.array(amt, { maxLength: 4 }),
        (total, pays, credits, debits) => {
          const sum = (xs: bigint[]) => xs.reduce((a, b) => a + b, 0n);
          const b = invoiceBalance(total, sum(debits), sum(pays), sum(credits));
          expect(b.due).toBe(total + sum(debits) - sum(pays) - sum(credits));
          expect(b.payStatus === 'paid').toBe(b.due <= 0n);
          expect(b.payStatus === 'unpaid').toBe(b.due > 0n && pays.length + credits.length === 0);
          // the same payments in another order and split give the same state
          const shuffled = [...pays].reverse();
          expect(invoiceBalance(total, sum(debits), sum(shuffled), sum(credits))).toEqual(b);
        },
      ),
    );
  });

  it('property: a statement closes at opening + the ledger rows, whatever their split', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
        fc.array(
          fc.record({
            kind: fc.constantFrom('usage', 'payment', 'credit_note', 'debit_note'),
            amount: fc.bigInt({ min: -(10n ** 10n), max: 10n ** 10n }),
          }),
        ),
        (opening, rows) => {
          const t = statementTotals(opening, rows);
          const byKind = Object.values(t.byKind).reduce((a, b) => a + b, 0n);
          expect(t.closing).toBe(opening + byKind);
          expect(t.closing).toBe(rows.reduce((a, r) => a + r.amount, opening));
        },
      ),
    );
  });
});

describe('billing periods in the carrier’s time zone', () => {
  it('parses zones', () => {
    expect(tzOffsetMinutes('+0000')).toBe(0);
    expect(tzOffsetMinutes('-0500')).toBe(-300);
    expect(tzOffsetMinutes('+05:30')).toBe(330);
    expect(() => tzOffsetMinutes('EST')).toThrow(RangeError);
  });

  it('cuts a month at local midnight: GMT+8 February starts at 31 January 16:00 UTC; leap years', () => {
    const p = periodContaining(Date.UTC(2024, 1, 10), 'monthly', '+0800');
    expect([iso(p.start), iso(p.end)]).toEqual(['2024-01-31T16:00:00.000Z', '2024-02-29T16:00:00.000Z']);
    const q = periodContaining(Date.UTC(2025, 1, 28, 23), 'monthly', '-0500');
    expect([iso(q.start), iso(q.end)]).toEqual(['2025-02-01T05:00:00.000Z', '2025-03-01T05:00:00.000Z']);
    // 31 Dec 20:00 UTC is already 1 January in GMT+5
    const y = periodContaining(Date.UTC(2025, 11, 31, 20), 'yearly', '+0500');
    expect(iso(y.start)).toBe('2025-12-31T19:00:00.000Z');
    const w = periodContaining(Date.UTC(2026, 10, 27, 12), 'weekly', '+0000'); // a Friday
    expect([iso(w.start), iso(w.end)]).toEqual(['2026-11-23T00:00:00.000Z', '2026-11-30T00:00:00.000Z']);
    const d = periodContaining(Date.UTC(2026, 10, 27, 23, 30), 'daily', '+0100');
    expect(iso(d.start)).toBe('2026-11-27T23:00:00.000Z');
  });

  it('property: periods tile time (each starts where the previous ended) and contain their instant', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) }),
        fc.constantFrom('daily', 'weekly', 'monthly', 'yearly' as const),
        fc.integer({ min: -12, max: 14 }),
        (ms, cycle, h) => {
          const tz = `${h < 0 ? '-' : '+'}${String(Math.abs(h)).padStart(2, '0')}00`;
          const p = periodContaining(ms, cycle, tz);
          expect(p.start <= ms && ms < p.end).toBe(true);
          expect(periodContaining(p.end, cycle, tz).start).toBe(p.end);
          expect(periodContaining(p.start - 1, cycle, tz).end).toBe(p.start);
          // starts at local midnight
          expect(localMidnight(localDate(p.start, tz), tz)).toBe(p.start);
        },
      ),
    );
  });

  it('periods due: the ended ones after generate-at, oldest first, each once, catching up after an outage', () => {
    const from = Date.UTC(2026, 8, 15); // started mid-September
    const now = Date.UTC(2026, 11, 1, 3); // 1 December 03:00 UTC
    const due = periodsDue({ cycle: 'monthly', tz: '+0000', from, lastEnd: null, now, generateAtHour: 2 });
    expect(due.map((p) => iso(p.start).slice(0, 10))).toEqual(['2026-09-01', '2026-10-01', '2026-11-01']);
    // before the generate-at hour November is not due yet
    const early = periodsDue({
      cycle: 'monthly',
      tz: '+0000',
      from,
      lastEnd: null,
      now: Date.UTC(2026, 11, 1, 1),
      generateAtHour: 2,
    });
    expect(early).toHaveLength(2);
    // after a run that reached November's end nothing more is due
    const after = periodsDue({
      cycle: 'monthly',
      tz: '+0000',
      from,
      lastEnd: due[2]!.end,
      now,
      generateAtHour: 2,
    });
    expect(after).toEqual([]);
    // a limit splits a long catch-up over runs
    const daily = periodsDue({ cycle: 'daily', tz: '+0000', from, lastEnd: null, now, limit: 10 });
    expect(daily).toHaveLength(10);
  });

  it('due date adds the grace days', () => {
    expect(iso(dueDateOf(Date.UTC(2026, 0, 31), 15))).toBe('2026-02-15T00:00:00.000Z');
  });
});
