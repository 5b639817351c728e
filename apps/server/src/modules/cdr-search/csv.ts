import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { csvCell, type CdrFilter } from '@tandem/contract';
import type { Db } from '../../db/connection';
import { chosenFields, searchPage } from './search';
import type { CdrViewer } from './viewer';

/** Rows read per keyset step while writing a CSV. */
const CHUNK = 5000;

/**
 * Streams the CDRs of a search as CSV into `out`: a header of the fields' labels in the viewer's
 * language, then one line per CDR, read in keyset steps of 5,000 so memory stays flat however many
 * rows match. The viewer's tenancy and field visibility apply exactly as in the search; fields it may
 * not see are left out. Waits for `out` to drain (backpressure); does not end it. Returns the rows
 * written; `onProgress` is told after every step.
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
  let after: string | undefined;
  let rows = 0;
  for (;;) {
    const page = await searchPage(
      db,
      user,
      { ...filter, order_dir: filter.order_dir ?? 'desc', per_page: CHUNK, after },
      defs,
      { count: false },
    );
    if (page.items.length) {
      await write(page.items.map((r) => defs.map((f) => csvCell(r[f.name])).join(',')).join('\r\n') + '\r\n');
      rows += page.items.length;
    }
    await onProgress?.(rows);
    if (!page.next) return rows;
    after = page.next;
  }
}
