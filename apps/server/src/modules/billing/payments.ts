import { formatMoney, invoiceBalance, parseMoney, type Micros } from '@tandem/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { invalidField, notFound, ruleBroken } from '../../http/errors';
import { moveBalances } from '../cdr/ledger';

/**
 * Payments and credit/debit notes (docs/billing.md "Payments and notes"). Every one is exactly one
 * ledger row through `moveBalances` (ref `payment:<id>`, `note:<id>`), its cancel one reversing row
 * (`payment:<id>:cancel`): money moves once, a payment is never deleted silently.
 *
 * Signs: a payment received from a client raises its balance (+amount); a payment sent to a vendor
 * lowers what we owe it (−amount, a vendor's balance grows with the traffic it carries). A credit note
 * is in the carrier's favour (+amount), a debit note against it (−amount). The fee is recorded with
 * the payment (what the bank or provider kept) and does not move the balance.
 */

const m6 = (v: Micros) => formatMoney(v, 6);

export interface PaymentInput {
  /** The carrier that paid (received) or was paid (sent). */
  client_id: number;
  /** 'received' from a client, 'sent' to a vendor. */
  direction: 'received' | 'sent';
  /** Decimal text, > 0, at most 6 places: "125.50". */
  amount: string;
  /** Decimal text, >= 0 (default "0"): informational, the balance moves by `amount`. */
  fee?: string;
  /** When it was paid (default now). */
  paid_at?: Date | string;
  /** 'manual' (default), 'bank', 'card', 'wallet'... free text of at most 20 characters. */
  method?: string;
  /** The bank's or provider's transaction id. */
  transaction_id?: string;
  note?: string;
  /**
   * The same key for the same carrier records the payment once, whatever the number of calls (a
   * provider's event or charge id, a form's retry key). The second call answers the first payment
   * with `created: false` and moves nothing.
   */
  idempotency_key?: string | null;
  /** Invoices this payment pays (each an open invoice of the carrier, at most what is left on it). */
  allocations?: readonly { invoice_id: number; amount: string }[];
  /** Who recorded it (user name, or 'system' / the provider's name). */
  created_by?: string;
}

export interface RecordedPayment {
  payment_id: number;
  /** false: the idempotency key named an earlier payment, which is answered unchanged. */
  created: boolean;
  /** The carrier's balance after it (6 places). */
  balance: string;
}

/**
 * Records a payment inside the caller's transaction `trx` (open one with `db.transaction()`): the
 * payment row, its one ledger row (balance moved once), and its invoice allocations (each invoice's
 * paid amount and state recomputed). Throws AppError 110 naming the field for a bad amount or
 * allocation, 150 for an unknown carrier. Idempotent by `idempotency_key`.
 */
export async function recordPayment(trx: Db, input: PaymentInput): Promise<RecordedPayment> {
  const amount = parseMoney(input.amount);
  if (amount <= 0n) throw invalidField('amount', 'invalidValue', ['amount']);
  const fee = parseMoney(input.fee ?? '0');
  if (fee < 0n) throw invalidField('fee', 'invalidValue', ['fee']);
  // The carrier is locked first: the payment row's foreign key would otherwise take a share lock
  // that two concurrent payments both hold while moveBalances waits to lock it (a deadlock).
  const carrier = await trx
    .selectFrom('carriers')
    .select(['client_id', 'balance'])
    .where('client_id', '=', input.client_id)
    .forUpdate()
    .executeTakeFirst();
  if (!carrier) throw notFound();

  const inserted = await trx
    .insertInto('payments')
    .values({
      client_id: input.client_id,
      direction: input.direction,
      amount: m6(amount),
      fee: m6(fee),
      paid_at: input.paid_at ? new Date(input.paid_at) : new Date(),
      method: (input.method ?? 'manual').slice(0, 20),
      transaction_id: input.transaction_id ?? '',
      note: input.note ?? '',
      idempotency_key: input.idempotency_key || null,
      created_by: input.created_by ?? 'system',
    })
    .onConflict((oc) => oc.columns(['client_id', 'idempotency_key']).doNothing())
    .returning('payment_id')
    .executeTakeFirst();
  if (!inserted) {
    const earlier = await trx
      .selectFrom('payments')
      .select('payment_id')
      .where('client_id', '=', input.client_id)
      .where('idempotency_key', '=', input.idempotency_key as string)
      .executeTakeFirstOrThrow();
    const bal = await trx
      .selectFrom('carriers')
      .select('balance')
      .where('client_id', '=', input.client_id)
      .executeTakeFirstOrThrow();
    return { payment_id: earlier.payment_id, created: false, balance: m6(parseMoney(bal.balance)) };
  }
  const id = inserted.payment_id;
  const moved = await moveBalances(trx, [
    {
      client_id: input.client_id,
      kind: 'payment',
      ref: `payment:${id}`,
      amount: input.direction === 'received' ? amount : -amount,
      note: paymentNote(input),
      created_by: input.created_by ?? 'system',
    },
  ]);
  await allocate(trx, id, input.client_id, input.direction, amount, input.allocations ?? []);
  return { payment_id: id, created: true, balance: m6(moved[0]?.balance ?? parseMoney(carrier.balance)) };
}

