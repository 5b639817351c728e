import { createHash, randomBytes } from 'node:crypto';
import {
  dueDateOf,
  formatMoney,
  invoiceAmounts,
  localDate,
  parseMoney,
  tzOffsetMinutes,
  type Micros,
} from '@tandem/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { notFound, ruleBroken } from '../../http/errors';
import { invoiceCharges } from './extra-charges';
import { refreshInvoices } from './payments';
import { foldSummaries } from '../stats/summaries';

/**
 * Invoices (docs/billing.md "Invoices"): one carrier, one side, one period [start, end) cut at the
 * carrier's local midnight. The usage comes from the CDR summaries of the period (hourly, whole hours
 * of every zone the portal offers), exact, summarised per destination, trunk and local day; the
 * balance before and after from the ledger. An invoice moves no balance (the calls already did, as
 * they were rated): payments, credit and debit notes do, each with its ledger row.
 */

const m6 = (v: Micros) => formatMoney(v, 6);

/** How an invoice looks and travels: the carrier's invoice setting, else the default, else these. */
export interface InvoiceSettingSnapshot {
  invoice_setting_id: number | null;
  name: string;
  logo: string;
  decimal_places: number;
  invoice_delivery: 'attachment' | 'link';
  cdr_delivery: 'attachment' | 'link';
  overlap_protection: boolean;
  billing_info: string;
  billing_info_position: 'top' | 'bottom';
  company_info: string;
  company_info_position: 'top' | 'bottom';
  tax_percent: string;
  link_days: number;
}
export const BUILT_IN_SETTING: InvoiceSettingSnapshot = {
  invoice_setting_id: null,
  name: 'Built-in',
  logo: '',
  decimal_places: 2,
  invoice_delivery: 'attachment',
  cdr_delivery: 'attachment',
  overlap_protection: true,
  billing_info: '',
  billing_info_position: 'top',
  company_info: '',
  company_info_position: 'top',
  tax_percent: '0',
  link_days: 30,
};

export async function settingOf(db: Db, invoiceSettingId: number | null): Promise<InvoiceSettingSnapshot> {
  let qb = db.selectFrom('invoice_settings').selectAll();
  qb = invoiceSettingId
    ? qb.where('invoice_setting_id', '=', invoiceSettingId)
    : qb.where('is_default', '=', true);
  const r = await qb.executeTakeFirst();
  if (!r) return BUILT_IN_SETTING;
  return {
    invoice_setting_id: r.invoice_setting_id,
    name: r.name,
    logo: r.logo,
    decimal_places: r.decimal_places,
    invoice_delivery: r.invoice_delivery,
    cdr_delivery: r.cdr_delivery,
    overlap_protection: r.overlap_protection,
    billing_info: r.billing_info,
    billing_info_position: r.billing_info_position,
    company_info: r.company_info,
    company_info_position: r.company_info_position,
    tax_percent: formatMoney(parseMoney(r.tax_percent), 4),
    link_days: r.link_days,
  };
}

/** One summary line: a destination, trunk or local day with its calls, billed minutes and amount. */
export interface InvoiceLine {
  key: string;
  calls: number;
  billed_seconds: number;
  /** Exact (6 places). */
  amount: string;
}
/** An extra charge occurrence an invoice shows. */
export interface InvoiceChargeLine {
  extra_charge_id: number;
  occurrence: number;
  date: string;
  name: string;
  /** Exact (6 places). */
  amount: string;
}
export interface InvoiceLines {
  destination: InvoiceLine[];
  trunk: InvoiceLine[];
  day: InvoiceLine[];
  /** Recurring charges booked in the period (ledger kind 'did_charge'); absent on older invoices. */
  recurring?: InvoiceLine[];
  /** Extra charges (invoices made before migration 0030 have none). */
  charges?: InvoiceChargeLine[];
}

export interface InvoiceOptions {
  include_tax: boolean;
  attach_cdr: boolean;
  include_summary: boolean;
}

