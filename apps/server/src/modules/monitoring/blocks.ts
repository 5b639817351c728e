import { sql, type RawBuilder } from 'kysely';

/** The `config_versions` row a trigger bumps on every write of monitoring_blocks and loop_rules (migration 0032). */
export const MONITORING_VERSION = 'monitoring';

/**
 * Whether a monitoring block holds, in SQL: not lifted and its time not up (`at`, default now()).
 * The SQL twin of the domain's `blockInForce`, used by every query that asks (the route API's sync,
 * the block lists, the rules' counts).
 */
export function blockActiveSql(alias: string, at?: Date): RawBuilder<boolean> {
  const col = (c: string) => sql.ref(alias ? `${alias}.${c}` : c);
  const now = at === undefined ? sql`now()` : sql`${at.toISOString()}::timestamptz`;
  return sql<boolean>`(${col('lifted_at')} IS NULL AND (${col('until')} IS NULL OR ${col('until')} > ${now}))`;
}
