import {
  compareVendorInvoice,
  formatMoney,
  localMidnight,
  parseMoney,
  type Micros,
  type OurLine,
  type VendorComparison,
} from '@tandem/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { duplicate, invalidField, notFound, ruleBroken } from '../../http/errors';
import { moveBalances } from '../cdr/ledger';
import { usageLines } from './invoices';

/**
 * Vendor invoices received (docs/billing.md "Vendor invoices"): a vendor's invoice for a period of
 * its local dates, compared with Tandem's own cost of that vendor for the same period from the CDR
 * summaries (the same figures as a vendor-side invoice: `usageLines`), in total, per destination
 * and per day. Recording one moves no balance (the calls already did when they were rated).
 * Settling it (accept at the vendor's amount, or resolve a dispute at the amount agreed) makes what
 * the vendor is owed for the period that amount: one ledger row 'adjustment', ref
 * `vendor_invoice:<id>`, of agreed − Tandem's figure, with the carrier locked in the transaction
 * that sets the state; the ref moves a balance once, and a repeated settlement answers unchanged.
 */

const m6 = (v: Micros) => formatMoney(v, 6);
const m2 = (v: Micros) => formatMoney(v, 2);

export interface StoredLine {
  key: string;
  minutes: string | null;
  amount: string;
}

/** The vendor's period as instants: local midnight of its first date to local midnight after its last. */
export function periodOf(from: string, to: string, tz: string): { start: Date; end: Date } {
  return {
    start: new Date(localMidnight(from, tz)),
    end: new Date(localMidnight(to, tz) + 86_400_000),
  };
}

/** Tandem's figures of a vendor over a period (its egress calls' cost), per destination and day. */
export async function ourFigures(
  db: Db,
  clientId: number,
  start: Date,
  end: Date,
  tz: string,
): Promise<{ destination: OurLine[]; day: OurLine[] }> {
  const lines = await usageLines(db, clientId, 'vendor', start, end, tz);
  const conv = (l: { key: string; calls: number; billed_seconds: number; amount: string }): OurLine => ({
    key: l.key,
    calls: l.calls,
    billed_seconds: l.billed_seconds,
    amount: parseMoney(l.amount),
  });
  return { destination: lines.destination.map(conv), day: lines.day.map(conv) };
}

/** The comparison of a stored vendor invoice with Tandem's figures. */
export function comparisonOf(
  ours: { destination: OurLine[]; day: OurLine[] },
  inv: { amount: string; minutes: string | null; lines: StoredLine[] },
): VendorComparison {
  return compareVendorInvoice({
    ours,
    their_amount: parseMoney(inv.amount),
    their_minutes: inv.minutes === null ? null : parseMoney(inv.minutes),
    their_lines: inv.lines.map((l) => ({
      key: l.key,
      minutes: l.minutes === null ? null : parseMoney(l.minutes),
      amount: parseMoney(l.amount),
    })),
  });
}

/** A comparison as the API sends it: money exact (6 places), minutes and percent with 2. */
export function comparisonOut(c: VendorComparison) {
  const n = (v: Micros | null) => (v === null ? null : m2(v));
  return {
    our_calls: c.our_calls,
    our_minutes: m2(c.our_minutes),
    our_amount: m6(c.our_amount),
    their_minutes: n(c.their_minutes),
    their_amount: m6(c.their_amount),
    amount_difference: m6(c.amount_difference),
    minutes_difference: n(c.minutes_difference),
    amount_difference_percent: n(c.amount_difference_percent),
    by_destination: c.by_destination.map(lineOut),
    by_day: c.by_day.map(lineOut),
  };
  function lineOut(l: VendorComparison['by_day'][number]) {
    return {
      key: l.key,
      our_calls: l.our_calls,
      our_minutes: m2(l.our_minutes),
      our_amount: m6(l.our_amount),
      their_minutes: n(l.their_minutes),
      their_amount: l.their_amount === null ? null : m6(l.their_amount),
      amount_difference: m6(l.amount_difference),
      minutes_difference: n(l.minutes_difference),
    };
  }
}

const linesOf = (lines: readonly { key: string; minutes: string | null; amount: string }[]): StoredLine[] =>
  lines.map((l) => ({
    key: l.key,
    minutes: l.minutes === null ? null : m6(parseMoney(l.minutes)),
    amount: m6(parseMoney(l.amount)),
  }));

export interface VendorInvoiceInput {
  client_id: number;
  invoice_number: string;
  invoice_date: string;
  period_from: string;
  period_to: string;
  amount: string;
  currency?: string;
  minutes: string | null;
  lines: readonly { key: string; minutes: string | null; amount: string }[];
  note: string;
  created_by: string;
}

