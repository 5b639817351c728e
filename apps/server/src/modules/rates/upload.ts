import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ErrorCode, MESSAGE_KEYS, UPLOAD_MAX_MB, type MessageKey } from '@tandem/contract';
import type { z } from 'zod';
import type { Ctx } from '../../http/context';
import { AppError, invalidField } from '../../http/errors';
import type { Services } from '../../services';
import { fileKindOf, type FileKind } from './import/read-rows';

export interface ReceivedFile<O, K extends string = FileKind> {
  options: O;
  filePath: string;
  fileName: string;
  kind: K;
  size: number;
}

/** What an upload accepts and where it keeps the file (default: rate files, CSV or XLSX, in importDir). */
export interface UploadKinds<K extends string> {
  /** The file's kind from its name and first bytes, or null when the type is not accepted. */
  kindOf: (fileName: string, head: Buffer) => K | null;
  dir?: string;
}

/** Where uploads wait for their import job (under DATA_DIR). */
export const importDir = (s: Services) => path.join(s.config.dataDir, 'tmp', 'imports');

/**
 * Receives a multipart rate, code or jurisdiction file: the text fields (sent before the file) are
 * checked with the contract's schema, the file is streamed to a temporary file (never held in
 * memory) and must be CSV or XLSX.
 */
export async function receiveUpload<S extends z.ZodType, K extends string = FileKind>(
  s: Services,
  ctx: Ctx<unknown, unknown, unknown>,
  schema: S,
  kinds: UploadKinds<K> = { kindOf: fileKindOf as (n: string, h: Buffer) => K | null },
): Promise<ReceivedFile<z.output<S>, K>> {
  const part = await ctx.req.file();
  if (!part) throw invalidField('file', 'required', ['file']);
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(part.fields)) {
    const f = (Array.isArray(v) ? v[0] : v) as { type?: string; value?: unknown } | undefined;
    if (f?.type === 'field' && typeof f.value === 'string') fields[k] = f.value;
  }
  const parsed = schema.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.map(String).join('.') || 'file';
    const key: MessageKey = (MESSAGE_KEYS as string[]).includes(issue.message)
      ? (issue.message as MessageKey)
      : 'invalidValue';
    part.file.resume();
    throw invalidField(field, key, [field]);
  }
  const dir = kinds.dir ?? importDir(s);
  fs.mkdirSync(dir, { recursive: true });
  const filePath = path.join(dir, `${Date.now()}-${randomBytes(6).toString('hex')}`);
  await pipeline(part.file, fs.createWriteStream(filePath));
  const size = fs.statSync(filePath).size;
  const cleanup = () => fs.rmSync(filePath, { force: true });
  if (part.file.truncated) {
    cleanup();
    throw new AppError(
      ErrorCode.validation,
      'fileTooBig',
      { size: (size / 1048576).toFixed(1), max: UPLOAD_MAX_MB },
      413,
    );
  }
  const head = Buffer.alloc(Math.min(size, 4096));
  const fd = fs.openSync(filePath, 'r');
  fs.readSync(fd, head, 0, head.length, 0);
  fs.closeSync(fd);
  const kind = kinds.kindOf(part.filename, head);
  if (!kind) {
    cleanup();
    throw invalidField('file', 'fileTypeNotAllowed');
  }
  return { options: parsed.data, filePath, fileName: part.filename.slice(0, 200), kind, size };
}
