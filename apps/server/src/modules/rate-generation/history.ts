import { api, csvCell, type Language } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/connection';
import { pageOf, withIsoTimes, newestFirst } from '../../db/paging';
import { actorOf } from '../../http/context';
import { notFound } from '../../http/errors';
import { localize } from '../../http/localize';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import type { GenerationSettings } from './job';
import { money } from './templates';

const HISTORY_COLUMNS = [
  'h.id',
  'h.template_id',
  'h.template_name',
  'h.rate_table_type',
  'h.decimal_places',
  'h.status',
  'h.created_by',
  'h.start_time',
  'h.finish_time',
  'h.rate_date',
  'h.rate_count',
  'h.applied',
  'h.applied_at',
  'h.rate_table_id',
  'h.rate_table_name',
  'h.message',
] as const;

const historyQuery = (db: Db) => db.selectFrom('rate_generation_history as h').select(HISTORY_COLUMNS);
type StoredHistory = Awaited<ReturnType<ReturnType<typeof historyQuery>['executeTakeFirstOrThrow']>>;

/** A stored message ({ key, params } as JSON) in the caller's language. */
function shown(message: string, lang: Language): string {
  if (!message) return '';
  try {
    const m = JSON.parse(message) as { key: string; params?: (string | number)[] };
    return localize.message(m.key, lang, m.params ?? []);
  } catch {
    return message;
  }
}
const historyRow = (r: StoredHistory, lang: Language) => ({
  ...withIsoTimes(r),
  message: shown(r.message, lang),
});

export async function historyOf(db: Db, id: number): Promise<StoredHistory> {
  const row = await historyQuery(db).where('h.id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

const trim = (v: string | null) => (v === null ? null : v.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, ''));

/** History list and detail, the generated rates (paged) and their CSV export. */
export function registerHistory(app: FastifyInstance, s: Services): void {
  implement(app, s, api.rateGeneration.listHistory, async (ctx) => {
    let qb = historyQuery(s.db);
    if (ctx.query.template_id) qb = qb.where('h.template_id', '=', ctx.query.template_id);
    if (ctx.query.status) qb = qb.where('h.status', '=', ctx.query.status);
    const page = await pageOf(
      qb,
      newestFirst(ctx.query),
      {
        id: 'h.id',
        start_time: 'h.start_time',
        finish_time: 'h.finish_time',
        template_name: 'h.template_name',
        status: 'h.status',
        rate_count: 'h.rate_count',
      },
      'start_time',
      'h.id',
    );
    return { items: page.items.map((r) => historyRow(r, ctx.lang)), total: page.total };
  });

  implement(app, s, api.rateGeneration.getHistory, async (ctx) =>
    historyRow(await historyOf(s.db, ctx.params.id), ctx.lang),
  );

  implement(app, s, api.rateGeneration.listGeneratedRates, async (ctx) => {
    const h = await historyOf(s.db, ctx.params.id);
    let qb = s.db.selectFrom('rate_generation_rates as r').selectAll().where('r.history_id', '=', h.id);
    if (ctx.query.code) qb = qb.where('r.code', 'like', `${ctx.query.code.replace(/[\\%_]/g, '')}%`);
    const page = await pageOf(
      qb,
      ctx.query,
      {
        code: 'r.code',
        code_name: 'r.code_name',
        rate: 'r.rate',
        cost: 'r.cost',
        vendor_count: 'r.vendor_count',
      },
      'code',
      'r.code',
    );
    const dp = h.decimal_places;
    return {
      items: page.items.map(({ history_id: _h, ...r }) => ({
        ...r,
        rate: money(r.rate, dp) as string,
        intra_rate: money(r.intra_rate, dp),
        inter_rate: money(r.inter_rate, dp),
        ij_rate: money(r.ij_rate, dp),
        local_rate: money(r.local_rate, dp),
        markup: trim(r.markup),
      })),
      total: page.total,
    };
  });

  implement(app, s, api.rateGeneration.exportGeneratedRates, async (ctx) => {
    const h = await historyOf(s.db, ctx.params.id);
    const settings = (
      await s.db
        .selectFrom('rate_generation_history')
        .select('settings')
        .where('id', '=', h.id)
        .executeTakeFirstOrThrow()
    ).settings as GenerationSettings;
    const rows = await s.db
      .selectFrom('rate_generation_rates')
      .selectAll()
      .where('history_id', '=', h.id)
      .orderBy('code')
      .execute();
    const jurisdictional = h.rate_table_type === 'us_jurisdictional';
    const header = [
      'code',
      'code_name',
      'country',
      'rate',
      ...(jurisdictional ? ['intra_rate', 'inter_rate', 'ij_rate', 'local_rate'] : []),
      'min_time',
      'interval',
      'cost',
      'vendor_trunk',
      'markup_type',
      'markup',
    ];
    const dp = h.decimal_places;
    const lines = rows.map((r) =>
      [
        r.code,
        r.code_name,
        r.country,
        money(r.rate, dp),
        ...(jurisdictional
          ? [money(r.intra_rate, dp), money(r.inter_rate, dp), money(r.ij_rate, dp), money(r.local_rate, dp)]
          : []),
        settings.min_time,
        settings.interval,
        r.cost,
        r.vendor_trunk_name,
        r.markup_type,
        trim(r.markup),
      ]
        .map(csvCell)
        .join(','),
    );
    const fileName = `rate_generation_${h.id}_${h.template_name.replace(/[^\w.-]+/g, '_')}.csv`;
    const actor = actorOf(ctx);
    await s.db
      .insertInto('export_log')
      .values({
        user_id: actor.user.user_id,
        user_name: actor.user.name,
        client_id: null,
        entity: 'rate_generation',
        file_name: fileName,
        status: 'finished',
      })
      .execute();
    ctx.reply
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('content-type', 'text/csv; charset=utf-8')
      .send([header.join(','), ...lines].join('\r\n') + '\r\n');
    return null;
  });
}
