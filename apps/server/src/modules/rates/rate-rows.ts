import { api, ErrorCode, type ListQuery } from '@tandem/contract';
import { rateRowIssues, type RateFilters } from './contract';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/connection';
import { pageOf } from '../../db/paging';
import { actorOf } from '../../http/context';
import { AppError, invalidField, notFound } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import {
  atPlaces,
  RATE_SELECT,
  rateCondition,
  rateState,
  rateTableInfo,
  shownInstant,
  toRateRow,
  touchRateTable,
  type StoredRate,
} from './rate-query';

const SORTABLE = {
  code: 'r.code',
  code_name: 'r.code_name',
  country: 'r.country',
  rate: 'r.rate',
  intra_rate: 'r.intra_rate',
  inter_rate: 'r.inter_rate',
  effective_date: 'r.effective_date',
  end_date: 'r.end_date',
  rate_id: 'r.rate_id',
};
const MONEY = ['rate', 'intra_rate', 'inter_rate', 'ij_rate', 'local_rate', 'setup_fee'] as const;

/** 'the code [{0}] with effective date [{1}] already exists', on the code field. */
const codeEffectiveExists = (code: string, effective: string) =>
  new AppError(ErrorCode.conflict, 'codeEffectiveExists', [code, shownInstant(effective)], 409, {
    code: { key: 'codeEffectiveExists', params: [code, shownInstant(effective)] },
  });

async function checkUniqueCodeDate(
  db: Db,
  tableId: number,
  code: string,
  effective: string,
  exceptId: number | null,
): Promise<void> {
  let q = db
    .selectFrom('rates')
    .select('rate_id')
    .where('rate_table_id', '=', tableId)
    .where('code', '=', code)
    .where('effective_date', '=', new Date(effective));
  if (exceptId !== null) q = q.where('rate_id', '!=', exceptId);
  if (await q.executeTakeFirst()) throw codeEffectiveExists(code, effective);
}

function checkIssues(v: { effective_date?: string | null; end_date?: string | null }): void {
  const issue = rateRowIssues(v)[0];
  if (issue) throw invalidField(issue.field, issue.key, [issue.field]);
}

/** Amounts of a body rounded to the table's decimal places. */
function rounded<T extends Record<string, unknown>>(body: T, dp: number): T {
  const out: Record<string, unknown> = { ...body };
  for (const m of MONEY) if (typeof out[m] === 'string') out[m] = atPlaces(out[m], dp);
  return out as T;
}

/** One page of a rate table's rates (the rate editing page, and the agent portal's View Rates). */
export async function ratePage(db: Db, tableId: number, q: ListQuery & RateFilters) {
  const t = await rateTableInfo(db, tableId);
  const qb = db
    .selectFrom('rates as r')
    .select(RATE_SELECT)
    .select(rateState.as('state'))
    .where(rateCondition(t.rate_table_id, q));
  const page = await pageOf(qb, q, SORTABLE, 'code', 'r.rate_id');
  return {
    items: page.items.map((r) => toRateRow(r as StoredRate, t.decimal_places)),
    total: page.total,
    decimal_places: t.decimal_places,
  };
}

