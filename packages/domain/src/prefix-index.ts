/**
 * Longest-prefix match over digit codes (a code deck, a rate table, routing plan prefixes,
 * block-list prefixes).
 *
 * The index is a digit trie held in typed arrays: node n's child for digit d is
 * `children[n * 10 + d]` (0 = none; the root is node 0 and is never a child). The rows of a
 * code sit in one contiguous slice (CSR layout: `rowStart[n] .. rowStart[n + 1]`), sorted by
 * effective date, latest first, with their validity windows copied into Float64Arrays so a
 * lookup touches no row object until it has found its answer.
 *
 * Effective dates are epoch milliseconds. A row is effective at `t` when
 * `effective_date <= t < end_date` (start inclusive, end exclusive); a null or missing
 * effective date means "since always", a null or missing end date "open".
 * If several rows of one code are effective at once, the one that started last wins.
 *
 * The empty code "" is allowed and matches every number (a catch-all row).
 * Lookups read digits until the first non-digit character.
 */

export interface PrefixRow {
  readonly code: string;
  readonly effective_date?: number | null;
  readonly end_date?: number | null;
}

export class PrefixCodeError extends Error {
  constructor(readonly code: string) {
    super(`code must contain digits only, got "${code}"`);
    this.name = 'PrefixCodeError';
  }
}

export class PrefixIndex<R extends PrefixRow> {
  /** Number of distinct codes. */
  readonly codeCount: number;
  /** Number of rows (a code may have several, with different dates). */
  readonly rowCount: number;
  /** Length of the longest code. */
  readonly maxCodeLength: number;

  private constructor(
    private readonly children: Int32Array,
    private readonly rowStart: Int32Array,
    private readonly rows: readonly R[],
    private readonly starts: Float64Array,
    private readonly ends: Float64Array,
    codeCount: number,
    maxCodeLength: number,
  ) {
    this.codeCount = codeCount;
    this.rowCount = rows.length;
    this.maxCodeLength = maxCodeLength;
  }

  /** Builds the index; throws PrefixCodeError on a code with a non-digit character. */
  static build<R extends PrefixRow>(rows: readonly R[]): PrefixIndex<R> {
    let capacity = Math.max(64, rows.length + 64);
    let children = new Int32Array(capacity * 10);
    let nodeCount = 1;
    let maxCodeLength = 0;
    const nodeOfRow = new Int32Array(rows.length);

    for (let r = 0; r < rows.length; r++) {
      const code = (rows[r] as R).code;
      if (code.length > maxCodeLength) maxCodeLength = code.length;
      let node = 0;
      for (let i = 0; i < code.length; i++) {
        const digit = code.charCodeAt(i) - 48;
        if (digit < 0 || digit > 9) throw new PrefixCodeError(code);
        const slot = node * 10 + digit;
        let child = children[slot] as number;
        if (child === 0) {
          if (nodeCount === capacity) {
            capacity *= 2;
            const grown = new Int32Array(capacity * 10);
            grown.set(children);
            children = grown;
          }
          child = nodeCount++;
          children[slot] = child;
        }
        node = child;
      }
      nodeOfRow[r] = node;
    }

    // Count rows per node, then lay the rows out node by node (counting sort).
    const rowStart = new Int32Array(nodeCount + 1);
    for (let r = 0; r < rows.length; r++) rowStart[(nodeOfRow[r] as number) + 1]! += 1;
    let codeCount = 0;
    for (let n = 0; n < nodeCount; n++) {
      if ((rowStart[n + 1] as number) > 0) codeCount++;
      rowStart[n + 1]! += rowStart[n] as number;
    }
    const fill = rowStart.slice(0, nodeCount);
    const order = new Int32Array(rows.length);
    for (let r = 0; r < rows.length; r++) order[fill[nodeOfRow[r] as number]!++] = r;

    const sorted = new Array<R>(rows.length);
    const starts = new Float64Array(rows.length);
    const ends = new Float64Array(rows.length);
    for (let n = 0; n < nodeCount; n++) {
      const from = rowStart[n] as number;
      const to = rowStart[n + 1] as number;
      if (to - from > 1) sortLatestFirst(order, from, to, rows);
      for (let k = from; k < to; k++) {
        const row = rows[order[k] as number] as R;
        sorted[k] = row;
        starts[k] = row.effective_date ?? -Infinity;
        ends[k] = row.end_date ?? Infinity;
      }
    }
    return new PrefixIndex(
      children.slice(0, nodeCount * 10),
      rowStart,
      sorted,
      starts,
      ends,
      codeCount,
      maxCodeLength,
    );
  }

