import { formatMoney, invoiceBalance, localDate, parseMoney, periodsDue } from '@tandem/domain';
import { AppError } from '../../http/errors';
import type { Services } from '../../services';
import { createExtraCharge } from './extra-charges';
import { createInvoice } from './invoices';
import { recordPayment } from './payments';

/**
 * `seed-demo`'s Finance data, through the real code paths (idempotent): a default invoice setting,
 * and for every carrier with demo traffic its weekly invoices (clients) or statements (vendors) of
 * the weeks of the demo month that have ended, each once (keyed like automatic invoices); a client's
 * oldest invoice paid, the next one paid half, the newest left unpaid — every payment one ledger row
 * through recordPayment. Weeks already covered by another invoice are left alone (overlap protection).
 */
export async function seedDemoBilling(
  s: Services,
  now = new Date(),
): Promise<{ invoices: number; payments: number; extra_charges: number }> {
  const hasSetting = await s.db
    .selectFrom('invoice_settings')
    .select('invoice_setting_id')
    .executeTakeFirst();
  if (!hasSetting)
    await s.db
      .insertInto('invoice_settings')
      .values({
        name: 'Standard',
        decimal_places: 2,
        tax_percent: '0',
        is_default: true,
        company_info:
          ((await s.settings.system()) as { operating_company?: string }).operating_company ?? 'Tandem',
        billing_info: 'Payment by bank transfer within the payment term, quoting the invoice number.',
        billing_info_position: 'bottom',
        updated_by: 'seed-demo',
      })
      .execute();
  const carriers = await s.db
    .selectFrom('carriers')
    .select(['client_id', 'client_type', 'time_zone'])
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('ledger')
          .select('ledger_id')
          .whereRef('ledger.client_id', '=', 'carriers.client_id')
          .where('kind', '=', 'usage'),
      ),
    )
    .orderBy('client_id')
    .execute();
  let invoices = 0;
  let payments = 0;
  const from = now.getTime() - 30 * 86_400_000;
  const extraCharges = await seedExtraCharges(s, carriers, from, now);
  for (const c of carriers) {
    const side = c.client_type === 'vendor' ? 'vendor' : 'customer';
    const weeks = periodsDue({ cycle: 'weekly', tz: c.time_zone, from, lastEnd: null, now: now.getTime() });
    const made: number[] = [];
    for (const w of weeks) {
      const start = new Date(w.start);
      try {
        const r = await s.db.transaction().execute((trx) =>
          createInvoice(trx, {
            client_id: c.client_id,
            side,
            start,
            end: new Date(w.end),
            origin: 'auto',
            created_by: 'seed-demo',
            auto_key: `demo:${c.client_id}:${side}:${start.toISOString()}`,
            skipZero: true,
            now,
          }),
        );
        if (r.invoice_id !== null) made.push(r.invoice_id);
        if (r.created) invoices++;
      } catch (e) {
        if (e instanceof AppError && e.key === 'invoiceOverlap') continue;
        throw e;
      }
    }
    // oldest paid, next half paid, the rest open
    for (const [i, id] of made.slice(0, 2).entries()) {
      const inv = await s.db
        .selectFrom('invoices')
        .select(['invoice_number', 'amount', 'debited', 'paid_amount', 'credited'])
        .where('invoice_id', '=', id)
        .executeTakeFirstOrThrow();
      const total = parseMoney(inv.amount);
      const due = invoiceBalance(
        total,
        parseMoney(inv.debited),
        parseMoney(inv.paid_amount),
        parseMoney(inv.credited),
      ).due;
      const part = i === 0 ? due : (total / 2n / 10_000n) * 10_000n;
      if (part <= 0n || part > due) continue;
      const amount = formatMoney(part, 2);
      const r = await s.db.transaction().execute((trx) =>
        recordPayment(trx, {
          client_id: c.client_id,
          direction: side === 'customer' ? 'received' : 'sent',
          amount,
          method: 'bank',
          transaction_id: `DEMO-${inv.invoice_number}`,
          note: `Demo payment of ${inv.invoice_number}`,
          idempotency_key: `demo-pay-${inv.invoice_number}`,
          allocations: [{ invoice_id: id, amount }],
          created_by: 'seed-demo',
        }),
      );
      if (r.created) payments++;
    }
  }
  return { invoices, payments, extra_charges: extraCharges };
}

/**
 * Extra charges as an operator books them (createExtraCharge: the charge, what is due already
 * charged through the ledger), made before the demo's invoices so they show on them: the first
 * client with traffic pays a monthly cross-connect from the start of the demo month and a one-off
 * porting fee; the first vendor bills a monthly interconnect port. Keyed, so a second run adds none.
 */
async function seedExtraCharges(
  s: Services,
  carriers: readonly { client_id: number; client_type: string; time_zone: string }[],
  from: number,
  now: Date,
): Promise<number> {
  const customer = carriers.find((c) => c.client_type !== 'vendor');
  const vendor = carriers.find((c) => c.client_type === 'vendor');
  const plan = [
    customer && {
      c: customer,
      side: 'customer' as const,
      name: 'Cross-connect, 10G port',
      amount: '250.00',
      frequency: 'monthly' as const,
    },
    customer && {
      c: customer,
      side: 'customer' as const,
      name: 'Number porting fee',
      amount: '45.00',
      frequency: 'once' as const,
    },
    vendor && {
      c: vendor,
      side: 'vendor' as const,
      name: 'Interconnect port',
      amount: '400.00',
      frequency: 'monthly' as const,
    },
  ];
  let made = 0;
  for (const p of plan) {
    if (!p) continue;
    const r = await s.db.transaction().execute((trx) =>
      createExtraCharge(
        trx,
        {
          client_id: p.c.client_id,
          side: p.side,
          name: p.name,
          amount: p.amount,
          frequency: p.frequency,
          start_date: localDate(from, p.c.time_zone),
          note: 'Demo charge',
          idempotency_key: `demo-extra:${p.side}:${p.name}`,
          created_by: 'seed-demo',
        },
        now,
      ),
    );
    if (r.created) made++;
  }
  return made;
}
