import type { Kysely } from 'kysely';

/** 0004_carriers_trunks: tables and columns this area adds to 0002 (none yet). */
export async function up(_db: Kysely<unknown>): Promise<void> {}