function paymentNote(p: PaymentInput): string {
  const what = p.direction === 'received' ? 'Payment received' : 'Payment sent';
  return [what, p.transaction_id ? `#${p.transaction_id}` : '', p.note ?? ''].filter(Boolean).join(' ');
}

/** Which side of invoices a payment direction pays: received pays customer invoices, sent pays vendor ones. */
export const sideOfDirection = (d: 'received' | 'sent') => (d === 'received' ? 'customer' : 'vendor');

async function allocate(
  trx: Db,
  paymentId: number,
  clientId: number,
  direction: 'received' | 'sent',
  amount: Micros,
  allocations: readonly { invoice_id: number; amount: string }[],
): Promise<void> {
  if (allocations.length === 0) return;
  let sum = 0n;
  const ids = allocations.map((a) => a.invoice_id);
  if (new Set(ids).size !== ids.length) throw invalidField('allocations', 'invalidValue', ['allocations']);
  const invoices = await trx
    .selectFrom('invoices')
    .select([
      'invoice_id',
      'invoice_number',
      'client_id',
      'side',
      'status',
      'amount',
      'paid_amount',
      'credited',
      'debited',
    ])
    .where('invoice_id', 'in', ids)
    .orderBy('invoice_id')
    .forUpdate()
    .execute();
  for (const [i, a] of allocations.entries()) {
    const field = `allocations.${i}.amount`;
    const part = parseMoney(a.amount);
    if (part <= 0n) throw invalidField(field, 'invalidValue', [field]);
    const inv = invoices.find((x) => x.invoice_id === a.invoice_id);
    if (
      !inv ||
      inv.client_id !== clientId ||
      inv.side !== sideOfDirection(direction) ||
      inv.status !== 'normal'
    )
      throw invalidField(`allocations.${i}.invoice_id`, 'invoiceNotOpen', [
        inv?.invoice_number ?? String(a.invoice_id),
      ]);
    const left = invoiceBalance(
      parseMoney(inv.amount),
      parseMoney(inv.debited),
      parseMoney(inv.paid_amount),
      parseMoney(inv.credited),
    ).due;
    if (part > left)
      throw invalidField(field, 'allocationOverInvoice', [inv.invoice_number, m6(left < 0n ? 0n : left)]);
    sum += part;
  }
  if (sum > amount) throw invalidField('allocations', 'allocationsExceedPayment', [m6(sum), m6(amount)]);
  await trx
    .insertInto('payment_allocations')
    .values(
      allocations.map((a) => ({
        payment_id: paymentId,
        invoice_id: a.invoice_id,
        amount: m6(parseMoney(a.amount)),
      })),
    )
    .execute();
  await refreshInvoices(trx, ids);
}

/**
 * Recomputes paid, credited, debited and the pay state of invoices from their allocations (completed
 * payments) and notes (normal ones): the one place these figures are derived.
 */
