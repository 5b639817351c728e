import fs from 'node:fs';
import { api, MESSAGE_KEYS, type MessageKey } from '@tandem/contract';
import type { z } from 'zod';
import type { Db } from '../../db/connection';
import { actorOf, type Ctx } from '../../http/context';
import { readKeyedRows } from '../rates/import/keyed-rows';
import { rowErrors } from '../rates/code-decks';
import { receiveUpload } from '../rates/upload';
import type { Services } from '../../services';

type UploadResult = z.output<typeof api.routingExtras.blockUploadResult>;
type LineError = { line: number; key: MessageKey; params: (string | number)[] };

/**
 * The CSV/XLSX upload of a block list (inbound media IP blocking, STIOCN): every line is checked
 * with the list's own create schema (the same messages as the form, per line), duplicates against
 * the list and within the file refuse the file or are skipped, and the rows go in one transaction
 * with one modification-log row, all or nothing.
 */
export async function uploadBlockList<S extends z.ZodType, R>(
  s: Services,
  ctx: Ctx<unknown, unknown, unknown>,
  o: {
    entity: string;
    /** Column -> header aliases (the first row is a header when it names one of them). */
    columns: Record<string, readonly string[]>;
    schema: S;
    /** Cells of one line -> the schema's input (e.g. '' -> null). */
    input: (values: Record<string, string>) => Record<string, unknown>;
    /** A checked line -> the row to insert, its unique key and how a duplicate is named. */
    row: (parsed: z.output<S>) => { row: R; key: string; label: string; value: string } | LineError;
    /** The keys among `keys` already listed. */
    existing: (trx: Db, keys: string[]) => Promise<Set<string>>;
    insert: (trx: Db, rows: R[], user: string) => Promise<void>;
  },
): Promise<UploadResult> {
  const file = await receiveUpload(s, ctx, api.routingExtras.blockUploadOptions);
  try {
    const lines = await readKeyedRows(file.filePath, file.kind, o.columns);
    const errors: LineError[] = [];
    const rows: { line: number; row: R; key: string; label: string; value: string }[] = [];
    for (const l of lines) {
      if (Object.values(l.values).every((v) => v === '')) continue;
      const parsed = o.schema.safeParse(o.input(l.values));
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const field = issue.path.map(String).join('.') || 'value';
        const key = (MESSAGE_KEYS as string[]).includes(issue.message)
          ? (issue.message as MessageKey)
          : 'invalidValue';
        errors.push({ line: l.line, key, params: [field] });
        continue;
      }
      const r = o.row(parsed.data);
      if ('line' in r) errors.push({ ...r, line: l.line });
      else rows.push({ line: l.line, ...r });
    }
    if (errors.length) throw rowErrors(errors);
    if (rows.length === 0) throw rowErrors([{ line: 1, key: 'importNoRows', params: [] }]);
    const skip = file.options.on_duplicate === 'skip';
    const result = await s.db.transaction().execute(async (trx) => {
      const listed = await o.existing(
        trx,
        rows.map((r) => r.key),
      );
      const seen = new Set<string>();
      const keep: R[] = [];
      for (const r of rows) {
        if (listed.has(r.key) || seen.has(r.key)) {
          if (!skip) errors.push({ line: r.line, key: 'alreadyExists', params: [r.label, r.value] });
          continue;
        }
        seen.add(r.key);
        keep.push(r.row);
      }
      if (errors.length) throw rowErrors(errors);
      const user = actorOf(ctx).user.name;
      for (let i = 0; i < keep.length; i += 5000) await o.insert(trx, keep.slice(i, i + 5000), user);
      const counts = {
        total_rows: rows.length,
        inserted_rows: keep.length,
        skipped_rows: rows.length - keep.length,
      };
      await s.audit.record(trx, actorOf(ctx), o.entity, 0, 'upload', null, {
        file_name: file.fileName,
        on_duplicate: file.options.on_duplicate,
        ...counts,
      });
      return counts;
    });
    s.configChanged.notify();
    return { object_id: 0, ...result };
  } finally {
    fs.rmSync(file.filePath, { force: true });
  }
}
