import { readRows, type FileKind } from './read-rows';

export interface KeyedRow {
  line: number;
  values: Record<string, string>;
}

const norm = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[\s\-_.]+/g, '_');

/**
 * Reads a small keyed file (code deck, NPA-NXX data) into rows of named cells. The first row is a
 * header when one of its cells names a column (or an alias); otherwise the columns are positional,
 * in the order of `columns`.
 */
export async function readKeyedRows(
  path: string,
  kind: FileKind,
  columns: Record<string, readonly string[]>,
): Promise<KeyedRow[]> {
  const names = Object.keys(columns);
  const lookup = new Map<string, string>();
  for (const [col, aliases] of Object.entries(columns))
    for (const a of [col, ...aliases]) lookup.set(norm(a), col);
  const out: KeyedRow[] = [];
  let index: Map<string, number> | null = null;
  let line = 0;
  for await (const batch of readRows(path, kind)) {
    for (const row of batch.rows) {
      line++;
      if (!index) {
        const found = new Map<string, number>();
        row.forEach((h, i) => {
          const col = lookup.get(norm(h));
          if (col && !found.has(col)) found.set(col, i);
        });
        if (found.size > 0) {
          index = found;
          continue;
        }
        index = new Map(names.map((n, i) => [n, i]));
      }
      const values: Record<string, string> = {};
      for (const [col, i] of index) values[col] = (row[i] ?? '').trim();
      out.push({ line, values });
    }
  }
  return out;
}
