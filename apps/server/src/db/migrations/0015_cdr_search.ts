import { sql, type Kysely } from 'kysely';

/**
 * 0015_cdr_search: what the CDR search needs (docs/cdr.md#search).
 *
 * - The search pages by keyset on (start_time, cdr_id), newest first, so its indexes end in both
 *   columns: the first page and page 1000 are each one index range read, with no sort. The indexes of
 *   0012 on (start_time) and (carrier, start_time) are replaced by the same with cdr_id appended, and
 *   the trunks get their own ("one trunk over a time range" is the NOC's most common search).
 * - cdr_portal_fields: Configuration > Carrier Portal CDR Fields, which catalogue fields the client
 *   and vendor portals show. A field without a row has the catalogue's default (contract CDR_FIELDS).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
DROP INDEX IF EXISTS cdrs_start;
DROP INDEX IF EXISTS cdrs_ingress_client;
DROP INDEX IF EXISTS cdrs_egress_client;
CREATE INDEX cdrs_start_id ON cdrs (start_time, cdr_id);
CREATE INDEX cdrs_ingress_client_start_id ON cdrs (ingress_client_id, start_time, cdr_id);
CREATE INDEX cdrs_egress_client_start_id ON cdrs (egress_client_id, start_time, cdr_id);
CREATE INDEX cdrs_ingress_trunk_start_id ON cdrs (ingress_trunk_id, start_time, cdr_id);
CREATE INDEX cdrs_egress_trunk_start_id ON cdrs (egress_trunk_id, start_time, cdr_id);

CREATE TABLE cdr_portal_fields (
  field text PRIMARY KEY,
  client_viewable boolean NOT NULL,
  vendor_viewable boolean NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
`,
    )
    .execute(db);
}
