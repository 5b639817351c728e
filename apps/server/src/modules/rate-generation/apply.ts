import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { actorOf } from '../../http/context';
import { invalidField, notFound, ruleBroken } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { sendToTableUsers } from '../rate-delivery/send';
import { applyRateImport } from '../rates/import/apply';
import { utcText } from '../rates/import/dates';
import type { GenerationSettings } from './job';

/** Download links of the rates sent after an apply stay valid this many days unless a deadline is given. */
const SEND_DAYS = 7;
const JURISDICTION_COLUMNS = ['intra_rate', 'inter_rate', 'ij_rate', 'local_rate'];

/** The rate table a run is applied to or analysed against: it exists and is of the run's type. */
export async function targetTable(db: Db, runType: string, rateTableId: number) {
  const table = await db
    .selectFrom('rate_tables')
    .select(['rate_table_id', 'name', 'rate_type', 'decimal_places', 'code_deck_id'])
    .where('rate_table_id', '=', rateTableId)
    .executeTakeFirst();
  if (!table) throw invalidField('rate_table_id', 'invalidValue', ['rate_table_id']);
  if (table.rate_type !== runType) throw invalidField('rate_table_id', 'rateTableTypeMismatch', [runType]);
  return table;
}

/**
 * Apply to rate table: the generated rates go into a rate table of the same type through the rate
 * import's apply (the same SQL as a file import: end previous rates of the codes, end the codes the
 * result lacks, overwrite a row of the same code and date), all in one transaction with the history
 * update, a rate import task (so the rate import log shows it) and the modification log row. The
 * routing engine rebuilds after commit.
 */
export function registerApply(app: FastifyInstance, s: Services): void {
  implement(app, s, api.rateGeneration.apply, async (ctx) => {
    const b = ctx.body;
    const actor = actorOf(ctx);
    const deadline =
      b.email_template_id === null
        ? null
        : (b.download_deadline ?? new Date(Date.now() + SEND_DAYS * 86_400_000).toISOString());
    const result = await s.db.transaction().execute(async (trx) => {
      const h = await trx
        .selectFrom('rate_generation_history')
        .selectAll()
        .where('id', '=', ctx.params.id)
        .forUpdate()
        .executeTakeFirst();
      if (!h) throw notFound();
      if (h.status !== 'Finished') throw ruleBroken('generationNotFinished');
      if (h.rate_count === 0) throw ruleBroken('generationNoRates');
      const table = await targetTable(trx, h.rate_table_type, b.rate_table_id);
      if (
        b.email_template_id !== null &&
        !(await trx
          .selectFrom('rate_email_templates')
          .select('id')
          .where('id', '=', b.email_template_id)
          .executeTakeFirst())
      )
        throw invalidField('email_template_id', 'invalidValue', ['email_template_id']);
      if (deadline !== null && Date.parse(deadline) <= Date.now())
        throw invalidField('download_deadline', 'deadlineInFuture');
      if (
        b.code_deck_id !== null &&
        !(await trx
          .selectFrom('code_decks')
          .select('code_deck_id')
          .where('code_deck_id', '=', b.code_deck_id)
          .executeTakeFirst())
      )
        throw invalidField('code_deck_id', 'invalidValue', ['code_deck_id']);
      const settings = h.settings as GenerationSettings;
      const interval = b.interval ?? settings.interval;
      const minTime = b.min_time ?? settings.min_time;
      const effective = utcText(Date.parse(b.effective_date));
      const endAbsent = b.end_date_of_existing_codes !== null;
      const options = {
        rate_generation_id: h.id,
        template_name: h.template_name,
        rate_table_name: table.name,
        effective_date: b.effective_date,
        end_date_of_existing_codes: b.end_date_of_existing_codes,
        email_template_id: b.email_template_id,
        interval,
        min_time: minTime,
        code_deck_id: b.code_deck_id ?? table.code_deck_id,
      };
      const task = await trx
        .insertInto('rate_import_tasks')
        .values({
          user_id: actor.user.user_id,
          rate_table_id: table.rate_table_id,
          file_name: `rate_generation_${h.id}`,
          status: api.rates.IMPORT_STATUS.running,
          progress: 0,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const taskId = Number(task.id);
      await trx
        .insertInto('rate_import_results')
        .values({
          task_id: taskId,
          user_name: actor.user.name,
          source: 'rate_generation',
          duplicate_mode: 'overwrite',
          options: JSON.stringify(options),
        })
        .execute();
      await sql`INSERT INTO rate_import_rows (task_id, line, code, code_name, country, rate, intra_rate, inter_rate, ij_rate, local_rate, min_time, "interval", effective_date)
        SELECT ${taskId}::bigint, (row_number() OVER (ORDER BY code))::int, code, code_name, country, rate, intra_rate, inter_rate, ij_rate, local_rate,
          ${minTime}::int, ${interval}::int, ${effective}::timestamptz
        FROM rate_generation_rates WHERE history_id = ${h.id}`.execute(trx);
      const jurisdictional = h.rate_table_type === 'us_jurisdictional';
      const counts = await applyRateImport(trx, {
        taskId,
        rateTableId: table.rate_table_id,
        decimals: table.decimal_places,
        codeDeckId: b.code_deck_id ?? table.code_deck_id,
        present: new Set([
          'code',
          'code_name',
          'country',
          'rate',
          'min_time',
          'interval',
          ...(jurisdictional ? JURISDICTION_COLUMNS : []),
        ]),
        duplicateMode: 'overwrite',
        endPrevious: true,
        endAbsent,
        deleteExisting: false,
        hasCodeDeck: true,
        absentEndDate: endAbsent ? utcText(Date.parse(b.end_date_of_existing_codes!)) : effective,
        maxEffective: effective,
        dbKind: s.dbKind,
      });
      await trx.deleteFrom('rate_import_rows').where('task_id', '=', taskId).execute();
      await trx
        .updateTable('rate_import_results')
        .set({
          total_rows: h.rate_count,
          inserted_rows: counts.inserted,
          updated_rows: counts.updated,
          ended_rows: counts.ended,
          finished_at: new Date(),
        })
        .where('task_id', '=', taskId)
        .execute();
      await trx
        .updateTable('rate_import_tasks')
        .set({ status: api.rates.IMPORT_STATUS.finished, progress: 100 })
        .where('id', '=', taskId)
        .execute();
      await trx
        .updateTable('rate_generation_history')
        .set({
          applied: true,
          applied_at: new Date(),
          rate_table_id: table.rate_table_id,
          rate_table_name: table.name,
          import_task_id: taskId,
        })
        .where('id', '=', h.id)
        .execute();
      await s.audit.record(
        trx,
        actor,
        'rate_generation',
        h.id,
        'apply',
        { applied: h.applied, rate_table_id: h.rate_table_id },
        { ...options, rate_table_id: table.rate_table_id, task_id: taskId, ...counts },
      );
      return { task_id: taskId, inserted: counts.inserted, updated: counts.updated, ended: counts.ended };
    });
    s.configChanged.notify();
    // The new rates are committed; then they go to the carriers using the table (a background send).
    const sent =
      b.email_template_id !== null && deadline !== null
        ? await sendToTableUsers(s, actor, ctx.lang, b.rate_table_id, {
            template_id: b.email_template_id,
            download_deadline: deadline,
          })
        : null;
    return { ...result, send_id: sent?.send_id ?? null, recipients: sent?.recipients ?? 0 };
  });
}