  /**
   * The row of the longest code that has a row effective at `atMs`; codes whose rows are all
   * out of date are skipped in favour of shorter ones. Undefined when nothing matches.
   */
  lookup(number: string, atMs: number): R | undefined {
    const { children, rowStart, starts, ends } = this;
    let best = effectiveRow(rowStart, starts, ends, 0, atMs);
    let node = 0;
    for (let i = 0; i < number.length; i++) {
      const digit = number.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) break;
      node = children[node * 10 + digit] as number;
      if (node === 0) break;
      if ((rowStart[node + 1] as number) > (rowStart[node] as number)) {
        const found = effectiveRow(rowStart, starts, ends, node, atMs);
        if (found >= 0) best = found;
      }
    }
    return best < 0 ? undefined : this.rows[best];
  }

  /**
   * The first accepted row (latest effective date first) of the longest code that has one.
   * Used where the choice depends on more than a date, e.g. a routing-plan prefix whose time
   * profile must match the call time. `arg` is handed to `accept`, so a caller on the hot path
   * can pass a module-level function instead of allocating a closure per call.
   */
  lookupWhere<A>(number: string, accept: (row: R, arg: A) => boolean, arg: A): R | undefined {
    const { children, rowStart, rows } = this;
    let found: R | undefined;
    let node = 0;
    for (let i = 0; ; i++) {
      for (let k = rowStart[node] as number, to = rowStart[node + 1] as number; k < to; k++) {
        if (accept(rows[k] as R, arg)) {
          found = rows[k];
          break;
        }
      }
      if (i >= number.length) return found;
      const digit = number.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) return found;
      node = children[node * 10 + digit] as number;
      if (node === 0) return found;
    }
  }

  /** True when any row of any code that prefixes `number` is accepted. */
  some<A>(number: string, accept: (row: R, arg: A) => boolean, arg: A): boolean {
    const { children, rowStart, rows } = this;
    let node = 0;
    for (let i = 0; ; i++) {
      for (let k = rowStart[node] as number, to = rowStart[node + 1] as number; k < to; k++) {
        if (accept(rows[k] as R, arg)) return true;
      }
      if (i >= number.length) return false;
      const digit = number.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) return false;
      node = children[node * 10 + digit] as number;
      if (node === 0) return false;
    }
  }

  /** Every row of every code that prefixes `number`, longest code first (for traces and analysis). */
  candidates(number: string): R[] {
    const found: R[][] = [];
    this.walk(number, (from, to) => {
      found.push(this.rows.slice(from, to));
    });
    return found.reverse().flat();
  }

  /** The rows of exactly this code, latest effective date first. */
  rowsOf(code: string): readonly R[] {
    const node = this.nodeOf(code);
    return node < 0 ? [] : this.rows.slice(this.rowStart[node], this.rowStart[node + 1]);
  }

  private nodeOf(code: string): number {
    let node = 0;
    for (let i = 0; i < code.length; i++) {
      const digit = code.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) return -1;
      node = this.children[node * 10 + digit] as number;
      if (node === 0) return -1;
    }
    return node;
  }

  /** Calls `visit` with the row slice of each code prefixing `number`, shortest first. */
  private walk(number: string, visit: (from: number, to: number) => void): void {
    const { children, rowStart } = this;
    let node = 0;
    for (let i = 0; ; i++) {
      const from = rowStart[node] as number;
      const to = rowStart[node + 1] as number;
      if (to > from) visit(from, to);
      if (i >= number.length) return;
      const digit = number.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) return;
      node = children[node * 10 + digit] as number;
      if (node === 0) return;
    }
  }
}

function effectiveRow(
  rowStart: Int32Array,
  starts: Float64Array,
  ends: Float64Array,
  node: number,
  atMs: number,
): number {
  for (let k = rowStart[node] as number, to = rowStart[node + 1] as number; k < to; k++) {
    if ((starts[k] as number) <= atMs && atMs < (ends[k] as number)) return k;
  }
  return -1;
}

/** Insertion sort of order[from..to) by effective date, latest first; stable. */
function sortLatestFirst<R extends PrefixRow>(
  order: Int32Array,
  from: number,
  to: number,
  rows: readonly R[],
): void {
  const startOf = (r: number) => (rows[r] as R).effective_date ?? -Infinity;
  for (let i = from + 1; i < to; i++) {
    const r = order[i] as number;
    const start = startOf(r);
    let j = i - 1;
    while (j >= from && startOf(order[j] as number) < start) {
      order[j + 1] = order[j] as number;
      j--;
    }
    order[j + 1] = r;
  }
}