export interface CreateInvoiceInput {
  client_id: number;
  side: 'customer' | 'vendor';
  start: Date;
  end: Date;
  origin: 'manual' | 'auto';
  created_by: string;
  /** Automatic invoices: the key that makes one per carrier, side and period. */
  auto_key?: string;
  note?: string;
  /** Overrides the carrier's invoice options. */
  options?: Partial<InvoiceOptions>;
  /** Automatic invoices: skip a period without traffic when the carrier asks for non-zero invoices only. */
  skipZero?: boolean;
  now?: Date;
}

export type CreateInvoiceResult =
  | { invoice_id: number; invoice_number: string; created: true }
  | { invoice_id: number | null; invoice_number: string; created: false; reason: 'exists' | 'zero' };

/**
 * Makes an invoice inside the caller's transaction: locks the carrier (two makers of the same
 * carrier's invoices queue up), refuses a period overlapping a normal invoice of the same side when
 * the setting protects overlaps, sums the CDR summaries of the period exactly, rounds by the rule of
 * domain billing.ts, takes the balance before and after from the ledger, and logs it.
 */
export async function createInvoice(trx: Db, input: CreateInvoiceInput): Promise<CreateInvoiceResult> {
  const now = input.now ?? new Date();
  const c = await trx
    .selectFrom('carriers as c')
    .leftJoin('payment_terms as t', 't.payment_term_id', 'c.payment_term_id')
    .select([
      'c.client_id',
      'c.name',
      'c.currency',
      'c.time_zone',
      'c.invoice_setting_id',
      'c.invoice_options',
      't.grace_days',
    ])
    .where('c.client_id', '=', input.client_id)
    .forUpdate('c')
    .executeTakeFirst();
  if (!c) throw notFound();
  if (input.auto_key) {
    const done = await trx
      .selectFrom('invoices')
      .select(['invoice_id', 'invoice_number'])
      .where('auto_key', '=', input.auto_key)
      .executeTakeFirst();
    if (done) return { ...done, created: false, reason: 'exists' };
  }
  const setting = await settingOf(trx, c.invoice_setting_id);
  if (setting.overlap_protection) {
    const clash = await trx
      .selectFrom('invoices')
      .select('invoice_number')
      .where('client_id', '=', c.client_id)
      .where('side', '=', input.side)
      .where('status', '=', 'normal')
      .where('period_start', '<', input.end)
      .where('period_end', '>', input.start)
      .executeTakeFirst();
    if (clash) throw ruleBroken('invoiceOverlap', [clash.invoice_number]);
  }
  const stored = (c.invoice_options ?? {}) as Partial<InvoiceOptions>;
  const options: InvoiceOptions = {
    include_tax: stored.include_tax ?? false,
    attach_cdr: stored.attach_cdr ?? false,
    include_summary: stored.include_summary ?? true,
    ...input.options,
  };
  const lines = await usageLines(trx, c.client_id, input.side, input.start, input.end, c.time_zone);
  lines.recurring = await recurringLines(trx, c.client_id, input.side, input.start, input.end);
  const usage = lines.destination.reduce((a, l) => a + parseMoney(l.amount), 0n);
  const recurring = lines.recurring.reduce((a, l) => a + parseMoney(l.amount), 0n);
  const calls = lines.destination.reduce((a, l) => a + l.calls, 0);
  const billed = lines.destination.reduce((a, l) => a + l.billed_seconds, 0);
  // The extra charges dated in the period's local dates (docs/billing.md "Extra charges").
  lines.charges = await invoiceCharges(
    trx,
    c.client_id,
    input.side,
    localDate(input.start.getTime(), c.time_zone),
    localDate(input.end.getTime() - 1, c.time_zone),
  );
  const charges = lines.charges.reduce((a, l) => a + parseMoney(l.amount), 0n);
  if (input.skipZero && usage === 0n && calls === 0 && recurring === 0n && lines.charges.length === 0) {
    await logInvoice(trx, {
      client_id: c.client_id,
      action: 'created',
      status: 'skipped',
      message: `No traffic from ${localDate(input.start.getTime(), c.time_zone)} to ${localDate(input.end.getTime() - 1, c.time_zone)}: no invoice (non-zero invoices only)`,
      created_by: input.created_by,
    });
    return { invoice_id: null, invoice_number: '', created: false, reason: 'zero' };
  }
  const pct = options.include_tax ? parseMoney(setting.tax_percent) : 0n;
  // The invoice is the usage of the period, the recurring charges booked in it and the extra
  // charges dated in it (all exact).
  const amounts = invoiceAmounts(usage + recurring + charges, pct, setting.decimal_places);
  const bal = await sql<{ opening: string; closing: string }>`
    SELECT coalesce(sum(amount) FILTER (WHERE created_at < ${input.start}), 0)::text AS opening,
      coalesce(sum(amount) FILTER (WHERE created_at < ${input.end}), 0)::text AS closing
    FROM ledger WHERE client_id = ${c.client_id}`.execute(trx);
  const { n } = (await sql<{ n: string }>`SELECT nextval('invoice_number_seq')::text AS n`.execute(trx))
    .rows[0] as { n: string };
  const invoiceNumber = `INV${n.padStart(6, '0')}`;
  // Dates of the invoice are the carrier's local calendar dates.
  const issued = localDate(now.getTime(), c.time_zone);
  const due = new Date(dueDateOf(Date.parse(issued), c.grace_days ?? 0)).toISOString().slice(0, 10);
  const { invoice_id } = await trx
    .insertInto('invoices')
    .values({
      client_id: c.client_id,
      invoice_number: invoiceNumber,
      invoice_date: issued,
      period_start: input.start,
      period_end: input.end,
      amount: m6(amounts.total),
      due_date: due,
      currency: c.currency,
      side: input.side,
      origin: input.origin,
      time_zone: c.time_zone,
      decimal_places: setting.decimal_places,
      calls,
      billed_seconds: billed,
      usage_exact: m6(usage),
      extra_charges: m6(charges),
      subtotal: m6(amounts.subtotal),
      tax_percent: formatMoney(pct, 4),
      tax: m6(amounts.tax),
      opening_balance: bal.rows[0]?.opening ?? '0',
      closing_balance: bal.rows[0]?.closing ?? '0',
      lines: JSON.stringify(lines),
      options: JSON.stringify(options),
      setting: JSON.stringify({ ...setting, logo: setting.logo ? 'stored' : '' }),
      invoice_setting_id: setting.invoice_setting_id,
      auto_key: input.auto_key ?? null,
      note: input.note ?? '',
      created_by: input.created_by,
    })
    .returning('invoice_id')
    .executeTakeFirstOrThrow();
  await refreshInvoices(trx, [invoice_id]);
  await logInvoice(trx, {
    invoice_id,
    client_id: c.client_id,
    invoice_number: invoiceNumber,
    action: 'created',
    message: `${input.origin === 'auto' ? 'Automatic' : 'Manual'} invoice ${localDate(input.start.getTime(), c.time_zone)} – ${localDate(input.end.getTime() - 1, c.time_zone)}: ${formatMoney(amounts.total, setting.decimal_places)} ${c.currency}`,
    created_by: input.created_by,
  });
  return { invoice_id, invoice_number: invoiceNumber, created: true };
}

