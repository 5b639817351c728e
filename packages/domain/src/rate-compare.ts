/**
 * Rate comparison (the rate report): the price of each of a few codes in each of several rate
 * tables at one instant, with the lowest and highest per side. "The price of code X in table T"
 * is the engine's own answer: the row of the longest code of T that prefixes X and is in effect
 * (PrefixIndex.lookup), so a report never disagrees with how a call would be rated.
 *
 * The caller reads only the rows that can answer: rows whose code is one of `codePrefixes(codes)`
 * (an equality lookup on the rates' (table, code) index), never a whole table.
 */
import { parseMoney, type Micros } from './money';
import { PrefixIndex, type PrefixRow } from './prefix-index';

/** Every prefix of every code, the empty code (a catch-all row) included; no repeats. */
export function codePrefixes(codes: readonly string[]): string[] {
  const out = new Set<string>(['']);
  for (const code of codes) for (let i = 1; i <= code.length; i++) out.add(code.slice(0, i));
  return [...out];
}

export interface ComparedRow extends PrefixRow {
  readonly code: string;
  /** Per-minute rate as decimal text. */
  readonly rate: string;
  readonly code_name?: string | null;
}

export interface ComparedTable<R extends ComparedRow> {
  readonly side: 'client' | 'vendor';
  readonly rows: readonly R[];
}

export interface ComparedCode<R extends ComparedRow> {
  readonly code: string;
  /** Aligned with the tables: the row in effect for this code, or undefined. */
  readonly rows: readonly (R | undefined)[];
  /** The matched row with the longest code, a named one first among equals (names the destination). */
  readonly best: R | undefined;
  readonly client_min: R | undefined;
  readonly client_max: R | undefined;
  readonly vendor_min: R | undefined;
  readonly vendor_max: R | undefined;
}

/** The rows in effect at `atMs` for each code in each table, with min and max per side (exact: micro-units). */
export function compareRates<R extends ComparedRow>(
  codes: readonly string[],
  tables: readonly ComparedTable<R>[],
  atMs: number,
): ComparedCode<R>[] {
  const indexes = tables.map((t) => PrefixIndex.build(t.rows));
  const micros = new Map<string, Micros>();
  const amount = (r: R): Micros => {
    let m = micros.get(r.rate);
    if (m === undefined) micros.set(r.rate, (m = parseMoney(r.rate)));
    return m;
  };
  return codes.map((code) => {
    const rows = indexes.map((index) => index.lookup(code, atMs));
    let best: R | undefined;
    const extremes = { client: [undefined, undefined], vendor: [undefined, undefined] } as Record<
      'client' | 'vendor',
      [R | undefined, R | undefined]
    >;
    rows.forEach((row, i) => {
      if (!row) return;
      if (
        !best ||
        row.code.length > best.code.length ||
        (row.code.length === best.code.length && !best.code_name && row.code_name)
      )
        best = row;
      const e = extremes[tables[i]!.side];
      if (!e[0] || amount(row) < amount(e[0])) e[0] = row;
      if (!e[1] || amount(row) > amount(e[1])) e[1] = row;
    });
    return {
      code,
      rows,
      best,
      client_min: extremes.client[0],
      client_max: extremes.client[1],
      vendor_min: extremes.vendor[0],
      vendor_max: extremes.vendor[1],
    };
  });
}
