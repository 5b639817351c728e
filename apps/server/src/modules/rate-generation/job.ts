import type { api, MessageKey } from '@tandem/contract';
import { formatMoney, generateRates, type ColumnPrice, type RateGenVendor } from '@tandem/domain';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/connection';
import type { Services } from '../../services';

/** The template as a run copies it at its start (history.settings). */
export type GenerationSettings = z.output<typeof api.rateGeneration.templateFields>;

const VENDOR_COLUMNS = sql.raw(`code, code_name, country, rate::text AS rate, intra_rate::text AS intra_rate,
  inter_rate::text AS inter_rate, ij_rate::text AS ij_rate, local_rate::text AS local_rate,
  (extract(epoch FROM effective_date) * 1000)::float8 AS effective_date,
  (extract(epoch FROM end_date) * 1000)::float8 AS end_date`);

const text = (p: ColumnPrice | null): string | null => (p === null ? null : formatMoney(p.rate, 6));

/**
 * Runs one generation (queued behind rate imports): reads the egress trunks' rate tables (rows
 * effective at the run's rate date) and the code deck, computes the rates in the domain, then
 * stores them and marks the run Finished in one transaction. A failure marks it Failed with the
 * reason and leaves no rates behind.
 */
export async function runGeneration(s: Services, historyId: number): Promise<void> {
  const db = s.db;
  try {
    const h = await db
      .selectFrom('rate_generation_history')
      .select(['settings', 'rate_date'])
      .where('id', '=', historyId)
      .executeTakeFirstOrThrow();
    const settings = h.settings as GenerationSettings;
    const at = new Date(h.rate_date);
    const vendors = await vendorRates(db, settings.egress_trunks, at);
    const codes =
      settings.code_deck_id === null
        ? null
        : await db
            .selectFrom('codes')
            .select(['code', 'code_name', 'country'])
            .where('code_deck_id', '=', settings.code_deck_id)
            .execute();
    const generated = generateRates(settings, vendors.list, codes, at.getTime());
    const rows = generated.map((g) => {
      const range = g.rate.margin_index === null ? null : settings.margins[g.rate.margin_index];
      return {
        history_id: historyId,
        code: g.code,
        code_name: g.code_name,
        country: g.country,
        rate: formatMoney(g.rate.rate, 6),
        intra_rate: text(g.intra_rate),
        inter_rate: text(g.inter_rate),
        ij_rate: text(g.ij_rate),
        local_rate: text(g.local_rate),
        cost: g.rate.cost === null ? null : formatMoney(g.rate.cost, 6),
        vendor_trunk_id: g.rate.trunk_id,
        vendor_trunk_name: g.rate.trunk_id === null ? null : (vendors.names.get(g.rate.trunk_id) ?? null),
        markup_type: range?.markup_type ?? null,
        markup: range?.markup ?? null,
        source: g.source,
        vendor_count: g.rate.vendor_count,
      };
    });
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 2000)
        await trx
          .insertInto('rate_generation_rates')
          .values(rows.slice(i, i + 2000))
          .execute();
      await trx
        .updateTable('rate_generation_history')
        .set({
          status: 'Finished',
          rate_count: rows.length,
          finish_time: new Date(),
          message: rows.length ? '' : messageOf('generationNoRates'),
        })
        .where('id', '=', historyId)
        .execute();
    });
  } catch (err) {
    s.log.error({ err, historyId }, 'rate generation failed');
    await db
      .updateTable('rate_generation_history')
      .set({ status: 'Failed', finish_time: new Date(), message: messageOf('generationFailed') })
      .where('id', '=', historyId)
      .execute()
      .catch((e: unknown) => s.log.error({ err: e }, 'rate generation: could not record the failure'));
  }
}

const messageOf = (key: MessageKey, params: (string | number)[] = []) => JSON.stringify({ key, params });

/** Each trunk's rate rows effective at `at`, in the template's trunk order (trunks without a rate table price nothing). */
async function vendorRates(
  db: Db,
  trunkIds: readonly number[],
  at: Date,
): Promise<{ list: RateGenVendor[]; names: Map<number, string> }> {
  const trunks = trunkIds.length
    ? await db
        .selectFrom('trunks')
        .select(['trunk_id', 'name', 'rate_table_id'])
        .where('trunk_id', 'in', [...trunkIds])
        .execute()
    : [];
  const byId = new Map(trunks.map((t) => [t.trunk_id, t]));
  const list: RateGenVendor[] = [];
  for (const id of trunkIds) {
    const t = byId.get(id);
    if (!t || t.rate_table_id === null) continue;
    const rows = await sql<RateGenVendor['rows'][number]>`
      SELECT ${VENDOR_COLUMNS} FROM rates
      WHERE rate_table_id = ${t.rate_table_id} AND effective_date <= ${at} AND (end_date IS NULL OR end_date > ${at})`.execute(
      db,
    );
    list.push({ trunk_id: id, rows: rows.rows });
  }
  return { list, names: new Map(trunks.map((t) => [t.trunk_id, t.name])) };
}
