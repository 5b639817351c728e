/**
 * Block lists: ANI and DNIS, exact or prefix, global or per trunk.
 *
 * An entry blocks a call when every condition it sets holds (ani_exact, ani_prefix,
 * dnis_exact, dnis_prefix); an entry must set at least one. Global entries (trunk_id null)
 * apply to every ingress call; trunk entries to calls on that trunk (ingress: the call is
 * rejected; egress: the trunk is dropped from the route list). Numbers are checked as routed,
 * that is after the ingress trunk's tech prefix and digit rules.
 *
 * Entries are indexed by DNIS (exact map or prefix trie) when they have a DNIS condition, else
 * by ANI, so a check costs a few map and trie lookups whatever the size of the list.
 */
import { PrefixIndex } from './prefix-index';

export interface BlockListEntry {
  readonly block_id?: number;
  /** null or missing: global. */
  readonly trunk_id?: number | null;
  readonly ani_exact?: string | null;
  readonly ani_prefix?: string | null;
  readonly dnis_exact?: string | null;
  readonly dnis_prefix?: string | null;
}

interface PrefixedEntry {
  readonly code: string;
  readonly entry: BlockListEntry;
}

interface ScopeIndex {
  readonly dnisExact: Map<string, BlockListEntry[]>;
  readonly dnisPrefix: PrefixIndex<PrefixedEntry>;
  readonly aniExact: Map<string, BlockListEntry[]>;
  readonly aniPrefix: PrefixIndex<PrefixedEntry>;
}

export function blockEntryMatches(entry: BlockListEntry, ani: string, dnis: string): boolean {
  return (
    (entry.ani_exact == null || ani === entry.ani_exact) &&
    (entry.ani_prefix == null || ani.startsWith(entry.ani_prefix)) &&
    (entry.dnis_exact == null || dnis === entry.dnis_exact) &&
    (entry.dnis_prefix == null || dnis.startsWith(entry.dnis_prefix))
  );
}

function firstMatch(
  entries: BlockListEntry[] | undefined,
  ani: string,
  dnis: string,
): BlockListEntry | undefined {
  if (entries === undefined) return undefined;
  for (const entry of entries) if (blockEntryMatches(entry, ani, dnis)) return entry;
  return undefined;
}

function push(map: Map<string, BlockListEntry[]>, key: string, entry: BlockListEntry): void {
  const list = map.get(key);
  if (list) list.push(entry);
  else map.set(key, [entry]);
}

const GLOBAL = -1;

export class BlockList {
  private constructor(
    private readonly scopes: ReadonlyMap<number, ScopeIndex>,
    readonly size: number,
  ) {}

  static build(entries: readonly BlockListEntry[]): BlockList {
    const grouped = new Map<
      number,
      {
        dnisExact: Map<string, BlockListEntry[]>;
        aniExact: Map<string, BlockListEntry[]>;
        dnisPrefix: PrefixedEntry[];
        aniPrefix: PrefixedEntry[];
      }
    >();
    for (const entry of entries) {
      const scope = entry.trunk_id ?? GLOBAL;
      let group = grouped.get(scope);
      if (!group) {
        group = { dnisExact: new Map(), aniExact: new Map(), dnisPrefix: [], aniPrefix: [] };
        grouped.set(scope, group);
      }
      if (entry.dnis_exact != null) push(group.dnisExact, entry.dnis_exact, entry);
      else if (entry.dnis_prefix != null) group.dnisPrefix.push({ code: entry.dnis_prefix, entry });
      else if (entry.ani_exact != null) push(group.aniExact, entry.ani_exact, entry);
      else if (entry.ani_prefix != null) group.aniPrefix.push({ code: entry.ani_prefix, entry });
      else throw new RangeError(`block list entry ${entry.block_id ?? ''} sets no ANI or DNIS condition`);
    }
    const scopes = new Map<number, ScopeIndex>();
    for (const [scope, g] of grouped) {
      scopes.set(scope, {
        dnisExact: g.dnisExact,
        aniExact: g.aniExact,
        dnisPrefix: PrefixIndex.build(g.dnisPrefix),
        aniPrefix: PrefixIndex.build(g.aniPrefix),
      });
    }
    return new BlockList(scopes, entries.length);
  }

  /** Whether any entry is scoped to this trunk. */
  hasTrunk(trunkId: number): boolean {
    return this.scopes.has(trunkId);
  }

  /** The first global entry blocking the call, if any. */
  findGlobal(ani: string, dnis: string): BlockListEntry | undefined {
    return this.findIn(GLOBAL, ani, dnis);
  }

  /** The first entry of this trunk blocking the call, if any. */
  findForTrunk(trunkId: number, ani: string, dnis: string): BlockListEntry | undefined {
    return this.findIn(trunkId, ani, dnis);
  }

  private findIn(scope: number, ani: string, dnis: string): BlockListEntry | undefined {
    const index = this.scopes.get(scope);
    if (index === undefined) return undefined;
    const exact =
      firstMatch(index.dnisExact.get(dnis), ani, dnis) ?? firstMatch(index.aniExact.get(ani), ani, dnis);
    if (exact) return exact;
    if (index.dnisPrefix.rowCount === 0 && index.aniPrefix.rowCount === 0) return undefined;
    const call: CallNumbers = { ani, dnis };
    return (
      (index.dnisPrefix.rowCount > 0
        ? index.dnisPrefix.lookupWhere(dnis, prefixedMatches, call)?.entry
        : undefined) ??
      (index.aniPrefix.rowCount > 0
        ? index.aniPrefix.lookupWhere(ani, prefixedMatches, call)?.entry
        : undefined)
    );
  }
}

interface CallNumbers {
  readonly ani: string;
  readonly dnis: string;
}

function prefixedMatches(p: PrefixedEntry, call: CallNumbers): boolean {
  return blockEntryMatches(p.entry, call.ani, call.dnis);
}
