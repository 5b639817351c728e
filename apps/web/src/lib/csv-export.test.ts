import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv-export';

describe('CSV export', () => {
  it('escapes formula cells', () => {
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@x')).toBe("'@x");
    expect(csvCell('a=b')).toBe('a=b');
  });
  it('quotes commas, quotes and newlines', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(toCsv(['a', 'b'], [[1, null]])).toBe('a,b\r\n1,\r\n');
  });
  it('never lets a cell start with a formula character unquoted', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const c = csvCell(s);
        const body = c.startsWith('"') ? c.slice(1) : c;
        return !/^[=+\-@]/.test(body);
      }),
    );
  });
});
