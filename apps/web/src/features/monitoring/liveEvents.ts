import type { api } from '@tandem/contract';

type LiveEvent = api.monitoring.LiveEventRow;

/** Events the page keeps (newest first). */
export const LIVE_KEEP = 200;
/** Adds events to the list by id (no duplicates), newest first, at most LIVE_KEEP. */
export function mergeEvents(list: LiveEvent[], added: LiveEvent[]): LiveEvent[] {
  if (!added.length) return list;
  const byId = new Map(list.map((e) => [e.id, e]));
  for (const e of added) byId.set(e.id, e);
  return [...byId.values()].sort((a, b) => b.id - a.id).slice(0, LIVE_KEEP);
}
