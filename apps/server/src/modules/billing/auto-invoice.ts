import { api } from '@tandem/contract';
import { INVOICING_CYCLES, localDate, localMidnight, periodsDue, type InvoicingCycle } from '@tandem/domain';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { iso, likeContains } from '../../db/paging';
import { actorOf } from '../../http/context';
import { AppError, notFound, ruleBroken } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { chargeAllDue } from './extra-charges';
import { createInvoice, logInvoice } from './invoices';
import { sendInvoiceMail } from './send';

export const AUTO_INVOICE_JOB = 'billing.auto_invoice';

/**
 * Automatic invoicing (Finance > Auto Invoice Management, docs/billing.md): for every carrier whose
 * automatic invoicing is started, every period of its payment term's cycle, cut at local midnight of
 * its zone, that ended at least `generate_at` hours ago and was not invoiced yet, oldest first: one
 * invoice per period, keyed `auto:<carrier>:<side>:<period start>` (unique), each in its own
 * transaction with the carrier locked; then mailed to its billing e-mail. A run after an outage
 * catches up (at most 24 periods per carrier per run; the next run goes on). Runs as the durable job
 * `billing.auto_invoice`, every hour at minute 5 and on demand: the jobs service runs each slot in
 * one process, and the key makes a period's invoice once even if two runs met.
 */
export async function runAutoInvoices(
  s: Services,
  opts: { now?: Date; signal?: AbortSignal; by?: string; send?: boolean } = {},
): Promise<{ created: number; skipped: number; failed: number }> {
  const now = opts.now ?? new Date();
  const rows = await s.db
    .selectFrom('auto_invoices as a')
    .innerJoin('carriers as c', 'c.client_id', 'a.client_id')
    .innerJoin('payment_terms as t', 't.payment_term_id', 'c.payment_term_id')
    .select([
      'a.client_id',
      'a.side',
      'a.first_period_from',
      'a.last_period_end',
      'c.time_zone',
      'c.generate_at',
      'c.non_zero_invoices_only',
      'c.billing_email',
      't.invoicing_cycle',
    ])
    .where('c.auto_invoice', '=', true)
    .orderBy('a.client_id')
    .execute();
  // Extra charges due by now first, so the invoices of the periods they fall in show them.
  await chargeAllDue(s, {
    now,
    by: opts.by ?? 'auto invoice',
    clientIds: rows.map((r) => r.client_id),
    signal: opts.signal,
  });
  let created = 0;
  let skipped = 0;
  let failed = 0;
  const toSend: number[] = [];
  for (const r of rows) {
    opts.signal?.throwIfAborted();
    const cycle = r.invoicing_cycle as InvoicingCycle;
    if (!INVOICING_CYCLES.includes(cycle)) continue;
    const due = periodsDue({
      cycle,
      tz: r.time_zone,
      from: new Date(r.first_period_from).getTime(),
      lastEnd: r.last_period_end ? new Date(r.last_period_end).getTime() : null,
      now: now.getTime(),
      generateAtHour: r.generate_at,
    });
    for (const p of due) {
      const start = new Date(p.start);
      const end = new Date(p.end);
      try {
        const made = await s.db.transaction().execute(async (trx) => {
          const out = await createInvoice(trx, {
            client_id: r.client_id,
            side: r.side,
            start,
            end,
            origin: 'auto',
            created_by: opts.by ?? 'auto invoice',
            auto_key: `auto:${r.client_id}:${r.side}:${start.toISOString()}`,
            skipZero: r.non_zero_invoices_only,
            now,
          });
          await trx
            .updateTable('auto_invoices')
            .set({ last_period_end: end, last_run_at: now, last_error: '' })
            .where('client_id', '=', r.client_id)
            .execute();
          return out;
        });
        if (made.created) {
          created++;
          if (r.billing_email) toSend.push(made.invoice_id);
        } else skipped++;
      } catch (e) {
        const overlap = e instanceof AppError && e.key === 'invoiceOverlap';
        const message = overlap
          ? `Period ${localDate(p.start, r.time_zone)} – ${localDate(p.end - 1, r.time_zone)} already invoiced (${String(e.params instanceof Array ? e.params[0] : '')})`
          : `Failed to make the automatic invoice: ${e instanceof Error ? e.message : String(e)}`;
        await logInvoice(s.db, {
          client_id: r.client_id,
          action: 'created',
          status: overlap ? 'skipped' : 'failed',
          message,
          created_by: opts.by ?? 'auto invoice',
        });
        await s.db
          .updateTable('auto_invoices')
          .set({
            last_run_at: now,
            last_error: overlap ? '' : message,
            ...(overlap ? { last_period_end: end } : {}),
          })
          .where('client_id', '=', r.client_id)
          .execute();
        if (overlap) {
          skipped++;
          continue;
        }
        failed++;
        break; // the next run tries this period again
      }
    }
  }
  // Mailed after the invoices are made (their carriers' billing e-mail was read with them above).
  if (opts.send !== false) for (const id of toSend) await sendInvoiceMail(s, id, opts.by ?? 'auto invoice');
  return { created, skipped, failed };
}

