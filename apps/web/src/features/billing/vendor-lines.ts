/**
 * The vendor lines of Finance > Vendor Invoice as typed or pasted: one line each,
 * "destination or date, minutes, amount" (minutes may be empty). The last two cells are the
 * figures, so a destination may itself hold commas ("Korea, Republic of, 12.5, 3.10").
 */
export interface VendorLineInput {
  key: string;
  minutes: string | null;
  amount: string;
}

const DECIMAL = /^\d{1,12}(\.\d{1,6})?$/;

/** The parsed lines, or the 1-based number of the first line that is not "key, minutes, amount". */
export function parseVendorLines(text: string): { lines: VendorLineInput[] } | { badLine: number } {
  const lines: VendorLineInput[] = [];
  const rows = text.split(/\r?\n/);
  for (const [i, raw] of rows.entries()) {
    const row = raw.trim();
    if (!row) continue;
    const cells = row.split(/[,;\t]/).map((c) => c.trim());
    if (cells.length < 3) return { badLine: i + 1 };
    const amount = cells.pop() as string;
    const minutes = cells.pop() as string;
    const key = cells.join(', ').trim();
    if (!key || !DECIMAL.test(amount) || (minutes !== '' && !DECIMAL.test(minutes)))
      return { badLine: i + 1 };
    lines.push({ key, minutes: minutes === '' ? null : minutes, amount });
  }
  return { lines };
}

/** The lines back as text (the edit form). */
export const vendorLinesText = (lines: readonly VendorLineInput[]): string =>
  lines.map((l) => `${l.key}, ${l.minutes ?? ''}, ${l.amount}`).join('\n');
