import { toCsv } from '@tandem/contract';
import { formatMoney, localDate, parseMoney } from '@tandem/domain';
import PDFDocument from 'pdfkit';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { iso } from '../../db/paging';
import { notFound } from '../../http/errors';
import type { InvoiceLine, InvoiceLines, InvoiceOptions } from './invoices';

/** Everything an invoice document shows. */
export interface InvoiceDoc {
  invoice_id: number;
  invoice_number: string;
  client_id: number;
  invoice_setting_id: number | null;
  side: 'customer' | 'vendor';
  carrier: { name: string; company: string; address: string; tax_id: string; billing_email: string };
  operator: string;
  invoice_date: string;
  due_date: string;
  period_from: string;
  period_to: string;
  currency: string;
  dp: number;
  status: string;
  pay_status: string;
  calls: number;
  billed_seconds: number;
  /** Usage and extra charges, each rounded for display (the subtotal rounds their exact sum once). */
  usage: string;
  extra_charges: string;
  subtotal: string;
  tax_percent: string;
  tax: string;
  total: string;
  paid: string;
  credited: string;
  debited: string;
  due: string;
  opening_balance: string;
  closing_balance: string;
  lines: InvoiceLines;
  options: InvoiceOptions;
  setting: {
    logo: string;
    billing_info: string;
    billing_info_position: string;
    company_info: string;
    company_info_position: string;
  };
  period_start: Date;
  period_end: Date;
  time_zone: string;
}

/** Loads what an invoice document shows (figures at the invoice's decimal places). */
export async function loadInvoiceDoc(db: Db, invoiceId: number, operator: string): Promise<InvoiceDoc> {
  const r = await db
    .selectFrom('invoices as i')
    .innerJoin('carriers as c', 'c.client_id', 'i.client_id')
    .leftJoin('invoice_settings as st', 'st.invoice_setting_id', 'i.invoice_setting_id')
    .selectAll('i')
    .select(['c.name', 'c.company', 'c.address', 'c.tax_id', 'c.billing_email', 'st.logo'])
    .where('i.invoice_id', '=', invoiceId)
    .executeTakeFirst();
  if (!r) throw notFound();
  const dp = r.decimal_places;
  const f = (v: string) => formatMoney(parseMoney(v), dp);
  const due =
    parseMoney(r.amount) + parseMoney(r.debited) - parseMoney(r.paid_amount) - parseMoney(r.credited);
  const setting = r.setting as InvoiceDoc['setting'];
  return {
    invoice_id: r.invoice_id,
    invoice_number: r.invoice_number,
    client_id: r.client_id,
    invoice_setting_id: r.invoice_setting_id,
    side: r.side,
    carrier: {
      name: r.name,
      company: r.company,
      address: r.address,
      tax_id: r.tax_id,
      billing_email: r.billing_email,
    },
    operator,
    invoice_date: new Date(r.invoice_date).toISOString().slice(0, 10),
    due_date: new Date(r.due_date).toISOString().slice(0, 10),
    period_from: localDate(new Date(r.period_start).getTime(), r.time_zone),
    period_to: localDate(new Date(r.period_end).getTime() - 1, r.time_zone),
    currency: r.currency,
    dp,
    status: r.status,
    pay_status: r.pay_status,
    calls: Number(r.calls),
    billed_seconds: Number(r.billed_seconds),
    usage: f(r.usage_exact),
    extra_charges: f(r.extra_charges),
    subtotal: f(r.subtotal),
    tax_percent: formatMoney(parseMoney(r.tax_percent), 2),
    tax: f(r.tax),
    total: f(r.amount),
    paid: f(r.paid_amount),
    credited: f(r.credited),
    debited: f(r.debited),
    due: formatMoney(due < 0n ? 0n : due, dp),
    opening_balance: f(r.opening_balance),
    closing_balance: f(r.closing_balance),
    lines: r.lines as InvoiceLines,
    options: r.options as InvoiceOptions,
    setting: { ...setting, logo: r.logo ?? '' },
    period_start: new Date(r.period_start),
    period_end: new Date(r.period_end),
    time_zone: r.time_zone,
  };
}

/** Minutes with two places from billed seconds (exact: seconds / 60 rounded half up). */
const minutes = (s: number) => (Math.round((s * 100) / 60) / 100).toFixed(2);

/**
 * The invoice as a PDF (pdfkit, A4): logo, company and billing text at the top or bottom as the
 * setting says, carrier and dates, the summaries the invoice options ask for, the totals and what
 * payments and notes left to pay, and the rounding rule in one sentence.
 */
