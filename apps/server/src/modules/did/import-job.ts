import fs from 'node:fs';
import path from 'node:path';
import type { Services } from '../../services';
import { chargeImport, numbersOf, requireVendor, writeNumbers } from './service';

/**
 * A DID CSV file import as the durable job `did.import` (docs/did.md "Import", docs/jobs.md): the
 * request checks the file whole (a bad line refuses it, nothing stored) and queues the job with the
 * import log row in one transaction; the job writes the numbers in steps of IMPORT_STEP, each step
 * one transaction with its history rows and the log row's counts (`done`, inserted, updated,
 * ignored), so a restart resumes after the last step committed and writes nothing twice. The
 * vendor's charge for the numbers added is made once at the end (reference per import), with the
 * log row finished. Progress is on the job (scheduler log) and on the import log row.
 */
export const DID_IMPORT_JOB = 'did.import';
export const IMPORT_STEP = 50_000;

/** Where a CSV waits for its import job (under DATA_DIR; shared by the processes, as the CDR uploads). */
export const didUploadDir = (s: Services) => path.join(s.config.dataDir, 'did-uploads');

export function defineDidImportJob(s: Services, changed: () => void): void {
  s.jobs.define<{ taskId: number }>(
    DID_IMPORT_JOB,
    async ({ taskId }, ctx) => {
      const task = await s.db
        .selectFrom('did_upload_tasks')
        .select([
          'id',
          'path',
          'vendor_id',
          'billing_rule_id',
          'duplicate',
          'user_name',
          'created_at',
          'done',
          'status',
        ])
        .where('id', '=', taskId)
        .executeTakeFirst();
      if (!task) throw new Error(`DID import ${taskId} is gone`);
      if (task.status === 'finished') return { task_id: taskId };
      try {
        if (!task.path || !fs.existsSync(task.path))
          throw new Error(`the file of DID import ${taskId} is gone`);
        if (task.vendor_id === null) throw new Error(`the vendor of DID import ${taskId} is gone`);
        const numbers = numbersOf('file', { numbers: fs.readFileSync(task.path, 'utf8') });
        const now = new Date(task.created_at);
        await s.db
          .updateTable('did_upload_tasks')
          .set({ status: 'running', error: '' })
          .where('id', '=', taskId)
          .execute();
        // Resume after the last step that committed (its count is on the row, written with it).
        for (let done = task.done; done < numbers.length;) {
          ctx.signal.throwIfAborted();
          const step = numbers.slice(done, done + IMPORT_STEP);
          await s.db.transaction().execute(async (trx) => {
            const c = await writeNumbers(trx, {
              taskId,
              vendorId: task.vendor_id as number,
              ruleId: task.billing_rule_id,
              numbers: step,
              duplicate: task.duplicate,
              userName: task.user_name,
              now,
            });
            await trx
              .updateTable('did_upload_tasks')
              .set((eb) => ({
                done: eb('done', '+', step.length),
                inserted: eb('inserted', '+', c.inserted),
                updated: eb('updated', '+', c.updated),
                ignored: eb('ignored', '+', c.ignored),
              }))
              .where('id', '=', taskId)
              .execute();
          });
          done += step.length;
          ctx.progress({ done, total: numbers.length, message: `${done} of ${numbers.length} numbers` });
        }
        const result = await s.db.transaction().execute(async (trx) => {
          const t = await trx
            .selectFrom('did_upload_tasks')
            .select(['inserted', 'updated', 'ignored', 'total'])
            .where('id', '=', taskId)
            .forUpdate()
            .executeTakeFirstOrThrow();
          const vendor = await requireVendor(trx, task.vendor_id as number);
          await chargeImport(
            trx,
            taskId,
            vendor.carrier_id,
            task.billing_rule_id,
            t.inserted,
            now,
            vendor.time_zone,
            task.user_name,
          );
          await trx
            .updateTable('did_upload_tasks')
            .set({ status: 'finished', finished_at: new Date() })
            .where('id', '=', taskId)
            .execute();
          return { task_id: taskId, ...t };
        });
        fs.rmSync(task.path, { force: true });
        changed();
        return result;
      } catch (e) {
        // The log row says why; the runner retries (the steps written stay, the next attempt resumes).
        await s.db
          .updateTable('did_upload_tasks')
          .set({ status: 'failed', error: String((e as Error).message ?? e).slice(0, 500) })
          .where('id', '=', taskId)
          .execute();
        throw e;
      }
    },
    { maxAttempts: 3, backoffMs: 5_000 },
  );
}
