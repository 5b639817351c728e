import { PassThrough, Readable } from 'node:stream';
import { api, csvCell } from '@tandem/contract';
import { RATE_COLUMNS, RATE_FILE_COLUMNS, type RateFilters } from './contract';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/connection';
import { pageOf, newestFirst } from '../../db/paging';
import { actorOf } from '../../http/context';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import {
  RATE_SELECT,
  rateCondition,
  rateState,
  rateTableInfo,
  toRateRow,
  touchRateTable,
  type RateTableInfo,
  type StoredRate,
} from './rate-query';

/** The matching rates in pages of 10,000 (keyset on code and id), so an export never holds a whole table. */
async function* ratePages(db: Db, tableId: number, f: RateFilters, dp: number, extra?: RawBuilder<boolean>) {
  let after: { code: string; id: number } | null = null;
  for (;;) {
    let qb = db
      .selectFrom('rates as r')
      .select(RATE_SELECT)
      .select(rateState.as('state'))
      .where(rateCondition(tableId, f));
    if (extra) qb = qb.where(extra);
    if (after) qb = qb.where(sql<boolean>`(r.code, r.rate_id) > (${after.code}, ${after.id})`);
    const rows = (await qb.orderBy('r.code').orderBy('r.rate_id').limit(10000).execute()) as StoredRate[];
    if (!rows.length) return;
    yield rows.map((r) => toRateRow(r, dp));
    const last = rows[rows.length - 1]!;
    after = { code: last.code, id: Number(last.rate_id) };
  }
}

const fileValue = (row: Record<string, unknown>, c: (typeof RATE_FILE_COLUMNS)[number]) => {
  const v = row[c];
  return v === null || v === undefined ? null : (v as string | number);
};

/** The expression of one mass edit change on a money column, rounded to the table's places. */
function changeExpr(col: string, action: string, value: string, dp: number): RawBuilder<unknown> | null {
  const c = sql.ref(col);
  const v = sql`${value}::numeric`;
  switch (action) {
    case 'set_to':
      return sql`round(${v}, ${dp}::int)`;
    case 'increase_by':
      return sql`round(${c} + ${v}, ${dp}::int)`;
    case 'decrease_by':
      return sql`greatest(round(${c} - ${v}, ${dp}::int), 0)`;
    case 'multiply_by':
      return sql`round(${c} * ${v}, ${dp}::int)`;
    default:
      return null;
  }
}

export const RATE_FILE_MIME = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

/**
 * The rate file of a table (CSV or XLSX, the columns of RATE_FILE_COLUMNS) for the matching rates,
 * streamed page by page: the export sends it, rate sends keep it. `extra` narrows the rows further.
 */
export function rateFileStream(
  db: Db,
  t: RateTableInfo,
  filters: RateFilters,
  format: 'csv' | 'xlsx',
  extra?: RawBuilder<boolean>,
): Readable {
  if (format === 'csv') {
    const lines = async function* () {
      yield RATE_FILE_COLUMNS.join(',') + '\r\n';
      for await (const page of ratePages(db, t.rate_table_id, filters, t.decimal_places, extra)) {
        yield (
          page.map((r) => RATE_FILE_COLUMNS.map((c) => csvCell(fileValue(r, c))).join(',')).join('\r\n') +
          '\r\n'
        );
      }
    };
    return Readable.from(lines());
  }
  const out = new PassThrough();
  const write = async () => {
    const book = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: out,
      useSharedStrings: false,
      useStyles: false,
    });
    const sheet = book.addWorksheet('rates');
    sheet.addRow([...RATE_FILE_COLUMNS]).commit();
    const money = new Set<string>(['rate', 'intra_rate', 'inter_rate', 'ij_rate', 'local_rate', 'setup_fee']);
    for await (const page of ratePages(db, t.rate_table_id, filters, t.decimal_places, extra)) {
      for (const r of page) {
        // Amounts go out as spreadsheet numbers (at most 6 decimals: the double prints the same text back).
        sheet
          .addRow(
            RATE_FILE_COLUMNS.map((c) => {
              const v = fileValue(r, c);
              return money.has(c) && typeof v === 'string' ? Number(v) : v;
            }),
          )
          .commit();
      }
    }
    sheet.commit();
    await book.commit();
  };
  write().catch((e: unknown) => out.destroy(e instanceof Error ? e : new Error(String(e))));
  return out;
}

