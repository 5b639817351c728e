import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { copyOf } from './copy';
import type { AppConfig } from '../config';
import { PGliteWorker } from './pglite-client';
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
 * PostgreSQL when DATABASE_URL is set, else PGlite under DATA_DIR/pglite (or in memory for ':memory:'),
 * in a worker thread (pglite-client.ts).
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
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: copyingPool(pool) }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  // PGlite runs in a worker thread: its statements never hold this thread's event loop.
  let pglite: PGliteWorker;
  if (opts.memory) {
    pglite = await PGliteWorker.start({ loadDataDir: opts.loadDataDir });
  } else {
    const dir = path.join(config.dataDir, 'pglite');
    fs.mkdirSync(dir, { recursive: true });
    pglite = await PGliteWorker.start({ dataDir: dir });
  }
  const db = new Kysely<Database>({ dialect: pgliteDialect(pglite) });
  return { db, kind: 'pglite', close: () => db.destroy() };
}

/**
 * The pool Kysely gets: pg's, with each client running `copyRows` statements (copy.ts) as COPY FROM
 * STDIN through pg-copy-streams, on the same connection (so inside the caller's transaction).
 */
function copyingPool(pool: pg.Pool): PostgresPool {
  return {
    connect: async () => {
      const client = await pool.connect();
      return {
        query: ((sqlText: unknown, params?: unknown[]) => {
          const copy = copyOf(sqlText, params);
          if (copy === null) return (client.query as (...a: unknown[]) => unknown)(sqlText, params);
          return new Promise((resolve, reject) => {
            const stream = client.query(copyFrom(copy));
            stream.on('error', reject);
            stream.on('finish', () => resolve({ command: 'SELECT', rowCount: stream.rowCount, rows: [] }));
            stream.end(params![0] as string);
          });
        }) as PostgresPoolClient['query'],
        release: () => client.release(),
      };
    },
    end: () => pool.end(),
  };
}
