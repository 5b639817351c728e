import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  acceptAttribute,
  admitFiles,
  checkFile,
  extensionOf,
  formatSize,
  formFields,
  isAcceptedType,
  isCsvName,
  isImage,
  isTooBig,
  nextQueued,
  normalizeTypes,
  sizeInMb,
  updateEntry,
  type QueueEntry,
} from './upload-logic';

const MB = 1024 * 1024;
const f = (name: string, size = 10) => ({ name, size });
const limits = { types: ['csv', 'xls'], maxMb: 1000, maxFiles: 5 };

describe('file types', () => {
  it('reads extensions in lower case', () => {
    expect(extensionOf('Rates.CSV')).toBe('csv');
    expect(extensionOf('a.tar.GZ')).toBe('gz');
    expect(extensionOf('.hidden')).toBe('');
    expect(extensionOf('noext')).toBe('');
    expect(extensionOf('dir.v2/file')).toBe('');
  });
  it('accepts extensions case-insensitively, with or without the dot', () => {
    expect(normalizeTypes(['.CSV', 'csv', ' Xls '])).toEqual(['csv', 'xls']);
    expect(isAcceptedType('rates.CsV', ['.csv'])).toBe(true);
    expect(isAcceptedType('RATES.csv', ['CSV'])).toBe(true);
    expect(isAcceptedType('rates.txt', ['csv'])).toBe(false);
    expect(isAcceptedType('rates', ['csv'])).toBe(false);
    expect(isAcceptedType('anything.bin', [])).toBe(true);
    expect(isAcceptedType('anything.bin', undefined)).toBe(true);
    expect(acceptAttribute(['PNG', '.jpg'])).toBe('.png,.jpg');
  });
  it('property: an accepted name stays accepted in any letter case', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[a-z0-9_-]{1,12}$/),
        fc.constantFrom('png', 'jpg', 'jpeg'),
        fc.boolean(),
        (base, ext, upper) => {
          const name = `${base}.${upper ? ext.toUpperCase() : ext}`;
          expect(isAcceptedType(name, ['png', 'jpg', 'jpeg'])).toBe(true);
          expect(isAcceptedType(name, ['PNG', 'JPG', 'JPEG'])).toBe(true);
        },
      ),
    );
  });
  it('recognises CSV and image files', () => {
    expect(isCsvName('a.CSV')).toBe(true);
    expect(isCsvName('a.csv.zip')).toBe(false);
    expect(isImage('a.JPEG')).toBe(true);
    expect(isImage('blob', 'image/png')).toBe(true);
    expect(isImage('a.pdf', 'application/pdf')).toBe(false);
  });
});

describe('file size', () => {
  it('is too big only above the maximum', () => {
    expect(isTooBig(1000 * MB, 1000)).toBe(false);
    expect(isTooBig(1000 * MB + 1, 1000)).toBe(true);
    expect(isTooBig(2 * MB, 1)).toBe(true);
  });
  it('formats sizes for the list', () => {
    expect(formatSize(107)).toBe('107 B');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(3 * MB)).toBe('3 MB');
  });
  it('shows MB with two decimals', () => {
    expect(sizeInMb(1536 * 1024)).toBe(1.5);
    expect(sizeInMb(1234567)).toBe(1.18);
  });
});

describe('checkFile', () => {
  it('checks size, then type, then count', () => {
    expect(checkFile(f('a.txt', 2000 * MB), limits, 9)).toEqual({ reason: 'tooBig', size: 2000, max: 1000 });
    expect(checkFile(f('a.txt'), limits, 9)).toEqual({ reason: 'wrongType' });
    expect(checkFile(f('a.csv'), limits, 5)).toEqual({ reason: 'tooMany', max: 5 });
    expect(checkFile(f('a.CSV'), limits, 4)).toBeNull();
  });
});

describe('admitFiles', () => {
  const ids = () => {
    let n = 0;
    return () => ++n;
  };
  it('adds up to the maximum number of files and rejects the rest', () => {
    const r = admitFiles(
      [],
      [f('1.csv'), f('2.txt'), f('3.csv'), f('4.csv')],
      { ...limits, maxFiles: 2 },
      ids(),
    );
    expect(r.added.map((e) => e.file.name)).toEqual(['1.csv', '3.csv']);
    expect(r.rejected.map((x) => [x.file.name, x.rejection.reason])).toEqual([
      ['2.txt', 'wrongType'],
      ['4.csv', 'tooMany'],
    ]);
    expect(r.next).toHaveLength(2);
    expect(r.next.every((e) => e.status === 'queued')).toBe(true);
  });
  it('puts CSV files needing a header mapping on hold', () => {
    const r = admitFiles(
      [],
      [f('1.csv'), f('2.xls')],
      { ...limits, needsMapping: (x) => isCsvName(x.name) },
      ids(),
    );
    expect(r.next.map((e) => e.status)).toEqual(['mapping', 'queued']);
  });
  it('a one-file widget replaces its file unless it is uploading', () => {
    const one = { types: ['png'], maxMb: 1, maxFiles: 1 };
    const current: QueueEntry<{ name: string; size: number }>[] = [
      { id: 1, file: f('old.png'), status: 'queued' },
    ];
    const r = admitFiles(current, [f('new.png')], one, () => 2);
    expect(r.replaced.map((e) => e.file.name)).toEqual(['old.png']);
    expect(r.next.map((e) => e.file.name)).toEqual(['new.png']);
    const busy = admitFiles([{ ...current[0]!, status: 'uploading' }], [f('new.png')], one, () => 2);
    expect(busy.rejected[0]?.rejection.reason).toBe('tooMany');
    expect(busy.next.map((e) => e.file.name)).toEqual(['old.png']);
  });
  it('property: never more than the maximum, and every file is either added or rejected', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ name: fc.constantFrom('a.csv', 'b.CSV', 'c.txt', 'd.xls'), size: fc.nat(3000 * MB) }),
        ),
        fc.integer({ min: 2, max: 6 }),
        (files, maxFiles) => {
          const r = admitFiles([], files, { ...limits, maxFiles }, ids());
          expect(r.next.length).toBeLessThanOrEqual(maxFiles);
          expect(r.added.length + r.rejected.length).toBe(files.length);
          expect(new Set(r.next.map((e) => e.id)).size).toBe(r.next.length);
        },
      ),
    );
  });
});

describe('queue helpers', () => {
  it('finds the next queued file and updates entries by id', () => {
    const q: QueueEntry<string>[] = [
      { id: 1, file: 'a', status: 'success' },
      { id: 2, file: 'b', status: 'mapping' },
      { id: 3, file: 'c', status: 'queued' },
    ];
    expect(nextQueued(q)?.id).toBe(3);
    expect(updateEntry(q, 3, { status: 'uploading' })[2]?.status).toBe('uploading');
    expect(updateEntry(q, 3, { status: 'uploading' })[0]).toBe(q[0]);
  });
  it('writes extra form fields as text and drops empty ones', () => {
    expect(formFields({ a: 1, b: true, c: 'x', d: null, e: undefined })).toEqual([
      ['a', '1'],
      ['b', 'true'],
      ['c', 'x'],
    ]);
  });
});
