import { createHash } from 'node:crypto';
import fs from 'node:fs';
import readline from 'node:readline';
import { api, message, MESSAGE_KEYS, type CdrIn, type Language, type MessageKey } from '@tandem/contract';
import { readCsv } from '../rates/import/read-rows';
import type { CdrChunk } from './ingest';

/**
 * CDR files for the bulk import (`tandem import-cdrs`, issue 10): CSV with a header row naming the
 * fields of POST /api/switch/cdr (any order; unknown columns refused), or JSON Lines (one CDR
 * object a line, .jsonl or .ndjson). Every CDR is checked by the same contract schema as the API.
 *
 * Batch ids come from the file's content: `file-<hash of the batch's records>-<record offset>`, so
 * running the import of the same file again (after a crash, or twice) sends the same batches,
 * which the ingest answers as duplicates: nothing is billed twice. A file cut or batched
 * differently still bills nothing twice ((call_id, attempt) is claimed once).
 */
export type CdrFileKind = 'csv' | 'jsonl';

export function cdrFileKind(path: string): CdrFileKind | null {
  const ext = (path.split('.').pop() ?? '').toLowerCase();
  if (ext === 'csv') return 'csv';
  if (ext === 'jsonl' || ext === 'ndjson') return 'jsonl';
  return null;
}

/** One record of a file: where it starts (1-based line or CSV row) and its fields. */
interface FileRecord {
  readonly line: number;
  readonly text: string;
  readonly fields: Record<string, unknown>;
}

const NUMBER_FIELDS = new Set([
  'attempt',
  'duration',
  'ingress_trunk_id',
  'egress_trunk_id',
  'release_cause',
  'q850_cause',
  'pdd_ms',
  'ring_time_ms',
]);
/** Fields that may be null: an empty CSV cell is null there (elsewhere it is the empty text). */
const NULLABLE_FIELDS = new Set([
  'answer_time',
  'egress_trunk_id',
  'egress_dnis',
  'lrn',
  'q850_cause',
  'egress_host',
  'codec',
  'ring_time_ms',
]);
const KNOWN_FIELDS = new Set(Object.keys(api.cdr.cdrIn.shape));

/** A CSV cell as the JSON value the API would receive. */
function csvValue(field: string, cell: string): unknown {
  if (cell === '' && NULLABLE_FIELDS.has(field)) return null;
  if (NUMBER_FIELDS.has(field) && /^-?\d+$/.test(cell.trim())) return Number(cell.trim());
  if (field === 'is_final_attempt') {
    const v = cell.trim().toLowerCase();
    if (v === 'true' || v === '1' || v === 't' || v === 'yes') return true;
    if (v === 'false' || v === '0' || v === 'f' || v === 'no') return false;
  }
  return cell;
}

async function* records(path: string, kind: CdrFileKind): AsyncGenerator<FileRecord> {
  if (kind === 'jsonl') {
    const rl = readline.createInterface({ input: fs.createReadStream(path, 'utf8'), crlfDelay: Infinity });
    let line = 0;
    for await (const raw of rl) {
      line++;
      const text = line === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
      if (text.trim() === '') continue;
      let fields: unknown;
      try {
        fields = JSON.parse(text);
      } catch {
        throw CdrFileError.of([{ line, field: 'CDR', key: 'cdrFileNotJson', params: [] }]);
      }
      if (typeof fields !== 'object' || fields === null || Array.isArray(fields))
        throw CdrFileError.of([{ line, field: 'CDR', key: 'cdrFileNotJson', params: [] }]);
      yield { line, text, fields: fields as Record<string, unknown> };
    }
    return;
  }
  let header: string[] | null = null;
  let row = 0;
  for await (const batch of readCsv(path)) {
    for (const cells of batch.rows) {
      row++;
      if (header === null) {
        header = cells.map((c) => c.trim());
        const unknown = header.filter((h) => !KNOWN_FIELDS.has(h));
        if (unknown.length)
          throw CdrFileError.of([
            { line: 1, field: unknown[0]!, key: 'cdrFileUnknownColumns', params: [unknown.join(', ')] },
          ]);
        continue;
      }
      const fields: Record<string, unknown> = {};
      header.forEach((h, i) => {
        const cell = cells[i];
        // An empty cell is null where the field may be null, the empty text for the ANI (withheld),
        // and missing elsewhere (the schema names it).
        if (cell === undefined || (cell === '' && !NULLABLE_FIELDS.has(h) && h !== 'ani')) return;
        fields[h] = csvValue(h, cell);
      });
      yield { line: row, text: cells.join('\u0001'), fields };
    }
  }
}

