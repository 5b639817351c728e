/**
 * CSV for exports (server files and browser downloads): RFC 4180 quoting, and cells that start with
 * = + - @ (or tab/CR) prefixed with an apostrophe so spreadsheets do not run them as formulas.
 */
export function csvCell(v: unknown): string {
  let s =
    v === null || v === undefined
      ? ''
      : typeof v === 'object'
        ? JSON.stringify(v)
        : String(v as string | number | boolean | bigint);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The first line of a CSV file a spreadsheet opens: a UTF-8 byte order mark and the labels. */
export function csvHeader(labels: readonly string[]): string {
  return '\uFEFF' + labels.map(csvCell).join(',') + '\r\n';
}

export function toCsv(header: string[], rows: unknown[][]): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/**
 * One CSV line split into its cells: quoted cells may hold commas and doubled quotes. For line-by-line
 * readers of known files (rate decks in tests and benchmarks); a file whose quoted cells span lines
 * needs a whole-file parser (the web app's upload widget, the server's rate import).
 */
export function parseCsvLine(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}
