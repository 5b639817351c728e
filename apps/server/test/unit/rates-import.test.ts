import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dateReader } from '../../src/modules/rates/import/dates';
import { amountText, mapHeader, RateRowChecker } from '../../src/modules/rates/import/rate-rows';
import { CsvParser, readCsv } from '../../src/modules/rates/import/read-rows';

/** Pure helpers of the rate import: streamed CSV, dates, amounts, header mapping, row checks. */
describe('CsvParser', () => {
  const parseInPieces = (text: string, size: number) => {
    const p = new CsvParser();
    const rows: string[][] = [];
    for (let i = 0; i < text.length; i += size) rows.push(...p.push(text.slice(i, i + size)));
    rows.push(...p.end());
    return rows;
  };
  const text = 'a,b,c\r\n"x, y","say ""hi""",\r\n"multi\nline",2,3\n\nlast,"",end';
  const expected = [
    ['a', 'b', 'c'],
    ['x, y', 'say "hi"', ''],
    ['multi\nline', '2', '3'],
    ['last', '', 'end'],
  ];
  it('reads quoted commas, doubled quotes, line breaks in quotes, CRLF and LF, skips blank lines', () => {
    expect(parseInPieces(text, text.length)).toEqual(expected);
  });
  it('gives the same rows whatever the chunk boundaries (inside quotes, between "" and CR LF)', () => {
    for (let size = 1; size <= 12; size++) expect(parseInPieces(text, size)).toEqual(expected);
  });
  it('streams a file in batches and drops a byte order mark', async () => {
    const file = path.join(os.tmpdir(), `csv-${process.pid}.csv`);
    const body = Array.from({ length: 5000 }, (_, i) => `${i},"N, ${i}"`).join('\n');
    fs.writeFileSync(file, '\uFEFFcode,name\n' + body);
    const rows: string[][] = [];
    let batches = 0;
    for await (const b of readCsv(file, 4096)) {
      rows.push(...b.rows);
      batches++;
    }
    fs.rmSync(file);
    expect(batches).toBeGreaterThan(5);
    expect(rows[0]).toEqual(['code', 'name']);
    expect(rows).toHaveLength(5001);
    expect(rows[5000]).toEqual(['4999', 'N, 4999']);
  });
});

describe('dateReader', () => {
  it('reads each format with an optional time, as fixed-width UTC text with microseconds', () => {
    expect(dateReader('YYYY-MM-DD')('2010-07-02 11:06:58.484053')).toBe('2010-07-02T11:06:58.484053Z');
    expect(dateReader('YYYY-MM-DD')('2026-01-01')).toBe('2026-01-01T00:00:00.000000Z');
    expect(dateReader('MM/DD/YYYY')('12/31/2026 08:30')).toBe('2026-12-31T08:30:00.000000Z');
    expect(dateReader('DD/MM/YYYY')('31/12/2026')).toBe('2026-12-31T00:00:00.000000Z');
    expect(dateReader('DD.MM.YYYY')('01.02.2026')).toBe('2026-02-01T00:00:00.000000Z');
    expect(dateReader('YYYY-MM-DD')('2026-01-01T05:00:00+02:00')).toBe('2026-01-01T03:00:00.000000Z');
  });
  it('refuses impossible dates and other formats; ISO is always accepted', () => {
    expect(dateReader('YYYY-MM-DD')('2026-02-30')).toBeNull();
    expect(dateReader('YYYY-MM-DD')('31/12/2026')).toBeNull();
    expect(dateReader('MM/DD/YYYY')('31/12/2026')).toBeNull();
    expect(dateReader('DD/MM/YYYY')('2026-12-31T00:00:00.000Z')).toBe('2026-12-31T00:00:00.000000Z');
  });
});

describe('amountText and mapHeader', () => {
  it('keeps decimal text exact, drops zeros past six places, refuses the rest', () => {
    expect(amountText('0.2875')).toBe('0.2875');
    expect(amountText(' .5 ')).toBe('0.5');
    expect(amountText('0.12345600')).toBe('0.123456');
    expect(amountText('0.1234567')).toBeNull();
    expect(amountText('-1')).toBeNull();
    expect(amountText('1e-3')).toBeNull();
  });
  it('maps explicit headers first, then names and aliases in any case', () => {
    const m = mapHeader(
      ['Destination', 'Prefix', 'First Interval', 'Sub Interval', 'Rate', 'Status', 'Start Date'],
      { Destination: 'code_name', Status: '' },
    );
    expect(m).toEqual({ code_name: 0, code: 1, min_time: 2, interval: 3, rate: 4, effective_date: 6 });
    expect(mapHeader(['CODE', 'Code Name', 'ignore', 'rate'])).toEqual({ code: 0, code_name: 1, rate: 3 });
  });
});

describe('RateRowChecker', () => {
  const columns = { code: 0, rate: 1, effective_date: 2, end_date: 3, interval: 4 };
  const make = (duplicateMode: 'reject' | 'skip' | 'overwrite') =>
    new RateRowChecker({
      columns,
      dateFormat: 'YYYY-MM-DD',
      defaultEffective: '2026-01-01T00:00:00.000000Z',
      duplicateMode,
    });
  it('accepts good rows and names the field and message of each bad one', () => {
    const c = make('skip');
    const out = c.check(
      [
        ['44', '0.1', '', '', '60'],
        ['4a', '0.1', '', '', ''],
        ['45', '', '', '', ''],
        ['46', '0.1', '2026-02-01', '2026-01-15', ''],
        ['47', '0.1', '01/02/2026', '', ''],
        ['48', '0.1', '', '', '0'],
      ],
      2,
    );
    expect(out.code).toEqual(['44']);
    expect(out.effective_date).toEqual(['2026-01-01T00:00:00.000000Z']);
    expect(out.interval).toEqual([60]);
    expect(c.errors.map((e) => [e.line, e.field, e.key])).toEqual([
      [3, 'code', 'digitsOnly'],
      [4, 'rate', 'required'],
      [5, 'end_date', 'effectiveBeforeEnd'],
      [6, 'effective_date', 'rateDateFormatWrong'],
      [7, 'interval', 'positiveInteger'],
    ]);
  });
  it('in-file duplicates of code and effective date: reject refuses, skip keeps the first, overwrite the last', () => {
    const rows = [
      ['44', '0.1', '', '', ''],
      ['44', '0.2', '', '', ''],
      ['44', '0.3', '2026-03-01', '', ''],
    ];
    const reject = make('reject');
    reject.check(rows, 2);
    expect(reject.errors.map((e) => [e.line, e.key])).toEqual([[3, 'duplicateCodes']]);
    const skip = make('skip');
    expect(skip.check(rows, 2).rate).toEqual(['0.1', '0.3']);
    expect(skip.skipped).toBe(1);
    const over = make('overwrite');
    expect(over.check(rows, 2).line).toEqual([2, 3, 4]);
    expect(over.replacedLines).toEqual([2]);
    expect(over.maxEffective).toBe('2026-03-01T00:00:00.000000Z');
  });
});
