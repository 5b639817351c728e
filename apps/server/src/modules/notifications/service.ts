import type { api } from '@tandem/contract';
import { alertStep, carrierAvailableCredit, formatMoney, parseMoney, type Micros } from '@tandem/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { Services } from '../../services';
import { carrierLanguage, sendTemplated } from '../mail-config/templates';

type NotificationEvent = (typeof api.mail.NOTIFICATION_EVENTS)[number];

/** The payload of a 'mail.notify' job: one notification mail to one carrier's billing contact. */
export interface NotifyJob {
  event: NotificationEvent;
  clientId: number;
  /** Tag values besides the carrier's own (carrier_name, company_name, currency, operating_company). */
  values: Record<string, string>;
}

export const money2 = (m: Micros) => formatMoney(m, 2);
const utcMinute = (d: Date) => d.toISOString().slice(0, 16).replace('T', ' ') + ' UTC';

/**
 * Queues a notification mail as a durable job; `key` makes it once (the same key never makes a
 * second job). Inside the caller's transaction when `db` is one: it exists only if that commits.
 */
export async function queueNotification(s: Services, job: NotifyJob, key: string, db?: Db): Promise<boolean> {
  const r = await s.jobs.enqueue('mail.notify', job, { key: `notify:${key}`, db });
  if (!db) s.jobs.runner.wake();
  return r.created;
}

/** Whether a carrier has switched a notification on (Carrier > Notifications). */
async function wants(db: Db, clientId: number, event: NotificationEvent): Promise<boolean> {
  const r = await db
    .selectFrom('carriers')
    .select(sql<boolean>`coalesce((notifications->>${event})::boolean, false)`.as('on'))
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return r?.on === true;
}

/**
 * "Payment received" for a payment recorded in `db` (the caller's transaction), when the carrier
 * wants it: once per payment reference.
 */
export async function notifyPaymentReceived(
  s: Services,
  db: Db,
  p: {
    clientId: number;
    ref: string;
    amount: Micros;
    balance: Micros;
    method: string;
    transactionId: string;
  },
): Promise<void> {
  if (!(await wants(db, p.clientId, 'payment_received'))) return;
  await queueNotification(
    s,
    {
      event: 'payment_received',
      clientId: p.clientId,
      values: {
        amount: money2(p.amount),
        balance: money2(p.balance),
        method: p.method,
        transaction_id: p.transactionId,
        time: utcMinute(new Date()),
      },
    },
    `payment_received:${p.clientId}:${p.ref}`,
    db,
  );
}

/** Sends one queued notification (the 'mail.notify' job). SMTP failures throw, so the job retries. */
export async function runNotifyJob(s: Services, p: NotifyJob): Promise<{ to: string; error: string }> {
  const c = await s.db
    .selectFrom('carriers')
    .select(['client_id', 'name', 'company', 'billing_email', 'main_email', 'currency'])
    .where('client_id', '=', p.clientId)
    .executeTakeFirst();
  if (!c) return { to: '', error: 'carrier no longer exists' };
  const to = c.billing_email || c.main_email;
  const lang = await carrierLanguage(s.db, p.clientId);
  const values = {
    carrier_name: c.name,
    company_name: c.company || c.name,
    currency: c.currency,
    operating_company: (await s.settings.system()).operating_company,
    ...p.values,
  };
  if (!to) {
    await s.mailer.logAttempt(
      { to: '', subject: '', text: '', kind: p.event, clientId: p.clientId, event: p.event },
      null,
      `${c.name} has no billing or main e-mail`,
    );
    return { to, error: 'no e-mail' };
  }
  const r = await sendTemplated(s, { event: p.event, lang, to, values, clientId: p.clientId });
  if (r.error && !r.templateProblem) throw new Error(r.error);
  return { to, error: r.error };
}

