import fs from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { allows, csvCell, type AccessLevel, type UserType } from '@tandem/contract';
import { z } from 'zod';
import type { Db } from '../db/connection';
import type { Actor } from '../http/context';
import { forbidden, invalidField } from '../http/errors';
import { parseInput } from '../http/register';
import type { JobContext, Jobs } from './queue';

/** Who started an export, as its rows function sees it (tenancy: a portal user's own carrier). */
export interface ExportUser {
  user_id: number;
  name: string;
  type: UserType;
  clientId: number | null;
  agentId: number | null;
}

export interface ExportDefinition<F> {
  /** Who may start it: an admin needs `func` at `level`; the portal types listed may too (rows must scope them). */
  permission: { func: string; level: AccessLevel; portal?: readonly UserType[] };
  /** The filter it accepts (validated at start: bad input answers 110 naming `filter.<field>`). */
  filter: z.ZodType<F>;
  /** CSV columns in order: `key` of the row objects, `header` in the file's first line. */
  columns: readonly { key: string; header: string }[];
  /** The rows, streamed: read the database in pages, never all at once. */
  rows: (filter: F, user: ExportUser) => AsyncIterable<Record<string, unknown>>;
  /** How many rows there will be, for the progress (optional). */
  count?: (filter: F, user: ExportUser) => Promise<number>;
  /** Base of the file name (default: the kind); the date and .csv are added. */
  fileName?: string;
  /** Entity shown in the export log (default: the kind). */
  entity?: string;
}

interface ExportPayload {
  exportId: number;
  kind: string;
  filter: unknown;
  user: ExportUser;
}

export const EXPORT_JOB = 'export.csv';
const PROGRESS_EVERY = 200;

/**
 * services.exports: CSV exports written in the background (docs/jobs.md "Exports"). An area
 * registers a kind once; `POST /export/create` starts it as a job that writes the file under
 * EXPORT_DIR with progress, listed in the export log and downloadable by its owner only.
 */
export class Exports {
  private readonly kinds = new Map<string, ExportDefinition<never>>();

  constructor(
    private readonly db: Db,
    private readonly jobs: Jobs,
    readonly dir: string,
  ) {
    jobs.define<ExportPayload>(EXPORT_JOB, (p, ctx) => this.write(p, ctx), { maxAttempts: 2 });
  }

  register<F>(kind: string, def: ExportDefinition<F>): void {
    if (this.kinds.has(kind)) throw new Error(`export kind ${kind} is registered twice`);
    this.kinds.set(kind, def as unknown as ExportDefinition<never>);
  }

  /** Checks the kind, the caller's permission and the filter, then logs and queues the export. */
  async start(kind: string, filter: unknown, actor: Actor): Promise<{ exportId: number; jobId: number }> {
    const def = this.kinds.get(kind);
    if (!def) throw invalidField('kind', 'mustBeOneOf', ['kind', [...this.kinds.keys()].join(', ')]);
    const p = def.permission;
    if (actor.type === 'admin' ? !allows(actor.grants, p.func, p.level) : !p.portal?.includes(actor.type))
      throw forbidden();
    const parsed = (parseInput(z.object({ filter: def.filter }), { filter }) as { filter: unknown }).filter;
    const user: ExportUser = {
      user_id: actor.user.user_id,
      name: actor.user.name,
      type: actor.type,
      clientId: actor.clientId,
      agentId: actor.agentId,
    };
    const fileName = `${def.fileName ?? kind}-${new Date().toISOString().slice(0, 10)}.csv`;
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('export_log')
        .values({
          user_id: user.user_id,
          user_name: user.name,
          client_id: user.clientId,
          entity: def.entity ?? kind,
          kind,
          file_name: fileName,
          status: 'pending',
          filter: JSON.stringify(parsed ?? {}),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const job = await this.jobs.enqueue<ExportPayload>(
        EXPORT_JOB,
        { exportId: row.id, kind, filter: parsed, user },
        { db: trx, user: { user_id: user.user_id, name: user.name } },
      );
      await trx.updateTable('export_log').set({ job_id: job.id }).where('id', '=', row.id).execute();
      return { exportId: row.id, jobId: job.id };
    });
  }

  /** The file of an export (its place under the export folder). */
  filePath(exportId: number): string {
    return path.join(this.dir, `export-${exportId}.csv`);
  }

  private async write(p: ExportPayload, ctx: JobContext): Promise<unknown> {
    const def = this.kinds.get(p.kind);
    if (!def) throw new Error(`export kind ${p.kind} is not registered`);
    const filter = p.filter as never;
    const total = def.count ? await def.count(filter, p.user) : null;
    ctx.progress({ done: 0, total, message: 'writing' });
    fs.mkdirSync(this.dir, { recursive: true });
    const final = this.filePath(p.exportId);
    const part = `${final}.part`;
    const out = fs.createWriteStream(part);
    const put = async (line: string) => {
      if (!out.write(line)) await once(out, 'drain');
    };
    let n = 0;
    try {
      await put('\uFEFF' + def.columns.map((c) => csvCell(c.header)).join(',') + '\r\n');
      for await (const row of def.rows(filter, p.user)) {
        await put(def.columns.map((c) => csvCell(row[c.key])).join(',') + '\r\n');
        n++;
        if (n % PROGRESS_EVERY === 0) {
          ctx.signal.throwIfAborted();
          ctx.progress({ done: n, total: total === null ? null : Math.max(total, n) });
        }
      }
      ctx.signal.throwIfAborted();
      out.end();
      await once(out, 'finish');
      fs.renameSync(part, final);
    } catch (err) {
      out.destroy();
      fs.rmSync(part, { force: true });
      throw err;
    }
    const size = fs.statSync(final).size;
    await this.db
      .updateTable('export_log')
      .set({ path: path.basename(final), size_bytes: size, row_count: n, status: 'finished' })
      .where('id', '=', p.exportId)
      .execute();
    ctx.progress({ done: n, total: n, message: 'done' });
    return { rows: n, bytes: size };
  }
}
