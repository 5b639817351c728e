import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chargesDue,
  compareVendorInvoice,
  formatMoney,
  minutesOfSeconds,
  occurrenceDate,
  parseMoney,
  type OurLine,
} from '../src';

describe('extra charge occurrences', () => {
  it('a one-off charge falls due once, on its date', () => {
    expect(occurrenceDate('once', '2026-11-15', 0)).toBe('2026-11-15');
    expect(occurrenceDate('once', '2026-11-15', 1)).toBeNull();
    expect(
      chargesDue({ frequency: 'once', start: '2026-11-15', end: null, from: 0, today: '2026-11-14' }),
    ).toEqual([]);
    expect(
      chargesDue({ frequency: 'once', start: '2026-11-15', end: null, from: 0, today: '2026-12-31' }),
    ).toEqual([{ n: 0, date: '2026-11-15' }]);
    // Charged already: nothing more.
    expect(
      chargesDue({ frequency: 'once', start: '2026-11-15', end: null, from: 1, today: '2026-12-31' }),
    ).toEqual([]);
  });

  it('monthly keeps the day of the month, on the last day of shorter months, without drifting', () => {
    const dates = [0, 1, 2, 3, 12, 13].map((n) => occurrenceDate('monthly', '2027-01-31', n));
    expect(dates).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2028-01-31',
      '2028-02-29',
    ]);
  });

  it('daily and weekly step across month and year ends', () => {
    expect(occurrenceDate('daily', '2026-12-31', 1)).toBe('2027-01-01');
    expect(occurrenceDate('weekly', '2026-12-28', 1)).toBe('2027-01-04');
    // Years below 100 stay themselves.
    expect(occurrenceDate('daily', '0050-12-31', 1)).toBe('0051-01-01');
    expect(occurrenceDate('monthly', '0050-01-31', 1)).toBe('0050-02-28');
  });

  it('due occurrences stop at today, at the end date and at the limit, and resume where they stopped', () => {
    const base = { frequency: 'weekly' as const, start: '2026-11-02', end: '2026-11-30' };
    expect(chargesDue({ ...base, from: 0, today: '2026-11-20' }).map((o) => o.date)).toEqual([
      '2026-11-02',
      '2026-11-09',
      '2026-11-16',
    ]);
    expect(chargesDue({ ...base, from: 3, today: '2027-06-01' }).map((o) => o.date)).toEqual([
      '2026-11-23',
      '2026-11-30',
    ]);
    const capped = chargesDue({
      frequency: 'daily',
      start: '2026-01-01',
      end: null,
      from: 0,
      today: '2026-12-31',
      limit: 10,
    });
    expect(capped).toHaveLength(10);
    expect(capped.at(-1)).toEqual({ n: 9, date: '2026-01-10' });
  });

  it('property: charging in runs of any size gives every occurrence once, in order', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('daily' as const, 'weekly' as const, 'monthly' as const),
        fc.integer({ min: 1, max: 7 }),
        (frequency, limit) => {
          const all = chargesDue({
            frequency,
            start: '2026-01-31',
            end: '2026-09-30',
            from: 0,
            today: '2027-01-01',
            limit: 10_000,
          });
          const runs: string[] = [];
          let from = 0;
          for (;;) {
            const due = chargesDue({
              frequency,
              start: '2026-01-31',
              end: '2026-09-30',
              from,
              today: '2027-01-01',
              limit,
            });
            if (!due.length) break;
            runs.push(...due.map((d) => d.date));
            from = due.at(-1)!.n + 1;
          }
          expect(runs).toEqual(all.map((d) => d.date));
          expect(new Set(runs).size).toBe(runs.length);
        },
      ),
    );
  });
});

const line = (key: string, seconds: number, amount: string, calls = 1): OurLine => ({
  key,
  calls,
  billed_seconds: seconds,
  amount: parseMoney(amount),
});

