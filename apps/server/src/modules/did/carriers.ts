import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/connection';

/**
 * DID carriers: the DID clients and vendors (a carrier with its did_clients or did_vendors row).
 * The origination ledger, balance and invoice screens are the finance ones restricted by this.
 */
export function didCarrierCondition(column: string): RawBuilder<boolean> {
  return sql<boolean>`(${sql.ref(column)} IN (SELECT carrier_id FROM did_clients UNION ALL SELECT carrier_id FROM did_vendors))`;
}

/** The ids of every DID carrier, ascending. */
export async function didCarrierIds(db: Db): Promise<number[]> {
  const r = await sql<{ id: number }>`
    SELECT carrier_id AS id FROM did_clients UNION SELECT carrier_id FROM did_vendors ORDER BY 1`.execute(db);
  return r.rows.map((x) => Number(x.id));
}
