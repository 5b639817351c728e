import type { Generated } from 'kysely';

/** Configuration > Carrier Portal CDR Fields (migration 0015_cdr_search). */
export interface CdrPortalFieldsTable {
  field: string;
  client_viewable: boolean;
  vendor_viewable: boolean;
  updated_at: Generated<Date>;
}

export interface CdrSearchTables {
  cdr_portal_fields: CdrPortalFieldsTable;
}