describe('vendor invoice comparison', () => {
  const ours = {
    destination: [line('Germany', 600, '1.200000', 5), line('United Kingdom', 120, '0.300000', 2)],
    day: [line('2026-11-01', 300, '0.900000', 4), line('2026-11-02', 420, '0.600000', 3)],
  };

  it('totals: vendor − Tandem in amount, minutes and percent, exact', () => {
    const c = compareVendorInvoice({
      ours,
      their_amount: parseMoney('1.65'),
      their_minutes: parseMoney('12.5'),
      their_lines: [],
    });
    expect(c.our_calls).toBe(7);
    expect(formatMoney(c.our_amount, 6)).toBe('1.500000');
    expect(formatMoney(c.our_minutes, 2)).toBe('12.00');
    expect(formatMoney(c.amount_difference, 6)).toBe('0.150000');
    expect(formatMoney(c.minutes_difference!, 2)).toBe('0.50');
    expect(formatMoney(c.amount_difference_percent!, 2)).toBe('10.00');
    expect(c.by_destination).toEqual([]);
    expect(c.by_day).toEqual([]);
  });

  it('lines: destinations case-insensitively (summed when listed twice), dates against days, largest gap first', () => {
    const c = compareVendorInvoice({
      ours,
      their_amount: parseMoney('2'),
      their_minutes: null,
      their_lines: [
        { key: 'germany', minutes: parseMoney('6'), amount: parseMoney('1.00') },
        { key: 'GERMANY ', minutes: parseMoney('4'), amount: parseMoney('0.30') },
        { key: 'France', minutes: parseMoney('1'), amount: parseMoney('0.70') },
        { key: '2026-11-02', minutes: null, amount: parseMoney('0.60') },
      ],
    });
    expect(c.minutes_difference).toBeNull();
    expect(
      c.by_destination.map((l) => [
        l.key,
        formatMoney(l.amount_difference, 2),
        l.minutes_difference === null ? null : formatMoney(l.minutes_difference, 2),
      ]),
    ).toEqual([
      ['France', '0.70', '1.00'], // not in our CDRs at all
      ['United Kingdom', '-0.30', null], // the vendor did not bill it
      ['Germany', '0.10', '0.00'],
    ]);
    expect(c.by_day.map((l) => [l.key, formatMoney(l.amount_difference, 2)])).toEqual([
      ['2026-11-01', '-0.90'],
      ['2026-11-02', '0.00'],
    ]);
  });

  it('no CDRs: no percent, the whole vendor amount is the gap', () => {
    const c = compareVendorInvoice({
      ours: { destination: [], day: [] },
      their_amount: parseMoney('10'),
      their_minutes: parseMoney('3'),
      their_lines: [],
    });
    expect(c.amount_difference_percent).toBeNull();
    expect(formatMoney(c.amount_difference, 2)).toBe('10.00');
    expect(formatMoney(c.minutes_difference!, 2)).toBe('3.00');
  });

  it('property: the line differences of a destination split add up to the total difference', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 10_000_000 })), {
          maxLength: 12,
        }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 10_000_000 })), {
          maxLength: 12,
        }),
        (o, t) => {
          const destination = [...new Map(o.map(([k, a]) => [k, a])).entries()].map(([k, a]) =>
            line(`D${k}`, k * 7, formatMoney(BigInt(a), 6)),
          );
          const their_lines = t.map(([k, a]) => ({ key: `d${k}`, minutes: null, amount: BigInt(a) }));
          const their_amount = their_lines.reduce((s, l) => s + l.amount, 0n);
          const c = compareVendorInvoice({
            ours: { destination, day: [] },
            their_amount,
            their_minutes: null,
            their_lines,
          });
          if (their_lines.length)
            expect(c.by_destination.reduce((s, l) => s + l.amount_difference, 0n)).toBe(c.amount_difference);
        },
      ),
    );
  });

  it('minutes of billed seconds are exact to the micro-minute', () => {
    expect(formatMoney(minutesOfSeconds(1), 6)).toBe('0.016667');
    expect(formatMoney(minutesOfSeconds(90), 6)).toBe('1.500000');
  });
});
