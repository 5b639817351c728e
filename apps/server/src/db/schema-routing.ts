import type { ColumnType, Generated } from 'kysely';

/** Row types of the tables and columns the routing area adds in migration 0005. */
type NullableNumeric = ColumnType<string | null, string | null | undefined, string | null>;

export interface RateChangesTable {
  seq: Generated<number>;
  xid: Generated<string>;
  rate_table_id: number;
  rate_id: number | null;
  at: Generated<Date>;
}

export interface ConfigVersionsTable {
  name: string;
  version: number;
}

export interface RoutingTables {
  rate_changes: RateChangesTable;
  config_versions: ConfigVersionsTable;
}

declare module './schema-switch' {
  interface StaticRoutesTable {
    updated_by: Generated<string>;
  }
  interface DynamicRoutesTable {
    updated_by: Generated<string>;
  }
  interface DynamicRouteTrunksTable {
    override_asr: NullableNumeric;
    override_acd: NullableNumeric;
  }
  interface SwitchApiKeysTable {
    key_prefix: Generated<string>;
    created_by: Generated<string>;
  }
}
