import fs from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { PassThrough, type Writable } from 'node:stream';
import { allows, csvCell, csvHeader, type AccessLevel, type Language, type UserType } from '@tandem/contract';
import ExcelJS from 'exceljs';
import { z } from 'zod';
import type { Db } from '../db/connection';
import type { Actor } from '../http/context';
import { forbidden, invalidField } from '../http/errors';
import { parseInput } from '../http/register';
import type { JobContext, Jobs } from './queue';
import { sliceUsed, turnLoop, yieldToLoop } from '../event-loop';

/** Who started an export, as its rows function sees it (tenancy: a portal user's own carrier). */
export interface ExportUser {
  user_id: number;
  name: string;
  type: UserType;
  clientId: number | null;
  agentId: number | null;
  /** The language the user asked in (column headers that follow the user's language). */
  lang: Language;
}

/** A column of an export: `key` of the row objects, `header` in the file's first line. */
export interface ExportColumn {
  key: string;
  header: string;
  /** An XLSX cell of a numeric string is a number (the CSV keeps the exact text). */
  numeric?: boolean;
}

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * One export kind. `C` is what `prepare` works out once, when the export is asked for, with the
 * request's actor at hand (the columns this user may see, a tenancy check): it is stored with the
 * job as plain data, so the job runs later, in any server process, exactly as the request allowed.
 */
export interface ExportDefinition<F, C = undefined> {
  /** Who may start it: an admin needs `func` at `level`; the portal types listed may too (rows must scope them). */
  permission: { func: string; level: AccessLevel; portal?: readonly UserType[] };
  /** The filter it accepts (validated at start: bad input answers 110 naming `filter.<field>`). */
  filter: z.ZodType<F>;
  /** Checks and context at start (may refuse with an API error); JSON-serialisable. */
  prepare?: (filter: F, actor: Actor, lang: Language) => Promise<C>;
  /** Columns in order, fixed or worked out from the prepared context. */
  columns: readonly ExportColumn[] | ((context: C) => readonly ExportColumn[]);
  /**
   * The rows, streamed in pages as they are read (never all at once). A page of up to WRITE_BLOCK
   * rows is written to a CSV promptly, so its row objects die young (docs/performance.md, issue 16).
   */
  pages: (filter: F, user: ExportUser, context: C) => AsyncIterable<readonly Record<string, unknown>[]>;
  /**
   * The CSV's lines (after the header) written by the database, in pages of text, when the kind can
   * (the CDR export: a million rows as strings, not row objects); a CSV then uses these, not `pages`.
   * Each line ends with CRLF and its cells are exactly what csvCell writes of the row's values.
   */
  csvPages?: (filter: F, user: ExportUser, context: C) => AsyncIterable<{ text: string; rows: number }>;
  /** How many rows there will be, for the progress (optional). */
  count?: (filter: F, user: ExportUser, context: C) => Promise<number>;
  /** Base of the file name (default: the kind); the date and .csv or .xlsx are added. */
  fileName?: string;
  /**
   * Entity shown in the export log (default: the kind), a key the web app labels in the reader's
   * language (`jobs.entities`; a `report.<name>` kind by the report's title).
   */
  entity?: string;
  /** The XLSX sheet's name (default: the entity); at most 28 characters are used. */
  sheet?: string;
}

interface ExportPayload {
  exportId: number;
  kind: string;
  filter: unknown;
  user: ExportUser;
  context?: unknown;
  /** Absent in jobs queued before XLSX existed: CSV. */
  format?: ExportFormat;
}

export const EXPORT_JOB = 'export.csv';
/**
 * Rows given to a writer at once (a CDR page is at most this; a report is one page of any size,
 * written in blocks with the call path's pause between them). A CSV writes a block without the call
 * path's pause, only a turn of the loop after each slice (turnLoop): held across pauses while the
 * route API allocated, a page's row objects (about 9 KB a CDR) outlived two scavenges and were
 * promoted, the old space grew 8-9 MB/s and its major collections made the export's waits over
 * 100 ms (docs/performance.md, issue 16). Written promptly, they die in the young generation.
 */
const WRITE_BLOCK = 1000;
/** Rows per XLSX sheet (Excel's limit is 1,048,576 with the header): a bigger export goes on in a next sheet. */
export const XLSX_SHEET_ROWS = 1_000_000;

/** Where an export's rows go: a CSV or an XLSX file, streamed (memory stays flat). */
interface SheetWriter {
  /** Writes rows (the columns' keys of each): a CSV turns the loop after each slice, an XLSX pauses. */
  rows(rows: readonly Record<string, unknown>[], style?: { bold?: boolean }): Promise<void>;
  end(): Promise<void>;
  abort(): void;
}

