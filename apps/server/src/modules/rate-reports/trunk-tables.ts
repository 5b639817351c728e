import { sql } from 'kysely';

/** A rate table as a trunk prices with it (one row of `trunkTables`). */
export interface TrunkTable {
  key: string;
  trunk_id: number;
  trunk_name: string;
  trunk_is_active: boolean;
  direction: 'ingress' | 'egress';
  carrier_id: number;
  carrier_name: string;
  carrier_is_active: boolean;
  tech_prefix: string;
  product_name: string | null;
  rate_table_id: number | null;
  rate_table_name: string | null;
  currency: string | null;
  decimal_places: number | null;
  rate_table_updated_at: Date | null;
  /** Carrier, trunk, tech prefix order (a list's tie-breaker). */
  ordinal: number;
}

/**
 * Every rate table each termination trunk prices with, as the routing engine's snapshot loader
 * reads them (snapshot-loader.ts): an egress trunk has its own table; an ingress trunk has one per
 * routing row (a product's table when the row names none), plus its own table under its own tech
 * prefix unless a routing row takes that prefix. A trunk with no table at all appears once with a
 * null rate_table_id (its calls cannot be rated). For `selectFrom(trunkTables.as('x'))`.
 */
export const trunkTables = sql<TrunkTable>`(
  SELECT e.key, t.trunk_id, t.name AS trunk_name, t.is_active AS trunk_is_active, t.direction,
    c.client_id AS carrier_id, c.name AS carrier_name, c.is_active AS carrier_is_active,
    e.tech_prefix, e.product_name, rt.rate_table_id, rt.name AS rate_table_name, rt.currency,
    rt.decimal_places, rt.updated_at AS rate_table_updated_at,
    row_number() OVER (ORDER BY c.name, t.name, e.tech_prefix, e.key) AS ordinal
  FROM trunks t
  JOIN carriers c ON c.client_id = t.carrier_id
  CROSS JOIN LATERAL (
    SELECT t.trunk_id || '-own' AS key, t.tech_prefix, NULL::text AS product_name, t.rate_table_id
    WHERE t.direction = 'egress'
      OR NOT EXISTS (SELECT 1 FROM trunk_routing_rows w WHERE w.trunk_id = t.trunk_id)
      OR ((t.rate_table_id IS NOT NULL OR t.routing_plan_id IS NOT NULL)
        AND NOT EXISTS (SELECT 1 FROM trunk_routing_rows w WHERE w.trunk_id = t.trunk_id AND w.tech_prefix = t.tech_prefix))
    UNION ALL
    SELECT t.trunk_id || '-' || w.id, w.tech_prefix, p.name, coalesce(w.rate_table_id, p.rate_table_id)
    FROM trunk_routing_rows w LEFT JOIN products p ON p.id = w.product_id
    WHERE w.trunk_id = t.trunk_id AND t.direction = 'ingress'
  ) e
  LEFT JOIN rate_tables rt ON rt.rate_table_id = e.rate_table_id
  WHERE t.trunk_type2 = 'termination'
)`;
