import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../http/context';
import { notFound } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { importQueue } from '../rates/import/start';
import { registerAnalysis } from './analysis';
import { registerApply } from './apply';
import { registerHistory } from './history';
import { runGeneration, type GenerationSettings } from './job';
import { registerTemplates } from './templates';

/**
 * Tools > Rate Generation: templates, generation runs (background jobs, queued with the rate
 * imports), their history and generated rates, their analysis against a rate table and the apply
 * to a rate table.
 */
export function registerRateGeneration(app: FastifyInstance, s: Services): void {
  registerTemplates(app, s);
  registerHistory(app, s);
  registerApply(app, s);
  registerAnalysis(app, s);

  implement(app, s, api.rateGeneration.generate, async (ctx) => {
    const actor = actorOf(ctx);
    const rateDate = ctx.body.rate_date ? new Date(ctx.body.rate_date) : new Date();
    const id = await s.db.transaction().execute(async (trx) => {
      const t = await trx
        .selectFrom('rate_generation_templates')
        .selectAll()
        .where('id', '=', ctx.params.id)
        .executeTakeFirst();
      if (!t) throw notFound();
      const trunks = await trx
        .selectFrom('rate_generation_template_trunks')
        .select('trunk_id')
        .where('template_id', '=', t.id)
        .orderBy('position')
        .execute();
      const settings: GenerationSettings = {
        name: t.name,
        rate_table_type: t.rate_table_type,
        lcr_basis: t.lcr_basis,
        average_count: t.average_count,
        default_rate: t.default_rate,
        decimal_places: t.decimal_places,
        code_deck_id: t.code_deck_id,
        egress_trunks: trunks.map((x) => x.trunk_id),
        margins: t.margins as GenerationSettings['margins'],
        interval: t.interval,
        min_time: t.min_time,
      };
      const h = await trx
        .insertInto('rate_generation_history')
        .values({
          template_id: t.id,
          template_name: t.name,
          settings: JSON.stringify(settings),
          rate_table_type: t.rate_table_type,
          decimal_places: t.decimal_places,
          user_id: actor.user.user_id,
          created_by: actor.user.name,
          rate_date: rateDate,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const historyId = Number(h.id);
      await s.audit.record(trx, actor, 'rate_generation', historyId, 'generate', null, {
        template_id: t.id,
        rate_date: rateDate.toISOString(),
        settings,
      });
      return historyId;
    });
    void importQueue(s).add(() => runGeneration(s, id));
    return { object_id: id };
  });
}
