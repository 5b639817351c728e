import { PostgresDialect, type PostgresPool, type PostgresPoolClient } from 'kysely';
import { copyOf } from './copy';
import type { PgliteSession } from './pglite-client';

/**
 * Runs Kysely's PostgreSQL dialect on PGlite (the server's PGliteWorker, or a PGlite in this thread
 * for tools). PGlite is one session, so connections are handed out one at a time: a transaction holds
 * it until it ends, and all its statements go to the same session. Code inside a transaction must use
 * the transaction object, never the outer `db`, or it waits for itself (a 60 s guard turns that into
 * an error instead of a hang).
 */
export function pgliteDialect(pg: PgliteSession): PostgresDialect {
  let tail: Promise<void> = Promise.resolve();

  const acquire = (): Promise<() => void> => {
    let release!: () => void;
    const next = new Promise<void>((r) => (release = r));
    const prev = tail;
    tail = prev.then(() => next);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('PGlite connection wait exceeded 60 s (query outside its transaction?)')),
        60_000,
      );
      void prev.then(() => {
        clearTimeout(timer);
        resolve(release);
      });
    });
  };

  const client = (release: () => void): PostgresPoolClient => ({
    // Kysely only passes (sql, params); streaming cursors are not used.
    query: (async (sqlText: string, params: readonly unknown[]) => {
      const copy = copyOf(sqlText, params);
      if (copy !== null) {
        // copyRows (copy.ts): the data as PGlite's /dev/blob
        const r = await pg.query(`${copy.slice(0, -'STDIN'.length)}'/dev/blob'`, [], {
          blob: new Blob([params[0] as string]),
        });
        return { command: 'SELECT', rowCount: r.affectedRows ?? 0, rows: [] };
      }
      if (params.length === 0 && sqlText.includes(';')) {
        const results = await pg.exec(sqlText);
        const last = results[results.length - 1];
        return { command: commandOf(sqlText), rowCount: last?.affectedRows ?? 0, rows: last?.rows ?? [] };
      }
      const r = await pg.query(sqlText, params as unknown[]);
      return { command: commandOf(sqlText), rowCount: r.affectedRows ?? 0, rows: r.rows };
    }) as PostgresPoolClient['query'],
    release,
  });

  const pool: PostgresPool = {
    connect: async () => client(await acquire()),
    end: async () => {
      await pg.close();
    },
  };
  return new PostgresDialect({ pool });
}

function commandOf(sqlText: string): 'INSERT' | 'UPDATE' | 'DELETE' | 'SELECT' | 'MERGE' {
  const m = /^\s*(?:with\b[\s\S]*?\)\s*)?(insert|update|delete|merge)\b/i.exec(sqlText);
  return (m?.[1]?.toUpperCase() as 'INSERT' | 'UPDATE' | 'DELETE' | 'MERGE' | undefined) ?? 'SELECT';
}
