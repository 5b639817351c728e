import { api, type ListQuery } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { likeContains, pageOf, withinTime, withIsoTimes, newestFirst } from '../../db/paging';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { rateTableInfo } from '../rates/rate-query';

interface LogFilters extends ListQuery {
  time_from?: string;
  time_to?: string;
  rate_table_id?: number;
  client_id?: number;
  send_id?: number;
  status?: api.rateDelivery.DeliveryStatus;
  email?: string;
}

/** One page of the rate delivery log (one row per recipient of each send), newest first by default. */
async function deliveryPage(s: Services, q: LogFilters) {
  let qb = s.db
    .selectFrom('rate_deliveries as d')
    .innerJoin('rate_sends as x', 'x.id', 'd.send_id')
    .select([
      'd.id',
      'd.send_id',
      'x.rate_table_id',
      'x.rate_table_name',
      'd.client_id',
      'd.carrier_name',
      'd.email',
      'x.template_name',
      'x.download_method',
      'x.file_name',
      'd.status',
      'd.error',
      'd.sent_at',
      'x.download_deadline',
      'd.downloaded_at',
      'd.download_ip',
      'd.download_count',
      'd.reminder_count',
      'd.reminded_at',
      'x.user_name',
      'd.created_at',
    ]);
  qb = withinTime(qb, 'd.created_at', q.time_from, q.time_to);
  if (q.rate_table_id) qb = qb.where('x.rate_table_id', '=', q.rate_table_id);
  if (q.client_id) qb = qb.where('d.client_id', '=', q.client_id);
  if (q.send_id) qb = qb.where('d.send_id', '=', q.send_id);
  if (q.status) qb = qb.where('d.status', '=', q.status);
  if (q.email) qb = qb.where(sql.ref('d.email'), 'ilike', likeContains(q.email));
  const page = await pageOf(
    qb,
    newestFirst(q),
    {
      created_at: 'd.created_at',
      carrier_name: 'd.carrier_name',
      email: 'd.email',
      status: 'd.status',
      rate_table_name: 'x.rate_table_name',
      sent_at: 'd.sent_at',
      downloaded_at: 'd.downloaded_at',
    },
    'created_at',
    'd.id',
  );
  return {
    items: page.items.map((r) => ({ ...withIsoTimes(r), id: Number(r.id) })),
    total: page.total,
  };
}

/** Log > Rate Delivery Log, and the same log of one rate table (Routing > Rate Table > send rate log). */
export function registerDeliveryLog(app: FastifyInstance, s: Services): void {
  implement(app, s, api.rateDelivery.listDeliveryLog, async (ctx) => deliveryPage(s, ctx.query));
  implement(app, s, api.rateDelivery.listSendRateLog, async (ctx) => {
    await rateTableInfo(s.db, ctx.params.id);
    return deliveryPage(s, { ...ctx.query, rate_table_id: ctx.params.id });
  });
}