/** The rate editing page: list with server paging and filters, add, change, end-date and delete rows. */
export function registerRateRows(app: FastifyInstance, s: Services): void {
  implement(app, s, api.rates.listRates, (ctx) => ratePage(s.db, ctx.params.id, ctx.query));

  implement(app, s, api.rates.createRate, async (ctx) => {
    checkIssues(ctx.body);
    const id = await s.db.transaction().execute(async (trx) => {
      const t = await rateTableInfo(trx, ctx.params.id, true);
      const body = rounded(ctx.body, t.decimal_places);
      await checkUniqueCodeDate(trx, t.rate_table_id, body.code, body.effective_date, null);
      const row = await trx
        .insertInto('rates')
        .values({ ...body, rate_table_id: t.rate_table_id })
        .returning('rate_id')
        .executeTakeFirstOrThrow();
      await touchRateTable(trx, t.rate_table_id, actorOf(ctx).user.name);
      await s.audit.record(trx, actorOf(ctx), 'rate', row.rate_id, 'create', null, {
        rate_table_id: t.rate_table_id,
        ...body,
      });
      return Number(row.rate_id);
    });
    s.configChanged.notify();
    return { object_id: id };
  });

  implement(app, s, api.rates.updateRate, async (ctx) => {
    await s.db.transaction().execute(async (trx) => {
      const t = await rateTableInfo(trx, ctx.params.id, true);
      const before = await trx
        .selectFrom('rates')
        .selectAll()
        .where('rate_id', '=', ctx.params.rate_id)
        .where('rate_table_id', '=', t.rate_table_id)
        .executeTakeFirst();
      if (!before) throw notFound();
      const body = rounded(ctx.body, t.decimal_places);
      const merged = {
        code: body.code ?? before.code,
        effective_date: body.effective_date ?? before.effective_date.toISOString(),
        end_date: body.end_date !== undefined ? body.end_date : (before.end_date?.toISOString() ?? null),
      };
      checkIssues(merged);
      if (body.code !== undefined || body.effective_date !== undefined)
        await checkUniqueCodeDate(trx, t.rate_table_id, merged.code, merged.effective_date, before.rate_id);
      if (Object.keys(body).length)
        await trx.updateTable('rates').set(body).where('rate_id', '=', before.rate_id).execute();
      const changed = Object.fromEntries(Object.keys(body).map((k) => [k, before[k as keyof typeof before]]));
      await touchRateTable(trx, t.rate_table_id, actorOf(ctx).user.name);
      await s.audit.record(trx, actorOf(ctx), 'rate', before.rate_id, 'update', changed, body);
    });
    s.configChanged.notify();
    return null;
  });

  implement(app, s, api.rates.deleteRate, async (ctx) => {
    await s.db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('rates')
        .selectAll()
        .where('rate_id', '=', ctx.params.rate_id)
        .where('rate_table_id', '=', ctx.params.id)
        .executeTakeFirst();
      if (!before) throw notFound();
      await trx.deleteFrom('rates').where('rate_id', '=', before.rate_id).execute();
      await touchRateTable(trx, before.rate_table_id, actorOf(ctx).user.name);
      await s.audit.record(trx, actorOf(ctx), 'rate', before.rate_id, 'delete', before, null);
    });
    s.configChanged.notify();
    return null;
  });

  implement(app, s, api.rates.endRates, async (ctx) => {
    const end = new Date(ctx.body.end_date);
    const affected = await s.db.transaction().execute(async (trx) => {
      const t = await rateTableInfo(trx, ctx.params.id, true);
      const rows = await trx
        .selectFrom('rates')
        .select(['rate_id', 'code', 'effective_date'])
        .where('rate_table_id', '=', t.rate_table_id)
        .where('rate_id', 'in', ctx.body.rate_ids)
        .execute();
      if (rows.length !== new Set(ctx.body.rate_ids).size) throw notFound();
      if (rows.some((r) => r.effective_date.getTime() >= end.getTime()))
        throw invalidField('end_date', 'effectiveBeforeEnd', ['end_date']);
      const r = await trx
        .updateTable('rates')
        .set({ end_date: end })
        .where('rate_table_id', '=', t.rate_table_id)
        .where('rate_id', 'in', ctx.body.rate_ids)
        .executeTakeFirst();
      await touchRateTable(trx, t.rate_table_id, actorOf(ctx).user.name);
      await s.audit.record(trx, actorOf(ctx), 'rate_table', t.rate_table_id, 'end_rates', null, {
        rate_ids: ctx.body.rate_ids,
        end_date: ctx.body.end_date,
      });
      return Number(r.numUpdatedRows);
    });
    s.configChanged.notify();
    return { affected };
  });
}
