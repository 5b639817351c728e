/**
 * The snapshot's code deck: one digit trie over the codes of every rate table, so a call
 * walks the dialled number once and then finds each table's row among the few nodes on that
 * path, instead of walking one trie per vendor.
 *
 * Why: with ten vendors the engine prices a number in eleven tables per call. Eleven separate
 * tries of a 27,000-code deck are ~17 MB of nodes, and each walk is a chain of dependent cache
 * misses; with one shared trie the walk is done once and the rows of one code in all tables sit
 * side by side (they are laid out node by node, then table by table), so the per-table lookups
 * read a couple of cache lines already loaded. The deck keeps no row objects: it numbers the
 * rows in deck order (0 .. rowCount-1) and the caller keeps their data in columns indexed by
 * that number (rate-store.ts), so the rates of one code in all tables are neighbours too.
 *
 * Semantics per table are those of PrefixIndex: the longest code with a row effective at the
 * instant (effective_date <= t < end_date, null = unbounded), falling back to shorter codes;
 * among rows of one code effective at once, the one that started last.
 *
 * Layout: one block of 12 ints per trie node in `nodes`: [first entry, end of entries, child
 * for digit 0 .. child for digit 9] (child 0 = none), so a step of the walk reads one cache line
 * for both "does this code have rows" and "where next". Entries (one per table having the
 * code, sorted by table slot) hold the table and the entry's first row side by side in `entries`;
 * the entry's rows run to the next entry's first row (latest effective date first), and each
 * row's effective and end dates sit side by side in `windows`. So finding a table's row reads
 * two regions of memory, not four: on a 700,000-code deck each region is a cache miss.
 */
import { PrefixCodeError } from './prefix-index';
import type { PrefixRow } from './prefix-index';
import { ROWS_PER_STEP, runSteps, type Steps } from './steps';

/** The nodes of a number's path that carry rows, deepest last; reused across calls. */
export class DeckPath {
  readonly nodes = new Int32Array(64);
  readonly depths = new Int32Array(64);
  count = 0;
}

/** Ints per node block: entry start, entry end, ten children. */
const NODE = 12;

/**
 * What the deck reads of one table's rows: how many, and each row's code and effective window.
 * Rows given as objects go through `deckRowsOf`; the snapshot's rate columns have their own
 * (snapshot-rates.ts), so a cached table is read without an object per row.
 */
export interface DeckRows {
  readonly length: number;
  code(i: number): string;
  /** Effective date, epoch ms; -Infinity = since always. */
  start(i: number): number;
  /** End date (exclusive), epoch ms; Infinity = open. */
  end(i: number): number;
}

/** DeckRows over row objects. */
export function deckRowsOf(rows: readonly PrefixRow[]): DeckRows {
  return {
    length: rows.length,
    code: (i) => (rows[i] as PrefixRow).code,
    start: (i) => (rows[i] as PrefixRow).effective_date ?? -Infinity,
    end: (i) => (rows[i] as PrefixRow).end_date ?? Infinity,
  };
}

export class CodeDeck {
  private constructor(
    private readonly nodes: Int32Array,
    /** Per entry e: [2e] its table, [2e + 1] its first row; one pair more holds the row count. */
    private readonly entries: Int32Array,
    /** Per row k: [2k] effective date, [2k + 1] end date (epoch ms, +-Infinity when open). */
    private readonly windows: Float64Array,
    /** Rows over all tables. */
    readonly rowCount: number,
    /** Distinct codes over all tables. */
    readonly codeCount: number,
  ) {}

  /**
   * Builds the deck of several tables (table slot i is `tables[i]`). `visit` is called once per
   * row in deck order (node by node, table by table, latest effective date first) with the
   * row's deck number `k`, which `find` returns later.
   */
  static build<I extends PrefixRow>(
    tables: readonly (readonly I[])[],
    visit: (row: I, table: number, index: number, k: number) => void = () => undefined,
  ): CodeDeck {
    return runSteps(
      CodeDeck.buildSteps(tables.map(deckRowsOf), (t, i, k) =>
        visit((tables[t] as readonly I[])[i] as I, t, i, k),
      ),
    );
  }

  /** `build` over DeckRows, as steps (steps.ts): yields every ROWS_PER_STEP rows of each pass. */
  static *buildSteps(
    tables: readonly DeckRows[],
    visit: (table: number, index: number, k: number) => void = () => undefined,
  ): Steps<CodeDeck> {
    // Rows are numbered r = 0 .. total-1 table by table: row r of table t is tables[t] row r - first[t].
    const first = new Int32Array(tables.length + 1);
    for (let t = 0; t < tables.length; t++)
      first[t + 1] = (first[t] as number) + (tables[t] as DeckRows).length;
    const total = first[tables.length] as number;
    let capacity = Math.max(64, Math.ceil(total / Math.max(1, tables.length)) + 64);
    let nodes = new Int32Array(capacity * NODE);
    let nodeCount = 1;
    const nodeOf = new Int32Array(total);

    let r = 0;
    for (let t = 0; t < tables.length; t++) {
      const table = tables[t] as DeckRows;
      for (let i = 0; i < table.length; i++) {
        const code = table.code(i);
        let node = 0;
        for (let i = 0; i < code.length; i++) {
          const digit = code.charCodeAt(i) - 48;
          if (digit < 0 || digit > 9) throw new PrefixCodeError(code);
          const slot = node * NODE + 2 + digit;
          let child = nodes[slot] as number;
          if (child === 0) {
            if (nodeCount === capacity) {
              capacity *= 2;
              const grown = new Int32Array(capacity * NODE);
              grown.set(nodes);
              nodes = grown;
            }
            child = nodeCount++;
            nodes[slot] = child;
          }
          node = child;
        }
        nodeOf[r++] = node;
        if (r % ROWS_PER_STEP === 0) yield;
      }
    }

    // Order rows by (node, table): a stable counting sort by node of rows already in table order.
    const order = countingOrder(nodeOf, nodeCount);
    const tableOfRow = (row: number): number => {
      // the last t with first[t] <= row (binary search: snapshots may hold hundreds of tables)
      let low = 0;
      let high = tables.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        if ((first[middle] as number) <= row) low = middle;
        else high = middle - 1;
      }
      return low;
    };
    const startOf = (row: number): number => {
      const t = tableOfRow(row);
      return (tables[t] as DeckRows).start(row - (first[t] as number));
    };

