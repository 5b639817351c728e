import fs from 'node:fs';
import { type MessageKey } from '@tandem/contract';
import { IMPORT_STATUS, type DateFormat, type DuplicateMode, type RateFileColumn } from '../contract';
import { sql } from 'kysely';
import type { Db } from '../../../db/connection';
import { yieldToLoop } from '../../../event-loop';
import type { Services } from '../../../services';
import { applyRateImport, ImportRejected, type ApplyCounts } from './apply';
import { liveImports, READ_SHARE, type ImportProgress } from './progress';
import { RateRowChecker, mapHeader, type RowError, type StagedColumns } from './rate-rows';
import { readRows, type FileKind } from './read-rows';

/** Staging statements sent before the next waits: the database loads one slice while the next is parsed. */
const STAGING_IN_FLIGHT = 2;
/** A turn of the event loop for timers and sockets between two slices of the file. */

/** Everything a rate import job needs, fixed when the upload is accepted. */
export interface RateImportJob {
  taskId: number;
  rateTableId: number;
  filePath: string;
  fileKind: FileKind;
  duplicateMode: DuplicateMode;
  dateFormat: DateFormat;
  /** Fixed-width UTC text: rows without an effective date start then; codes absent from the file end then. */
  defaultEffective: string;
  endPrevious: boolean;
  endAbsent: boolean;
  deleteExisting: boolean;
  hasCodeDeck: boolean;
  mapping: Record<string, string>;
}

/** A reason the import stops, with its catalogue message. */
class ImportFailed extends Error {
  constructor(
    readonly key: MessageKey,
    readonly params: (string | number)[] = [],
  ) {
    super(key);
  }
}

const STAGE_COLUMNS = [
  'line',
  'code',
  'code_name',
  'country',
  'rate',
  'intra_rate',
  'inter_rate',
  'ij_rate',
  'local_rate',
  'min_time',
  'interval',
  'grace_time',
  'setup_fee',
  'effective_date',
  'end_date',
] as const;
const STAGE_TYPES: Record<(typeof STAGE_COLUMNS)[number], string> = {
  line: 'int4',
  code: 'text',
  code_name: 'text',
  country: 'text',
  rate: 'numeric',
  intra_rate: 'numeric',
  inter_rate: 'numeric',
  ij_rate: 'numeric',
  local_rate: 'numeric',
  min_time: 'int4',
  interval: 'int4',
  grace_time: 'int4',
  setup_fee: 'numeric',
  effective_date: 'timestamptz',
  end_date: 'timestamptz',
};

/** Loads one batch into the staging table with a single INSERT ... SELECT FROM unnest(arrays). */
async function stage(
  db: Db,
  taskId: number,
  cols: StagedColumns,
  present: ReadonlySet<string>,
): Promise<void> {
  const arrays = STAGE_COLUMNS.map((c) => {
    const always = c === 'line' || c === 'code' || c === 'rate' || c === 'effective_date' || c === 'end_date';
    const value = always || present.has(c) ? cols[c] : null;
    return sql`${value}::${sql.raw(STAGE_TYPES[c])}[]`;
  });
  await sql`INSERT INTO rate_import_rows (task_id, ${sql.join(STAGE_COLUMNS.map((c) => sql.ref(c)))})
    SELECT ${taskId}::bigint, * FROM unnest(${sql.join(arrays)})`.execute(db);
}

async function setProgress(db: Db, taskId: number, progress: number): Promise<void> {
  await db.updateTable('rate_import_tasks').set({ progress }).where('id', '=', taskId).execute();
}