/** Records a vendor's invoice with Tandem's figures of its period (in the caller's transaction). */
export async function createVendorInvoice(trx: Db, b: VendorInvoiceInput): Promise<number> {
  // The vendor locked: two recordings of one number queue up, the second finds the first.
  const c = await trx
    .selectFrom('carriers')
    .select(['client_id', 'time_zone', 'currency'])
    .where('client_id', '=', b.client_id)
    .forUpdate()
    .executeTakeFirst();
  if (!c) throw notFound();
  if (b.currency && b.currency !== c.currency)
    throw invalidField('currency', 'currencyMismatch', [c.currency]);
  const dup = await trx
    .selectFrom('vendor_invoices')
    .select('vendor_invoice_id')
    .where('client_id', '=', b.client_id)
    .where(sql<boolean>`lower(invoice_number) = lower(${b.invoice_number})`)
    .executeTakeFirst();
  if (dup) throw duplicate('invoice_number', 'Vendor invoice', b.invoice_number);
  const { start, end } = periodOf(b.period_from, b.period_to, c.time_zone);
  const ours = await ourFigures(trx, c.client_id, start, end, c.time_zone);
  const lines = linesOf(b.lines);
  const cmp = comparisonOf(ours, { amount: b.amount, minutes: b.minutes, lines });
  const { vendor_invoice_id } = await trx
    .insertInto('vendor_invoices')
    .values({
      client_id: c.client_id,
      invoice_number: b.invoice_number,
      invoice_date: b.invoice_date,
      period_from: b.period_from,
      period_to: b.period_to,
      period_start: start,
      period_end: end,
      time_zone: c.time_zone,
      currency: c.currency,
      amount: m6(parseMoney(b.amount)),
      minutes: b.minutes === null ? null : m6(parseMoney(b.minutes)),
      lines: JSON.stringify(lines),
      our_amount: m6(cmp.our_amount),
      our_seconds: ours.destination.reduce((a, l) => a + l.billed_seconds, 0),
      our_calls: cmp.our_calls,
      note: b.note,
      created_by: b.created_by,
    })
    .returning('vendor_invoice_id')
    .executeTakeFirstOrThrow();
  return vendor_invoice_id;
}