    // Entries: runs of equal (node, table) in that order; nodes come in increasing order. Each
    // entry's table and first row side by side (find() reads both, one cache line), then a
    // closing pair whose first row is the row count.
    const pairsAll = new Int32Array((total + 1) * 2);
    let entries = 0;
    let codeCount = 0;
    let previousNode = -1;
    let previousTable = -1;
    for (let k = 0; k < total; k++) {
      if (k > 0 && k % (ROWS_PER_STEP * 8) === 0) yield;
      const row = order[k] as number;
      const node = nodeOf[row] as number;
      const table = tableOfRow(row);
      if (node !== previousNode || table !== previousTable) {
        if (node !== previousNode) {
          codeCount++;
          if (previousNode >= 0) nodes[previousNode * NODE + 1] = entries;
          nodes[node * NODE] = entries;
        }
        pairsAll[entries * 2] = table;
        pairsAll[entries * 2 + 1] = k;
        entries++;
        previousNode = node;
        previousTable = table;
      }
    }
    if (previousNode >= 0) nodes[previousNode * NODE + 1] = entries;
    pairsAll[entries * 2] = -1;
    pairsAll[entries * 2 + 1] = total;
    const pairs = pairsAll.slice(0, (entries + 1) * 2);

    const windows = new Float64Array(total * 2);
    let visited = 0;
    for (let e = 0; e < entries; e++) {
      const from = pairs[e * 2 + 1] as number;
      const to = pairs[e * 2 + 3] as number;
      visited += to - from;
      if (visited >= ROWS_PER_STEP) {
        visited = 0;
        yield;
      }
      if (to - from > 1) sortLatestFirst(order, from, to, startOf);
      for (let k = from; k < to; k++) {
        const row = order[k] as number;
        const t = tableOfRow(row);
        const table = tables[t] as DeckRows;
        const i = row - (first[t] as number);
        visit(t, i, k);
        windows[k * 2] = table.start(i);
        windows[k * 2 + 1] = table.end(i);
      }
    }
    return new CodeDeck(nodes.slice(0, nodeCount * NODE), pairs, windows, total, codeCount);
  }

  /** Records into `path` the nodes along `number` (its digits up to the first non-digit, at most 63) that carry rows. */
  walk(number: string, path: DeckPath): DeckPath {
    const deck = this.nodes;
    const nodes = path.nodes;
    const depths = path.depths;
    let count = 0;
    if ((deck[1] as number) > (deck[0] as number)) {
      nodes[0] = 0;
      depths[0] = 0;
      count = 1;
    }
    let base = 0;
    const limit = Math.min(number.length, nodes.length - 1);
    for (let i = 0; i < limit; i++) {
      const digit = number.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) break;
      const node = deck[base + 2 + digit] as number;
      if (node === 0) break;
      base = node * NODE;
      if ((deck[base + 1] as number) > (deck[base] as number)) {
        nodes[count] = node;
        depths[count] = i + 1;
        count++;
      }
    }
    path.count = count;
    return path;
  }

  /**
   * Deck number of the row of table `table` for the walked number at `atMs`, or -1.
   * Deepest node first; a node whose rows of this table are all out of date is skipped.
   */
  find(table: number, path: DeckPath, atMs: number): number {
    const { nodes, entries, windows } = this;
    for (let d = path.count - 1; d >= 0; d--) {
      const base = (path.nodes[d] as number) * NODE;
      const first = nodes[base] as number;
      const end = nodes[base + 1] as number;
      // Entries are sorted by table and unique per table, so this table's entry is at most
      // `table` places in: look there first (every table has the code: found at once), then back.
      let e = first + table < end ? first + table : end - 1;
      while (e >= first && (entries[e * 2] as number) > table) e--;
      if (e < first || entries[e * 2] !== table) continue;
      for (let k = entries[e * 2 + 1] as number, to = entries[e * 2 + 3] as number; k < to; k++) {
        if ((windows[k * 2] as number) <= atMs && atMs < (windows[k * 2 + 1] as number)) return k;
      }
    }
    return -1;
  }

  /** Convenience for one-off lookups (tests, tools): walk and find. */
  lookup(table: number, number: string, atMs: number): number {
    return this.find(table, this.walk(number, new DeckPath()), atMs);
  }
}

/** Stable counting sort of indices 0..keys.length-1 by key (0..range-1). */
function countingOrder(keys: Int32Array, range: number): Int32Array {
  const counts = new Int32Array(range + 1);
  for (let i = 0; i < keys.length; i++) counts[(keys[i] as number) + 1]! += 1;
  for (let k = 0; k < range; k++) counts[k + 1]! += counts[k] as number;
  const out = new Int32Array(keys.length);
  for (let i = 0; i < keys.length; i++) out[counts[keys[i] as number]!++] = i;
  return out;
}

/** Insertion sort of order[from..to) by effective date, latest first; stable. */
function sortLatestFirst(
  order: Int32Array,
  from: number,
  to: number,
  startOf: (row: number) => number,
): void {
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
