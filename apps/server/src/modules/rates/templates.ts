import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { likeContains } from '../../db/paging';
import { actorOf } from '../../http/context';
import { implementCrud } from '../../http/crud';
import { invalidField, notFound, ruleBroken } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { startRateImport } from './import/start';
import { receiveUpload } from './upload';

const n = sql<number>`count(*)::int`.as('n');

/** Template > Rate Upload Template, and Tools > Auto Rate Import Rules with their upload path. */
export function registerRateTemplates(app: FastifyInstance, s: Services): void {
  implementCrud(app, s, api.rates.uploadTemplate, {
    table: 'rate_upload_templates',
    id: 'id',
    entity: 'rate_upload_template',
    label: 'Rate Upload Template',
    select: (db) =>
      db
        .selectFrom('rate_upload_templates as u')
        .select([
          'u.id',
          'u.name',
          'u.delete_existing',
          'u.end_date_option',
          'u.effective_date_format',
          'u.has_code_deck',
          'u.default_effective_days',
          'u.duplicate_mode',
          'u.updated_at',
          'u.updated_by',
        ])
        .select(
          sql<number>`(select count(*)::int from auto_rate_import_rules a where a.template_id = u.id)`.as(
            'usage_count',
          ),
        ),
    selectId: 'u.id',
    sortable: { name: 'u.name', id: 'u.id', updated_at: 'u.updated_at' },
    defaultSort: 'name',
    filter: (qb, q) => (q.name ? qb.where(sql.ref('u.name'), 'ilike', likeContains(q.name)) : qb),
    unique: [{ column: 'name', field: 'name' }],
    validate: async (_trx, body, _before, ctx) => {
      body.updated_by = actorOf(ctx).user.name;
    },
    toColumns: (b) => ({ ...b, updated_at: new Date() }),
    usage: async (db, id) => {
      const r = await db
        .selectFrom('auto_rate_import_rules')
        .select(n)
        .where('template_id', '=', id)
        .executeTakeFirstOrThrow();
      return [{ what: 'auto rate import rule(s)', count: Number(r.n) }];
    },
  });

  implementCrud(app, s, api.rates.autoImportRule, {
    table: 'auto_rate_import_rules',
    id: 'id',
    entity: 'auto_rate_import_rule',
    label: 'Auto Rate Import Rule',
    select: (db) =>
      db
        .selectFrom('auto_rate_import_rules as a')
        .innerJoin('rate_tables as t', 't.rate_table_id', 'a.rate_table_id')
        .leftJoin('rate_upload_templates as u', 'u.id', 'a.template_id')
        .select([
          'a.id',
          'a.name',
          'a.rate_table_id',
          't.name as rate_table_name',
          'a.template_id',
          'u.name as template_name',
          'a.email_subject',
          'a.is_active',
          'a.updated_at',
        ])
        .select(
          sql<Date | null>`(select max(k.created_at) from rate_import_tasks k join rate_import_results x on x.task_id = k.id where x.source = 'auto_rule' and k.rate_table_id = a.rate_table_id)`.as(
            'last_import_at',
          ),
        ),
    selectId: 'a.id',
    sortable: { name: 'a.name', id: 'a.id', rate_table_name: 't.name', updated_at: 'a.updated_at' },
    defaultSort: 'name',
    filter: (qb, q) => {
      let r = q.name ? qb.where(sql.ref('a.name'), 'ilike', likeContains(q.name)) : qb;
      if (q.rate_table_id) r = r.where(sql.ref('a.rate_table_id'), '=', q.rate_table_id);
      return r;
    },
    unique: [{ column: 'name', field: 'name' }],
    validate: async (trx, body, _before, ctx) => {
      body.updated_by = actorOf(ctx).user.name;
      if (
        typeof body.rate_table_id === 'number' &&
        !(await trx
          .selectFrom('rate_tables')
          .select('rate_table_id')
          .where('rate_table_id', '=', body.rate_table_id)
          .executeTakeFirst())
      )
        throw invalidField('rate_table_id', 'invalidValue', ['rate_table_id']);
      if (body.template_id === 0) body.template_id = null; // 'Use no template'
      if (
        typeof body.template_id === 'number' &&
        !(await trx
          .selectFrom('rate_upload_templates')
          .select('id')
          .where('id', '=', body.template_id)
          .executeTakeFirst())
      )
        throw invalidField('template_id', 'invalidValue', ['template_id']);
    },
    toColumns: (b) => ({ ...b, updated_at: new Date() }),
    toRow: (r) => ({
      ...r,
      updated_at: (r.updated_at as Date).toISOString(),
      last_import_at: r.last_import_at ? new Date(r.last_import_at as string).toISOString() : null,
    }),
  });

  implement(app, s, api.rates.uploadByRule, async (ctx) => {
    const rule = await s.db
      .selectFrom('auto_rate_import_rules')
      .selectAll()
      .where('id', '=', ctx.params.id)
      .executeTakeFirst();
    if (!rule) throw notFound();
    if (!rule.is_active) throw ruleBroken('ruleInactive');
    const file = await receiveUpload(s, ctx as never, api.rates.rateImportOptions);
    return {
      object_id: await startRateImport(
        s,
        actorOf(ctx),
        rule.rate_table_id,
        file,
        'auto_rule',
        rule.template_id,
      ),
    };
  });
}
