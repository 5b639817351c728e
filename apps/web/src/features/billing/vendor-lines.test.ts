import { describe, expect, it } from 'vitest';
import { parseVendorLines, vendorLinesText } from './vendor-lines';

describe('vendor invoice lines as typed', () => {
  it('reads destination or date, minutes, amount; keeps commas of a destination; skips blank lines', () => {
    expect(
      parseVendorLines('Germany, 1200.5, 18.24\n\n2026-11-01;;3.10\nKorea, Republic of, 12, 0.5\r\n'),
    ).toEqual({
      lines: [
        { key: 'Germany', minutes: '1200.5', amount: '18.24' },
        { key: '2026-11-01', minutes: null, amount: '3.10' },
        { key: 'Korea, Republic of', minutes: '12', amount: '0.5' },
      ],
    });
  });

  it('names the first line that is not a line', () => {
    expect(parseVendorLines('Germany, 1, 2\nFrance, 2')).toEqual({ badLine: 2 });
    expect(parseVendorLines('Germany, 1, 2.1234567')).toEqual({ badLine: 1 });
    expect(parseVendorLines(', 1, 2')).toEqual({ badLine: 1 });
    expect(parseVendorLines('Germany, -1, 2')).toEqual({ badLine: 1 });
  });

  it('writes lines back as the same text', () => {
    const text = 'Germany, 1200.5, 18.24\n2026-11-01, , 3.10';
    const parsed = parseVendorLines(text);
    expect('lines' in parsed && vendorLinesText(parsed.lines)).toBe(text);
  });
});
