import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../db/connection';
import type { Jobs, JobContext } from './queue';

export interface RunnerOptions {
  /** How often the queue is read when idle (JOBS_POLL_MS). */
  pollMs: number;
  /** Jobs run at once by this process (JOBS_CONCURRENCY); 0 runs none (recurring slots are still enqueued). */
  concurrency: number;
  /** How long a claim holds without a heartbeat; a job whose lease ran out is taken over. */
  leaseMs: number;
}

export const DEFAULT_LEASE_MS = 30_000;
const MAX_BACKOFF_MS = 600_000;
/** Progress is written at most this often (and at every heartbeat and at the end). */
const PROGRESS_WRITE_MS = 300;

interface ClaimedJob {
  id: number;
  kind: string;
  payload: unknown;
  attempts: number;
  max_attempts: number;
  progress_done: number;
  progress_total: number | null;
  progress_message: string;
  user_id: number | null;
  user_name: string;
}

type StopReason = 'killed' | 'shutdown' | 'lost';

interface Running {
  controller: AbortController;
  reason: StopReason | null;
  done: Promise<void>;
}

/**
 * Takes jobs from the `jobs` table and runs them in this process. Claim: one UPDATE of the first due
 * row picked with FOR UPDATE SKIP LOCKED (pending and due, or running with an expired lease), which
 * marks it running under this runner's id with a lease. While the handler runs, a heartbeat extends
 * the lease and writes progress; a heartbeat that finds the row no longer ours (killed, or taken
 * over after we stalled) aborts the handler. Every final write is guarded by `locked_by = me`, so a
 * runner that lost its job can never overwrite the result of the one that took it over.
 */
