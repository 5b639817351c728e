import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../db/connection';
import { JobRunner, type RunnerOptions } from './runner';
import { describeSchedule, latestSlot, type Schedule } from './schedule';

/** What a handler is given besides its payload. */
export interface JobContext {
  /** The job's row id (scheduler log). */
  id: number;
  /** 1 on the first run, 2 on the first retry or takeover, ... */
  attempt: number;
  /**
   * Aborted when the job is killed, when this process shuts down (the job goes back to the queue),
   * or when the lease was lost. Long handlers check it between steps (`signal.throwIfAborted()`).
   */
  signal: AbortSignal;
  /** Reports progress; shown in the scheduler log. Cheap to call often (writes are throttled). */
  progress(p: { done: number; total?: number | null; message?: string }): void;
  /** Progress the previous attempt had reached (0 on the first): a resumable handler skips that much. */
  previous: { done: number; total: number | null; message: string };
  /** Who enqueued it (null user_id for the system and schedules). */
  user: { user_id: number | null; name: string };
}

export type JobHandler<P = unknown> = (payload: P, ctx: JobContext) => Promise<unknown>;

export interface JobDefinition {
  handler: JobHandler<never>;
  /** Runs in total before the job is failed (default 3). A killed job is never retried. */
  maxAttempts: number;
  /** Wait before retry n is backoffMs * 2^(n-1), capped at 10 minutes (default 5 s). */
  backoffMs: number;
}

export interface EnqueueOptions {
  /** Idempotency key: a second enqueue with the same key returns the first job, never a new one. */
  key?: string;
  /** Not before this instant (default now). */
  runAt?: Date;
  /** Who asked (the scheduler log shows it; exports are owned by it). */
  user?: { user_id: number | null; name: string };
  /** Enqueue inside this transaction: the job exists only if the transaction commits. */
  db?: Db;
  /** Recurring job name, set by the scheduler. */
  schedule?: string;
  rerunOf?: number;
}

export interface Enqueued {
  id: number;
  /** false when the key already named a job (that job's id is returned). */
  created: boolean;
}

export interface Recurring {
  kind: string;
  schedule: Schedule;
  payload: unknown;
  description: string;
}

/**
 * services.jobs: durable background jobs on the `jobs` table (docs/jobs.md). Areas `define` a kind
 * with its handler once at start, then `enqueue` work; `every` makes a kind recurring. The runner
 * (started with the server, stopped on close) claims due jobs with SKIP LOCKED under a lease, so a
 * job runs in one process at a time and is taken over when its process dies.
 */
export class Jobs {
  readonly definitions = new Map<string, JobDefinition>();
  readonly recurring = new Map<string, Recurring>();
  readonly runner: JobRunner;
  /** The latest slot of each recurring kind this process has already tried to claim. */
  private readonly triedSlot = new Map<string, number>();

  constructor(
    private readonly db: Db,
    log: Logger,
    opts: RunnerOptions,
  ) {
    this.runner = new JobRunner(db, log, this, opts);
  }

  /** Declares what a kind of job does. Call once per kind, at start, in every process. */
  define<P>(
    kind: string,
    handler: JobHandler<P>,
    opts: { maxAttempts?: number; backoffMs?: number } = {},
  ): void {
    if (this.definitions.has(kind)) throw new Error(`job kind ${kind} is defined twice`);
    this.definitions.set(kind, {
      handler: handler as JobHandler<never>,
      maxAttempts: opts.maxAttempts ?? 3,
      backoffMs: opts.backoffMs ?? 5_000,
    });
  }

