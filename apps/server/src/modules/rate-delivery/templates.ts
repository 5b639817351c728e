import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { likeContains } from '../../db/paging';
import { actorOf } from '../../http/context';
import { implementCrud } from '../../http/crud';
import type { Services } from '../../services';

/**
 * Template > Rate Email Template on the shared CRUD: unique name, download method, From, CC, subject
 * and content with tags, file format. Sends keep a copy of the template they used, so a template
 * can be changed or deleted at any time; its usage count is the number of sends made with it.
 */
export function registerRateEmailTemplates(app: FastifyInstance, s: Services): void {
  implementCrud(app, s, api.rateDelivery.rateEmailTemplate, {
    table: 'rate_email_templates',
    id: 'id',
    entity: 'rate_email_template',
    label: 'Rate Email Template',
    select: (db) =>
      db
        .selectFrom('rate_email_templates as t')
        .select([
          't.id',
          't.name',
          't.download_method',
          't.from_email',
          't.cc',
          't.subject',
          't.content',
          't.file_format',
          't.updated_at',
          't.updated_by',
        ])
        .select(
          sql<number>`(select count(*)::int from rate_sends x where x.template_id = t.id)`.as('usage_count'),
        ),
    selectId: 't.id',
    sortable: {
      name: 't.name',
      id: 't.id',
      download_method: 't.download_method',
      from_email: 't.from_email',
      updated_at: 't.updated_at',
    },
    defaultSort: 'name',
    filter: (qb, q) => (q.name ? qb.where(sql.ref('t.name'), 'ilike', likeContains(q.name)) : qb),
    unique: [{ column: 'name', field: 'name' }],
    validate: async (_trx, body, _before, ctx) => {
      body.updated_by = actorOf(ctx).user.name;
    },
    toColumns: (b) => ({ ...b, updated_at: new Date() }),
  });
}