interface AlertCarrier {
  client_id: number;
  mode: 'prepaid' | 'postpaid';
  balance: string;
  credit_limit: string;
  allowed_credit: string;
  unlimited_credit: boolean;
  threshold: string | null;
  low_on: boolean;
  zero_on: boolean;
}

/**
 * Low-balance and zero-balance alerts (Carrier > Notifications, threshold): compares each
 * carrier's available credit with its lines and the state of the last look (balance_alerts). A
 * crossing downwards moves the state and queues one mail in the same transaction, keyed by the
 * crossing's number, so two processes or a retried job never mail it twice; coming back to the
 * line or above re-arms it. Returns the number of mails queued.
 */
export async function checkBalanceAlerts(s: Services, clientIds?: readonly number[]): Promise<number> {
  const carriers = (
    await sql<AlertCarrier>`
    SELECT client_id, mode, balance::text AS balance, credit_limit::text AS credit_limit,
      allowed_credit::text AS allowed_credit, unlimited_credit, low_balance_threshold::text AS threshold,
      coalesce((notifications->>'low_balance')::boolean, false) AS low_on,
      coalesce((notifications->>'zero_balance')::boolean, false) AS zero_on
    FROM carriers
    WHERE (coalesce((notifications->>'low_balance')::boolean, false) AND low_balance_threshold IS NOT NULL
        OR coalesce((notifications->>'zero_balance')::boolean, false))
      AND ${clientIds?.length ? sql`client_id = ANY(${[...clientIds]}::int4[])` : sql`true`}
    ORDER BY client_id`.execute(s.db)
  ).rows;
  if (!carriers.length) return 0;
  const states = await s.db
    .selectFrom('balance_alerts')
    .selectAll()
    .where(
      'client_id',
      'in',
      carriers.map((c) => c.client_id),
    )
    .execute();
  const stateOf = new Map(states.map((r) => [`${r.client_id}:${r.event}`, r]));
  let queued = 0;
  for (const c of carriers) {
    const available = carrierAvailableCredit({
      mode: c.mode,
      balance: parseMoney(c.balance),
      credit_limit: parseMoney(c.credit_limit),
      allowed_credit: parseMoney(c.allowed_credit),
      unlimited_credit: c.unlimited_credit,
    });
    if (available === null) continue;
    const checks: { event: 'low_balance' | 'zero_balance'; line: Micros; atLine: boolean }[] = [];
    if (c.low_on && c.threshold !== null)
      checks.push({ event: 'low_balance', line: parseMoney(c.threshold), atLine: false });
    if (c.zero_on) checks.push({ event: 'zero_balance', line: 0n, atLine: true });
    for (const chk of checks) {
      const old = stateOf.get(`${c.client_id}:${chk.event}`);
      const step = alertStep(old?.below ?? false, available, chk.line, chk.atLine);
      if (old && old.below === step.below) continue;
      if (!old && !step.below) {
        await s.db
          .insertInto('balance_alerts')
          .values({ client_id: c.client_id, event: chk.event, below: false })
          .onConflict((oc) => oc.doNothing())
          .execute();
        continue;
      }
      queued += await s.db.transaction().execute(async (trx) => {
        // Moves the state only from what this look saw; a concurrent look that moved it first wins.
        const moved = old
          ? await trx
              .updateTable('balance_alerts')
              .set({
                below: step.below,
                crossings: sql`crossings + ${step.send ? 1 : 0}`,
                changed_at: new Date(),
              })
              .where('client_id', '=', c.client_id)
              .where('event', '=', chk.event)
              .where('below', '=', old.below)
              .returning('crossings')
              .executeTakeFirst()
          : await trx
              .insertInto('balance_alerts')
              .values({ client_id: c.client_id, event: chk.event, below: true, crossings: 1 })
              .onConflict((oc) => oc.doNothing())
              .returning('crossings')
              .executeTakeFirst();
        if (!moved || !step.send) return 0;
        await queueNotification(
          s,
          {
            event: chk.event,
            clientId: c.client_id,
            values: {
              balance: money2(parseMoney(c.balance)),
              available: money2(available),
              threshold: money2(chk.line),
              time: utcMinute(new Date()),
            },
          },
          `${chk.event}:${c.client_id}:${moved.crossings}`,
          trx,
        );
        return 1;
      });
    }
  }
  if (queued) s.jobs.runner.wake();
  return queued;
}

