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
  /** ledger − stored. */
  readonly difference: string;
  readonly ledger_rows: number;
  /** The carrier's newest ledger row (the regenerate row's reference). */
  readonly last_ledger_id: number;
}

/**
 * Each carrier's ledger sum against its stored balance (Finance > Regenerate Balance), by carrier
 * id; `lock` takes the carriers FOR UPDATE (inside a transaction).
 */
export async function checkBalances(
  db: Db,
  opts: { clientIds?: readonly number[]; lock?: boolean } = {},
): Promise<BalanceCheck[]> {
  const rows = await sql<{
    client_id: number;
    name: string;
    stored: string;
    ledger: string;
    ledger_rows: string;
    last_ledger_id: string;
  }>`
    SELECT c.client_id, c.name, c.balance::text AS stored, coalesce(l.total, 0)::text AS ledger,
      coalesce(l.n, 0)::text AS ledger_rows, coalesce(l.last_id, 0)::text AS last_ledger_id
    FROM carriers c LEFT JOIN (
      SELECT client_id, sum(amount) AS total, count(*) AS n, max(ledger_id) AS last_id FROM ledger GROUP BY client_id
    ) l ON l.client_id = c.client_id
    WHERE ${opts.clientIds?.length ? sql`c.client_id = ANY(${[...opts.clientIds]}::int4[])` : sql`true`}
    ORDER BY c.client_id ${opts.lock ? sql`FOR UPDATE OF c` : sql``}`.execute(db);
  return rows.rows.map((r) => ({
    client_id: r.client_id,
    name: r.name,
    stored: formatMoney(parseMoney(r.stored), 6),
    ledger: formatMoney(parseMoney(r.ledger), 6),
    difference: formatMoney(parseMoney(r.ledger) - parseMoney(r.stored), 6),
    ledger_rows: Number(r.ledger_rows),
    last_ledger_id: Number(r.last_ledger_id),
  }));
}

/**
 * Regenerate balance: in one transaction, every listed carrier (none: all) whose stored balance
 * differs from its ledger's sum gets the sum as its balance, and a 'regenerate' ledger row records
 * it: amount 0, balance before and after the ledger's sum (the chain of befores and afters goes on
 * from the sum), the old stored balance in the note. The reference is the carrier's newest ledger
 * row, so the same mismatch is recorded once; carriers that agree are left alone, so running it
 * again changes nothing. Returns the carriers set right, as they were.
 */
export async function regenerateBalances(
  db: Db,
  clientIds: readonly number[],
  by: string,
  /** Called inside the transaction with the carriers set right (the modification log). */
  record?: (trx: Db, fixed: readonly BalanceCheck[]) => Promise<void>,
): Promise<BalanceCheck[]> {
  return db.transaction().execute(async (trx) => {
    const all = await checkBalances(trx, { clientIds, lock: true });
    const wrong = all.filter((r) => parseMoney(r.difference) !== 0n);
    if (wrong.length === 0) return [];
    await sql`
      INSERT INTO ledger (client_id, kind, side, ref, amount, balance_before, balance_after, note, created_by)
      SELECT id, 'regenerate', '', ref, 0, total, total, note, ${by} FROM unnest(
        ${wrong.map((r) => r.client_id)}::int4[], ${wrong.map((r) => `regenerate-${r.last_ledger_id}`)}::text[],
        ${wrong.map((r) => r.ledger)}::numeric[],
        ${wrong.map((r) => `Stored balance ${r.stored} differed from the ledger by ${r.difference}; set to ${r.ledger}`)}::text[]
      ) AS v(id, ref, total, note)
      ON CONFLICT (client_id, kind, side, ref) DO NOTHING`.execute(trx);
    await sql`UPDATE carriers c SET balance = v.total
      FROM unnest(${wrong.map((r) => r.client_id)}::int4[], ${wrong.map((r) => r.ledger)}::numeric[]) AS v(id, total)
      WHERE c.client_id = v.id`.execute(trx);
    await record?.(trx, wrong);
    return wrong;
  });
}