export class JobRunner {
  readonly id = `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;
  private again = false;
  private stopped = true;
  private halted = false;
  private readonly running = new Map<number, Running>();

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly jobs: Jobs,
    private readonly opts: RunnerOptions,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.timer = setInterval(() => this.wake(), this.opts.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Looks for work now (after an enqueue in this process, and on every poll). */
  wake(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = true;
    void this.tick()
      .catch((err: unknown) => this.log.warn({ err }, 'job poll failed'))
      .finally(() => {
        this.ticking = false;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Jobs this runner is running now. */
  get busy(): number {
    return this.running.size;
  }

  private async tick(): Promise<void> {
    await this.jobs.enqueueDueSlots();
    await this.failExhausted();
    while (!this.stopped && this.running.size < this.opts.concurrency) {
      const job = await this.claim();
      if (!job) break;
      this.launch(job);
    }
  }

  /** Running jobs whose lease ran out and that have no attempt left are failed, not taken over. */
  private async failExhausted(): Promise<void> {
    await sql`
      UPDATE jobs SET status = 'failed', finished_at = now(), locked_by = NULL, lease_until = NULL,
        error = 'The process running it stopped (lease expired) and no attempt is left'
      WHERE status = 'running' AND lease_until < now() AND attempts >= max_attempts`.execute(this.db);
  }

  private async claim(): Promise<ClaimedJob | null> {
    const kinds = [...this.jobs.definitions.keys()];
    if (kinds.length === 0) return null;
    const r = await sql<ClaimedJob>`
      UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_by = ${this.id},
        lease_until = now() + ${this.opts.leaseMs} * interval '1 millisecond',
        started_at = COALESCE(started_at, now()), error = ''
      WHERE id = (
        SELECT id FROM jobs
        WHERE kind = ANY(${kinds}::text[])
          AND ((status = 'pending' AND run_at <= now())
            OR (status = 'running' AND lease_until < now() AND attempts < max_attempts))
        ORDER BY run_at, id
        FOR UPDATE SKIP LOCKED
        LIMIT 1)
      RETURNING id, kind, payload, attempts, max_attempts, progress_done, progress_total,
        progress_message, user_id, user_name`.execute(this.db);
    return r.rows[0] ?? null;
  }

  private launch(job: ClaimedJob): void {
    const controller = new AbortController();
    const entry: Running = { controller, reason: null, done: Promise.resolve() };
    this.running.set(job.id, entry);
    entry.done = this.run(job, entry).finally(() => {
      this.running.delete(job.id);
      this.wake();
    });
  }

  private async run(job: ClaimedJob, entry: Running): Promise<void> {
    const def = this.jobs.definitions.get(job.kind)!;
    let progress = {
      done: Number(job.progress_done),
      total: job.progress_total === null ? null : Number(job.progress_total),
      message: job.progress_message,
    };
    let written = Date.now();
    let dirty = false;
    let writing: Promise<void> = Promise.resolve();

    /** Extends the lease and writes progress; a row no longer ours stops the handler. */
    const beat = () => {
      if (this.halted) return writing;
      dirty = false;
      written = Date.now();
      const p = progress;
      writing = writing.then(async () => {
        try {
          const row = await this.db
            .updateTable('jobs')
            .set({
              lease_until: sql<Date>`now() + ${this.opts.leaseMs} * interval '1 millisecond'`,
              progress_done: p.done,
              progress_total: p.total,
              progress_message: p.message,
            })
            .where('id', '=', job.id)
            .where('locked_by', '=', this.id)
            .where('status', '=', 'running')
            .returning('status')
            .executeTakeFirst();
          if (!row) this.abort(entry, 'lost');
        } catch (err) {
          this.log.warn({ err, job: job.id }, 'job heartbeat failed');
        }
      });
      return writing;
    };
    const heartbeat = setInterval(() => void beat(), Math.max(50, Math.min(this.opts.leaseMs / 3, 2_000)));
    heartbeat.unref();

    const ctx: JobContext = {
      id: job.id,
      attempt: job.attempts,
      signal: entry.controller.signal,
      previous: { ...progress },
      user: { user_id: job.user_id, name: job.user_name },
      progress: (p) => {
        progress = {
          done: p.done,
          total: p.total === undefined ? progress.total : p.total,
          message: p.message ?? progress.message,
        };
        dirty = true;
        if (Date.now() - written >= PROGRESS_WRITE_MS) void beat();
      },
    };

    let result: unknown;
    let failure: unknown = null;
    try {
      result = await def.handler(job.payload as never, ctx);
    } catch (err) {
      failure = err;
    }
    clearInterval(heartbeat);
    if (dirty) void beat();
    await writing;

    const mine = (q: ReturnType<typeof this.update>) =>
      q.where('id', '=', job.id).where('locked_by', '=', this.id).where('status', '=', 'running');
    try {
      if (this.halted || entry.reason === 'killed' || entry.reason === 'lost') return;
      if (entry.reason === 'shutdown') {
        // Not the job's fault: back to the queue without spending an attempt.
        await mine(this.update())
          .set({
            status: 'pending',
            attempts: sql<number>`attempts - 1`,
            locked_by: null,
            lease_until: null,
            run_at: new Date(),
          })
          .execute();
        return;
      }
      if (failure === null) {
        await mine(this.update())
          .set({
            status: 'finished',
            finished_at: new Date(),
            locked_by: null,
            lease_until: null,
            result: JSON.stringify(result ?? null),
          })
          .execute();
        return;
      }
      const error = failure instanceof Error ? failure.message : JSON.stringify(failure);
      this.log.warn({ err: failure, job: job.id, kind: job.kind, attempt: job.attempts }, 'job failed');
      if (job.attempts < job.max_attempts) {
        const wait = Math.min(def.backoffMs * 2 ** (job.attempts - 1), MAX_BACKOFF_MS);
        await mine(this.update())
          .set({
            status: 'pending',
            locked_by: null,
            lease_until: null,
            error,
            run_at: new Date(Date.now() + wait),
          })
          .execute();
      } else {
        await mine(this.update())
          .set({ status: 'failed', finished_at: new Date(), locked_by: null, lease_until: null, error })
          .execute();
      }
    } catch (err) {
      // The lease runs out and another runner takes the job over.
      this.log.error({ err, job: job.id }, 'could not record the end of a job');
    }
  }

  private update() {
    return this.db.updateTable('jobs');
  }

  private abort(entry: Running, reason: StopReason): void {
    if (entry.reason) return;
    entry.reason = reason;
    entry.controller.abort(new Error(`job ${reason}`));
  }

  /** Aborts a job this process runs (kill). */
  abortLocal(id: number, reason: StopReason): void {
    const entry = this.running.get(id);
    if (entry) this.abort(entry, reason);
  }

  /**
   * Stops taking jobs and aborts the running handlers; their jobs go back to the queue for the
   * next start or another process. Waits for the handlers to return (up to `graceMs`).
   */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const all = [...this.running.values()];
    for (const r of all) this.abort(r, 'shutdown');
    await Promise.race([
      Promise.all(all.map((r) => r.done)),
      new Promise((resolve) => setTimeout(resolve, graceMs).unref()),
    ]);
    // Let a tick that was claiming finish before the database is closed.
    while (this.ticking) await new Promise((resolve) => setTimeout(resolve, 10));
  }

  /**
   * Tests only: stops as a killed process would, writing nothing (no release, no heartbeat); the
   * handlers keep running unaware, and their jobs are taken over when the lease runs out.
   */
  halt(): void {
    this.stopped = true;
    this.halted = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