/**
 * The usage of a carrier over [start, end) from the hourly CDR summaries: what it bought (customer:
 * revenue of its ingress calls) or sold (vendor: cost of its egress calls), exact, per destination
 * country, per trunk and per local day.
 */
export async function usageLines(
  db: Db,
  clientId: number,
  side: 'customer' | 'vendor',
  start: Date,
  end: Date,
  tz: string,
): Promise<InvoiceLines> {
  const customer = side === 'customer';
  const who = customer ? sql`s.ingress_client_id` : sql`s.egress_client_id`;
  const trunk = customer ? sql`s.ingress_trunk_id` : sql`s.egress_trunk_id`;
  const money = customer ? sql`s.revenue` : sql`s.cost`;
  const billedCol = customer ? sql`s.ingress_billed_time` : sql`s.egress_billed_time`;
  const offset = `${tzOffsetMinutes(tz)} minutes`;
  await foldSummaries(db); // every CDR committed before the invoice is billed
  const rows = await sql<{ dim: string; key: string; calls: string; billed: string; amount: string }>`
    WITH base AS (
      SELECT coalesce(nullif(s.term_country, ''), '-') AS destination,
        coalesce(t.name, '#' || ${trunk}::text) AS trunk,
        to_char(s.bucket + ${offset}::interval, 'YYYY-MM-DD') AS day,
        s.answered AS calls, ${billedCol} AS billed, ${money} AS amount
      FROM cdr_summaries_hourly s LEFT JOIN trunks t ON t.trunk_id = ${trunk}
      WHERE ${who} = ${clientId} AND s.bucket >= ${start} AND s.bucket < ${end}
    )
    SELECT 'destination' AS dim, destination AS key, sum(calls)::text AS calls, sum(billed)::text AS billed, sum(amount)::text AS amount FROM base GROUP BY destination
    UNION ALL
    SELECT 'trunk', trunk, sum(calls)::text, sum(billed)::text, sum(amount)::text FROM base GROUP BY trunk
    UNION ALL
    SELECT 'day', day, sum(calls)::text, sum(billed)::text, sum(amount)::text FROM base GROUP BY day`.execute(
    db,
  );
  const out: InvoiceLines = { destination: [], trunk: [], day: [] };
  for (const r of rows.rows) {
    out[r.dim as 'destination' | 'trunk' | 'day'].push({
      key: r.key,
      calls: Number(r.calls),
      billed_seconds: Number(r.billed),
      amount: m6(parseMoney(r.amount)),
    });
  }
  out.destination.sort((a, b) => a.key.localeCompare(b.key));
  out.trunk.sort((a, b) => a.key.localeCompare(b.key));
  out.day.sort((a, b) => a.key.localeCompare(b.key));
  return out;
}