  /** Queues a job of a defined kind; returns its id (the existing job's when `key` was used before). */
  async enqueue<P>(kind: string, payload: P, opts: EnqueueOptions = {}): Promise<Enqueued> {
    const def = this.definitions.get(kind);
    if (!def) throw new Error(`job kind ${kind} is not defined`);
    const db = opts.db ?? this.db;
    const row = await db
      .insertInto('jobs')
      .values({
        kind,
        payload: JSON.stringify(payload ?? {}),
        key: opts.key ?? null,
        max_attempts: def.maxAttempts,
        run_at: opts.runAt ?? new Date(),
        schedule: opts.schedule ?? null,
        rerun_of: opts.rerunOf ?? null,
        user_id: opts.user?.user_id ?? null,
        user_name: opts.user?.name ?? 'system',
      })
      .onConflict((oc) => oc.column('key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (row) {
      if (!opts.db) this.runner.wake();
      return { id: row.id, created: true };
    }
    const existing = await db
      .selectFrom('jobs')
      .select('id')
      .where('key', '=', opts.key!)
      .executeTakeFirstOrThrow();
    return { id: existing.id, created: false };
  }

  /**
   * Makes `kind` recurring: each slot of `schedule` (UTC) enqueues one job with `payload`. The slot
   * is claimed in the database (job_schedules), so several processes enqueue it once; a slot
   * missed while no process ran is caught up once at the next start.
   */
  every(kind: string, schedule: Schedule, payload: unknown = {}): void {
    if (!this.definitions.has(kind)) throw new Error(`job kind ${kind} is not defined`);
    latestSlot(schedule, Date.now()); // validates the schedule now rather than in the loop
    this.recurring.set(kind, { kind, schedule, payload, description: describeSchedule(schedule) });
  }

  /**
   * Claims the current slot of every recurring job not yet claimed and enqueues it. The runner calls
   * it on each tick; returns the ids of the jobs it enqueued.
   */
  async enqueueDueSlots(nowMs = Date.now()): Promise<number[]> {
    const ids: number[] = [];
    for (const r of this.recurring.values()) {
      const slot = new Date(latestSlot(r.schedule, nowMs));
      if ((this.triedSlot.get(r.kind) ?? -Infinity) >= slot.getTime()) continue;
      const id = await this.db.transaction().execute(async (trx) => {
        const claimed = await sql<{ name: string }>`
          INSERT INTO job_schedules (name, last_slot) VALUES (${r.kind}, ${slot})
          ON CONFLICT (name) DO UPDATE SET last_slot = excluded.last_slot
          WHERE job_schedules.last_slot < excluded.last_slot
          RETURNING name`.execute(trx);
        if (claimed.rows.length === 0) return null;
        const job = await this.enqueue(r.kind, r.payload, {
          db: trx,
          key: `${r.kind}@${slot.toISOString()}`,
          schedule: r.kind,
        });
        await trx.updateTable('job_schedules').set({ job_id: job.id }).where('name', '=', r.kind).execute();
        return job.id;
      });
      this.triedSlot.set(r.kind, slot.getTime());
      if (id !== null) ids.push(id);
    }
    return ids;
  }

  /**
   * Kills a pending or running job: it is marked killed at once (never retried); a running handler
   * sees its signal aborted (in this process at once, in another at its next heartbeat).
   * Returns false when the job is not pending or running. With `db` (a transaction) the kill
   * commits with it and the caller calls `runner.abortLocal(id, 'killed')` after the commit.
   */
  async kill(id: number, by: string, opts: { db?: Db } = {}): Promise<boolean> {
    const row = await (opts.db ?? this.db)
      .updateTable('jobs')
      .set({
        status: 'killed',
        finished_at: new Date(),
        killed_by: by,
        locked_by: null,
        lease_until: null,
      })
      .where('id', '=', id)
      .where('status', 'in', ['pending', 'running'])
      .returning('id')
      .executeTakeFirst();
    if (!row) return false;
    // Inside the caller's transaction the caller aborts after commit (runner.abortLocal); else now.
    if (!opts.db) this.runner.abortLocal(id, 'killed');
    return true;
  }

  /**
   * Runs a finished, failed or killed job again: a new job with the same kind and payload, linked
   * to the old one (rerun_of). Returns the new id, or null when the job is pending or running.
   */
  async rerun(
    id: number,
    user: { user_id: number | null; name: string },
    opts: { db?: Db } = {},
  ): Promise<number | null> {
    const old = await (opts.db ?? this.db)
      .selectFrom('jobs')
      .select(['kind', 'payload', 'status', 'schedule'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!old || old.status === 'pending' || old.status === 'running') return null;
    const job = await this.enqueue(old.kind, old.payload, {
      user,
      rerunOf: id,
      schedule: old.schedule ?? undefined,
      db: opts.db,
    });
    return job.id;
  }

  /** Starts this process's runner (the server does it when ready). */
  start(): void {
    this.runner.start();
  }

  /** Stops taking jobs; running handlers are aborted and their jobs go back to the queue. */
  stop(): Promise<void> {
    return this.runner.stop();
  }
}
