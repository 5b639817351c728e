import type { ColumnType, Generated } from 'kysely';

/** Row types of the tables and columns the carriers area adds in migration 0004. */
type Json<T = unknown> = ColumnType<T, string | undefined, string>;
type TextArray = ColumnType<string[], string[] | undefined, string[]>;

export interface CarrierTemplatesTable {
  template_id: Generated<number>;
  name: string;
  settings: Json<Record<string, unknown>>;
  /** 0013: the payment term preset, held by a foreign key. */
  payment_term_id: number | null;
  updated_at: Generated<Date>;
}
export interface TrunkTemplatesTable {
  template_id: Generated<number>;
  name: string;
  direction: 'ingress' | 'egress';
  settings: Json<Record<string, unknown>>;
  /** 0013: presets held by foreign keys. */
  rate_table_id: number | null;
  routing_plan_id: number | null;
  updated_at: Generated<Date>;
}

export interface CarriersTables {
  carrier_templates: CarrierTemplatesTable;
  trunk_templates: TrunkTemplatesTable;
}

declare module './schema-switch' {
  /** carriers columns of 0004 (merged into the carrier row type). */
  interface CarrierCommercialColumns {
    invoice_options: Json<Record<string, unknown>>;
  }
  /** trunks columns of 0004. */
  interface TrunksTable {
    billing_mode: Generated<'minutes' | 'port'>;
    rounding: number | null;
    ignore_early_media: Generated<boolean>;
    ignore_early_no_sdp: Generated<boolean>;
    registration: Json<Record<string, unknown>>;
    sip_profiles: TextArray;
  }
}
