/**
 * Digital maps: a named, ordered list of digit-mapping items shared by any number of trunks (each
 * trunk uses at most one map). An item matches a number (ANI or DNIS) by prefix ('' = any number)
 * or exactly, and rewrites it:
 *   - strip:          drop the first `strip_count` digits;
 *   - prepend:        put `digits` in front;
 *   - replace_prefix: replace the matched prefix (or the whole number on an exact match) by `digits`;
 *   - replace_all:    the number becomes `digits`.
 *
 * Per number, the FIRST item in the map's order that matches applies, and only that one (like a
 * dial plan: staff put specific entries above general ones). The ANI and DNIS are mapped
 * independently, each against the original numbers.
 *
 * Where the engine applies a map (routing.ts): on the ingress trunk after the tech prefix and the
 * trunk's own digit rules, before the block lists, pricing and routing; on each egress trunk to
 * the routed numbers before the trunk's own digit rules and its tech prefix. The map is the layer
 * closest to the number as routed on both sides.
 */
import type { NumberField } from './digits';

export type DigitMapMatch = 'prefix' | 'exact';
export type DigitMapAction = 'strip' | 'prepend' | 'replace_prefix' | 'replace_all';

export interface DigitMapItemConfig {
  readonly item_id?: number;
  readonly field: NumberField;
  readonly match: DigitMapMatch;
  /** Digits; '' with match 'prefix' = any number. */
  readonly pattern: string;
  readonly action: DigitMapAction;
  /** strip: how many leading digits go. */
  readonly strip_count?: number | null;
  /** prepend / replace_prefix / replace_all: the new digits. */
  readonly digits?: string | null;
}

export interface DigitMapConfig {
  readonly digital_map_id: number;
  readonly name?: string;
  /** In the map's order. */
  readonly items: readonly DigitMapItemConfig[];
}

export interface CompiledDigitMap {
  readonly digital_map_id: number;
  readonly name: string;
  readonly ani: readonly DigitMapItemConfig[];
  readonly dnis: readonly DigitMapItemConfig[];
}

export interface MappedNumber {
  readonly number: string;
  /** The item that applied, or null (number unchanged). */
  readonly item: DigitMapItemConfig | null;
}

export class DigitMapError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DigitMapError';
  }
}

const DIGITS = /^\d*$/;

/** Checks the items and splits them by number, keeping their order. */
export function compileDigitMap(config: DigitMapConfig): CompiledDigitMap {
  config.items.forEach((item, k) => {
    if (!DIGITS.test(item.pattern)) throw new DigitMapError(`items[${k}].pattern must be digits`);
    if (item.match === 'exact' && item.pattern === '')
      throw new DigitMapError(`items[${k}].pattern is required for an exact match`);
    if (item.action === 'strip') {
      const n = item.strip_count;
      if (n == null || !Number.isInteger(n) || n < 1)
        throw new DigitMapError(`items[${k}].strip_count must be an integer >= 1`);
    } else if (item.digits != null && !DIGITS.test(item.digits)) {
      throw new DigitMapError(`items[${k}].digits must be digits`);
    }
  });
  return {
    digital_map_id: config.digital_map_id,
    name: config.name ?? `#${config.digital_map_id}`,
    ani: config.items.filter((i) => i.field === 'ani'),
    dnis: config.items.filter((i) => i.field === 'dnis'),
  };
}

export function digitMapItemMatches(item: DigitMapItemConfig, number: string): boolean {
  return item.match === 'exact' ? number === item.pattern : number.startsWith(item.pattern);
}

/** The number rewritten by one item (the item is assumed to match). */
export function applyDigitMapItem(item: DigitMapItemConfig, number: string): string {
  const digits = item.digits ?? '';
  switch (item.action) {
    case 'strip':
      return number.slice(item.strip_count ?? 0);
    case 'prepend':
      return digits + number;
    case 'replace_prefix':
      return digits + number.slice(item.pattern.length);
    case 'replace_all':
      return digits;
  }
}

/** The first matching item of `items` applied to `number`. */
export function mapNumber(items: readonly DigitMapItemConfig[], number: string): MappedNumber {
  for (const item of items) {
    if (digitMapItemMatches(item, number)) return { number: applyDigitMapItem(item, number), item };
  }
  return { number, item: null };
}

/** Both numbers through a map; the same objects back when the map is null. */
export function applyDigitMap(
  map: CompiledDigitMap | null,
  ani: string,
  dnis: string,
): { ani: MappedNumber; dnis: MappedNumber } | null {
  if (map === null) return null;
  return { ani: mapNumber(map.ani, ani), dnis: mapNumber(map.dnis, dnis) };
}

/** One line for the trace: which items changed what. */
export function describeMapping(
  map: CompiledDigitMap,
  before: { ani: string; dnis: string },
  after: { ani: MappedNumber; dnis: MappedNumber },
): string {
  const part = (label: string, from: string, m: MappedNumber) =>
    m.item === null
      ? `${label} ${from} unchanged`
      : `${label} ${from} -> ${m.number} (item${m.item.item_id != null ? ` #${m.item.item_id}` : ''} ${m.item.match} "${m.item.pattern}" ${m.item.action})`;
  return `Digital map ${map.name}: ${part('ANI', before.ani, after.ani)}; ${part('DNIS', before.dnis, after.dnis)}.`;
}
