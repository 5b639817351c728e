import type { DidEngineConfig } from '@tandem/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';

/**
 * The DID part of the routing snapshot's configuration (domain DidEngineConfig): every DID with its
 * state and rules, the rules' per-minute prices, each DID carrier's rounding terms. Read with the
 * rest of the configuration by the snapshot loader.
 */
export async function loadDidConfig(db: Db): Promise<DidEngineConfig> {
  const [rules, numbers, vendors, clients] = await Promise.all([
    db
      .selectFrom('did_billing_rules')
      .select(['id', 'name'])
      .select(sql<string>`per_minute::text`.as('per_minute'))
      .execute(),
    db
      .selectFrom('dids')
      .select([
        'did_id',
        'number',
        'vendor_id',
        'client_id',
        'state',
        'vendor_billing_rule_id',
        'client_billing_rule_id',
      ])
      .select(sql<boolean>`suspended_at IS NOT NULL`.as('suspended'))
      .execute(),
    db.selectFrom('did_vendors').select(['carrier_id', 'decimal_places']).execute(),
    db.selectFrom('did_clients').select(['carrier_id', 'round_up']).execute(),
  ]);
  return {
    rules: rules.map((r) => ({ id: r.id, name: r.name, per_minute: r.per_minute })),
    numbers: numbers.map((d) => ({
      did_id: d.did_id,
      number: d.number,
      vendor_id: d.vendor_id,
      client_id: d.client_id,
      state: d.state,
      suspended: d.suspended,
      vendor_rule_id: d.vendor_billing_rule_id,
      client_rule_id: d.client_billing_rule_id,
    })),
    carriers: [
      ...vendors.map((v) => ({ carrier_id: v.carrier_id, decimals: v.decimal_places, round_up: false })),
      ...clients.map((c) => ({ carrier_id: c.carrier_id, decimals: 6, round_up: c.round_up })),
    ],
  };
}
