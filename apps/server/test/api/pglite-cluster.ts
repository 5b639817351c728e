import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { migrateToLatest } from '../../src/db/migrate';
import { pgliteDialect } from '../../src/db/pglite-dialect';
import type { Database } from '../../src/db/schema';
import { seedReferenceData } from '../../src/db/seed';

const require = createRequire(import.meta.url);

/**
 * A PGlite cluster already migrated and seeded, dumped once into the temp directory and keyed by a
 * hash of the database code (migrations, seed, menu catalogue) and the PGlite version: loading it
 * is several times faster than initdb plus every migration, which dominated each file's start-up.
 * buildApp still migrates and seeds (both no-ops then), so a stale dump could only cost time.
 */
export async function migratedCluster(): Promise<Blob | undefined> {
  try {
    const file = path.join(os.tmpdir(), `tandem-pglite-${databaseFingerprint()}.tgz`);
    if (fs.existsSync(file)) return new Blob([fs.readFileSync(file)]);
    const pglite = await PGlite.create();
    const db = new Kysely<Database>({ dialect: pgliteDialect(pglite) });
    await migrateToLatest(db);
    await seedReferenceData(db);
    const dump = await pglite.dumpDataDir('gzip');
    await db.destroy();
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(tmp, file);
    // Dumps of older database code are of no further use.
    for (const f of fs.readdirSync(os.tmpdir())) {
      if (/^tandem-pglite-[0-9a-f]{16}\.tgz$/.test(f) && path.join(os.tmpdir(), f) !== file)
        fs.rmSync(path.join(os.tmpdir(), f), { force: true });
    }
    return dump;
  } catch {
    return undefined; // fall back to initdb and migrations
  }
}

function databaseFingerprint(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const pglitePkg = path.join(path.dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
  const files = [
    ...fs
      .readdirSync(path.join(here, '../../src/db'), { recursive: true, encoding: 'utf8' })
      .map((f) => path.join(here, '../../src/db', f)),
    path.join(here, '../../../../packages/contract/src/menu.ts'),
    pglitePkg,
  ].filter((f) => fs.statSync(f).isFile());
  const hash = createHash('sha256');
  for (const f of files.sort()) hash.update(f).update(fs.readFileSync(f));
  return hash.digest('hex').slice(0, 16);
}