export function registerAutoInvoice(app: FastifyInstance, s: Services): void {
  s.jobs.define<{ by?: string }>(AUTO_INVOICE_JOB, async (payload, ctx) => {
    ctx.progress({ done: 0, message: 'invoicing' });
    const r = await runAutoInvoices(s, { signal: ctx.signal, by: payload.by });
    ctx.progress({ done: r.created + r.skipped + r.failed, message: 'done' });
    return r;
  });
  s.jobs.every(AUTO_INVOICE_JOB, { hourly: 5 });

  implement(app, s, api.billing.listAutoInvoices, async (ctx) => {
    const q = ctx.query;
    let qb = s.db
      .selectFrom('carriers as c')
      .leftJoin('payment_terms as t', 't.payment_term_id', 'c.payment_term_id')
      .leftJoin('auto_invoices as a', 'a.client_id', 'c.client_id');
    if (q.name) qb = qb.where('c.name', 'ilike', likeContains(q.name));
    if (q.started) qb = qb.where('c.auto_invoice', '=', q.started === 'true');
    const { n } = await qb.select(sql<string>`count(*)::text`.as('n')).executeTakeFirstOrThrow();
    const rows = await qb
      .select([
        'c.client_id',
        'c.name',
        'c.client_type',
        't.name as payment_term',
        't.invoicing_cycle',
        'c.time_zone',
        'c.generate_at',
        'c.non_zero_invoices_only',
        'c.auto_invoice',
        'a.side',
        'a.first_period_from',
        'a.last_period_end',
        'a.last_run_at',
        'a.last_error',
        sql<string>`(SELECT count(*) FROM invoices i WHERE i.client_id = c.client_id AND i.origin = 'auto')::text`.as(
          'invoices',
        ),
      ])
      .orderBy('c.name')
      .limit(q.per_page)
      .offset(q.page * q.per_page)
      .execute();
    return {
      items: rows.map((r) => ({
        client_id: r.client_id,
        name: r.name,
        client_type: r.client_type,
        payment_term: r.payment_term,
        invoicing_cycle: r.invoicing_cycle,
        time_zone: r.time_zone,
        generate_at: r.generate_at,
        non_zero_invoices_only: r.non_zero_invoices_only,
        started: r.auto_invoice,
        side: r.side ?? (r.client_type === 'vendor' ? 'vendor' : 'customer'),
        first_period_from: iso(r.first_period_from),
        last_period_end: iso(r.last_period_end),
        last_run_at: iso(r.last_run_at),
        last_error: r.last_error ?? '',
        invoices: Number(r.invoices),
      })),
      total: Number(n),
    };
  });

  implement(app, s, api.billing.startAutoInvoice, async (ctx) => {
    const actor = actorOf(ctx);
    const b = ctx.body;
    await s.db.transaction().execute(async (trx) => {
      const c = await trx
        .selectFrom('carriers')
        .select(['client_id', 'time_zone', 'payment_term_id', 'auto_invoice'])
        .where('client_id', '=', ctx.params.id)
        .forUpdate()
        .executeTakeFirst();
      if (!c) throw notFound();
      if (c.payment_term_id === null) throw ruleBroken('noPaymentTerm');
      const first = new Date(localMidnight(b.first_date ?? localDate(Date.now(), c.time_zone), c.time_zone));
      await trx
        .updateTable('carriers')
        .set({
          auto_invoice: true,
          ...(b.generate_at !== undefined ? { generate_at: b.generate_at } : {}),
          ...(b.non_zero_invoices_only !== undefined
            ? { non_zero_invoices_only: b.non_zero_invoices_only }
            : {}),
        })
        .where('client_id', '=', c.client_id)
        .execute();
      await trx
        .insertInto('auto_invoices')
        .values({
          client_id: c.client_id,
          side: b.side,
          first_period_from: first,
          updated_by: actor.user.name,
        })
        .onConflict((oc) =>
          oc.column('client_id').doUpdateSet({
            side: b.side,
            first_period_from: first,
            // a new start date before the periods already made goes back to it; periods made stay (keys)
            last_period_end: null,
            updated_at: new Date(),
            updated_by: actor.user.name,
          }),
        )
        .execute();
      await s.audit.record(trx, actor, 'auto_invoice', c.client_id, 'start', { started: c.auto_invoice }, b);
    });
    s.jobs.runner.wake();
    return null;
  });

  implement(app, s, api.billing.stopAutoInvoice, async (ctx) => {
    const actor = actorOf(ctx);
    await s.db.transaction().execute(async (trx) => {
      const r = await trx
        .updateTable('carriers')
        .set({ auto_invoice: false })
        .where('client_id', '=', ctx.params.id)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) throw notFound();
      await s.audit.record(
        trx,
        actor,
        'auto_invoice',
        ctx.params.id,
        'stop',
        { started: true },
        { started: false },
      );
    });
    return null;
  });

  implement(app, s, api.billing.runAutoInvoices, async (ctx) => {
    const actor = actorOf(ctx);
    const { id } = await s.jobs.enqueue(
      AUTO_INVOICE_JOB,
      { by: actor.user.name },
      { user: { user_id: actor.user.user_id, name: actor.user.name } },
    );
    return { job_id: id };
  });
}