/** The stored invoice locked, refused when it is settled (accepted or resolved). */
async function openInvoice(trx: Db, id: number) {
  const inv = await trx
    .selectFrom('vendor_invoices')
    .selectAll()
    .select([sql<string>`period_from::text`.as('from_text'), sql<string>`period_to::text`.as('to_text')])
    .where('vendor_invoice_id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!inv) throw notFound();
  return inv;
}

/** Corrects a vendor invoice that is not settled and compares it again. */
export async function updateVendorInvoice(
  trx: Db,
  id: number,
  b: {
    invoice_number?: string;
    invoice_date?: string;
    period_from?: string;
    period_to?: string;
    amount?: string;
    minutes?: string | null;
    lines?: readonly { key: string; minutes: string | null; amount: string }[];
    note?: string;
  },
): Promise<void> {
  const inv = await openInvoice(trx, id);
  if (inv.status === 'accepted' || inv.status === 'resolved') throw ruleBroken('vendorInvoiceSettled');
  if (b.invoice_number !== undefined && b.invoice_number.toLowerCase() !== inv.invoice_number.toLowerCase()) {
    const dup = await trx
      .selectFrom('vendor_invoices')
      .select('vendor_invoice_id')
      .where('client_id', '=', inv.client_id)
      .where('vendor_invoice_id', '<>', id)
      .where(sql<boolean>`lower(invoice_number) = lower(${b.invoice_number})`)
      .executeTakeFirst();
    if (dup) throw duplicate('invoice_number', 'Vendor invoice', b.invoice_number);
  }
  const from = b.period_from ?? inv.from_text;
  const to = b.period_to ?? inv.to_text;
  if (to < from) throw invalidField('period_to', 'periodEndBeforeStart', ['period_to']);
  const { start, end } = periodOf(from, to, inv.time_zone);
  await trx
    .updateTable('vendor_invoices')
    .set({
      ...(b.invoice_number !== undefined ? { invoice_number: b.invoice_number } : {}),
      ...(b.invoice_date !== undefined ? { invoice_date: b.invoice_date } : {}),
      ...(b.amount !== undefined ? { amount: m6(parseMoney(b.amount)) } : {}),
      ...(b.minutes !== undefined ? { minutes: b.minutes === null ? null : m6(parseMoney(b.minutes)) } : {}),
      ...(b.lines !== undefined ? { lines: JSON.stringify(linesOf(b.lines)) } : {}),
      ...(b.note !== undefined ? { note: b.note } : {}),
      period_from: from,
      period_to: to,
      period_start: start,
      period_end: end,
      updated_at: new Date(),
    })
    .where('vendor_invoice_id', '=', id)
    .execute();
  await recompare(trx, id);
}

/** Takes Tandem's figures of the invoice's period again (after a rerate or a correction). */
export async function recompare(db: Db, id: number): Promise<void> {
  const inv = await db
    .selectFrom('vendor_invoices')
    .select(['client_id', 'period_start', 'period_end', 'time_zone'])
    .where('vendor_invoice_id', '=', id)
    .executeTakeFirst();
  if (!inv) throw notFound();
  const ours = await ourFigures(db, inv.client_id, inv.period_start, inv.period_end, inv.time_zone);
  await db
    .updateTable('vendor_invoices')
    .set({
      our_amount: m6(ours.destination.reduce((a, l) => a + l.amount, 0n)),
      our_seconds: ours.destination.reduce((a, l) => a + l.billed_seconds, 0),
      our_calls: ours.destination.reduce((a, l) => a + l.calls, 0),
      compared_at: new Date(),
    })
    .where('vendor_invoice_id', '=', id)
    .execute();
}

/** Disputes a vendor invoice: the amount disputed (default vendor − Tandem) and why. */
export async function disputeVendorInvoice(
  trx: Db,
  id: number,
  b: { amount?: string; note: string },
  by: string,
): Promise<void> {
  const inv = await openInvoice(trx, id);
  if (inv.status === 'accepted' || inv.status === 'resolved') throw ruleBroken('vendorInvoiceSettled');
  const ours = await ourFigures(trx, inv.client_id, inv.period_start, inv.period_end, inv.time_zone);
  const ourAmount = ours.destination.reduce((a, l) => a + l.amount, 0n);
  const disputed = b.amount !== undefined ? parseMoney(b.amount) : parseMoney(inv.amount) - ourAmount;
  await trx
    .updateTable('vendor_invoices')
    .set({
      status: 'disputed',
      disputed_amount: m6(disputed),
      dispute_note: b.note,
      disputed_at: new Date(),
      disputed_by: by,
      our_amount: m6(ourAmount),
      our_seconds: ours.destination.reduce((a, l) => a + l.billed_seconds, 0),
      our_calls: ours.destination.reduce((a, l) => a + l.calls, 0),
      compared_at: new Date(),
      updated_at: new Date(),
    })
    .where('vendor_invoice_id', '=', id)
    .execute();
}

/**
 * Settles a vendor invoice: accepted at the vendor's amount (no `agreed`, or agreed = the vendor's
 * amount, from received or disputed) or resolved at the amount agreed (a dispute only). One ledger
 * row 'adjustment' of agreed − Tandem's figure of the period (none when they are equal), carrier
 * locked first, in the caller's transaction. A settlement repeated with the same amount answers
 * `changed: false` and moves nothing; another amount is refused.
 */
export async function settleVendorInvoice(
  trx: Db,
  id: number,
  b: { agreed_amount?: string; note: string },
  by: string,
): Promise<{ status: 'accepted' | 'resolved'; adjustment: string; balance: string; changed: boolean }> {
  const head = await trx
    .selectFrom('vendor_invoices')
    .select('client_id')
    .where('vendor_invoice_id', '=', id)
    .executeTakeFirst();
  if (!head) throw notFound();
  // The carrier first (moveBalances locks it too; the same order everywhere: no deadlock).
  const carrier = await trx
    .selectFrom('carriers')
    .select('balance')
    .where('client_id', '=', head.client_id)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const inv = await openInvoice(trx, id);
  const vendorAmount = parseMoney(inv.amount);
  const agreed = b.agreed_amount !== undefined ? parseMoney(b.agreed_amount) : vendorAmount;
  if (inv.status === 'accepted' || inv.status === 'resolved') {
    if (inv.agreed_amount !== null && parseMoney(inv.agreed_amount) === agreed)
      return {
        status: inv.status,
        adjustment: m6(parseMoney(inv.adjustment ?? '0')),
        balance: m6(parseMoney(carrier.balance)),
        changed: false,
      };
    throw ruleBroken('vendorInvoiceSettled');
  }
  const status = agreed === vendorAmount ? 'accepted' : 'resolved';
  if (status === 'resolved' && inv.status !== 'disputed')
    throw invalidField('agreed_amount', 'vendorInvoiceNotDisputed');
  const ours = await ourFigures(trx, inv.client_id, inv.period_start, inv.period_end, inv.time_zone);
  const ourAmount = ours.destination.reduce((a, l) => a + l.amount, 0n);
  const adjustment = agreed - ourAmount;
  const moved =
    adjustment === 0n
      ? []
      : await moveBalances(trx, [
          {
            client_id: inv.client_id,
            kind: 'adjustment',
            side: 'vendor',
            ref: `vendor_invoice:${id}`,
            // A vendor's balance is what we owe it: agreed more than the CDRs say -> we owe more.
            amount: adjustment,
            note: `Vendor invoice ${inv.invoice_number} ${status} at ${m6(agreed)} (Tandem ${m6(ourAmount)})${b.note ? ': ' + b.note : ''}`,
            created_by: by,
          },
        ]);
  await trx
    .updateTable('vendor_invoices')
    .set({
      status,
      agreed_amount: m6(agreed),
      adjustment: m6(adjustment),
      settle_note: b.note,
      settled_at: new Date(),
      settled_by: by,
      our_amount: m6(ourAmount),
      our_seconds: ours.destination.reduce((a, l) => a + l.billed_seconds, 0),
      our_calls: ours.destination.reduce((a, l) => a + l.calls, 0),
      compared_at: new Date(),
      updated_at: new Date(),
    })
    .where('vendor_invoice_id', '=', id)
    .execute();
  return {
    status,
    adjustment: m6(adjustment),
    balance: m6(moved[0]?.balance ?? parseMoney(carrier.balance)),
    changed: true,
  };
}
