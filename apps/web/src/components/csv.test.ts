import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  chooseHeader,
  csvPreview,
  initialHeaderMap,
  mappedPreview,
  parseCsv,
  parseCsvCells,
  rebuildCsv,
  serializeCsv,
  type HeaderMap,
} from './csv';

const tricky = fc.string({
  unit: fc.constantFrom(',', '"', '\r', '\n', ' ', 'a', 'Z', '9', 'é', '\uFEFF', ';', '\t'),
});
const cellArb = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), tricky);
const tableArb = fc.array(fc.array(cellArb, { minLength: 1, maxLength: 6 }), { maxLength: 8 });

describe('CSV parse', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks', () => {
    expect(parseCsv('a,"b,c","say ""hi""","two\r\nlines"\r\n1,2,3,4\r\n')).toEqual([
      ['a', 'b,c', 'say "hi"', 'two\r\nlines'],
      ['1', '2', '3', '4'],
    ]);
  });
  it('accepts CRLF, LF and CR line endings and a missing final line ending', () => {
    expect(parseCsv('a,b\nc,d')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(parseCsv('a,b\rc,d\r')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(parseCsvCells('a\r\nb\r\n').eol).toBe('\r\n');
    expect(parseCsvCells('a\nb').eol).toBe('\n');
  });
  it('keeps empty fields and empty lines', () => {
    expect(parseCsv(',,\n\nx')).toEqual([['', '', ''], [''], ['x']]);
    expect(parseCsv('')).toEqual([]);
    expect(parseCsv('""')).toEqual([['']]);
  });
  it('drops a byte order mark and records it', () => {
    const p = parseCsvCells('\uFEFFcode,name\n1,x\n');
    expect(p.bom).toBe(true);
    expect(p.rows[0]?.[0]?.value).toBe('code');
  });
  it('records which fields were quoted', () => {
    const p = parseCsvCells('"a",b,""\n');
    expect(p.rows[0]?.map((c) => c.quoted)).toEqual([true, false, true]);
  });
  it('stops after maxRows complete rows', () => {
    const p = parseCsvCells('h\n1\n2\n3\n4\n', { maxRows: 2 });
    expect(p.rows.map((r) => r[0]?.value)).toEqual(['h', '1']);
    expect(p.truncated).toBe(true);
  });
});

describe('CSV serialize', () => {
  it('quotes only fields that need it', () => {
    expect(serializeCsv([['a', 'b,c', 'x"y', 'l\nm', '']])).toBe('a,"b,c","x""y","l\nm",');
  });
  it('writes an empty single-field row as an empty line, quoted only at the very end', () => {
    expect(serializeCsv([['a'], [''], ['b']])).toBe('a\r\n\r\nb');
    expect(serializeCsv([['a'], ['']])).toBe('a\r\n""');
    expect(serializeCsv([['a'], ['']], { trailingNewline: true })).toBe('a\r\n\r\n');
  });
  it('round trip: any table of strings survives serialize then parse', () => {
    fc.assert(
      fc.property(
        tableArb,
        fc.constantFrom<'\r\n' | '\n' | '\r'>('\r\n', '\n', '\r'),
        fc.boolean(),
        (table, eol, trailing) => {
          expect(parseCsv(serializeCsv(table, { eol, trailingNewline: trailing }))).toEqual(table);
        },
      ),
      { numRuns: 500 },
    );
  });
  it('round trip with a byte order mark', () => {
    fc.assert(
      fc.property(tableArb, (table) => {
        const p = parseCsvCells(serializeCsv(table, { bom: true }));
        expect(p.rows.map((r) => r.map((c) => c.value))).toEqual(table);
        expect(p.bom).toBe(true);
      }),
    );
  });
});

describe('CSV preview', () => {
  it('gives the header and the first 3 rows', () => {
    expect(csvPreview('code,rate\n1,0.1\n2,0.2\n3,0.3\n4,0.4\n', true)).toEqual({
      header: ['code', 'rate'],
      rows: [
        ['1', '0.1'],
        ['2', '0.2'],
        ['3', '0.3'],
      ],
    });
  });
  it('leaves out a row cut at the end of a partial read', () => {
    expect(csvPreview('code,rate\n1,0.1\n2,0.', false)?.rows).toEqual([['1', '0.1']]);
    expect(csvPreview('code,rate\n1,0.1\n2,0.', true)?.rows).toEqual([
      ['1', '0.1'],
      ['2', '0.'],
    ]);
    expect(csvPreview('code,rate\n1,"multi\nline', false)?.rows).toEqual([]);
  });
  it('is null for an empty file', () => {
    expect(csvPreview('', true)).toBeNull();
    expect(csvPreview('\n\n', true)).toBeNull();
  });
});

