import { didCarrierCondition } from '../did/carriers';
import type { Db } from '../../db/connection';

/** Names for the dropdowns of the trunk, product and carrier forms. */
export async function lookups(db: Db) {
  const [carriers, rateTables, plans, products, agents, terms, sipHosts, maps, trunks] = await Promise.all([
    db
      .selectFrom('carriers')
      .select(['client_id as id', 'name', 'client_type', 'is_active'])
      .select(didCarrierCondition('client_id').as('did'))
      .orderBy('name')
      .execute(),
    db.selectFrom('rate_tables').select(['rate_table_id as id', 'name']).orderBy('name').execute(),
    db.selectFrom('routing_plans').select(['route_plan_id as id', 'name']).orderBy('name').execute(),
    db
      .selectFrom('products')
      .select(['id', 'name', 'tech_prefix', 'rate_table_id', 'routing_plan_id'])
      .orderBy('name')
      .execute(),
    db.selectFrom('agents').select(['agent_id as id', 'agent_name as name']).orderBy('agent_name').execute(),
    db.selectFrom('payment_terms').select(['payment_term_id as id', 'name']).orderBy('name').execute(),
    db.selectFrom('sip_hosts').select(['id', 'host_name as name']).orderBy('host_name').execute(),
    db.selectFrom('digital_maps').select(['digital_map_id as id', 'name']).orderBy('name').execute(),
    db
      .selectFrom('trunks')
      .select(['trunk_id as id', 'name', 'direction', 'carrier_id'])
      .orderBy('name')
      .execute(),
  ]);
  return {
    carriers,
    rate_tables: rateTables,
    routing_plans: plans,
    products,
    agents,
    payment_terms: terms,
    sip_hosts: sipHosts,
    digital_maps: maps,
    trunks,
  };
}
