/**
 * A small RFC 4180 CSV reader and writer for the upload widget's header mapping (spec 01 section 5):
 * comma-separated fields, fields in double quotes may hold commas, line breaks and doubled quotes,
 * rows end with CRLF, LF or CR. Pure and DOM-free.
 */

export interface CsvCell {
  value: string;
  /** The field was written in double quotes in the source. */
  quoted: boolean;
}

export type LineEnding = '\r\n' | '\n' | '\r';

export interface ParsedCsv {
  rows: CsvCell[][];
  /** The first line ending met (CRLF when the text has none). */
  eol: LineEnding;
  /** The text began with a byte order mark (dropped from the first field). */
  bom: boolean;
  /** The last row was followed by a line ending. */
  trailingNewline: boolean;
  /** Parsing stopped at maxRows before the end of the text. */
  truncated: boolean;
}

const BOM = '\uFEFF';

/** Reads CSV text with quoting details; stops after `maxRows` complete rows when given. */
export function parseCsvCells(text: string, opts: { maxRows?: number } = {}): ParsedCsv {
  const maxRows = opts.maxRows ?? Infinity;
  const rows: CsvCell[][] = [];
  let eol: LineEnding | null = null;
  const bom = text.startsWith(BOM);
  let i = bom ? 1 : 0;
  const n = text.length;
  let row: CsvCell[] = [];
  let field = '';
  let quoted = false;
  let atFieldStart = true;
  let trailingNewline = false;

  const endField = () => {
    row.push({ value: field, quoted });
    field = '';
    quoted = false;
    atFieldStart = true;
  };

  while (i < n) {
    if (rows.length >= maxRows) return { rows, eol: eol ?? '\r\n', bom, trailingNewline, truncated: true };
    const c = text[i];
    trailingNewline = false;
    if (atFieldStart && c === '"') {
      quoted = true;
      atFieldStart = false;
      i++;
      // Inside quotes until a single closing quote; "" is one quote. An unterminated quote runs to the end.
      while (i < n) {
        const q = text[i];
        if (q === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
          } else {
            i++;
            break;
          }
        } else {
          field += q;
          i++;
        }
      }
      continue;
    }
    if (c === ',') {
      endField();
      i++;
      continue;
    }
    if (c === '\r' || c === '\n') {
      const ending: LineEnding = c === '\r' && text[i + 1] === '\n' ? '\r\n' : c;
      eol ??= ending;
      endField();
      rows.push(row);
      row = [];
      i += ending.length;
      trailingNewline = true;
      continue;
    }
    // Characters after a closing quote are kept (lenient, like most spreadsheet programs).
    field += c;
    atFieldStart = false;
    i++;
  }
  if (row.length > 0 || field !== '' || quoted) {
    if (rows.length >= maxRows)
      return { rows, eol: eol ?? '\r\n', bom, trailingNewline: false, truncated: true };
    endField();
    rows.push(row);
    trailingNewline = false;
  }
  return { rows, eol: eol ?? '\r\n', bom, trailingNewline, truncated: false };
}

/** The values of every row. */
export function parseCsv(text: string): string[][] {
  return parseCsvCells(text).rows.map((r) => r.map((c) => c.value));
}

