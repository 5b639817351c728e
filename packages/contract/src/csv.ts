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

export function toCsv(header: string[], rows: unknown[][]): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