/** Text a CSV export gathers before it writes (one write, and one wait for the disk, per 64 KB). */
const CSV_FLUSH_CHARS = 64 * 1024;

function csvWriter(
  file: string,
  columns: readonly ExportColumn[],
): SheetWriter & { text(lines: string): Promise<void> } {
  const out = fs.createWriteStream(file);
  const keys = columns.map((c) => c.key);
  // Lines gathered and written together: waiting for the stream to drain after every few lines kept
  // each page of rows alive across many turns of the loop (docs/performance.md, issue 16).
  let text = csvHeader(columns.map((c) => c.header));
  const flush = async () => {
    const chunk = text;
    text = '';
    if (chunk && !out.write(chunk)) await once(out, 'drain');
  };
  return {
    async rows(rows) {
      for (const row of rows) {
        if (sliceUsed()) await turnLoop();
        text += keys.map((k) => csvCell(row[k])).join(',') + '\r\n';
      }
      if (text.length >= CSV_FLUSH_CHARS) await flush();
    },
    async text(lines) {
      text += lines;
      await flush();
    },
    async end() {
      await flush();
      out.end();
      await once(out, 'finish');
    },
    abort: () => out.destroy(),
  };
}

/** Where an XLSX goes: a file (exports) or a stream (a mail attachment in memory). */
type XlsxTarget = { filename: string } | { stream: Writable };

function xlsxWriter(target: XlsxTarget, columns: readonly ExportColumn[], sheetName: string): SheetWriter {
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({
    ...target,
    useStyles: true,
    useSharedStrings: false,
  });
  let sheet: ExcelJS.Worksheet | null = null;
  let inSheet = 0;
  let sheets = 0;
  const newSheet = () => {
    sheet?.commit();
    sheets++;
    sheet = book.addWorksheet(sheets === 1 ? sheetName : `${sheetName} ${sheets}`, {
      views: [{ state: 'frozen', ySplit: 1 }],
    });
    sheet.columns = columns.map((c) => ({
      header: c.header,
      key: c.key,
      width: Math.max(10, c.header.length + 2),
    }));
    sheet.getRow(1).font = { bold: true };
    sheet.getRow(1).commit();
    inSheet = 0;
  };
  newSheet();
  const cell = (v: unknown, c: ExportColumn) => {
    if (v === null || v === undefined) return null;
    if (c.numeric && typeof v === 'string' && v !== '' && Number.isFinite(Number(v))) return Number(v);
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
    if (v instanceof Date) return v;
    return typeof v === 'bigint' ? v.toString() : JSON.stringify(v);
  };
  return {
    async rows(rows, style) {
      for (const values of rows) {
        // ExcelJS takes about 1 ms a wide row: a page is written a slice at a time
        if (sliceUsed()) await yieldToLoop();
        if (inSheet >= XLSX_SHEET_ROWS) newSheet();
        const row = (sheet as ExcelJS.Worksheet).addRow(columns.map((c) => cell(values[c.key], c)));
        if (style?.bold) row.font = { bold: true };
        row.commit();
        inSheet++;
      }
    },
    async end() {
      (sheet as ExcelJS.Worksheet).commit();
      await book.commit();
    },
    abort: () => undefined,
  };
}

/**
 * A small sheet as an XLSX file in memory (a report mailed as an attachment), written by the
 * exports' own writer: the same header row, cell types and sheet name; the last row (the totals)
 * in bold when `boldLast`.
 */
export async function xlsxBuffer(
  sheetName: string,
  columns: readonly ExportColumn[],
  rows: readonly Record<string, unknown>[],
  { boldLast = false } = {},
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sink = new PassThrough();
  sink.on('data', (c: Buffer) => chunks.push(c));
  const done = once(sink, 'end');
  const out = xlsxWriter({ stream: sink }, columns, sheetName.slice(0, 28));
  const plain = boldLast ? rows.length - 1 : rows.length;
  await out.rows(rows.slice(0, plain));
  if (plain < rows.length) await out.rows(rows.slice(plain), { bold: true });
  await out.end();
  await done;
  return Buffer.concat(chunks);
}

/**
 * services.exports: CSV exports written in the background (docs/jobs.md "Exports"). An area
 * registers a kind once; `POST /export/create` starts it as a job that writes the file under
 * EXPORT_DIR with progress, listed in the export log and downloadable by its owner only.
 */
export class Exports {
  private readonly kinds = new Map<string, ExportDefinition<never, never>>();

