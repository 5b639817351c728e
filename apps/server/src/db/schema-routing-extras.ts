import type { Generated } from 'kysely';

/** Row types of the tables migration 0008 (routing extras) adds. */
export interface DigitalMapsTable {
  digital_map_id: Generated<number>;
  name: string;
  note: Generated<string>;
  updated_at: Generated<Date>;
  updated_by: Generated<string>;
}

export interface DigitalMapItemsTable {
  id: Generated<number>;
  digital_map_id: number;
  position: number;
  field: 'ani' | 'dnis';
  match: Generated<'prefix' | 'exact'>;
  pattern: Generated<string>;
  action: 'strip' | 'prepend' | 'replace_prefix' | 'replace_all';
  strip_count: number | null;
  digits: Generated<string>;
  note: Generated<string>;
}

export interface DigitalMapTrunksTable {
  trunk_id: number;
  digital_map_id: number;
}

export interface InboundMediaIpBlocksTable {
  id: Generated<number>;
  ip: string;
  note: Generated<string>;
  expires_at: Date | null;
  created_by: Generated<string>;
  created_at: Generated<Date>;
}

export interface StirOcnBlocksTable {
  id: Generated<number>;
  kind: Generated<'ocn' | 'origid'>;
  value: string;
  note: Generated<string>;
  created_by: Generated<string>;
  created_at: Generated<Date>;
}

export interface RoutingExtrasTables {
  digital_maps: DigitalMapsTable;
  digital_map_items: DigitalMapItemsTable;
  digital_map_trunks: DigitalMapTrunksTable;
  inbound_media_ip_blocks: InboundMediaIpBlocksTable;
  stir_ocn_blocks: StirOcnBlocksTable;
}
