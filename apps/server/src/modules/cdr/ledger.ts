import { formatMoney, parseMoney, type Micros } from '@tandem/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { LedgerKind } from '../../db/schema-cdr';

/** One change of a carrier's balance: its source (kind, side, ref) moves it once. */
export interface BalanceChange {
  readonly client_id: number;
  readonly kind: LedgerKind;
  /** Usage and rerate: whether the carrier was the customer or the vendor of the calls. */
  readonly side?: '' | 'customer' | 'vendor';
  /** What caused it: a CDR batch id, a rerate run, a payment id... unique per carrier, kind and side. */
  readonly ref: string;
  /** Signed effect on the balance (a customer's usage is negative, a vendor's positive). */
  readonly amount: Micros;
  readonly cdr_count?: number;
  readonly note?: string;
  readonly created_by?: string;
}

export interface BalanceMoved {
  readonly client_id: number;
  readonly balance: Micros;
}

/**
 * The one place a carrier's balance moves (DESIGN 6): inside the caller's transaction, locks the
 * carriers in id order (no deadlock between two writers), skips changes whose (carrier, kind,
 * side, ref) is already in the ledger (a source moves a balance once, whatever retries), writes a
 * ledger row per change with the balance before and after, and sets each balance to its last
 * "after". Returns the new balances of the carriers that moved. Changes of carriers that do not
 * exist are dropped (a CDR's carrier was deleted).
 */
export async function moveBalances(trx: Db, changes: readonly BalanceChange[]): Promise<BalanceMoved[]> {
  const wanted = changes.filter((c) => c.amount !== 0n || c.kind !== 'usage' || (c.cdr_count ?? 0) > 0);
  if (wanted.length === 0) return [];
  const ids = [...new Set(wanted.map((c) => c.client_id))].sort((a, b) => a - b);
  const locked = await sql<{ client_id: number; balance: string }>`
    SELECT client_id, balance::text AS balance FROM carriers
    WHERE client_id = ANY(${ids}::int4[]) ORDER BY client_id FOR UPDATE`.execute(trx);
  const balances = new Map(locked.rows.map((r) => [r.client_id, parseMoney(r.balance)]));
  const seen = await sql<{ client_id: number; kind: string; side: string; ref: string }>`
    SELECT client_id, kind, side, ref FROM ledger
    WHERE (client_id, kind, side, ref) IN (
      SELECT * FROM unnest(${wanted.map((c) => c.client_id)}::int4[], ${wanted.map((c) => c.kind)}::text[],
        ${wanted.map((c) => c.side ?? '')}::text[], ${wanted.map((c) => c.ref)}::text[]))`.execute(trx);
  const done = new Set(seen.rows.map((r) => `${r.client_id}\u0000${r.kind}\u0000${r.side}\u0000${r.ref}`));

  const rows: { c: BalanceChange; before: Micros; after: Micros }[] = [];
  for (const c of wanted) {
    const key = `${c.client_id}\u0000${c.kind}\u0000${c.side ?? ''}\u0000${c.ref}`;
    const before = balances.get(c.client_id);
    if (before === undefined || done.has(key)) continue;
    done.add(key);
    const after = before + c.amount;
    balances.set(c.client_id, after);
    rows.push({ c, before, after });
  }
  if (rows.length === 0) return [];
  const m = (v: Micros) => formatMoney(v, 6);
  await sql`
    INSERT INTO ledger (client_id, kind, side, ref, amount, balance_before, balance_after, cdr_count, note, created_by)
    SELECT * FROM unnest(
      ${rows.map((r) => r.c.client_id)}::int4[], ${rows.map((r) => r.c.kind)}::text[],
      ${rows.map((r) => r.c.side ?? '')}::text[], ${rows.map((r) => r.c.ref)}::text[],
      ${rows.map((r) => m(r.c.amount))}::numeric[], ${rows.map((r) => m(r.before))}::numeric[],
      ${rows.map((r) => m(r.after))}::numeric[], ${rows.map((r) => r.c.cdr_count ?? 0)}::int4[],
      ${rows.map((r) => r.c.note ?? '')}::text[], ${rows.map((r) => r.c.created_by ?? 'system')}::text[])`.execute(
    trx,
  );
  const moved = [...new Set(rows.map((r) => r.c.client_id))].map((client_id) => ({
    client_id,
    balance: balances.get(client_id) as Micros,
  }));
  await sql`
    UPDATE carriers c SET balance = v.balance
    FROM unnest(${moved.map((r) => r.client_id)}::int4[], ${moved.map((r) => m(r.balance))}::numeric[]) AS v(id, balance)
    WHERE c.client_id = v.id`.execute(trx);
  return moved;
}

/** A carrier's balance as its ledger sums it, beside the stored one (regenerate balance). */
export interface BalanceCheck {
  readonly client_id: number;
  readonly name: string;
  readonly stored: string;
  readonly ledger: string;
  readonly difference: string;
}

/**
 * Regenerate balance (Finance): each carrier's ledger sum against its stored balance. With `fix`,
 * every stored balance that differs is set to its ledger sum, in one transaction.
 */
export async function checkBalances(
  db: Db,
  fix: boolean,
  clientIds?: readonly number[],
): Promise<BalanceCheck[]> {
  const run = async (trx: Db) => {
    const rows = await sql<{ client_id: number; name: string; stored: string; ledger: string }>`
      SELECT c.client_id, c.name, c.balance::text AS stored, coalesce(l.total, 0)::text AS ledger
      FROM carriers c LEFT JOIN (SELECT client_id, sum(amount) AS total FROM ledger GROUP BY client_id) l
        ON l.client_id = c.client_id
      WHERE ${clientIds ? sql`c.client_id = ANY(${[...clientIds]}::int4[])` : sql`true`}
      ORDER BY c.client_id ${fix ? sql`FOR UPDATE OF c` : sql``}`.execute(trx);
    const out = rows.rows.map((r) => {
      const diff = parseMoney(r.ledger) - parseMoney(r.stored);
      return { ...r, difference: formatMoney(diff, 6) };
    });
    const wrong = out.filter((r) => parseMoney(r.difference) !== 0n);
    if (fix && wrong.length > 0)
      await sql`UPDATE carriers c SET balance = v.total
        FROM unnest(${wrong.map((r) => r.client_id)}::int4[], ${wrong.map((r) => r.ledger)}::numeric[]) AS v(id, total)
        WHERE c.client_id = v.id`.execute(trx);
    return out;
  };
  return fix ? db.transaction().execute(run) : run(db);
}
