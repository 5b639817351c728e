import fs from 'node:fs';
import { IMPORT_STATUS, type RateImportOptions } from '../contract';
import type { Actor } from '../../../http/context';
import { invalidField, notFound } from '../../../http/errors';
import type { Services } from '../../../services';
import type { ReceivedFile } from '../upload';
import { utcText } from './dates';
import { runRateImport, type RateImportJob } from './rate-import-job';

/** Imports run one after another in the background, each under its own transaction. */
export class JobQueue {
  private tail: Promise<void> = Promise.resolve();
  add(job: () => Promise<void>): Promise<void> {
    const run = this.tail.then(job);
    this.tail = run.catch(() => undefined);
    return run;
  }
  idle(): Promise<void> {
    return this.tail;
  }
}
const queues = new WeakMap<Services, JobQueue>();
export function importQueue(s: Services): JobQueue {
  let q = queues.get(s);
  if (!q) queues.set(s, (q = new JobQueue()));
  return q;
}

const DAY_MS = 86_400_000;

/**
 * Accepts a rate file for a rate table: resolves the options (sent, else the upload template's,
 * else the defaults), records the task ('Insert new rate', counted by the frame) and queues the job.
 * Answers the task id at once.
 */
export async function startRateImport(
  s: Services,
  actor: Actor,
  rateTableId: number,
  file: ReceivedFile<RateImportOptions>,
  source: 'rate_table' | 'auto_rule',
  ruleTemplateId: number | null = null,
): Promise<number> {
  try {
    const o = file.options;
    const table = await s.db
      .selectFrom('rate_tables')
      .select(['rate_table_id', 'name'])
      .where('rate_table_id', '=', rateTableId)
      .executeTakeFirst();
    if (!table) throw notFound();
    const templateId = o.template_id !== undefined ? o.template_id : ruleTemplateId;
    const template = templateId
      ? await s.db
          .selectFrom('rate_upload_templates')
          .selectAll()
          .where('id', '=', templateId)
          .executeTakeFirst()
      : undefined;
    if (templateId && !template) throw invalidField('template_id', 'invalidValue', ['template_id']);
    const defaultEffective = o.default_effective_date
      ? utcText(Date.parse(o.default_effective_date))
      : utcText(Math.floor(Date.now() / 1000) * 1000 + (template?.default_effective_days ?? 0) * DAY_MS);
    const job: Omit<RateImportJob, 'taskId'> = {
      rateTableId,
      filePath: file.filePath,
      fileKind: file.kind,
      duplicateMode: o.duplicate_mode ?? template?.duplicate_mode ?? 'reject',
      dateFormat:
        o.effective_date_format ??
        (template?.effective_date_format as RateImportJob['dateFormat'] | undefined) ??
        'YYYY-MM-DD',
      defaultEffective,
      endPrevious: o.end_previous ?? (template ? template.end_date_option !== 'keep' : true),
      endAbsent: o.end_absent ?? template?.end_date_option === 'end_previous_and_absent',
      deleteExisting: o.delete_existing ?? template?.delete_existing ?? false,
      hasCodeDeck: o.has_code_deck ?? template?.has_code_deck ?? true,
      mapping: o.mapping ? (JSON.parse(o.mapping) as Record<string, string>) : {},
    };
    const taskId = await s.db.transaction().execute(async (trx) => {
      const task = await trx
        .insertInto('rate_import_tasks')
        .values({
          user_id: actor.user.user_id,
          rate_table_id: rateTableId,
          file_name: file.fileName,
          status: IMPORT_STATUS.running,
          progress: 0,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const id = Number(task.id);
      const options = {
        ...job,
        filePath: undefined,
        template_id: templateId ?? 0,
        template_name: template?.name ?? null,
        rate_table_name: table.name,
      };
      await trx
        .insertInto('rate_import_results')
        .values({
          task_id: id,
          user_name: actor.user.name,
          source,
          duplicate_mode: job.duplicateMode,
          options: JSON.stringify(options),
        })
        .execute();
      await s.audit.record(trx, actor, 'rate_table', rateTableId, 'import', null, {
        task_id: id,
        file_name: file.fileName,
        ...options,
      });
      return id;
    });
    void importQueue(s).add(() => runRateImport(s, { ...job, taskId }));
    return taskId;
  } catch (e) {
    fs.rmSync(file.filePath, { force: true });
    throw e;
  }
}
