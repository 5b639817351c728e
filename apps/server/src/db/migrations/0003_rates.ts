import type { Kysely } from 'kysely';

/** 0003_rates: tables and columns this area adds to 0002 (none yet). */
export async function up(_db: Kysely<unknown>): Promise<void> {}
