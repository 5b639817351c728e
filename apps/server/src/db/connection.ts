import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { AppConfig } from '../config';
import { pgliteDialect } from './pglite-dialect';
import type { Database } from './schema';

export type Db = Kysely<Database>;
export interface DatabaseHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

// int8 (counts, bigserial ids) as JavaScript numbers on both drivers; NUMERIC stays a string (exact money).
pg.types.setTypeParser(20, (v) => Number(v));

/**
 * PostgreSQL when DATABASE_URL is set, else PGlite under DATA_DIR/pglite (or in memory for ':memory:').
 * `loadDataDir`: an in-memory PGlite starts from this dumped data directory instead of running initdb
 * (tests start one database per file from a cached, already migrated cluster).
 */
export async function openDatabase(
  config: Pick<AppConfig, 'databaseUrl' | 'dataDir'>,
  opts: { memory?: boolean; loadDataDir?: Blob } = {},
): Promise<DatabaseHandle> {
  if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10 });
    // An idle connection dropped by the server (restart, failover) must not crash the process;
    // the pool replaces it on the next query.
    pool.on('error', (err) => console.error('PostgreSQL idle connection error:', err.message));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  let pglite: PGlite;
  if (opts.memory) {
    pglite = await PGlite.create(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : undefined);
  } else {
    const dir = path.join(config.dataDir, 'pglite');
    fs.mkdirSync(dir, { recursive: true });
    pglite = await PGlite.create(dir);
  }
  const db = new Kysely<Database>({ dialect: pgliteDialect(pglite) });
  return { db, kind: 'pglite', close: () => db.destroy() };
}