export async function refreshInvoices(trx: Db, invoiceIds: readonly number[]): Promise<void> {
  if (invoiceIds.length === 0) return;
  const rows = await sql<{
    invoice_id: number;
    total: string;
    paid: string;
    credited: string;
    debited: string;
  }>`
    SELECT i.invoice_id, i.amount::text AS total,
      coalesce((SELECT sum(a.amount) FROM payment_allocations a JOIN payments p ON p.payment_id = a.payment_id
        WHERE a.invoice_id = i.invoice_id AND p.status = 'completed'), 0)::text AS paid,
      coalesce((SELECT sum(n.amount) FROM billing_notes n
        WHERE n.invoice_id = i.invoice_id AND n.kind = 'credit' AND n.status = 'normal'), 0)::text AS credited,
      coalesce((SELECT sum(n.amount) FROM billing_notes n
        WHERE n.invoice_id = i.invoice_id AND n.kind = 'debit' AND n.status = 'normal'), 0)::text AS debited
    FROM invoices i WHERE i.invoice_id = ANY(${[...invoiceIds]}::int4[])`.execute(trx);
  for (const r of rows.rows) {
    const b = invoiceBalance(
      parseMoney(r.total),
      parseMoney(r.debited),
      parseMoney(r.paid),
      parseMoney(r.credited),
    );
    await trx
      .updateTable('invoices')
      .set({ paid_amount: r.paid, credited: r.credited, debited: r.debited, pay_status: b.payStatus })
      .where('invoice_id', '=', r.invoice_id)
      .execute();
  }
}

/**
 * Cancels a payment: one reversing ledger row (`payment:<id>:cancel`), its allocations released and
 * their invoices recomputed; the payment row stays, marked canceled with who and why.
 */
export async function cancelPayment(
  trx: Db,
  paymentId: number,
  by: string,
  note = '',
): Promise<RecordedPayment> {
  const p = await trx
    .selectFrom('payments')
    .selectAll()
    .where('payment_id', '=', paymentId)
    .forUpdate()
    .executeTakeFirst();
  if (!p) throw notFound();
  if (p.status === 'canceled') throw ruleBroken('paymentCanceled');
  const amount = parseMoney(p.amount);
  const moved = await moveBalances(trx, [
    {
      client_id: p.client_id,
      kind: 'payment',
      ref: `payment:${paymentId}:cancel`,
      amount: p.direction === 'received' ? -amount : amount,
      note: `Payment #${paymentId} canceled${note ? ': ' + note : ''}`,
      created_by: by,
    },
  ]);
  await trx
    .updateTable('payments')
    .set({ status: 'canceled', canceled_at: new Date(), canceled_by: by, cancel_note: note })
    .where('payment_id', '=', paymentId)
    .execute();
  const allocated = await trx
    .deleteFrom('payment_allocations')
    .where('payment_id', '=', paymentId)
    .returning('invoice_id')
    .execute();
  await refreshInvoices(
    trx,
    allocated.map((a) => a.invoice_id),
  );
  return { payment_id: paymentId, created: false, balance: m6(moved[0]?.balance ?? 0n) };
}

export interface NoteInput {
  client_id: number;
  kind: 'credit' | 'debit';
  amount: string;
  invoice_id?: number | null;
  note?: string;
  /** A second note with the same key for the carrier answers the first and moves nothing. */
  idempotency_key?: string | null;
  created_by?: string;
}

/**
 * A credit note (+amount, in the carrier's favour) or debit note (−amount): one ledger row
 * (kind credit_note / debit_note, ref `note:<id>`), on an invoice of the carrier (its credited or
 * debited figure and state recomputed) or free-standing. A credit note on an invoice may not exceed
 * what is left on it. Idempotent by `idempotency_key` (as recordPayment).
 */