const expected = ['code', 'rate', 'effective_date'];
const hasUniqueHeaders = (m: HeaderMap) => new Set(m.headers).size === m.headers.length;
const isPermutation = (m: HeaderMap) => [...m.source].sort((a, b) => a - b).every((v, i) => v === i);

describe('header mapping', () => {
  it('matches expected headers ignoring case and spaces, then fills the rest in order', () => {
    expect(initialHeaderMap([' RATE ', 'x', 'Code'], expected)).toEqual({
      headers: ['rate', 'effective_date', 'code'],
      source: [0, 1, 2],
    });
  });
  it('keeps extra columns with unique names', () => {
    expect(initialHeaderMap(['code', 'rate', 'effective_date', 'note', 'note'], expected).headers).toEqual([
      'code',
      'rate',
      'effective_date',
      'note',
      'note_2',
    ]);
  });
  it('choosing a header used by another column swaps the two columns data', () => {
    const m = initialHeaderMap(['code', 'rate', 'effective_date'], expected);
    const next = chooseHeader(m, 0, 'rate');
    expect(next.headers).toEqual(['code', 'rate', 'effective_date']);
    expect(next.source).toEqual([1, 0, 2]);
    // The data of column 0 now sits under 'rate'.
    expect(mappedPreview({ header: [], rows: [['44', '0.1', '2026-01-01']] }, next)).toEqual([
      ['0.1', '44', '2026-01-01'],
    ]);
    // Choosing back restores it.
    expect(chooseHeader(next, 0, 'rate')).toEqual(m);
  });
  it('choosing an unused header renames the column; the same header is no change', () => {
    const m = initialHeaderMap(['code', 'x'], expected);
    expect(chooseHeader(m, 1, 'effective_date')).toEqual({
      headers: ['code', 'effective_date'],
      source: [0, 1],
    });
    expect(chooseHeader(m, 0, 'code')).toBe(m);
  });
  it('invariant: after any choices no header repeats and the data is a permutation of the columns', () => {
    const headerPool = [...expected, 'extra', 'other'];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('code', 'Rate', 'x', 'note', 'effective_date', ''), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.array(fc.tuple(fc.nat(7), fc.constantFrom(...headerPool))),
        (fileHeader, choices) => {
          let m = initialHeaderMap(fileHeader, expected);
          expect(hasUniqueHeaders(m)).toBe(true);
          for (const [p, h] of choices) {
            m = chooseHeader(m, p, h);
            expect(hasUniqueHeaders(m)).toBe(true);
            expect(isPermutation(m)).toBe(true);
            expect(m.headers).toHaveLength(fileHeader.length);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('rebuilding the file', () => {
  it('writes the mapped header, moves every row, keeps quoting and line endings', () => {
    const text = 'Rate,"Code",When\r\n"0,1",44,2026-01-01\r\n0.2,"4 9",2026-02-01\r\n';
    let m = initialHeaderMap(['Rate', 'Code', 'When'], expected);
    expect(m.headers).toEqual(['rate', 'code', 'effective_date']);
    m = chooseHeader(m, 0, 'code');
    expect(rebuildCsv(text, m)).toBe(
      'rate,"code",effective_date\r\n44,"0,1",2026-01-01\r\n"4 9",0.2,2026-02-01\r\n',
    );
  });
  it('keeps a byte order mark, empty lines, short and long rows, and no final line ending', () => {
    const text = '\uFEFFa,b\n1,2\n\n3\n4,5,6';
    const m = chooseHeader(initialHeaderMap(['a', 'b'], ['a', 'b']), 0, 'b');
    expect(rebuildCsv(text, m)).toBe('\uFEFFa,b\n2,1\n\n,3\n5,4,6');
  });
  it('round trip: with the identity map the values of every row are unchanged', () => {
    fc.assert(
      fc.property(tableArb, (table) => {
        const text = serializeCsv(table);
        const header = table[0];
        fc.pre(header !== undefined && !(header.length === 1 && header[0] === ''));
        if (!header) return;
        const map = { headers: header, source: header.map((_, i) => i) };
        expect(parseCsv(rebuildCsv(text, map))).toEqual(table);
      }),
    );
  });
  it('a swap moves whole columns across all rows', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(cellArb, { minLength: 3, maxLength: 3 }), { minLength: 2, maxLength: 6 }),
        (table) => {
          const m = chooseHeader({ headers: ['a', 'b', 'c'], source: [0, 1, 2] }, 0, 'c');
          const rebuilt = parseCsv(rebuildCsv(serializeCsv(table), m));
          expect(rebuilt[0]).toEqual(['a', 'b', 'c']);
          table.slice(1).forEach((row, r) => expect(rebuilt[r + 1]).toEqual([row[2], row[1], row[0]]));
        },
      ),
    );
  });
});
