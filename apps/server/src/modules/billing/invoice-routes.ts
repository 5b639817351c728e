import { allows, api, ErrorCode } from '@tandem/contract';
import { formatMoney, localDate, localMidnight, parseMoney } from '@tandem/domain';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { iso, likeContains, sortedRows } from '../../db/paging';
import { implementCrud } from '../../http/crud';
import { actorOf } from '../../http/context';
import { AppError, forbidden, notFound, ruleBroken } from '../../http/errors';
import { implement, type Handler } from '../../http/register';
import { carrierScope } from '../../http/tenancy';
import type { Services } from '../../services';
import { didCarrierCondition } from '../did/carriers';
import { invoiceCdrCsv, loadInvoiceDoc, renderInvoicePdf } from './invoice-pdf';
import {
  createInvoice,
  invoiceOfToken,
  issueInvoiceToken,
  logInvoice,
  settingOf,
  setInvoiceStatus,
} from './invoices';
import { sendInvoiceMail } from './send';

const { FUNC } = api.billing;
const day = (d: Date | string) => new Date(d).toISOString().slice(0, 10);

/** The operator's name on documents: the system settings' company, else 'Tandem'. */
export async function operatorOf(s: Services): Promise<string> {
  const sys = (await s.settings.system()) as { operating_company?: string };
  return sys.operating_company || 'Tandem';
}

const invoiceSelect = (db: Db) =>
  db
    .selectFrom('invoices as i')
    .innerJoin('carriers as c', 'c.client_id', 'i.client_id')
    .selectAll('i')
    .select('c.name as client_name');

type InvoiceSelected = Awaited<ReturnType<ReturnType<typeof invoiceSelect>['executeTakeFirstOrThrow']>>;

function rowOf(r: InvoiceSelected) {
  const dp = r.decimal_places;
  const f = (v: string) => formatMoney(parseMoney(v), dp);
  const due =
    parseMoney(r.amount) + parseMoney(r.debited) - parseMoney(r.paid_amount) - parseMoney(r.credited);
  return {
    invoice_id: r.invoice_id,
    invoice_number: r.invoice_number,
    client_id: r.client_id,
    client_name: r.client_name,
    side: r.side,
    origin: r.origin,
    invoice_date: day(r.invoice_date),
    due_date: day(r.due_date),
    period_from: localDate(new Date(r.period_start).getTime(), r.time_zone),
    period_to: localDate(new Date(r.period_end).getTime() - 1, r.time_zone),
    period_start: iso(r.period_start) as string,
    period_end: iso(r.period_end) as string,
    time_zone: r.time_zone,
    currency: r.currency,
    decimal_places: dp,
    calls: Number(r.calls),
    billed_seconds: Number(r.billed_seconds),
    subtotal: f(r.subtotal),
    tax: f(r.tax),
    amount: f(r.amount),
    paid_amount: f(r.paid_amount),
    credited: f(r.credited),
    debited: f(r.debited),
    due: formatMoney(r.status === 'voided' || due < 0n ? 0n : due, dp),
    status: r.status,
    pay_status: r.pay_status,
    created_by: r.created_by,
    created_at: iso(r.created_at) as string,
  };
}

/** An invoice the caller may see: any for an admin, its own for a client user (else "not found"). */
async function visibleInvoice(s: Services, ctx: Parameters<typeof actorOf>[0], id: number) {
  const actor = actorOf(ctx);
  let qb = invoiceSelect(s.db).where('i.invoice_id', '=', id);
  if (actor.type !== 'admin') qb = qb.where(carrierScope(actor, 'i.client_id'));
  const r = await qb.executeTakeFirst();
  if (!r) throw notFound();
  return r;
}