export async function recordNote(
  trx: Db,
  input: NoteInput,
): Promise<{ note_id: number; created: boolean; balance: string }> {
  const amount = parseMoney(input.amount);
  if (amount <= 0n) throw invalidField('amount', 'invalidValue', ['amount']);
  // The carrier first, locked (see recordPayment).
  const carrier = await trx
    .selectFrom('carriers')
    .select(['client_id', 'balance'])
    .where('client_id', '=', input.client_id)
    .forUpdate()
    .executeTakeFirst();
  if (!carrier) throw notFound();
  if (input.idempotency_key) {
    const earlier = await trx
      .selectFrom('billing_notes')
      .select('note_id')
      .where('client_id', '=', input.client_id)
      .where('idempotency_key', '=', input.idempotency_key)
      .executeTakeFirst();
    if (earlier)
      return { note_id: earlier.note_id, created: false, balance: m6(parseMoney(carrier.balance)) };
  }
  if (input.invoice_id != null) {
    const inv = await trx
      .selectFrom('invoices')
      .select(['invoice_number', 'client_id', 'status', 'amount', 'paid_amount', 'credited', 'debited'])
      .where('invoice_id', '=', input.invoice_id)
      .forUpdate()
      .executeTakeFirst();
    if (!inv || inv.client_id !== input.client_id || inv.status !== 'normal')
      throw invalidField('invoice_id', 'invoiceNotOpen', [inv?.invoice_number ?? String(input.invoice_id)]);
    if (input.kind === 'credit') {
      const left = invoiceBalance(
        parseMoney(inv.amount),
        parseMoney(inv.debited),
        parseMoney(inv.paid_amount),
        parseMoney(inv.credited),
      ).due;
      if (amount > left)
        throw invalidField('amount', 'allocationOverInvoice', [
          inv.invoice_number,
          m6(left < 0n ? 0n : left),
        ]);
    }
  }
  const { note_id } = await trx
    .insertInto('billing_notes')
    .values({
      client_id: input.client_id,
      kind: input.kind,
      invoice_id: input.invoice_id ?? null,
      amount: m6(amount),
      note: input.note ?? '',
      idempotency_key: input.idempotency_key || null,
      created_by: input.created_by ?? 'system',
    })
    .returning('note_id')
    .executeTakeFirstOrThrow();
  const moved = await moveBalances(trx, [
    {
      client_id: input.client_id,
      kind: input.kind === 'credit' ? 'credit_note' : 'debit_note',
      ref: `note:${note_id}`,
      amount: input.kind === 'credit' ? amount : -amount,
      note: `${input.kind === 'credit' ? 'Credit' : 'Debit'} note #${note_id}${input.note ? ': ' + input.note : ''}`,
      created_by: input.created_by ?? 'system',
    },
  ]);
  if (input.invoice_id != null) await refreshInvoices(trx, [input.invoice_id]);
  return { note_id, created: true, balance: m6(moved[0]?.balance ?? 0n) };
}

/** Cancels a note: one reversing ledger row (`note:<id>:cancel`); the note stays, marked canceled. */
export async function cancelNote(trx: Db, noteId: number, by: string): Promise<void> {
  const n = await trx
    .selectFrom('billing_notes')
    .selectAll()
    .where('note_id', '=', noteId)
    .forUpdate()
    .executeTakeFirst();
  if (!n) throw notFound();
  if (n.status === 'canceled') throw ruleBroken('noteCanceled');
  const amount = parseMoney(n.amount);
  await moveBalances(trx, [
    {
      client_id: n.client_id,
      kind: n.kind === 'credit' ? 'credit_note' : 'debit_note',
      ref: `note:${noteId}:cancel`,
      amount: n.kind === 'credit' ? -amount : amount,
      note: `${n.kind === 'credit' ? 'Credit' : 'Debit'} note #${noteId} canceled`,
      created_by: by,
    },
  ]);
  await trx
    .updateTable('billing_notes')
    .set({ status: 'canceled', canceled_at: new Date(), canceled_by: by })
    .where('note_id', '=', noteId)
    .execute();
  if (n.invoice_id != null) await refreshInvoices(trx, [n.invoice_id]);
}
