import fs from 'node:fs';
import { allows, api, ErrorCode } from '@tandem/contract';
import { formatMoney, minutesOfSeconds, occurrenceDate, parseMoney } from '@tandem/domain';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { iso, likeContains, sortedRows } from '../../db/paging';
import { actorOf } from '../../http/context';
import { AppError, forbidden, notFound, ruleBroken } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { receiveUpload } from '../rates/upload';
import {
  cancelChargeRun,
  chargeAllDue,
  createExtraCharge,
  EXTRA_CHARGE_JOB,
  stopExtraCharge,
} from './extra-charges';
import {
  comparisonOf,
  comparisonOut,
  createVendorInvoice,
  disputeVendorInvoice,
  ourFigures,
  recompare,
  settleVendorInvoice,
  updateVendorInvoice,
  type StoredLine,
} from './vendor-invoices';

const fx = api.financeExtras;
const m6 = (v: string) => formatMoney(parseMoney(v), 6);
const m2 = (v: string) => formatMoney(parseMoney(v), 2);
const minutesOf = (seconds: number | string) => formatMoney(minutesOfSeconds(Number(seconds)), 2);

/** Finance > Extra Charge and Finance > Vendor Invoice (docs/billing.md). */
export function registerFinanceExtras(app: FastifyInstance, s: Services): void {
  s.jobs.define<{ by?: string }>(EXTRA_CHARGE_JOB, async (payload, ctx) => {
    ctx.progress({ done: 0, message: 'charging' });
    const r = await chargeAllDue(s, { signal: ctx.signal, by: payload.by });
    ctx.progress({ done: r.charged, message: 'done' });
    return r;
  });
  s.jobs.every(EXTRA_CHARGE_JOB, { hourly: 1 });

  // ----------------------------------------------------------------------------------------------
  // Extra charges

  const chargeSelect = () =>
    s.db
      .selectFrom('extra_charges as x')
      .innerJoin('carriers as c', 'c.client_id', 'x.client_id')
      .selectAll('x')
      .select([
        'c.name as client_name',
        'c.currency',
        sql<string>`x.start_date::text`.as('start_text'),
        sql<string | null>`x.end_date::text`.as('end_text'),
        sql<string | null>`x.last_charged_date::text`.as('last_text'),
        sql<string>`(SELECT coalesce(sum(r.amount), 0) FROM extra_charge_runs r
          WHERE r.extra_charge_id = x.extra_charge_id AND r.status = 'charged')::text`.as('charged_total'),
      ]);

  implement(app, s, fx.listExtraCharges, async (ctx) => {
    const q = ctx.query;
    let qb = chargeSelect();
    if (q.client_id) qb = qb.where('x.client_id', '=', q.client_id);
    if (q.status) qb = qb.where('x.status', '=', q.status);
    if (q.frequency) qb = qb.where('x.frequency', '=', q.frequency);
    const { n } = await qb
      .clearSelect()
      .select(sql<string>`count(*)::text`.as('n'))
      .executeTakeFirstOrThrow();
    const ORDER = {
      extra_charge_id: 'x.extra_charge_id',
      client_name: 'c.name',
      name: 'x.name',
      amount: 'x.amount',
      start_date: 'x.start_date',
    } as const;
    const rows = await sortedRows(qb, q, ORDER, 'x.extra_charge_id');
    return {
      items: rows.map((r) => {
        const next =
          r.status === 'active' ? occurrenceDate(r.frequency, r.start_text, r.charged_count) : null;
        return {
          extra_charge_id: r.extra_charge_id,
          client_id: r.client_id,
          client_name: r.client_name,
          currency: r.currency,
          side: r.side,
          name: r.name,
          amount: m6(r.amount),
          frequency: r.frequency,
          start_date: r.start_text,
          end_date: r.end_text,
          status: r.status,
          charged_count: r.charged_count,
          charged_total: m6(r.charged_total),
          last_charged_date: r.last_text,
          next_date: next !== null && (r.end_text === null || next <= r.end_text) ? next : null,
          note: r.note,
          created_at: iso(r.created_at) as string,
          created_by: r.created_by,
        };
      }),
      total: Number(n),
    };
  });

  implement(app, s, fx.createExtraCharge, async (ctx) => {
    const actor = actorOf(ctx);
    const b = ctx.body;
    return s.db.transaction().execute(async (trx) => {
      const r = await createExtraCharge(trx, { ...b, created_by: actor.user.name });
      if (r.created) await s.audit.record(trx, actor, 'extra_charge', r.extra_charge_id, 'create', null, b);
      return r;
    });
  });

  implement(app, s, fx.listExtraChargeRuns, async (ctx) => {
    const rows = await s.db
      .selectFrom('extra_charge_runs')
      .selectAll()
      .select(sql<string>`charge_date::text`.as('date'))
      .where('extra_charge_id', '=', ctx.params.id)
      .orderBy('occurrence', 'desc')
      .limit(1000)
      .execute();
    return {
      items: rows.map((r) => ({
        occurrence: r.occurrence,
        charge_date: r.date,
        amount: m6(r.amount),
        status: r.status,
        charged_at: iso(r.charged_at) as string,
        canceled_at: iso(r.canceled_at),
        canceled_by: r.canceled_by,
      })),
    };
  });

  implement(app, s, fx.stopExtraCharge, async (ctx) => {
    const actor = actorOf(ctx);
    await s.db.transaction().execute(async (trx) => {
      await stopExtraCharge(trx, ctx.params.id, actor.user.name);
      await s.audit.record(
        trx,
        actor,
        'extra_charge',
        ctx.params.id,
        'stop',
        { status: 'active' },
        { status: 'stopped' },
      );
    });
    return null;
  });

  implement(app, s, fx.cancelExtraChargeRun, async (ctx) => {
    const actor = actorOf(ctx);
    return s.db.transaction().execute(async (trx) => {
      const r = await cancelChargeRun(trx, ctx.params.id, ctx.params.occurrence, actor.user.name);
      await s.audit.record(
        trx,
        actor,
        'extra_charge',
        ctx.params.id,
        'cancel',
        { occurrence: ctx.params.occurrence, status: 'charged' },
        { occurrence: ctx.params.occurrence, status: 'canceled' },
      );
      return r;
    });
  });

  // ----------------------------------------------------------------------------------------------
  // Vendor invoices

  const vendorSelect = () =>
    s.db
      .selectFrom('vendor_invoices as v')
      .innerJoin('carriers as c', 'c.client_id', 'v.client_id')
      .selectAll('v')
      .select([
        'c.name as client_name',
        sql<string>`v.invoice_date::text`.as('date_text'),
        sql<string>`v.period_from::text`.as('from_text'),
        sql<string>`v.period_to::text`.as('to_text'),
        sql<boolean>`EXISTS (SELECT 1 FROM vendor_invoice_files f WHERE f.vendor_invoice_id = v.vendor_invoice_id)`.as(
          'has_pdf',
        ),
      ]);
  type VendorSelected = Awaited<ReturnType<ReturnType<typeof vendorSelect>['executeTakeFirstOrThrow']>>;
  const vendorRow = (r: VendorSelected) => ({
    vendor_invoice_id: r.vendor_invoice_id,
    client_id: r.client_id,
    client_name: r.client_name,
    invoice_number: r.invoice_number,
    invoice_date: r.date_text,
    period_from: r.from_text,
    period_to: r.to_text,
    time_zone: r.time_zone,
    currency: r.currency,
    amount: m6(r.amount),
    minutes: r.minutes === null ? null : m2(r.minutes),
    our_amount: m6(r.our_amount),
    our_minutes: minutesOf(r.our_seconds),
    our_calls: Number(r.our_calls),
    difference: formatMoney(parseMoney(r.amount) - parseMoney(r.our_amount), 6),
    compared_at: iso(r.compared_at) as string,
    status: r.status,
    disputed_amount: r.disputed_amount === null ? null : m6(r.disputed_amount),
    dispute_note: r.dispute_note,
    agreed_amount: r.agreed_amount === null ? null : m6(r.agreed_amount),
    adjustment: r.adjustment === null ? null : m6(r.adjustment),
    settle_note: r.settle_note,
    settled_at: iso(r.settled_at),
    settled_by: r.settled_by,
    has_pdf: r.has_pdf,
    note: r.note,
    created_at: iso(r.created_at) as string,
    created_by: r.created_by,
  });

  implement(app, s, fx.listVendorInvoices, async (ctx) => {
    const q = ctx.query;
    let qb = vendorSelect();
    if (q.client_id) qb = qb.where('v.client_id', '=', q.client_id);
    if (q.status) qb = qb.where('v.status', '=', q.status);
    if (q.invoice_number) qb = qb.where('v.invoice_number', 'ilike', likeContains(q.invoice_number));
    const t = await qb
      .clearSelect()
      .select([
        sql<string>`count(*)::text`.as('n'),
        sql<string>`coalesce(sum(v.amount), 0)::text`.as('amount'),
        sql<string>`coalesce(sum(v.our_amount), 0)::text`.as('ours'),
      ])
      .executeTakeFirstOrThrow();
    const ORDER = {
      vendor_invoice_id: 'v.vendor_invoice_id',
      invoice_date: 'v.invoice_date',
      period_from: 'v.period_from',
      amount: 'v.amount',
      client_name: 'c.name',
      invoice_number: 'v.invoice_number',
    } as const;
    const rows = await sortedRows(qb, q, ORDER, 'v.vendor_invoice_id');
    return {
      items: rows.map(vendorRow),
      total: Number(t.n),
      totals: {
        amount: m2(t.amount),
        our_amount: m2(t.ours),
        difference: formatMoney(parseMoney(t.amount) - parseMoney(t.ours), 2),
      },
    };
  });

  implement(app, s, fx.getVendorInvoice, async (ctx) => {
    const r = await vendorSelect().where('v.vendor_invoice_id', '=', ctx.params.id).executeTakeFirst();
    if (!r) throw notFound();
    const lines = r.lines as StoredLine[];
    const ours = await ourFigures(s.db, r.client_id, r.period_start, r.period_end, r.time_zone);
    return {
      ...vendorRow(r),
      lines: lines.map((l) => ({
        key: l.key,
        minutes: l.minutes === null ? null : m2(l.minutes),
        amount: m6(l.amount),
      })),
      comparison: comparisonOut(comparisonOf(ours, { amount: r.amount, minutes: r.minutes, lines })),
      our_days: ours.day.map((d) => ({
        key: d.key,
        calls: d.calls,
        minutes: minutesOf(d.billed_seconds),
        amount: formatMoney(d.amount, 6),
      })),
    };
  });

  implement(app, s, fx.createVendorInvoice, async (ctx) => {
    const actor = actorOf(ctx);
    const b = ctx.body;
    const id = await s.db.transaction().execute(async (trx) => {
      const id = await createVendorInvoice(trx, { ...b, created_by: actor.user.name });
      await s.audit.record(trx, actor, 'vendor_invoice', id, 'create', null, { ...b, lines: b.lines.length });
      return id;
    });
    return { vendor_invoice_id: id };
  });

  implement(app, s, fx.updateVendorInvoice, async (ctx) => {
    const actor = actorOf(ctx);
    await s.db.transaction().execute(async (trx) => {
      await updateVendorInvoice(trx, ctx.params.id, ctx.body);
      await s.audit.record(trx, actor, 'vendor_invoice', ctx.params.id, 'update', null, {
        ...ctx.body,
        lines: ctx.body.lines?.length,
      });
    });
    return null;
  });

  implement(app, s, fx.deleteVendorInvoice, async (ctx) => {
    const actor = actorOf(ctx);
    if (!allows(actor.grants, fx.FUNC.deleteInvoice, 'read')) throw forbidden();
    await s.db.transaction().execute(async (trx) => {
      const inv = await trx
        .selectFrom('vendor_invoices')
        .selectAll()
        .where('vendor_invoice_id', '=', ctx.params.id)
        .forUpdate()
        .executeTakeFirst();
      if (!inv) throw notFound();
      if (inv.status === 'accepted' || inv.status === 'resolved') throw ruleBroken('vendorInvoiceSettled');
      await trx.deleteFrom('vendor_invoices').where('vendor_invoice_id', '=', ctx.params.id).execute();
      await s.audit.record(
        trx,
        actor,
        'vendor_invoice',
        ctx.params.id,
        'delete',
        { ...inv, lines: undefined },
        null,
      );
    });
    return null;
  });

  implement(app, s, fx.compareVendorInvoice, async (ctx) => {
    await recompare(s.db, ctx.params.id);
    return null;
  });

  implement(app, s, fx.disputeVendorInvoice, async (ctx) => {
    const actor = actorOf(ctx);
    await s.db.transaction().execute(async (trx) => {
      await disputeVendorInvoice(trx, ctx.params.id, ctx.body, actor.user.name);
      await s.audit.record(trx, actor, 'vendor_invoice', ctx.params.id, 'dispute', null, ctx.body);
    });
    return null;
  });

  implement(app, s, fx.settleVendorInvoice, async (ctx) => {
    const actor = actorOf(ctx);
    return s.db.transaction().execute(async (trx) => {
      const r = await settleVendorInvoice(trx, ctx.params.id, ctx.body, actor.user.name);
      if (r.changed)
        await s.audit.record(trx, actor, 'vendor_invoice', ctx.params.id, r.status, null, ctx.body);
      return r;
    });
  });

  implement(app, s, fx.uploadVendorInvoicePdf, async (ctx) => {
    const actor = actorOf(ctx);
    const exists = await s.db
      .selectFrom('vendor_invoices')
      .select('vendor_invoice_id')
      .where('vendor_invoice_id', '=', ctx.params.id)
      .executeTakeFirst();
    if (!exists) throw notFound();
    const f = await receiveUpload(s, ctx as never, fx.pdfUploadFields, {
      kindOf: (_name, head) => (head.subarray(0, 5).toString('latin1') === '%PDF-' ? 'pdf' : null),
    });
    try {
      if (f.size > fx.VENDOR_PDF_MAX_MB * 1048576)
        throw new AppError(
          ErrorCode.validation,
          'fileTooBig',
          { size: (f.size / 1048576).toFixed(1), max: fx.VENDOR_PDF_MAX_MB },
          413,
        );
      const content = fs.readFileSync(f.filePath);
      await s.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('vendor_invoice_files')
          .values({
            vendor_invoice_id: ctx.params.id,
            file_name: f.fileName,
            size: f.size,
            content,
            uploaded_by: actor.user.name,
          })
          .onConflict((oc) =>
            oc.column('vendor_invoice_id').doUpdateSet({
              file_name: f.fileName,
              size: f.size,
              content,
              uploaded_at: new Date(),
              uploaded_by: actor.user.name,
            }),
          )
          .execute();
        await s.audit.record(trx, actor, 'vendor_invoice', ctx.params.id, 'upload', null, {
          file: f.fileName,
          size: f.size,
        });
      });
      return { size: f.size };
    } finally {
      fs.rmSync(f.filePath, { force: true });
    }
  });

  implement(app, s, fx.vendorInvoicePdf, async (ctx) => {
    const f = await s.db
      .selectFrom('vendor_invoice_files')
      .select(['file_name', 'content'])
      .where('vendor_invoice_id', '=', ctx.params.id)
      .executeTakeFirst();
    if (!f) throw notFound();
    const name = f.file_name.replace(/[^\w.-]+/g, '_') || 'invoice.pdf';
    ctx.reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `inline; filename="${name}"`)
      .header('cache-control', 'no-store')
      .send(Buffer.from(f.content));
    return null;
  });
}
