// The PGlite database in its own thread (plain JavaScript: a worker thread starts without the
// TypeScript loader the server runs under). PGlite runs PostgreSQL in WebAssembly and every
// statement runs to its end on the thread that owns it; here that is this worker, so the server's
// event loop (the route API, /api/health, timers) keeps turning while a long statement runs.
//
// Protocol (pglite-client.ts is the other side): the thread starts with workerData
// { dataDir, loadDataDir }, answers { ready: true } or { ready: false, error }; then each message
// { id, op: 'query' | 'exec' | 'close', sql, params, blob } (blob: what a COPY FROM '/dev/blob'
// reads) is answered { id, result } or { id, error }
// in the order received. One session: the main thread hands the connection out one at a time.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/** @typedef {{ id: number, op: 'query' | 'exec' | 'close', sql?: string, params?: unknown[], blob?: Blob }} Request */

const port = parentPort;
if (!port) throw new Error('pglite-worker.mjs runs as a worker thread');

/** @type {{ dataDir?: string, loadDataDir?: ArrayBuffer }} */
const init = workerData ?? {};

/**
 * An error as plain fields (PostgreSQL's code, detail, constraint... survive the trip).
 * @param {unknown} err
 */
function plainError(err) {
  /** @type {Record<string, unknown>} */
  const out = { message: String(err), name: 'Error' };
  if (err && typeof err === 'object') {
    for (const [k, v] of Object.entries(err)) {
      if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) out[k] = v;
    }
    if (err instanceof Error) {
      out.message = err.message;
      out.name = err.name;
      out.stack = err.stack;
    }
  }
  return out;
}

/** @type {PGlite} */
let pg;
try {
  if (init.loadDataDir) pg = await PGlite.create({ loadDataDir: new Blob([init.loadDataDir]) });
  else if (init.dataDir) pg = await PGlite.create(init.dataDir);
  else pg = await PGlite.create();
  port.postMessage({ ready: true });
} catch (err) {
  port.postMessage({ ready: false, error: plainError(err) });
  process.exit(1);
}

// Requests run one after another, in the order they came.
/** @type {Promise<void>} */
let tail = Promise.resolve();
port.on('message', (/** @type {Request} */ req) => {
  tail = tail.then(() => handle(req));
});

/** @param {Request} req */
async function handle(req) {
  try {
    if (req.op === 'close') {
      await pg.close();
      port?.postMessage({ id: req.id, result: null });
      port?.close();
      return;
    }
    if (req.op === 'exec') {
      const results = await pg.exec(req.sql ?? '');
      const last = results[results.length - 1];
      port?.postMessage({
        id: req.id,
        result: { rows: last?.rows ?? [], affectedRows: last?.affectedRows ?? 0 },
      });
      return;
    }
    const r = await pg.query(
      req.sql ?? '',
      req.params ?? [],
      req.blob === undefined ? undefined : { blob: req.blob },
    );
    port?.postMessage({ id: req.id, result: { rows: r.rows, affectedRows: r.affectedRows ?? 0 } });
  } catch (err) {
    port?.postMessage({ id: req.id, error: plainError(err) });
  }
}