/** Rate export (CSV, XLSX) and rate mass edit with its log. */
export function registerRateTools(app: FastifyInstance, s: Services): void {
  implement(app, s, api.rates.exportRates, async (ctx) => {
    const t = await rateTableInfo(s.db, ctx.params.id);
    const { format, ...filters } = ctx.query;
    const stamp = new Date().toISOString().slice(0, 10);
    const fileName = `${t.name.replace(/[^\w.-]+/g, '_')}_${stamp}.${format}`;
    const actor = actorOf(ctx);
    await s.db
      .insertInto('export_log')
      .values({
        user_id: actor.user.user_id,
        user_name: actor.user.name,
        client_id: null,
        entity: 'rate_table',
        file_name: fileName,
        status: 'finished',
      })
      .execute();
    ctx.reply
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('content-type', RATE_FILE_MIME[format])
      .send(rateFileStream(s.db, t, filters, format));
    return null;
  });

  implement(app, s, api.rates.massEdit, async (ctx) => {
    const { filter, rate_ids, changes } = ctx.body;
    const affected = await s.db.transaction().execute(async (trx) => {
      const t = await rateTableInfo(trx, ctx.params.id, true);
      const sets: RawBuilder<unknown>[] = [];
      const actions: Record<string, { action: string; value?: string }> = {};
      for (const col of RATE_COLUMNS) {
        const ch = changes[col];
        if (!ch || ch.action === 'no_change' || ch.value === undefined) continue;
        const e = changeExpr(col, ch.action, ch.value, t.decimal_places);
        if (!e) continue;
        sets.push(sql`${sql.ref(col)} = ${e}`);
        actions[col] = { action: ch.action, value: ch.value };
      }
      let n = 0;
      if (sets.length) {
        const r =
          await sql`UPDATE rates r SET ${sql.join(sets)} WHERE ${rateCondition(t.rate_table_id, filter, rate_ids)}`.execute(
            trx,
          );
        n = Number(r.numAffectedRows ?? 0);
        await touchRateTable(trx, t.rate_table_id, actorOf(ctx).user.name);
      }
      const actor = actorOf(ctx);
      await trx
        .insertInto('rate_mass_edit_log')
        .values({
          rate_table_id: t.rate_table_id,
          rate_table_name: t.name,
          user_id: actor.user.user_id,
          user_name: actor.user.name,
          filter: JSON.stringify({ ...filter, ...(rate_ids ? { rate_ids } : {}) }),
          actions: JSON.stringify(actions),
          affected_rows: n,
        })
        .execute();
      await s.audit.record(trx, actor, 'rate_table', t.rate_table_id, 'mass_edit', null, {
        filter,
        rate_ids,
        actions,
        affected: n,
      });
      return n;
    });
    s.configChanged.notify();
    return { affected };
  });

  implement(app, s, api.rates.listMassEditLog, async (ctx) => {
    let qb = s.db
      .selectFrom('rate_mass_edit_log')
      .select([
        'id',
        'rate_table_id',
        'rate_table_name',
        'user_name',
        'filter',
        'actions',
        'affected_rows',
        'created_at',
      ]);
    if (ctx.query.rate_table_id) qb = qb.where('rate_table_id', '=', ctx.query.rate_table_id);
    const page = await pageOf(
      qb,
      newestFirst(ctx.query),
      { created_at: 'created_at', rate_table_name: 'rate_table_name', affected_rows: 'affected_rows' },
      'created_at',
      'id',
    );
    return {
      items: page.items.map((r) => ({
        ...r,
        id: Number(r.id),
        filter: r.filter as Record<string, unknown>,
        actions: r.actions as Record<string, unknown>,
        created_at: r.created_at.toISOString(),
      })),
      total: page.total,
    };
  });
}