export function registerInvoiceRoutes(app: FastifyInstance, s: Services): void {
  // Configuration > Invoice Setting
  implementCrud(app, s, api.billing.invoiceSetting, {
    table: 'invoice_settings',
    id: 'invoice_setting_id',
    entity: 'invoice_setting',
    label: 'Invoice Setting',
    select: (db) =>
      db
        .selectFrom('invoice_settings as st')
        .selectAll('st')
        .select(
          sql<number>`(select count(*)::int from carriers c where c.invoice_setting_id = st.invoice_setting_id)`.as(
            'carrier_count',
          ),
        ),
    selectId: 'st.invoice_setting_id',
    sortable: { name: 'st.name', invoice_setting_id: 'st.invoice_setting_id', updated_at: 'st.updated_at' },
    defaultSort: 'name',
    filter: (qb, q) => (q.name ? qb.where(sql.ref('st.name'), 'ilike', likeContains(q.name)) : qb),
    unique: [{ column: 'name', field: 'name' }],
    toColumns: (b) => ({ ...b, updated_at: new Date() }),
    validate: async (trx, body) => {
      // One default: setting this one clears the others in the same transaction.
      if (body.is_default === true)
        await trx.updateTable('invoice_settings').set({ is_default: false }).execute();
    },
    toRow: (r) => ({
      ...r,
      tax_percent: formatMoney(parseMoney(String(r.tax_percent)), 4),
      updated_at: iso(r.updated_at as Date),
    }),
  });

  implement(app, s, api.billing.settingCarriers, async (ctx) => {
    const items = await s.db
      .selectFrom('carriers')
      .select(['client_id', 'name', 'client_type', 'invoice_setting_id'])
      .orderBy('name')
      .execute();
    if (
      !(await s.db
        .selectFrom('invoice_settings')
        .select('invoice_setting_id')
        .where('invoice_setting_id', '=', ctx.params.id)
        .executeTakeFirst())
    )
      throw notFound();
    return { items };
  });

  implement(app, s, api.billing.assignSetting, async (ctx) => {
    const actor = actorOf(ctx);
    const id = ctx.params.id;
    return s.db.transaction().execute(async (trx) => {
      const st = await trx
        .selectFrom('invoice_settings')
        .select('invoice_setting_id')
        .where('invoice_setting_id', '=', id)
        .executeTakeFirst();
      if (!st) throw notFound();
      const before = await trx
        .selectFrom('carriers')
        .select('client_id')
        .where('invoice_setting_id', '=', id)
        .execute();
      await trx
        .updateTable('carriers')
        .set({ invoice_setting_id: null })
        .where('invoice_setting_id', '=', id)
        .execute();
      if (ctx.body.client_ids.length)
        await trx
          .updateTable('carriers')
          .set({ invoice_setting_id: id })
          .where('client_id', 'in', ctx.body.client_ids)
          .execute();
      await s.audit.record(
        trx,
        actor,
        'invoice_setting',
        id,
        'assign',
        before.map((b) => b.client_id),
        ctx.body.client_ids,
      );
      return { assigned: ctx.body.client_ids.length };
    });
  });

  // Finance > Invoice, and Origination > DID Invoice: the same list over the DID carriers only
  const list =
    (carriers: 'all' | 'did'): Handler<typeof api.billing.listInvoices> =>
    async (ctx) => {
      const q = ctx.query;
      const actor = actorOf(ctx);
      let qb = invoiceSelect(s.db).where(carrierScope(actor, 'i.client_id', q.client_id));
      if (carriers === 'did') qb = qb.where(didCarrierCondition('i.client_id'));
      if (actor.type !== 'admin') qb = qb.where('i.side', '=', 'customer');
      else if (q.side) qb = qb.where('i.side', '=', q.side);
      if (q.status) qb = qb.where('i.status', '=', q.status);
      if (q.pay_status) qb = qb.where('i.pay_status', '=', q.pay_status);
      if (q.origin) qb = qb.where('i.origin', '=', q.origin);
      if (q.invoice_number) qb = qb.where('i.invoice_number', 'ilike', likeContains(q.invoice_number));
      if (q.date_from) qb = qb.where(sql<boolean>`i.invoice_date >= ${q.date_from}::date`);
      if (q.date_to) qb = qb.where(sql<boolean>`i.invoice_date <= ${q.date_to}::date`);
      const totals = await qb
        .clearSelect()
        .select([
          sql<string>`count(*)::text`.as('n'),
          sql<string>`coalesce(sum(i.amount) FILTER (WHERE i.status = 'normal'), 0)::text`.as('amount'),
          sql<string>`coalesce(sum(greatest(i.amount + i.debited - i.paid_amount - i.credited, 0)) FILTER (WHERE i.status = 'normal'), 0)::text`.as(
            'due',
          ),
        ])
        .executeTakeFirstOrThrow();
      const ORDER = {
        invoice_id: 'i.invoice_id',
        invoice_number: 'i.invoice_number',
        invoice_date: 'i.invoice_date',
        due_date: 'i.due_date',
        amount: 'i.amount',
        client_name: 'c.name',
      } as const;
      const rows = await sortedRows(qb, q, ORDER, 'i.invoice_id');
      return {
        items: rows.map(rowOf),
        total: Number(totals.n),
        totals: {
          amount: formatMoney(parseMoney(totals.amount), 2),
          due: formatMoney(parseMoney(totals.due), 2),
        },
      };
    };
  implement(app, s, api.billing.listInvoices, list('all'));
  implement(app, s, api.didExtras.listInvoices, list('did'));

  implement(app, s, api.billing.getInvoice, async (ctx) => {
    const r = await visibleInvoice(s, ctx, ctx.params.id);
    return {
      ...rowOf(r),
      usage_exact: formatMoney(parseMoney(r.usage_exact), 6),
      tax_percent: formatMoney(parseMoney(r.tax_percent), 4),
      opening_balance: formatMoney(parseMoney(r.opening_balance), r.decimal_places),
      closing_balance: formatMoney(parseMoney(r.closing_balance), r.decimal_places),
      extra_charges: formatMoney(parseMoney(r.extra_charges), r.decimal_places),
      lines: { charges: [], ...(r.lines as object) } as never,
      options: r.options as never,
      note: r.note,
      voided_at: iso(r.voided_at),
      voided_by: r.voided_by,
    };
  });

  const create =
    (carriers: 'all' | 'did'): Handler<typeof api.billing.createInvoice> =>
    async (ctx) => {
      const actor = actorOf(ctx);
      const b = ctx.body;
      const r = await s.db.transaction().execute(async (trx) => {
        let cq = trx.selectFrom('carriers').select('time_zone').where('client_id', '=', b.client_id);
        // A DID invoice is for a DID client or vendor: any other carrier is not one of this screen's.
        if (carriers === 'did') cq = cq.where(didCarrierCondition('client_id'));
        const c = await cq.executeTakeFirst();
        if (!c) throw notFound();
        const start = new Date(localMidnight(b.date_from, c.time_zone));
        const end = new Date(localMidnight(b.date_to, c.time_zone) + 86_400_000);
        const made = await createInvoice(trx, {
          client_id: b.client_id,
          side: b.side,
          start,
          end,
          origin: 'manual',
          created_by: actor.user.name,
          note: b.note,
          options: Object.fromEntries(
            (['include_tax', 'attach_cdr', 'include_summary'] as const)
              .filter((k) => b[k] !== undefined)
              .map((k) => [k, b[k]]),
          ),
        });
        if (!made.created || made.invoice_id === null)
          throw ruleBroken('invoiceOverlap', [made.invoice_number]);
        await s.audit.record(trx, actor, 'invoice', made.invoice_id, 'create', null, b);
        return made;
      });
      return { invoice_id: r.invoice_id as number, invoice_number: r.invoice_number };
    };
  implement(app, s, api.billing.createInvoice, create('all'));
  implement(app, s, api.didExtras.createInvoice, create('did'));

  const status =
    (to: 'voided' | 'normal') => async (ctx: { params: { id: number } } & Parameters<typeof actorOf>[0]) => {
      const actor = actorOf(ctx);
      await s.db.transaction().execute(async (trx) => {
        await setInvoiceStatus(trx, ctx.params.id, to, actor.user.name);
        await s.audit.record(
          trx,
          actor,
          'invoice',
          ctx.params.id,
          to === 'voided' ? 'void' : 'reverse',
          null,
          { status: to },
        );
      });
      return null;
    };
  implement(app, s, api.billing.voidInvoice, status('voided'));
  implement(app, s, api.billing.reverseInvoice, status('normal'));

  implement(app, s, api.billing.deleteInvoice, async (ctx) => {
    const actor = actorOf(ctx);
    if (!allows(actor.grants, FUNC.deleteInvoice, 'read')) throw forbidden();
    await s.db.transaction().execute(async (trx) => {
      const inv = await trx
        .selectFrom('invoices')
        .selectAll()
        .where('invoice_id', '=', ctx.params.id)
        .forUpdate()
        .executeTakeFirst();
      if (!inv) throw notFound();
      if (inv.status !== 'voided') throw ruleBroken('invoiceNotVoided');
      await trx.deleteFrom('invoices').where('invoice_id', '=', ctx.params.id).execute();
      await logInvoice(trx, {
        client_id: inv.client_id,
        invoice_number: inv.invoice_number,
        action: 'deleted',
        created_by: actor.user.name,
      });
      await s.audit.record(
        trx,
        actor,
        'invoice',
        ctx.params.id,
        'delete',
        { ...inv, lines: undefined, setting: undefined },
        null,
      );
    });
    return null;
  });

  const sendPdf = async (reply: Parameters<Parameters<typeof implement>[3]>[0]['reply'], id: number) => {
    const doc = await loadInvoiceDoc(s.db, id, await operatorOf(s));
    const pdf = await renderInvoicePdf(doc);
    reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `inline; filename="${doc.invoice_number}.pdf"`)
      .header('cache-control', 'no-store')
      .send(pdf);
  };
  const sendCsv = async (reply: Parameters<Parameters<typeof implement>[3]>[0]['reply'], id: number) => {
    const doc = await loadInvoiceDoc(s.db, id, await operatorOf(s));
    const csv = await invoiceCdrCsv(s.db, doc);
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${doc.invoice_number}-cdr.csv"`)
      .header('cache-control', 'no-store')
      .send(csv);
  };

  implement(app, s, api.billing.invoicePdf, async (ctx) => {
    await visibleInvoice(s, ctx, ctx.params.id);
    await sendPdf(ctx.reply, ctx.params.id);
    return null;
  });
  implement(app, s, api.didExtras.invoicePdf, async (ctx) => {
    const r = await invoiceSelect(s.db)
      .where('i.invoice_id', '=', ctx.params.id)
      .where(didCarrierCondition('i.client_id'))
      .executeTakeFirst();
    if (!r) throw notFound();
    await sendPdf(ctx.reply, ctx.params.id);
    return null;
  });
  implement(app, s, api.billing.invoiceCdr, async (ctx) => {
    await visibleInvoice(s, ctx, ctx.params.id);
    await sendCsv(ctx.reply, ctx.params.id);
    return null;
  });

  implement(app, s, api.billing.invoiceLink, async (ctx) => {
    const inv = await visibleInvoice(s, ctx, ctx.params.id);
    const setting = await settingOf(s.db, inv.invoice_setting_id);
    const t = await issueInvoiceToken(s.db, inv.invoice_id, setting.link_days);
    return { url: await publicInvoiceUrl(s, t.token), expires_at: iso(t.expires_at) };
  });

  implement(app, s, api.billing.sendInvoice, async (ctx) => {
    const actor = actorOf(ctx);
    await visibleInvoice(s, ctx, ctx.params.id);
    const error = await sendInvoiceMail(s, ctx.params.id, actor.user.name, ctx.body.to);
    return { sent: error === '', error };
  });

  const byToken = async (token: string) => {
    const id = await invoiceOfToken(s.db, token);
    if (id === null) throw new AppError(ErrorCode.notFound, 'invoiceLinkExpired', [], 404);
    return id;
  };
  implement(app, s, api.billing.publicInvoicePdf, async (ctx) => {
    const id = await byToken(ctx.params.token);
    await logInvoice(s.db, { invoice_id: id, action: 'downloaded', message: `PDF by link from ${ctx.ip}` });
    await sendPdf(ctx.reply, id);
    return null;
  });
  implement(app, s, api.billing.publicInvoiceCdr, async (ctx) => {
    const id = await byToken(ctx.params.token);
    await logInvoice(s.db, { invoice_id: id, action: 'downloaded', message: `CDR by link from ${ctx.ip}` });
    await sendCsv(ctx.reply, id);
    return null;
  });

  implement(app, s, api.billing.listInvoiceLog, async (ctx) => {
    const q = ctx.query;
    let qb = s.db.selectFrom('invoice_log as l').leftJoin('carriers as c', 'c.client_id', 'l.client_id');
    if (q.client_id) qb = qb.where('l.client_id', '=', q.client_id);
    if (q.status) qb = qb.where('l.status', '=', q.status);
    if (q.action) qb = qb.where('l.action', '=', q.action);
    const { n } = await qb.select(sql<string>`count(*)::text`.as('n')).executeTakeFirstOrThrow();
    const rows = await qb
      .selectAll('l')
      .select('c.name as client_name')
      .orderBy('l.log_id', 'desc')
      .limit(q.per_page)
      .offset(q.page * q.per_page)
      .execute();
    return {
      items: rows.map((r) => ({ ...r, log_id: Number(r.log_id), created_at: iso(r.created_at) as string })),
      total: Number(n),
    };
  });
}

/** The public link of an invoice token: the base domain URL of the system settings, else PUBLIC_URL. */
export async function publicInvoiceUrl(s: Services, token: string): Promise<string> {
  const origin = ((await s.settings.system()) as { base_url?: string }).base_url || s.config.publicUrl;
  return `${origin.replace(/\/$/, '')}/api/invoice/download/${token}`;
}
