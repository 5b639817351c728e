import { describe, expect, it } from 'vitest';
import { csvCell, parseCsvLine, toCsv } from '../src/csv';

describe('CSV', () => {
  it('splits a line with quoted cells, commas and doubled quotes inside them, and empty cells', () => {
    expect(parseCsvLine('AFGHANISTAN - KABUL,9320,30,6,0.2875,Current,2010-06-26 06:55:00,')).toEqual([
      'AFGHANISTAN - KABUL',
      '9320',
      '30',
      '6',
      '0.2875',
      'Current',
      '2010-06-26 06:55:00',
      '',
    ]);
    expect(parseCsvLine('"KOREA, SOUTH",82,"say ""hi""",')).toEqual(['KOREA, SOUTH', '82', 'say "hi"', '']);
    expect(parseCsvLine('')).toEqual(['']);
  });

  it('reads back what toCsv writes (formula-safe cells keep their apostrophe)', () => {
    const row = ['a,b', 'x"y', '=1+1', 3];
    const line = toCsv(['h1', 'h2', 'h3', 'h4'], [row]).split('\r\n')[1]!;
    expect(parseCsvLine(line)).toEqual(['a,b', 'x"y', "'=1+1", '3']);
    expect(csvCell(null)).toBe('');
  });
});