/** Lines of the staged rows in file order (ascending), to count the rows each apply slice covers. */
class LineList {
  private lines = new Int32Array(1024);
  size = 0;
  push(line: number): void {
    if (this.size === this.lines.length) {
      const grown = new Int32Array(this.size * 2);
      grown.set(this.lines);
      this.lines = grown;
    }
    this.lines[this.size++] = line;
  }
  /** Drops `lines` (ascending or not). */
  remove(lines: readonly number[]): void {
    const gone = new Set(lines);
    let n = 0;
    for (let i = 0; i < this.size; i++) {
      const l = this.lines[i]!;
      if (!gone.has(l)) this.lines[n++] = l;
    }
    this.size = n;
  }
  /** How many lines are below `line`. */
  below(line: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.lines[mid]! < line) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

async function storeErrors(db: Db, taskId: number, errors: readonly RowError[]): Promise<void> {
  for (let i = 0; i < errors.length; i += 500) {
    const part = errors.slice(i, i + 500);
    await db
      .insertInto('rate_import_errors')
      .values(
        part.map((e) => ({
          task_id: taskId,
          line: e.line,
          code: e.code.slice(0, 64),
          field: e.field,
          message_key: e.key,
          params: JSON.stringify(e.params),
        })),
      )
      .execute();
  }
}

/**
 * Runs one rate import: stream-parses the file in small slices, checks each row and stages the good
 * ones slice by slice (outside any transaction, so progress is visible), then applies everything with
 * set-based SQL in one transaction, in slices of lines that report the rows applied (ImportProgress). A failure anywhere leaves the rate table exactly as it was; per-row errors are
 * kept for the rate import log.
 */
export async function runRateImport(s: Services, job: RateImportJob): Promise<void> {
  const db = s.db;
  let total = 0;
  let checker: RateRowChecker | null = null;
  const timings: Record<string, number> = {};
  const started = performance.now();
  const pending: Promise<void>[] = [];
  const live: ImportProgress = {
    phase: 'reading',
    rows_parsed: 0,
    rows_staged: 0,
    rows_applied: 0,
    rows_to_apply: 0,
    percent: 0,
  };
  liveImports(s).set(job.taskId, live);
  const stagedLines = new LineList();
  try {
    const table = await db
      .selectFrom('rate_tables')
      .select(['rate_table_id', 'decimal_places', 'code_deck_id'])
      .where('rate_table_id', '=', job.rateTableId)
      .executeTakeFirst();
    if (!table) throw new ImportFailed('recordNotFound');
    const size = Math.max(1, fs.statSync(job.filePath).size);
    let columns: Partial<Record<RateFileColumn, number>> | null = null;
    let present = new Set<string>();
    let nextLine = 1;
    let lastProgressAt = Date.now();
    let bytesRead = 0;
    // Rows read so far scaled to the whole file: what the file will hold, as far as is known.
    const expectedRows = () => Math.max(1, Math.round((live.rows_parsed * size) / Math.max(1, bytesRead)));
    // Small slices of the file (readRows: 64 KB, a couple of thousand rows): each is parsed and
    // checked in a few milliseconds and staged by its own statement, so the event loop gets a turn
    // between slices; the database loads one slice while the next is parsed.
    for await (const batch of readRows(job.filePath, job.fileKind)) {
      let rows = batch.rows;
      bytesRead = batch.bytesRead;
      if (!columns) {
        const header = rows[0] ?? [];
        rows = rows.slice(1);
        nextLine = 2;
        columns = mapHeader(header, job.mapping);
        if (columns.code === undefined) throw new ImportFailed('importMissingColumn', ['code']);
        if (columns.rate === undefined) throw new ImportFailed('importMissingColumn', ['rate']);
        present = new Set(Object.keys(columns));
        checker = new RateRowChecker({
          columns,
          dateFormat: job.dateFormat,
          defaultEffective: job.defaultEffective,
          duplicateMode: job.duplicateMode,
        });
      }
      const cols = checker!.check(rows, nextLine);
      nextLine += rows.length;
      total += rows.length;
      live.rows_parsed = total;
      if (cols.line.length) {
        for (const l of cols.line) stagedLines.push(l);
        const n = cols.line.length;
        const loading = stage(db, job.taskId, cols, present).then(() => {
          live.rows_staged += n;
          live.percent = Math.min(READ_SHARE, Math.floor((live.rows_staged / expectedRows()) * READ_SHARE));
        });
        loading.catch(() => undefined); // awaited below; a failure must not go unhandled meanwhile
        pending.push(loading);
        if (pending.length >= STAGING_IN_FLIGHT) await pending.shift();
      }
      if (Date.now() - lastProgressAt > 500) {
        lastProgressAt = Date.now();
        await setProgress(db, job.taskId, live.percent);
      }
      await yieldToLoop();
    }
    await Promise.all(pending.splice(0));
    timings.parse_and_stage_ms = Math.round(performance.now() - started);
    if (!checker || total === 0) throw new ImportFailed('importNoRows');
    if (checker.errorCount > 0 && job.duplicateMode === 'reject')
      throw new ImportFailed('importRejected', [checker.errorCount]);
    if (checker.replacedLines.length) {
      const replaced = checker.replacedLines;
      for (let i = 0; i < replaced.length; i += 5000) {
        await db
          .deleteFrom('rate_import_rows')
          .where('task_id', '=', job.taskId)
          .where('line', 'in', replaced.slice(i, i + 5000))
          .execute();
      }
      stagedLines.remove(replaced);
      live.rows_staged = stagedLines.size;
    }
    live.phase = 'applying';
    live.rows_to_apply = stagedLines.size;
    live.percent = READ_SHARE;
    await setProgress(db, job.taskId, READ_SHARE);
    await sql`ANALYZE rate_import_rows`.execute(db);
    const applyStarted = performance.now();
    const maxEffective = checker.maxEffective;
    let lastApplyProgressAt = Date.now();
    const counts = await db.transaction().execute((trx) =>
      applyRateImport(trx, {
        taskId: job.taskId,
        rateTableId: job.rateTableId,
        decimals: table.decimal_places,
        codeDeckId: table.code_deck_id,
        present,
        duplicateMode: job.duplicateMode,
        endPrevious: job.endPrevious,
        endAbsent: job.endAbsent,
        deleteExisting: job.deleteExisting,
        hasCodeDeck: job.hasCodeDeck,
        absentEndDate: job.defaultEffective,
        maxEffective,
        dbKind: s.dbKind,
        timings,
        lastLine: nextLine - 1,
        onApplied: async (belowLine) => {
          live.rows_applied = stagedLines.below(belowLine);
          live.percent = Math.min(
            99,
            READ_SHARE +
              Math.floor((live.rows_applied / Math.max(1, live.rows_to_apply)) * (99 - READ_SHARE)),
          );
          // PGlite is one session, held by this transaction: the percentage reaches it after the commit.
          // On PostgreSQL another connection of the pool stores it now.
          if (s.dbKind === 'postgres' && Date.now() - lastApplyProgressAt > 500) {
            lastApplyProgressAt = Date.now();
            await setProgress(db, job.taskId, live.percent);
          }
        },
      }),
    );
    timings.apply_ms = Math.round(performance.now() - applyStarted);
    live.phase = 'finishing';
    live.rows_applied = live.rows_to_apply;
    live.percent = 99;
    await storeErrors(db, job.taskId, checker.errors);
    timings.total_ms = Math.round(performance.now() - started);
    await finish(db, job.taskId, IMPORT_STATUS.finished, {
      timings,
      total,
      errorRows: checker.errorCount,
      skipped: checker.skipped,
      counts,
      message: '',
    });
    s.configChanged.notify();
  } catch (err) {
    let failure: ImportFailed;
    const errors = [...(checker?.errors ?? [])];
    let errorRows = checker?.errorCount ?? 0;
    if (err instanceof ImportRejected) {
      errors.push(...err.errors);
      errorRows += err.count;
      failure = new ImportFailed('importRejected', [errorRows]);
    } else if (err instanceof ImportFailed) failure = err;
    else {
      s.log.error({ err, taskId: job.taskId }, 'rate import failed');
      failure = new ImportFailed('importFailed');
    }
    await storeErrors(db, job.taskId, errors).catch(() => undefined);
    await finish(db, job.taskId, IMPORT_STATUS.failed, {
      timings,
      total,
      errorRows,
      skipped: 0,
      counts: null,
      message: JSON.stringify({ key: failure.key, params: failure.params }),
    }).catch((e: unknown) => s.log.error({ err: e }, 'rate import: could not record the failure'));
  } finally {
    await db
      .deleteFrom('rate_import_rows')
      .where('task_id', '=', job.taskId)
      .execute()
      .catch(() => undefined);
    liveImports(s).delete(job.taskId);
    fs.rm(job.filePath, { force: true }, () => undefined);
  }
}

async function finish(
  db: Db,
  taskId: number,
  status: string,
  r: {
    total: number;
    errorRows: number;
    skipped: number;
    counts: ApplyCounts | null;
    message: string;
    timings: Record<string, number>;
  },
): Promise<void> {
  await db
    .updateTable('rate_import_results')
    .set({
      total_rows: r.total,
      error_rows: r.errorRows,
      inserted_rows: r.counts?.inserted ?? 0,
      updated_rows: r.counts?.updated ?? 0,
      skipped_rows: r.skipped + (r.counts?.skipped ?? 0),
      ended_rows: r.counts?.ended ?? 0,
      deleted_rows: r.counts?.deleted ?? 0,
      message: r.message,
      finished_at: new Date(),
      options: sql<string>`options || ${JSON.stringify({ timings: r.timings })}::jsonb`,
    })
    .where('task_id', '=', taskId)
    .execute();
  await db.updateTable('rate_import_tasks').set({ status, progress: 100 }).where('id', '=', taskId).execute();
}