export function renderInvoicePdf(d: InvoiceDoc): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 48, info: { Title: `Invoice ${d.invoice_number}` } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  const left = 48;
  const width = doc.page.width - 96;

  const logo = /^data:image\/(png|jpeg);base64,(.+)$/.exec(d.setting.logo ?? '');
  if (logo?.[2]) {
    try {
      doc.image(Buffer.from(logo[2], 'base64'), left, 40, { fit: [140, 60] });
    } catch {
      // a broken logo leaves the space empty rather than failing the invoice
    }
  }
  doc
    .fontSize(20)
    .text(d.side === 'vendor' ? 'VENDOR STATEMENT' : 'INVOICE', left, 48, { align: 'right', width });
  doc.fontSize(10).text(`Invoice number: ${d.invoice_number}`, { align: 'right', width });
  doc.text(`Invoice date: ${d.invoice_date}`, { align: 'right', width });
  doc.text(`Due date: ${d.due_date}`, { align: 'right', width });
  if (d.status === 'voided')
    doc.fillColor('red').text('VOIDED', { align: 'right', width }).fillColor('black');
  doc.moveDown(2);
  const free = (pos: 'top' | 'bottom') => {
    if (d.setting.company_info && d.setting.company_info_position === pos)
      doc.fontSize(9).text(d.setting.company_info).moveDown(0.5);
    if (d.setting.billing_info && d.setting.billing_info_position === pos)
      doc.fontSize(9).text(d.setting.billing_info).moveDown(0.5);
  };
  doc.x = left;
  free('top');
  doc.fontSize(11).text('Bill to', { underline: true });
  doc.fontSize(10).text(d.carrier.company || d.carrier.name);
  if (d.carrier.company && d.carrier.company !== d.carrier.name) doc.text(`Carrier: ${d.carrier.name}`);
  if (d.carrier.address) doc.text(d.carrier.address);
  if (d.carrier.tax_id) doc.text(`Tax ID: ${d.carrier.tax_id}`);
  doc.moveDown();
  doc.text(`Billing period: ${d.period_from} to ${d.period_to} (GMT ${d.time_zone})`);
  doc.text(
    `Calls: ${d.calls.toLocaleString('en-US')}   Billed minutes: ${minutes(d.billed_seconds)}   Currency: ${d.currency}`,
  );
  doc.moveDown();

  const table = (title: string, head: string, rows: InvoiceLine[]) => {
    if (!rows.length) return;
    doc.fontSize(11).text(title, left, doc.y, { underline: true });
    doc.moveDown(0.3);
    const cols = [left, left + width * 0.45, left + width * 0.62, left + width * 0.8];
    const line = (a: string, b: string, c: string, e: string, bold = false) => {
      const y = doc.y;
      doc.fontSize(9).font(bold ? 'Helvetica-Bold' : 'Helvetica');
      doc.text(a, cols[0], y, { width: width * 0.44 });
      doc.text(b, cols[1], y, { width: width * 0.16, align: 'right' });
      doc.text(c, cols[2], y, { width: width * 0.17, align: 'right' });
      doc.text(e, cols[3], y, { width: width * 0.2, align: 'right' });
      doc.moveDown(0.2);
      if (doc.y > doc.page.height - 100) doc.addPage();
    };
    line(head, 'Calls', 'Minutes', `Amount (${d.currency})`, true);
    for (const r of rows)
      line(
        r.key,
        r.calls.toLocaleString('en-US'),
        minutes(r.billed_seconds),
        formatMoney(parseMoney(r.amount), d.dp),
      );
    doc.font('Helvetica').moveDown(0.6);
  };
  table('Usage by destination', 'Destination', d.lines.destination);
  table('Recurring charges', 'Charge', d.lines.recurring ?? []);
  if (d.options.include_summary) {
    table('Usage by trunk', 'Trunk', d.lines.trunk);
    table('Usage by day', 'Day', d.lines.day);
  }

  const charges = d.lines.charges ?? [];
  if (charges.length) {
    doc.fontSize(11).text('Extra charges', left, doc.y, { underline: true });
    doc.moveDown(0.3);
    const row = (a: string, b: string, c: string, bold = false) => {
      const y = doc.y;
      doc.fontSize(9).font(bold ? 'Helvetica-Bold' : 'Helvetica');
      doc.text(a, left, y, { width: width * 0.2 });
      doc.text(b, left + width * 0.2, y, { width: width * 0.55 });
      doc.text(c, left + width * 0.8, y, { width: width * 0.2, align: 'right' });
      doc.moveDown(0.2);
      if (doc.y > doc.page.height - 100) doc.addPage();
    };
    row('Date', 'Description', `Amount (${d.currency})`, true);
    for (const c of charges) row(c.date, c.name, formatMoney(parseMoney(c.amount), d.dp));
    doc.font('Helvetica').moveDown(0.6);
  }

  const totals: [string, string][] = charges.length
    ? [
        ['Usage', d.usage],
        ['Extra charges', d.extra_charges],
        ['Subtotal', d.subtotal],
      ]
    : [['Subtotal', d.subtotal]];
  if (d.options.include_tax) totals.push([`Tax (${d.tax_percent} %)`, d.tax]);
  totals.push(['Total', d.total]);
  if (d.debited !== formatMoney(0n, d.dp)) totals.push(['Debit notes', d.debited]);
  totals.push(['Payments', d.paid]);
  if (d.credited !== formatMoney(0n, d.dp)) totals.push(['Credit notes', d.credited]);
  totals.push(['Amount due', d.due]);
  doc.x = left;
  for (const [k, v] of totals) {
    const y = doc.y;
    doc.fontSize(10).font(k === 'Total' || k === 'Amount due' ? 'Helvetica-Bold' : 'Helvetica');
    doc.text(k, left + width * 0.5, y, { width: width * 0.25 });
    doc.text(`${v} ${d.currency}`, left + width * 0.75, y, { width: width * 0.25, align: 'right' });
  }
  doc.font('Helvetica').moveDown();
  doc.x = left;
  doc
    .fontSize(9)
    .text(
      `Account balance at the start of the period: ${d.opening_balance} ${d.currency}; at its end: ${d.closing_balance} ${d.currency}.`,
      left,
      doc.y,
      { width },
    );
  doc.moveDown(0.5);
  doc
    .fontSize(8)
    .fillColor('#555555')
    .text(
      `Amounts are rounded half up to ${d.dp} decimal places: the subtotal once from the exact usage${charges.length ? ' and extra charges' : ''}, the tax from the subtotal; summary lines are rounded each and may differ from the subtotal by rounding.`,
      { width },
    )
    .fillColor('black');
  doc.moveDown();
  free('bottom');
  doc.fontSize(8).text(`Issued by ${d.operator}`, { width });
  doc.end();
  return done;
}