/**
 * Daily balance and daily usage mails for the UTC day `day` (YYYY-MM-DD), to the carriers that
 * want them: once per carrier and day whatever the number of runs.
 */
export async function queueDailyMails(s: Services, day: string): Promise<number> {
  const from = new Date(`${day}T00:00:00Z`);
  const to = new Date(from.getTime() + 86_400_000);
  const rows = (
    await sql<{
      client_id: number;
      mode: 'prepaid' | 'postpaid';
      balance: string;
      credit_limit: string;
      allowed_credit: string;
      unlimited_credit: boolean;
      daily_balance: boolean;
      daily_usage: boolean;
      usage: string;
      calls: string;
    }>`
    SELECT c.client_id, c.mode, c.balance::text AS balance, c.credit_limit::text AS credit_limit,
      c.allowed_credit::text AS allowed_credit, c.unlimited_credit,
      coalesce((c.notifications->>'daily_balance')::boolean, false) AS daily_balance,
      coalesce((c.notifications->>'daily_usage')::boolean, false) AS daily_usage,
      coalesce(u.usage, 0)::text AS usage, coalesce(u.calls, 0)::text AS calls
    FROM carriers c
    LEFT JOIN (
      SELECT client_id, abs(sum(amount)) AS usage, sum(cdr_count) AS calls FROM ledger
      WHERE kind = 'usage' AND created_at >= ${from} AND created_at < ${to} GROUP BY client_id
    ) u ON u.client_id = c.client_id
    WHERE coalesce((c.notifications->>'daily_balance')::boolean, false)
       OR coalesce((c.notifications->>'daily_usage')::boolean, false)
    ORDER BY c.client_id`.execute(s.db)
  ).rows;
  let n = 0;
  for (const r of rows) {
    const balance = money2(parseMoney(r.balance));
    const available = carrierAvailableCredit({
      mode: r.mode,
      balance: parseMoney(r.balance),
      credit_limit: parseMoney(r.credit_limit),
      allowed_credit: parseMoney(r.allowed_credit),
      unlimited_credit: r.unlimited_credit,
    });
    if (r.daily_balance) {
      const created = await queueNotification(
        s,
        {
          event: 'daily_balance',
          clientId: r.client_id,
          values: { date: day, balance, available: available === null ? '∞' : money2(available) },
        },
        `daily_balance:${r.client_id}:${day}`,
      );
      if (created) n++;
    }
    if (r.daily_usage) {
      const created = await queueNotification(
        s,
        {
          event: 'daily_usage',
          clientId: r.client_id,
          values: {
            date: day,
            balance,
            usage: money2(parseMoney(r.usage)),
            calls: Number(r.calls).toLocaleString('en-US'),
          },
        },
        `daily_usage:${r.client_id}:${day}`,
      );
      if (created) n++;
    }
  }
  return n;
}

/** Background jobs of the notifications: the mail job, the balance watch (each minute), the daily mails. */
export function registerNotifications(s: Services): void {
  s.jobs.define<NotifyJob>('mail.notify', (p) => runNotifyJob(s, p), { maxAttempts: 3, backoffMs: 30_000 });
  s.jobs.define('notify.balance_alerts', async () => ({ queued: await checkBalanceAlerts(s) }), {
    maxAttempts: 1,
  });
  s.jobs.every('notify.balance_alerts', { everyMinutes: 1 });
  s.jobs.define('notify.daily', async () => {
    const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    return { queued: await queueDailyMails(s, day) };
  });
  s.jobs.every('notify.daily', { daily: '00:05' });
}
