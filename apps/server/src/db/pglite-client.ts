import { Worker } from 'node:worker_threads';

/** What the Kysely dialect needs of a PGlite session: PGlite itself, or PGliteWorker. */
export interface PgliteSession {
  /** `blob`: the text a `COPY ... FROM '/dev/blob'` reads. */
  query(
    sql: string,
    params?: unknown[],
    options?: { blob?: Blob },
  ): Promise<{ rows: unknown[]; affectedRows?: number }>;
  exec(sql: string): Promise<{ rows: unknown[]; affectedRows?: number }[]>;
  close(): Promise<void>;
}

interface Pending {
  resolve(result: { rows: unknown[]; affectedRows: number } | null): void;
  reject(err: Error): void;
}
type Reply =
  | { ready: true }
  | { ready: false; error: Record<string, unknown> }
  | { id: number; result: { rows: unknown[]; affectedRows: number } | null }
  | { id: number; error: Record<string, unknown> };

/** An Error with the fields PostgreSQL gave (code, detail, constraint...), as the driver's would have. */
function errorOf(fields: Record<string, unknown>): Error {
  const err = new Error(typeof fields.message === 'string' ? fields.message : 'PGlite error');
  Object.assign(err, fields);
  return err;
}

/**
 * PGlite in a worker thread (pglite-worker.mjs): statements run there, the server's event loop only
 * sends them and receives the rows (structured clone), so a long statement holds no request, timer
 * or route call. The thread is referenced only while a request is pending: an idle database does
 * not keep the process alive, as PGlite in the main thread did not. close() closes PGlite (its
 * files are complete) and ends the thread.
 */
export class PGliteWorker implements PgliteSession {
  private next = 1;
  private readonly pending = new Map<number, Pending>();
  private failure: Error | null = null;
  private closed = false;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (m: Reply) => {
      if (!('id' in m)) return;
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (this.pending.size === 0) worker.unref();
      if ('error' in m) p.reject(errorOf(m.error));
      else p.resolve(m.result);
    });
    const fail = (err: Error) => {
      this.failure = err;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (!this.closed) fail(new Error(`the PGlite worker thread stopped (exit code ${code})`));
    });
  }

  /** Starts the thread and opens PGlite: on `dataDir`, from a dumped `loadDataDir`, or empty in memory. */
  static async start(opts: { dataDir?: string; loadDataDir?: Blob } = {}): Promise<PGliteWorker> {
    const loadDataDir = opts.loadDataDir ? await opts.loadDataDir.arrayBuffer() : undefined;
    const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), {
      workerData: { dataDir: opts.dataDir, loadDataDir },
      transferList: loadDataDir ? [loadDataDir] : [],
    });
    await new Promise<void>((resolve, reject) => {
      const onMessage = (m: Reply) => {
        if (!('ready' in m)) return;
        worker.off('message', onMessage);
        worker.off('error', reject);
        if (m.ready) resolve();
        else reject(errorOf(m.error));
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });
    worker.unref();
    return new PGliteWorker(worker);
  }

  private send(
    op: 'query' | 'exec' | 'close',
    sql?: string,
    params?: unknown[],
    blob?: Blob,
  ): Promise<{ rows: unknown[]; affectedRows: number } | null> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.pending.size === 1) this.worker.ref();
      this.worker.postMessage({ id, op, sql, params, blob });
    });
  }

  async query(
    sql: string,
    params: unknown[] = [],
    options: { blob?: Blob } = {},
  ): Promise<{ rows: unknown[]; affectedRows: number }> {
    return (await this.send('query', sql, params, options.blob))!;
  }

  async exec(sql: string): Promise<{ rows: unknown[]; affectedRows: number }[]> {
    return [(await this.send('exec', sql))!];
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.failure) return;
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    await this.send('close');
    this.worker.ref();
    await exited;
  }
}
