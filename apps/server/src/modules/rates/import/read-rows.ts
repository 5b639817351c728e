import fs from 'node:fs';
import ExcelJS from 'exceljs';

/** A batch of rows (arrays of cell texts) read from a file, with the bytes read so far. */
export interface RowBatch {
  rows: string[][];
  bytesRead: number;
}

export type FileKind = 'csv' | 'xlsx';

/** The kind of an uploaded file from its name and first bytes; null when neither CSV nor XLSX. */
export function fileKindOf(name: string, head: Buffer): FileKind | null {
  const ext = (name.split('.').pop() ?? '').toLowerCase();
  const zip =
    head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
  if (ext === 'xlsx') return zip ? 'xlsx' : null;
  if (ext === 'csv' || ext === 'txt') return zip || head.subarray(0, 4096).includes(0) ? null : 'csv';
  return null;
}

/**
 * Streams the rows of a CSV or XLSX file (first worksheet) in small batches (64 KB of CSV, 2,000 XLSX
 * rows: a few milliseconds of work each, so callers can give the event loop a turn between them);
 * memory stays flat.
 */
export function readRows(path: string, kind: FileKind): AsyncGenerator<RowBatch> {
  return kind === 'csv' ? readCsv(path) : readXlsx(path);
}

/**
 * RFC 4180 CSV, streamed: comma separator, fields in double quotes may hold commas, quotes ("")
 * and line breaks; rows end with CRLF, LF or CR; a UTF-8 byte order mark is dropped; blank lines
 * are skipped.
 */
export async function* readCsv(path: string, chunkSize = 64 << 10): AsyncGenerator<RowBatch> {
  const stream = fs.createReadStream(path, { encoding: 'utf8', highWaterMark: chunkSize });
  const parser = new CsvParser();
  let bytesRead = 0;
  let first = true;
  for await (const chunk of stream as AsyncIterable<string>) {
    bytesRead = stream.bytesRead;
    let text = chunk;
    if (first) {
      first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const rows = parser.push(text);
    if (rows.length) yield { rows, bytesRead };
  }
  const rest = parser.end();
  if (rest.length) yield { rows: rest, bytesRead };
}

/** Incremental CSV state machine: push chunks, get the complete rows of each. */
export class CsvParser {
  private field = '';
  private row: string[] = [];
  private inQuotes = false;
  /** A quote seen inside quotes at the end of a chunk: either "" or the closing quote. */
  private quotePending = false;
  private lastWasCr = false;
  private rowStarted = false;

  push(text: string): string[][] {
    const out: string[][] = [];
    const n = text.length;
    let i = 0;
    let field = this.field;
    let row = this.row;
    let inQuotes = this.inQuotes;
    let rowStarted = this.rowStarted;
    if (this.quotePending) {
      this.quotePending = false;
      if (n > 0 && text.charCodeAt(0) === 34) {
        field += '"';
        i = 1;
      } else inQuotes = false;
    }
    if (this.lastWasCr && n > 0 && text.charCodeAt(0) === 10 && i === 0) i = 1;
    this.lastWasCr = false;
    while (i < n) {
      if (inQuotes) {
        const q = text.indexOf('"', i);
        if (q === -1) {
          field += text.slice(i);
          i = n;
          break;
        }
        field += text.slice(i, q);
        if (q + 1 === n) {
          this.quotePending = true;
          i = n;
          break;
        }
        if (text.charCodeAt(q + 1) === 34) {
          field += '"';
          i = q + 2;
        } else {
          inQuotes = false;
          i = q + 1;
        }
        continue;
      }
      const c = text.charCodeAt(i);
      if (c === 34 && field === '') {
        inQuotes = true;
        rowStarted = true;
        i++;
        continue;
      }
      if (c === 44) {
        row.push(field);
        field = '';
        rowStarted = true;
        i++;
        continue;
      }
      if (c === 10 || c === 13) {
        if (rowStarted || field !== '') {
          row.push(field);
          out.push(row);
        }
        row = [];
        field = '';
        rowStarted = false;
        if (c === 13) {
          if (i + 1 < n) {
            if (text.charCodeAt(i + 1) === 10) i++;
          } else this.lastWasCr = true;
        }
        i++;
        continue;
      }
      // Plain run up to the next separator, quote or line break.
      let j = i + 1;
      while (j < n) {
        const d = text.charCodeAt(j);
        if (d === 44 || d === 10 || d === 13 || d === 34) break;
        j++;
      }
      field += text.slice(i, j);
      rowStarted = true;
      i = j;
      if (i < n && text.charCodeAt(i) === 34) {
        // A quote inside an unquoted field is kept as text (lenient).
        field += '"';
        i++;
      }
    }
    this.field = field;
    this.row = row;
    this.inQuotes = inQuotes;
    this.rowStarted = rowStarted;
    return out;
  }

  end(): string[][] {
    if (this.quotePending) {
      this.quotePending = false;
      this.inQuotes = false;
    }
    if (this.rowStarted || this.field !== '') {
      this.row.push(this.field);
      const r = this.row;
      this.row = [];
      this.field = '';
      this.rowStarted = false;
      return [r];
    }
    return [];
  }
}

/** Text of an XLSX cell value: numbers as written, dates as ISO 8601 UTC, rich text joined. */
export function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object') {
    if ('richText' in v) return v.richText.map((r) => r.text).join('');
    if ('result' in v) return cellText(v.result as ExcelJS.CellValue);
    if ('text' in v) return String(v.text);
  }
  return '';
}

async function* readXlsx(path: string, batchSize = 2000): AsyncGenerator<RowBatch> {
  const size = fs.statSync(path).size;
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'cache',
    worksheets: 'emit',
    entries: 'emit',
  });
  let rows: string[][] = [];
  for await (const sheet of reader) {
    for await (const row of sheet as unknown as AsyncIterable<ExcelJS.Row>) {
      const values = row.values as ExcelJS.CellValue[];
      const cells: string[] = [];
      for (let c = 1; c < values.length; c++) cells.push(cellText(values[c]));
      // A row number gap means blank rows; they carry nothing.
      if (cells.some((x) => x !== '')) rows.push(cells);
      if (rows.length >= batchSize) {
        // The zip is read as a stream: the position in the file is not known, only that it is not the end.
        yield { rows, bytesRead: Math.round(size * 0.5) };
        rows = [];
      }
    }
    break; // first worksheet only
  }
  if (rows.length) yield { rows, bytesRead: size };
}