/** Whether a value must be quoted to read back the same. */
export function needsQuotes(value: string): boolean {
  return /[",\r\n]/.test(value) || value.startsWith(BOM);
}

export const quoteCsv = (value: string) => `"${value.replace(/"/g, '""')}"`;

export interface SerializeOptions {
  eol?: LineEnding;
  /** End the text with a line ending (default false). */
  trailingNewline?: boolean;
  /** Start with a byte order mark. */
  bom?: boolean;
  /** Quote this cell even if it does not need it (keeps the source's quoting). */
  forceQuote?: (row: number, col: number) => boolean;
}

/** Writes rows as CSV; quotes only where needed or asked, so parseCsv(serializeCsv(t)) equals t. */
export function serializeCsv(rows: readonly (readonly string[])[], opts: SerializeOptions = {}): string {
  const eol = opts.eol ?? '\r\n';
  const last = rows.length - 1;
  const lines = rows.map((row, r) => {
    // A row of one empty field is an empty line, which reads back as such unless it ends the text.
    if (row.length === 1 && row[0] === '') {
      const force = opts.forceQuote?.(r, 0) ?? false;
      return force || (r === last && !opts.trailingNewline) ? '""' : '';
    }
    return row.map((v, c) => (needsQuotes(v) || opts.forceQuote?.(r, c) ? quoteCsv(v) : v)).join(',');
  });
  return (opts.bom ? BOM : '') + lines.join(eol) + (opts.trailingNewline && rows.length > 0 ? eol : '');
}

export interface CsvPreview {
  header: string[];
  rows: string[][];
}

/**
 * The header and the first `count` rows of a CSV file from the start of its text. When `complete`
 * is false the text is only the file's beginning, so a row cut at its end is not shown.
 */
export function csvPreview(text: string, complete: boolean, count = 3): CsvPreview | null {
  const parsed = parseCsvCells(text, { maxRows: count + 2 });
  let rows = parsed.rows;
  if (!complete && !parsed.truncated && !parsed.trailingNewline) rows = rows.slice(0, -1);
  const values = rows.map((r) => r.map((c) => c.value));
  const [header, ...rest] = values;
  if (!header || (header.length === 1 && header[0] === '')) return null;
  return { header, rows: rest.filter((r) => !(r.length === 1 && r[0] === '')).slice(0, count) };
}

/**
 * Column mapping of the header dialog: position p of the rebuilt file has header `headers[p]` and
 * the data of the source column `source[p]`. Headers never repeat; `source` is a permutation.
 */
export interface HeaderMap {
  headers: string[];
  source: number[];
}

const norm = (s: string) => s.trim().toLowerCase();

/**
 * The starting map: a file column whose header equals an expected header (ignoring case and
 * surrounding spaces) keeps it; the others take the unused expected headers in order; columns
 * beyond the expected ones keep their own header (made unique).
 */
export function initialHeaderMap(fileHeader: readonly string[], expected: readonly string[]): HeaderMap {
  const uniqueExpected = [...new Map(expected.map((h) => [norm(h), h])).values()];
  const headers: (string | null)[] = fileHeader.map(() => null);
  const used = new Set<string>();
  fileHeader.forEach((h, p) => {
    const match = uniqueExpected.find((e) => norm(e) === norm(h));
    if (match && !used.has(norm(match))) {
      headers[p] = match;
      used.add(norm(match));
    }
  });
  const free = uniqueExpected.filter((e) => !used.has(norm(e)));
  headers.forEach((h, p) => {
    if (h !== null) return;
    const next = free.shift();
    if (next !== undefined) {
      headers[p] = next;
      used.add(norm(next));
    }
  });
  const final = headers.map((h, p) => {
    if (h !== null) return h;
    let name = fileHeader[p] ?? '';
    for (let k = 2; used.has(norm(name)); k++) name = `${fileHeader[p] ?? ''}_${k}`;
    used.add(norm(name));
    return name;
  });
  return { headers: final, source: fileHeader.map((_, p) => p) };
}

/**
 * The user chose `header` for column `position`. If another column already has it, the two
 * columns' data swap (the headers stay where they are), so no header repeats and the chosen
 * data ends up under the chosen header; otherwise the column's header simply changes.
 */
export function chooseHeader(map: HeaderMap, position: number, header: string): HeaderMap {
  if (position < 0 || position >= map.headers.length) return map;
  const other = map.headers.indexOf(header);
  if (other === position) return map;
  if (other === -1) {
    const headers = [...map.headers];
    headers[position] = header;
    return { headers, source: map.source };
  }
  const source = [...map.source];
  const a = source[position] ?? position;
  source[position] = source[other] ?? other;
  source[other] = a;
  return { headers: map.headers, source };
}

/** The columns' preview values in mapped order. */
export function mappedPreview(preview: CsvPreview, map: HeaderMap): string[][] {
  return preview.rows.map((r) => map.source.map((s) => r[s] ?? ''));
}

/**
 * Rebuilds the whole file with the mapped header and column order: every data row keeps its
 * cells (moved with their columns), quoted source cells stay quoted, and the line endings, byte
 * order mark and final line ending of the source are kept.
 */
export function rebuildCsv(text: string, map: HeaderMap): string {
  const parsed = parseCsvCells(text);
  const [head, ...body] = parsed.rows;
  const width = map.headers.length;
  const out: CsvCell[][] = [];
  out.push(map.headers.map((h, p) => ({ value: h, quoted: head?.[p]?.quoted ?? false })));
  for (const row of body) {
    if (row.length === 1 && row[0]?.value === '' && !row[0].quoted) {
      out.push([{ value: '', quoted: false }]);
      continue;
    }
    // Cells move with their columns; a short row gets empty cells only where a moved cell needs them.
    const cells: (CsvCell | null)[] = [];
    for (let p = 0; p < Math.max(width, row.length); p++)
      cells.push(row[p < width ? (map.source[p] ?? p) : p] ?? null);
    while (cells.length > 0 && cells[cells.length - 1] === null) cells.pop();
    out.push(cells.map((c) => c ?? { value: '', quoted: false }));
  }
  return serializeCsv(
    out.map((r) => r.map((c) => c.value)),
    {
      eol: parsed.eol,
      bom: parsed.bom,
      trailingNewline: parsed.trailingNewline,
      forceQuote: (r, c) => out[r]?.[c]?.quoted ?? false,
    },
  );
}
