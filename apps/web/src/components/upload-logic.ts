/**
 * Rules of the upload widget (spec 01 sections 4, 5 and 9), pure and DOM-free: file type and size
 * checks, the file limit and the queue of files waiting for processing.
 */

export const UPLOAD_THUMBNAIL = { width: 150, height: 200 } as const;
export const HEADER_MODAL_WIDTH = 500;
/** How much of a CSV file is read for the header preview. */
export const CSV_PREVIEW_BYTES = 256 * 1024;

const IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif', 'bmp', 'webp', 'svg'];

/** The extension of a file name, lower case, without the dot ('' when none). */
export function extensionOf(name: string): string {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** Accepted types as lower-case extensions without dots ('.CSV' and 'csv' are the same). */
export function normalizeTypes(types: readonly string[] | undefined): string[] {
  return [...new Set((types ?? []).map((t) => t.trim().replace(/^\./, '').toLowerCase()).filter(Boolean))];
}

/** The accept attribute of the file input ('.csv,.xls'); empty when every type is allowed. */
export function acceptAttribute(types: readonly string[] | undefined): string {
  return normalizeTypes(types)
    .map((t) => `.${t}`)
    .join(',');
}

/** Whether the file's extension is one of the accepted types (any when none are configured). */
export function isAcceptedType(name: string, types: readonly string[] | undefined): boolean {
  const accepted = normalizeTypes(types);
  return accepted.length === 0 || accepted.includes(extensionOf(name));
}

/** Size in MB (1024 * 1024 bytes) with two decimals, as the too-big message shows it. */
export function sizeInMb(bytes: number): number {
  return Math.round(bytes / 1024 / 10.24) / 100;
}

/** A readable size for the file list: bytes, KB or MB (1024 based). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 102.4) / 10} KB`;
  return `${sizeInMb(bytes)} MB`;
}

/** Whether a file exceeds the maximum size in MB. */
export function isTooBig(bytes: number, maxMb: number): boolean {
  return bytes > maxMb * 1024 * 1024;
}

export const isCsvName = (name: string) => extensionOf(name) === 'csv';
export const isImage = (name: string, mime = '') =>
  mime.startsWith('image/') || IMAGE_EXTENSIONS.includes(extensionOf(name));

export type Rejection =
  | { reason: 'tooBig'; size: number; max: number }
  | { reason: 'wrongType' }
  | { reason: 'tooMany'; max: number };

export interface FileLimits {
  types?: readonly string[];
  maxMb: number;
  maxFiles: number;
}

/** Checks one file in the order size, type, count (the count is files already kept). */
export function checkFile(
  file: { name: string; size: number },
  limits: FileLimits,
  count: number,
): Rejection | null {
  if (isTooBig(file.size, limits.maxMb))
    return { reason: 'tooBig', size: sizeInMb(file.size), max: limits.maxMb };
  if (!isAcceptedType(file.name, limits.types)) return { reason: 'wrongType' };
  if (count >= limits.maxFiles) return { reason: 'tooMany', max: limits.maxFiles };
  return null;
}

export type FileStatus = 'mapping' | 'queued' | 'uploading' | 'success' | 'error';

export interface QueueEntry<F> {
  id: number;
  file: F;
  status: FileStatus;
  message?: string;
}

export interface Admission<F> {
  added: QueueEntry<F>[];
  rejected: { file: F; rejection: Rejection }[];
  /** Entries dropped to make room (a single-file widget replaces its file). */
  replaced: QueueEntry<F>[];
  next: QueueEntry<F>[];
}

/**
 * Admits new files into the list: each is checked against the limits; CSV files wait for the
 * header dialog when expected headers are configured; with a limit of one file, a new file
 * replaces one that is not uploading.
 */
export function admitFiles<F extends { name: string; size: number }>(
  current: readonly QueueEntry<F>[],
  incoming: readonly F[],
  limits: FileLimits & { needsMapping?: (f: F) => boolean },
  nextId: () => number,
): Admission<F> {
  let next = [...current];
  const added: QueueEntry<F>[] = [];
  const rejected: { file: F; rejection: Rejection }[] = [];
  const replaced: QueueEntry<F>[] = [];
  for (const file of incoming) {
    let count = next.length;
    if (limits.maxFiles === 1 && count >= 1 && next.every((e) => e.status !== 'uploading')) count = 0;
    const rejection = checkFile(file, limits, count);
    if (rejection) {
      rejected.push({ file, rejection });
      continue;
    }
    if (count === 0 && next.length > 0) {
      replaced.push(...next);
      next = [];
    }
    const entry: QueueEntry<F> = {
      id: nextId(),
      file,
      status: limits.needsMapping?.(file) ? 'mapping' : 'queued',
    };
    added.push(entry);
    next.push(entry);
  }
  return { added, rejected, replaced, next };
}

/** The first file waiting for upload. */
export const nextQueued = <T extends { status: FileStatus }>(entries: readonly T[]) =>
  entries.find((e) => e.status === 'queued');

/** Replaces one entry by id. */
export function updateEntry<T extends { id: number }>(
  entries: readonly T[],
  id: number,
  patch: Partial<T>,
): T[] {
  return entries.map((e) => (e.id === id ? { ...e, ...patch } : e));
}

/** Extra form fields as strings (booleans and numbers are written as text; empty values dropped). */
export function formFields(
  fields: Record<string, string | number | boolean | null | undefined> | undefined,
): [string, string][] {
  return Object.entries(fields ?? {}).flatMap(([k, v]) =>
    v === undefined || v === null ? [] : [[k, String(v)] as [string, string]],
  );
}