/** One problem of a file: the row (1-based line or CSV row, the header being row 1), the field, why. */
export interface CdrFileProblem {
  readonly line: number;
  readonly field: string;
  /** A message key of the contract's catalogue, with its parameters. */
  readonly key: MessageKey;
  readonly params: readonly (string | number)[];
}

/** A problem as one line of text in `lang`: "line 17, end_time: end_time is before the start time". */
export const problemText = (p: CdrFileProblem, lang: Language = 'en') =>
  p.key === 'cdrFileEmpty'
    ? message(p.key, lang, p.params)
    : message('cdrFileProblem', lang, [p.line, p.field, message(p.key, lang, p.params)]);

/** The file could not be imported; nothing was stored. Lists the first problems found. */
export class CdrFileError extends Error {
  /** The problems as English text (the CLI's output). */
  readonly problems: string[];
  constructor(readonly details: readonly CdrFileProblem[]) {
    const problems = details.map((d) => problemText(d));
    super(problems.join('\n'));
    this.problems = problems;
  }
  static of(details: readonly CdrFileProblem[]): CdrFileError {
    return new CdrFileError(details);
  }
}

const MAX_PROBLEMS = 20;

function problemsOf(
  line: number,
  error: { issues: { path: PropertyKey[]; message: string }[] },
): CdrFileProblem[] {
  return error.issues.map((i) => {
    const field = i.path.map(String).join('.') || 'CDR';
    const key = (MESSAGE_KEYS as string[]).includes(i.message) ? (i.message as MessageKey) : 'invalidValue';
    return { line, field, key, params: [field] };
  });
}

/**
 * Reads the whole file once and checks every CDR with the API's schema: the number of CDRs, or a
 * CdrFileError naming the first problems (line and field). Run before importing anything, so a bad
 * file changes nothing.
 */
export async function checkCdrFile(path: string, kind: CdrFileKind): Promise<number> {
  const problems: CdrFileProblem[] = [];
  let n = 0;
  for await (const r of records(path, kind)) {
    n++;
    const p = api.cdr.cdrIn.safeParse(r.fields);
    if (!p.success) {
      problems.push(...problemsOf(r.line, p.error));
      if (problems.length >= MAX_PROBLEMS) break;
    }
  }
  if (problems.length) throw new CdrFileError(problems.slice(0, MAX_PROBLEMS));
  if (n === 0) throw CdrFileError.of([{ line: 1, field: 'file', key: 'cdrFileEmpty', params: [] }]);
  return n;
}

/** The file's CDRs in batches of `size`, each with its content-derived id (see above). */
export async function* cdrFileBatches(
  path: string,
  kind: CdrFileKind,
  size: number,
): AsyncGenerator<CdrChunk & { readonly first_line: number }> {
  const batchSize = Math.max(1, Math.min(api.cdr.CDR_BATCH_MAX, Math.floor(size)));
  let cdrs: CdrIn[] = [];
  let hash = createHash('sha256');
  let first = 0;
  let offset = 0;
  const flush = () => {
    const chunk = { batch_id: `file-${hash.digest('hex').slice(0, 24)}-${first}`, cdrs, first_line: first };
    cdrs = [];
    hash = createHash('sha256');
    return chunk;
  };
  for await (const r of records(path, kind)) {
    if (cdrs.length === 0) first = offset;
    const p = api.cdr.cdrIn.safeParse(r.fields);
    if (!p.success) throw new CdrFileError(problemsOf(r.line, p.error)); // changed since checked
    cdrs.push(p.data);
    hash.update(r.text).update('\n');
    offset++;
    if (cdrs.length >= batchSize) yield flush();
  }
  if (cdrs.length) yield flush();
}
