import { sql, type RawBuilder } from 'kysely';
import type { Actor } from './context';

/**
 * Tenancy of rows keyed by a carrier (invoices, payments, ledger rows, ...): which carriers the
 * caller may see, as a condition on `column` (a carrier id):
 *
 * - admin: every carrier, or only `sent` when it filters by one;
 * - client or vendor: its own carrier, whatever it sends;
 * - agent: its clients (`carriers.agent_id`), narrowed to `sent` when it filters by one (a carrier
 *   of another agent, or of none, then matches nothing).
 *
 * One rule for every list a portal user may read, so an agent sees only its own clients whatever
 * ids it sends.
 */
export function carrierScope(actor: Actor, column: string, sent?: number | null): RawBuilder<boolean> {
  const col = sql.ref(column);
  const only = sent === undefined || sent === null ? sql<boolean>`true` : sql<boolean>`${col} = ${sent}`;
  switch (actor.type) {
    case 'admin':
      return only;
    case 'agent':
      return sql<boolean>`(${col} IN (SELECT client_id FROM carriers WHERE agent_id = ${actor.agentId ?? -1}) AND ${only})`;
    case 'client':
    case 'vendor':
      return sql<boolean>`${col} = ${actor.clientId ?? -1}`;
  }
}
