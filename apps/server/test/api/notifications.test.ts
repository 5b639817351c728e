import { parseMoney } from '@tandem/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveBalances } from '../../src/modules/cdr/ledger';
import { checkBalanceAlerts, queueDailyMails } from '../../src/modules/notifications/service';
import { ok, startHarness, startSmtp, type Harness } from './harness';
import { carrier } from './routing-fixtures';

let h: Harness;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let admin: string;
let seq = 0;

beforeAll(async () => {
  smtp = await startSmtp();
  h = await startHarness({
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp.port),
    SMTP_FROM: 'noc@tandem.test',
    JOBS_POLL_MS: '50',
  });
  admin = await h.setupAdmin();
  // Building the migrated database takes long on a busy machine.
}, 240_000);
afterAll(async () => {
  await h.close();
  await smtp.close();
});

const s = () => h.built.services;
const move = (clientId: number, amount: string) =>
  s()
    .db.transaction()
    .execute((trx) =>
      moveBalances(trx, [
        { client_id: clientId, kind: 'adjustment', ref: `t-${++seq}`, amount: parseMoney(amount) },
      ]),
    );
const mailsTo = (to: string) => smtp.mails.filter((m) => m.to.includes(to));
/** Waits until the notification jobs queued so far have run. */
async function settle(): Promise<void> {
  await expect
    .poll(
      async () =>
        (
          await s()
            .db.selectFrom('jobs')
            .select('id')
            .where('kind', '=', 'mail.notify')
            .where('status', 'in', ['pending', 'running'])
            .execute()
        ).length,
      { timeout: 15_000 },
    )
    .toBe(0);
}

async function watched(name: string, extra: Record<string, unknown> = {}) {
  const email = `${name.toLowerCase()}@billing.test`;
  const id = await carrier(s().db, name, {
    mode: 'prepaid',
    credit_limit: '0',
    billing_email: email,
    main_email: `${name.toLowerCase()}@main.test`,
    low_balance_threshold: '50',
    notifications: JSON.stringify({ low_balance: true, zero_balance: true }),
    ...extra,
  });
  await move(id, '100');
  await checkBalanceAlerts(s(), [id]);
  return { id, email };
}

describe('low and zero balance alerts', () => {
  it('mails the billing contact once per crossing, not on every debit', async () => {
    const c = await watched('Lowly');
    await move(c.id, '-30'); // 70
    expect(await checkBalanceAlerts(s(), [c.id])).toBe(0);
    await move(c.id, '-25'); // 45: crossed
    expect(await checkBalanceAlerts(s(), [c.id])).toBe(1);
    for (const d of ['-5', '-1', '-2']) {
      await move(c.id, d);
      expect(await checkBalanceAlerts(s(), [c.id])).toBe(0);
    }
    await settle();
    const low = mailsTo(c.email);
    expect(low).toHaveLength(1);
    expect(low[0]!.subject).toBe('Low balance: Lowly 45.00 USD');
    expect(low[0]!.text).toContain('has fallen below 50.00 USD');
    // Recovery re-arms; the next crossing mails again.
    await move(c.id, '100'); // 137
    expect(await checkBalanceAlerts(s(), [c.id])).toBe(0);
    await move(c.id, '-100'); // 37
    expect(await checkBalanceAlerts(s(), [c.id])).toBe(1);
    await settle();
    expect(mailsTo(c.email)).toHaveLength(2);
    const log = await s()
      .db.selectFrom('email_log')
      .selectAll()
      .where('client_id', '=', c.id)
      .orderBy('id')
      .execute();
    expect(log.map((l) => [l.event, l.status])).toEqual([
      ['low_balance', 'sent'],
      ['low_balance', 'sent'],
    ]);
  });

  it('mails zero balance when the credit is used up, once', async () => {
    const c = await watched('Zeroed', { notifications: JSON.stringify({ zero_balance: true }) });
    await move(c.id, '-100');
    expect(await checkBalanceAlerts(s(), [c.id])).toBe(1);
    await move(c.id, '-3');
    expect(await checkBalanceAlerts(s(), [c.id])).toBe(0);
    await settle();
    expect(mailsTo(c.email).map((m) => m.subject)).toEqual(['No credit left: Zeroed']);
  });

  it('two looks at the same crossing queue one mail', async () => {
    const c = await watched('Twice');
    await move(c.id, '-60');
    const [a, b] = await Promise.all([checkBalanceAlerts(s(), [c.id]), checkBalanceAlerts(s(), [c.id])]);
    expect(a + b).toBe(1);
    await settle();
    expect(mailsTo(c.email)).toHaveLength(1);
  });

  it('logs a missing template instead of failing', async () => {
    const c = await watched('Orphan');
    const saved = await s()
      .db.selectFrom('mail_templates')
      .selectAll()
      .where('event', '=', 'low_balance')
      .execute();
    await s().db.deleteFrom('mail_templates').where('event', '=', 'low_balance').execute();
    try {
      await move(c.id, '-60');
      expect(await checkBalanceAlerts(s(), [c.id])).toBe(1);
      await settle();
      expect(mailsTo(c.email)).toHaveLength(0);
      const log = ok(
        await h.call<{ items: { status: string; error: string; to_address: string }[] }>(
          'GET',
          `/api/log/email_log?client_id=${c.id}`,
          { token: admin },
        ),
      );
      expect(log.items[0]).toMatchObject({
        status: 'failed',
        to_address: c.email,
        error: 'Low balance email template is not defined or defined incorrectly',
      });
      const job = await s()
        .db.selectFrom('jobs')
        .select(['status'])
        .where('kind', '=', 'mail.notify')
        .where('key', 'like', `notify:low_balance:${c.id}:%`)
        .executeTakeFirstOrThrow();
      expect(job.status).toBe('finished');
    } finally {
      await s()
        .db.insertInto('mail_templates')
        .values(saved.map(({ id: _id, ...t }) => t))
        .execute();
    }
  });
});

describe('daily mails', () => {
  it('sends the daily balance and usage once per day whatever the number of runs', async () => {
    const email = 'daily@billing.test';
    const id = await carrier(s().db, 'Daily', {
      billing_email: email,
      notifications: JSON.stringify({ daily_balance: true, daily_usage: true }),
    });
    await move(id, '12.345');
    const day = new Date().toISOString().slice(0, 10);
    expect(await queueDailyMails(s(), day)).toBe(2);
    expect(await queueDailyMails(s(), day)).toBe(0);
    await settle();
    const subjects = mailsTo(email)
      .map((m) => m.subject)
      .sort();
    expect(subjects).toEqual([`Daily balance ${day}: 12.35 USD`, `Daily usage ${day}: 0 calls, 0.00 USD`]);
  });
});