/** What each kind of recurring charge is called on an invoice (its ledger reference's first part). */
const RECURRING_LABELS: Record<string, string> = {
  'did-setup': 'DID setup fees',
  'did-monthly': 'DID monthly fees',
  'did-refund': 'DID refunds (released numbers)',
  'did-channels': 'DID channels',
  'did-vendor-import': 'DIDs added: setup fees and first month',
  'did-vendor-monthly': 'DIDs in stock: monthly fees',
};

/**
 * The recurring charges a carrier's side was booked in [start, end) (docs/did.md "Recurring
 * charges"): the ledger's 'did_charge' rows of that side by kind, each with how many and the amount
 * the invoice bills (a customer's charge lowered its balance, so it is billed as positive; a refund
 * negative; a vendor's charges are what it bills the operator). They moved the balance when they
 * were made, as the calls did: the invoice only lists them.
 */
export async function recurringLines(
  db: Db,
  clientId: number,
  side: 'customer' | 'vendor',
  start: Date,
  end: Date,
): Promise<InvoiceLine[]> {
  const rows = await sql<{ kind: string; n: string; amount: string }>`
    SELECT split_part(ref, ':', 1) AS kind, count(*)::text AS n, sum(amount)::text AS amount
    FROM ledger
    WHERE client_id = ${clientId} AND kind = 'did_charge' AND side = ${side}
      AND created_at >= ${start} AND created_at < ${end}
    GROUP BY 1 ORDER BY 1`.execute(db);
  return rows.rows.map((r) => {
    const booked = parseMoney(r.amount);
    return {
      key: RECURRING_LABELS[r.kind] ?? r.kind,
      calls: Number(r.n),
      billed_seconds: 0,
      amount: m6(side === 'customer' ? -booked : booked),
    };
  });
}