  constructor(
    private readonly db: Db,
    private readonly jobs: Jobs,
    readonly dir: string,
  ) {
    jobs.define<ExportPayload>(EXPORT_JOB, (p, ctx) => this.write(p, ctx), { maxAttempts: 2 });
  }

  register<F, C = undefined>(kind: string, def: ExportDefinition<F, C>): void {
    if (this.kinds.has(kind)) throw new Error(`export kind ${kind} is registered twice`);
    this.kinds.set(kind, def as unknown as ExportDefinition<never, never>);
  }

  /** Checks the kind, the caller's permission and the filter, then logs and queues the export. */
  async start(
    kind: string,
    filter: unknown,
    actor: Actor,
    lang: Language,
    format: ExportFormat = 'csv',
  ): Promise<{ exportId: number; jobId: number }> {
    const def = this.kinds.get(kind);
    if (!def) throw invalidField('kind', 'mustBeOneOf', ['kind', [...this.kinds.keys()].join(', ')]);
    const p = def.permission;
    if (actor.type === 'admin' ? !allows(actor.grants, p.func, p.level) : !p.portal?.includes(actor.type))
      throw forbidden();
    const parsed = (parseInput(z.object({ filter: def.filter }), { filter }) as { filter: unknown }).filter;
    const user: ExportUser = {
      user_id: actor.user.user_id,
      name: actor.user.name,
      type: actor.type,
      clientId: actor.clientId,
      agentId: actor.agentId,
      lang,
    };
    const context = def.prepare ? await def.prepare(parsed as never, actor, lang) : undefined;
    const fileName = `${def.fileName ?? kind}-${new Date().toISOString().slice(0, 10)}.${format}`;
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('export_log')
        .values({
          user_id: user.user_id,
          user_name: user.name,
          client_id: user.clientId,
          entity: def.entity ?? kind,
          kind,
          file_name: fileName,
          status: 'pending',
          filter: JSON.stringify(parsed ?? {}),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const job = await this.jobs.enqueue<ExportPayload>(
        EXPORT_JOB,
        { exportId: row.id, kind, filter: parsed, user, context, format },
        { db: trx, user: { user_id: user.user_id, name: user.name } },
      );
      await trx.updateTable('export_log').set({ job_id: job.id }).where('id', '=', row.id).execute();
      return { exportId: row.id, jobId: job.id };
    });
  }

  /** The file of an export (its place under the export folder). */
  filePath(exportId: number, format: ExportFormat = 'csv'): string {
    return path.join(this.dir, `export-${exportId}.${format}`);
  }

  private async write(p: ExportPayload, ctx: JobContext): Promise<unknown> {
    const def = this.kinds.get(p.kind);
    if (!def) throw new Error(`export kind ${p.kind} is not registered`);
    const filter = p.filter as never;
    const context = p.context as never;
    const user = { ...p.user, lang: p.user.lang ?? 'en' };
    const columns = typeof def.columns === 'function' ? def.columns(context) : def.columns;
    const total = def.count ? await def.count(filter, user, context) : null;
    ctx.progress({ done: 0, total, message: 'writing' });
    fs.mkdirSync(this.dir, { recursive: true });
    const format = p.format ?? 'csv';
    const final = this.filePath(p.exportId, format);
    const part = `${final}.part`;
    const csv = format === 'csv' ? csvWriter(part, columns) : null;
    const out =
      csv ?? xlsxWriter({ filename: part }, columns, (def.sheet ?? def.entity ?? p.kind).slice(0, 28));
    let n = 0;
    const written = (rows: number) => {
      n += rows;
      ctx.signal.throwIfAborted();
      ctx.progress({ done: n, total: total === null ? null : Math.max(total, n) });
    };
    try {
      const lines = csv && def.csvPages?.(filter, user, context);
      if (csv && lines)
        for await (const page of lines) {
          await csv.text(page.text);
          written(page.rows);
        }
      else
        for await (const page of def.pages(filter, user, context)) {
          for (let i = 0; i < page.length; i += WRITE_BLOCK) {
            const block = page.slice(i, i + WRITE_BLOCK);
            await out.rows(block);
            written(block.length);
            if (sliceUsed()) await yieldToLoop();
          }
        }
      ctx.signal.throwIfAborted();
      await out.end();
      fs.renameSync(part, final);
    } catch (err) {
      out.abort();
      fs.rmSync(part, { force: true });
      throw err;
    }
    const size = fs.statSync(final).size;
    await this.db
      .updateTable('export_log')
      .set({ path: path.basename(final), size_bytes: size, row_count: n, status: 'finished' })
      .where('id', '=', p.exportId)
      .execute();
    ctx.progress({ done: n, total: n, message: 'done' });
    return { rows: n, bytes: size };
  }
}