/** The CDRs of an invoice as CSV (the attachment or link): answered and unanswered calls of its carrier and period. */
export async function invoiceCdrCsv(db: Db, d: InvoiceDoc, limit = 200_000): Promise<Buffer> {
  const customer = d.side === 'customer';
  const rows = await sql<{
    start_time: Date;
    answer_time: Date | null;
    end_time: Date | null;
    ani: string;
    dnis: string;
    call_duration: number;
    billed_time: number;
    destination: string | null;
    rate: string | null;
    amount: string;
  }>`
    SELECT start_time, answer_time, end_time, ani, dnis, call_duration,
      ${customer ? sql`ingress_billed_time` : sql`egress_billed_time`} AS billed_time,
      ${customer ? sql`ingress_code_name` : sql`egress_code_name`} AS destination,
      ${customer ? sql`ingress_rate` : sql`egress_rate`}::text AS rate,
      ${customer ? sql`(ingress_client_cost + short_call_charge)` : sql`egress_cost`}::text AS amount
    FROM cdrs
    WHERE ${customer ? sql`ingress_client_id` : sql`egress_client_id`} = ${d.client_id}
      AND start_time >= ${d.period_start} AND start_time < ${d.period_end}
    ORDER BY start_time, cdr_id LIMIT ${limit}`.execute(db);
  const csv = toCsv(
    [
      'start_time',
      'answer_time',
      'end_time',
      'ani',
      'dnis',
      'duration',
      'billed_time',
      'destination',
      'rate',
      'amount',
    ],
    rows.rows.map((r) => [
      iso(r.start_time),
      iso(r.answer_time),
      iso(r.end_time),
      r.ani,
      r.dnis,
      r.call_duration,
      r.billed_time,
      r.destination,
      r.rate,
      r.amount,
    ]),
  );
  // The byte order mark makes spreadsheets read the file as UTF-8.
  return Buffer.from('\uFEFF' + csv);
}