export async function logInvoice(
  db: Db,
  row: {
    invoice_id?: number | null;
    client_id?: number | null;
    invoice_number?: string;
    action: string;
    status?: 'success' | 'failed' | 'skipped';
    message?: string;
    created_by?: string;
  },
): Promise<void> {
  await db
    .insertInto('invoice_log')
    .values({
      invoice_id: row.invoice_id ?? null,
      client_id: row.client_id ?? null,
      invoice_number: row.invoice_number ?? '',
      action: row.action,
      status: row.status ?? 'success',
      message: row.message ?? '',
      created_by: row.created_by ?? 'system',
    })
    .execute();
}

/** Void (normal -> voided: its payment allocations are released, the payments stay) or reverse (voided -> normal). */
export async function setInvoiceStatus(
  trx: Db,
  invoiceId: number,
  to: 'voided' | 'normal',
  by: string,
): Promise<void> {
  const inv = await trx
    .selectFrom('invoices')
    .select(['invoice_id', 'invoice_number', 'client_id', 'side', 'status', 'period_start', 'period_end'])
    .where('invoice_id', '=', invoiceId)
    .forUpdate()
    .executeTakeFirst();
  if (!inv) throw notFound();
  if (to === 'voided' && inv.status === 'voided') throw ruleBroken('invoiceAlreadyVoided');
  if (to === 'normal' && inv.status !== 'voided') throw ruleBroken('invoiceNotVoided');
  if (to === 'normal') {
    // Reversing must not make two normal invoices cover the same time.
    const clash = await trx
      .selectFrom('invoices')
      .select('invoice_number')
      .where('client_id', '=', inv.client_id)
      .where('side', '=', inv.side)
      .where('status', '=', 'normal')
      .where('invoice_id', '<>', invoiceId)
      .where('period_start', '<', inv.period_end)
      .where('period_end', '>', inv.period_start)
      .executeTakeFirst();
    if (clash) throw ruleBroken('invoiceOverlap', [clash.invoice_number]);
  }
  let released = 0;
  if (to === 'voided') {
    const r = await trx
      .deleteFrom('payment_allocations')
      .where('invoice_id', '=', invoiceId)
      .executeTakeFirst();
    released = Number(r.numDeletedRows);
  }
  await trx
    .updateTable('invoices')
    .set(
      to === 'voided'
        ? { status: 'voided', voided_at: new Date(), voided_by: by }
        : { status: 'normal', voided_at: null, voided_by: null },
    )
    .where('invoice_id', '=', invoiceId)
    .execute();
  await refreshInvoices(trx, [invoiceId]);
  await logInvoice(trx, {
    invoice_id: invoiceId,
    client_id: inv.client_id,
    invoice_number: inv.invoice_number,
    action: to === 'voided' ? 'voided' : 'reversed',
    message: to === 'voided' && released ? `${released} payment allocation(s) released` : '',
    created_by: by,
  });
}

const hashToken = (t: string) => createHash('sha256').update(t).digest('hex');

/**
 * A new public download token for an invoice (the previous one stops working): 32 random bytes,
 * only its hash stored, valid `days` days (0: no expiry).
 */
export async function issueInvoiceToken(
  db: Db,
  invoiceId: number,
  days: number,
): Promise<{ token: string; expires_at: Date | null }> {
  const token = randomBytes(32).toString('base64url');
  const expires = days > 0 ? new Date(Date.now() + days * 86_400_000) : null;
  await db
    .updateTable('invoices')
    .set({ token_hash: hashToken(token), token_expires_at: expires })
    .where('invoice_id', '=', invoiceId)
    .execute();
  return { token, expires_at: expires };
}

/** The invoice a public token names, if it has not expired. */
export async function invoiceOfToken(db: Db, token: string): Promise<number | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const r = await db
    .selectFrom('invoices')
    .select(['invoice_id', 'token_expires_at'])
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!r) return null;
  if (r.token_expires_at && r.token_expires_at.getTime() <= Date.now()) return null;
  return r.invoice_id;
}
