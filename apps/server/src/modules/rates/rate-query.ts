import { type RateFilters, type RateRow } from './contract';
import { formatMoney, parseMoney } from '@tandem/domain';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/connection';
import { likeContains } from '../../db/paging';
import { notFound } from '../../http/errors';

/**
 * The condition of the rate list, export and mass edit on `rates r`: the table, code prefix, code
 * name and country (contains), effective state at the database's now(), optional row ids.
 */
export function rateCondition(tableId: number, f: RateFilters, ids?: readonly number[]): RawBuilder<boolean> {
  const parts: RawBuilder<unknown>[] = [sql`r.rate_table_id = ${tableId}`];
  if (f.code) parts.push(sql`r.code LIKE ${f.code.replace(/[\\%_]/g, '') + '%'}`);
  if (f.code_name) parts.push(sql`r.code_name ILIKE ${likeContains(f.code_name)}`);
  if (f.country) parts.push(sql`r.country ILIKE ${likeContains(f.country)}`);
  if (f.state === 'current')
    parts.push(sql`r.effective_date <= now() AND (r.end_date IS NULL OR r.end_date > now())`);
  if (f.state === 'future') parts.push(sql`r.effective_date > now()`);
  if (f.state === 'ended') parts.push(sql`r.end_date <= now()`);
  if (ids?.length) parts.push(sql`r.rate_id = ANY(${[...ids]}::bigint[])`);
  return sql<boolean>`(${sql.join(parts, sql` AND `)})`;
}

export const rateState = sql<
  'current' | 'future' | 'ended'
>`CASE WHEN r.effective_date > now() THEN 'future' WHEN r.end_date IS NOT NULL AND r.end_date <= now() THEN 'ended' ELSE 'current' END`;

export interface RateTableInfo {
  rate_table_id: number;
  name: string;
  decimal_places: number;
  rate_type: string;
  require_setup_fee: boolean;
  require_local_rate: boolean;
}
export async function rateTableInfo(db: Db, id: number, lock = false): Promise<RateTableInfo> {
  let q = db
    .selectFrom('rate_tables')
    .select([
      'rate_table_id',
      'name',
      'decimal_places',
      'rate_type',
      'require_setup_fee',
      'require_local_rate',
    ])
    .where('rate_table_id', '=', id);
  if (lock) q = q.forUpdate();
  const t = await q.executeTakeFirst();
  if (!t) throw notFound();
  return t;
}

/** An amount at the table's decimal places (exact, half up). */
export const atPlaces = (v: string, dp: number) => formatMoney(parseMoney(v), dp);
const orNull = (v: string | null, dp: number) => (v === null ? null : atPlaces(v, dp));

export interface StoredRate {
  rate_id: number;
  code: string;
  code_name: string;
  country: string;
  rate: string;
  intra_rate: string | null;
  inter_rate: string | null;
  ij_rate: string | null;
  local_rate: string | null;
  min_time: number;
  interval: number;
  grace_time: number;
  setup_fee: string;
  effective_date: Date;
  end_date: Date | null;
  state: 'current' | 'future' | 'ended';
}

/** A stored rate as the API shows it: amounts at the table's decimal places, instants in ISO 8601. */
export function toRateRow(r: StoredRate, dp: number): RateRow {
  return {
    rate_id: Number(r.rate_id),
    code: r.code,
    code_name: r.code_name,
    country: r.country,
    rate: atPlaces(r.rate, dp),
    intra_rate: orNull(r.intra_rate, dp),
    inter_rate: orNull(r.inter_rate, dp),
    ij_rate: orNull(r.ij_rate, dp),
    local_rate: orNull(r.local_rate, dp),
    min_time: r.min_time,
    interval: r.interval,
    grace_time: r.grace_time,
    setup_fee: atPlaces(r.setup_fee, dp),
    effective_date: new Date(r.effective_date).toISOString(),
    end_date: r.end_date ? new Date(r.end_date).toISOString() : null,
    state: r.state,
  };
}

/** The columns of a stored rate, for `select` on `rates as r`. */
export const RATE_SELECT = [
  'r.rate_id',
  'r.code',
  'r.code_name',
  'r.country',
  'r.rate',
  'r.intra_rate',
  'r.inter_rate',
  'r.ij_rate',
  'r.local_rate',
  'r.min_time',
  'r.interval',
  'r.grace_time',
  'r.setup_fee',
  'r.effective_date',
  'r.end_date',
] as const;

/** An instant as messages show it: 'YYYY-MM-DD HH:mm:ss' UTC. */
export const shownInstant = (d: Date | string) =>
  new Date(d)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, '');

/** Stamps a rate table as changed (its rates were written). */
export async function touchRateTable(db: Db, id: number, user: string): Promise<void> {
  await db
    .updateTable('rate_tables')
    .set({ updated_at: new Date(), updated_by: user })
    .where('rate_table_id', '=', id)
    .execute();
}
