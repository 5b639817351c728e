import { sql, type Kysely } from 'kysely';

/**
 * 0008_routing_extras: digital maps, inbound media IP blocking and the STIOCN block list.
 * - digital_maps: a named map; digital_map_items its ordered digit-mapping items; digital_map_trunks
 *   the trunks using it (the trunk is the key: a trunk uses at most one map).
 * - inbound_media_ip_blocks: IPv4 addresses and CIDR ranges (canonical text, unique) whose calls are
 *   refused, with an optional expiry.
 * - stir_ocn_blocks: STIR/SHAKEN originating carriers by OCN (upper-case) or origid (lower-case).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
CREATE TABLE digital_maps (
  digital_map_id serial PRIMARY KEY,
  name text NOT NULL,
  note text NOT NULL DEFAULT '',
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX digital_maps_name ON digital_maps (lower(name));

CREATE TABLE digital_map_items (
  id serial PRIMARY KEY,
  digital_map_id integer NOT NULL REFERENCES digital_maps(digital_map_id) ON DELETE CASCADE,
  position integer NOT NULL CHECK (position >= 1),
  field text NOT NULL CHECK (field IN ('ani', 'dnis')),
  match text NOT NULL DEFAULT 'prefix' CHECK (match IN ('prefix', 'exact')),
  pattern text NOT NULL DEFAULT '' CHECK (pattern ~ '^[0-9]*$'),
  action text NOT NULL CHECK (action IN ('strip', 'prepend', 'replace_prefix', 'replace_all')),
  strip_count integer CHECK (strip_count IS NULL OR strip_count BETWEEN 1 AND 32),
  digits text NOT NULL DEFAULT '' CHECK (digits ~ '^[0-9]*$'),
  note text NOT NULL DEFAULT ''
);
CREATE INDEX digital_map_items_map ON digital_map_items (digital_map_id, position);

CREATE TABLE digital_map_trunks (
  trunk_id integer PRIMARY KEY REFERENCES trunks(trunk_id) ON DELETE CASCADE,
  digital_map_id integer NOT NULL REFERENCES digital_maps(digital_map_id)
);
CREATE INDEX digital_map_trunks_map ON digital_map_trunks (digital_map_id);

CREATE TABLE inbound_media_ip_blocks (
  id serial PRIMARY KEY,
  ip text NOT NULL UNIQUE,
  note text NOT NULL DEFAULT '',
  expires_at timestamptz,
  created_by text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE stir_ocn_blocks (
  id serial PRIMARY KEY,
  kind text NOT NULL DEFAULT 'ocn' CHECK (kind IN ('ocn', 'origid')),
  value text NOT NULL,
  note text NOT NULL DEFAULT '',
  created_by text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (kind, value)
);
`,
    )
    .execute(db);
}
