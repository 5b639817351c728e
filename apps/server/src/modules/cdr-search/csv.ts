import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { csvCell, type CdrFieldDef, type CdrFilter, type CdrRow } from '@tandem/contract';
import type { Db } from '../../db/connection';
import { yieldToLoop } from '../../event-loop';
import { analyzeStaleDays } from '../cdr/partitions';
import { chosenFields, searchPage, utcInstant } from './search';
import type { CdrViewer } from './viewer';

/** Rows read per keyset step while writing a CSV: the driver parses a page in one go on the server's thread (about 30 ms for 1,000 rows of every field), so a page must stay small (issue 16). */
const CHUNK = 1000;

/**
 * Every CDR of a search as the viewer may see it (tenancy and fields exactly as the search), read in
 * keyset steps of CHUNK so memory stays flat however many rows match. For the CSV writer and the
 * background export.
 */
export async function* iterateCdrs(
  db: Db,
  filter: CdrFilter & { order_dir?: 'asc' | 'desc' },
  defs: readonly CdrFieldDef[],
  user: CdrViewer,
): AsyncGenerator<CdrRow[]> {
  // fresh days may have no planner statistics yet: each keyset step would read the rest of the day
  if (filter.start && filter.end)
    await analyzeStaleDays(db, utcInstant(filter.start).getTime(), utcInstant(filter.end).getTime());
  let after: string | undefined;
  for (;;) {
    const page = await searchPage(
      db,
      user,
      { ...filter, order_dir: filter.order_dir ?? 'desc', per_page: CHUNK, after },
      defs,
      { count: false },
    );
    if (page.items.length) yield page.items;
    if (!page.next) return;
    after = page.next;
    // a chain of queries is not a turn of the loop for the route API (event-loop.ts)
    await yieldToLoop();
  }
}

/**
 * Streams the CDRs of a search as CSV into `out`: a header of the fields' labels in the viewer's
 * language, then one line per CDR (iterateCdrs), cells escaped against formula injection. Fields the
 * viewer may not see are left out. Waits for `out` to drain (backpressure); does not end it. Returns
 * the rows written; `onProgress` is told after every step.
 */
export async function writeCdrCsv(
  db: Db,
  filter: CdrFilter & { order_dir?: 'asc' | 'desc' },
  fields: readonly string[] | undefined,
  user: CdrViewer,
  out: Writable,
  onProgress?: (rows: number) => void | Promise<void>,
): Promise<number> {
  const defs = await chosenFields(db, user, fields);
  const write = async (s: string) => {
    if (!out.write(s)) await once(out, 'drain');
  };
  await write('\uFEFF' + defs.map((f) => csvCell(f.label[user.lang])).join(',') + '\r\n');
  let rows = 0;
  for await (const chunk of iterateCdrs(db, filter, defs, user)) {
    await write(chunk.map((r) => defs.map((f) => csvCell(r[f.name])).join(',')).join('\r\n') + '\r\n');
    rows += chunk.length;
    await onProgress?.(rows);
  }
  return rows;
}
