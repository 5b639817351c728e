import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { csvHeader, type CdrFieldDef, type CdrFilter, type CdrRow } from '@tandem/contract';
import type { Db } from '../../db/connection';
import { yieldToLoop } from '../../event-loop';
import { analyzeStaleDays } from '../cdr/partitions';
import { chosenFields, csvTextPage, searchPage, utcInstant, type CdrPageQuery } from './search';
import type { CdrViewer } from './viewer';

/**
 * Rows read per keyset step while writing an XLSX, per database (issue 16, docs/performance.md).
 * PGlite: a page comes from its worker thread in one message and each query costs 45-150 ms there,
 * so pages are big. PostgreSQL: the driver parses a page as it arrives over the socket, across many
 * turns of the loop while the route API is busy; the rows of 1,000-row pages lived long enough to be
 * promoted, and the major collections of what they left in the old space paused the loop 32-48 ms
 * (route calls waited up to 97-116 ms). 250-row pages keep those pauses at 10-14 ms.
 */
export const CDR_PAGE_ROWS = { pglite: 1000, postgres: 250 } as const;

type CdrQuery = CdrFilter & { order_dir?: 'asc' | 'desc' };

/**
 * The keyset steps of a whole search (the CSV, the export): `step(query)` reads one page after the
 * query's cursor; the next step starts after its `next` until there is none. Fresh days get their
 * planner statistics first, or each step would read the rest of the day.
 */
async function* keysetSteps<P extends { next: string | null }>(
  db: Db,
  filter: CdrQuery,
  pageRows: number,
  step: (q: CdrPageQuery) => Promise<P>,
): AsyncGenerator<P> {
  if (filter.start && filter.end)
    await analyzeStaleDays(db, utcInstant(filter.start).getTime(), utcInstant(filter.end).getTime());
  let after: string | undefined;
  for (;;) {
    const page = await step({ ...filter, order_dir: filter.order_dir ?? 'desc', per_page: pageRows, after });
    yield page;
    if (!page.next) return;
    after = page.next;
    // a chain of queries is not a turn of the loop for the route API (event-loop.ts)
    await yieldToLoop();
  }
}

/**
 * Every CDR of a search as the viewer may see it (tenancy and fields exactly as the search), read in
 * keyset steps of `pageRows` (CDR_PAGE_ROWS) so memory stays flat however many rows match. For the
 * XLSX export (a CSV is built by the database: cdrCsvPages).
 */
export async function* iterateCdrs(
  db: Db,
  filter: CdrQuery,
  defs: readonly CdrFieldDef[],
  user: CdrViewer,
  pageRows: number,
): AsyncGenerator<CdrRow[]> {
  for await (const page of keysetSteps(db, filter, pageRows, (q) =>
    searchPage(db, user, q, defs, { count: false }),
  ))
    if (page.items.length) yield page.items;
}

/**
 * Rows per page of a CDR CSV built by the database (cdrCsvPages): a page is one string of about
 * 300 bytes a CDR; 2,000 rows keep it near half a megabyte and each query in the tens of ms.
 */
export const CDR_CSV_PAGE_ROWS = 2000;

/**
 * Every CDR of a search as CSV lines, in pages of `pageRows` (tenancy and fields exactly as the
 * search): each page is the database's text of its lines (csvTextPage), so no row objects are made
 * on this thread. For the CSV download and the CSV export.
 */
export async function* cdrCsvPages(
  db: Db,
  filter: CdrQuery,
  defs: readonly CdrFieldDef[],
  user: CdrViewer,
  pageRows: number = CDR_CSV_PAGE_ROWS,
): AsyncGenerator<{ text: string; rows: number }> {
  for await (const page of keysetSteps(db, filter, pageRows, (q) => csvTextPage(db, user, q, defs)))
    if (page.rows) yield { text: page.text, rows: page.rows };
}

/**
 * Streams the CDRs of a search as CSV into `out`: the header (the fields' labels in the viewer's language, csvHeader), then one line per CDR
 * (cdrCsvPages), cells escaped against formula injection. Fields the viewer may not see are left
 * out. Waits for `out` to drain (backpressure); does not end it. Returns the rows written;
 * `onProgress` is told after every page.
 */
export async function writeCdrCsv(
  db: Db,
  filter: CdrQuery,
  fields: readonly string[] | undefined,
  user: CdrViewer,
  out: Writable,
  pageRows: number = CDR_CSV_PAGE_ROWS,
  onProgress?: (rows: number) => void | Promise<void>,
): Promise<number> {
  const defs = await chosenFields(db, user, fields);
  const write = async (s: string) => {
    if (!out.write(s)) await once(out, 'drain');
  };
  await write(csvHeader(defs.map((f) => f.label[user.lang])));
  let rows = 0;
  for await (const page of cdrCsvPages(db, filter, defs, user, pageRows)) {
    await write(page.text);
    rows += page.rows;
    await onProgress?.(rows);
  }
  return rows;
}
