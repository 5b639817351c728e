import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  denied,
  fails,
  invalid,
  makeRestrictedAdmin,
  ok,
  startHarness,
  startSmtp,
  type Harness,
} from './harness';

let h: Harness;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let admin: string;

interface Sender {
  id: number;
  name: string;
  address: string;
  is_default: boolean;
  has_password: boolean;
  status: string;
  status_error: string;
  usage_count: number;
}
interface Template {
  id: number;
  event: string;
  language: string;
  sender_id: number | null;
  subject: string;
  content: string;
}
interface LogRow {
  to_address: string;
  subject: string;
  status: string;
  error: string;
  kind: string;
  sender_name: string | null;
  from_address: string;
}
interface Page<T> {
  items: T[];
  total: number;
}

const senderBody = (over: Record<string, unknown> = {}) => ({
  name: 'Billing relay',
  server: '127.0.0.1',
  port: smtp.port,
  username: 'relay',
  password: 'S3cret-relay',
  security: 'none',
  address: 'billing@carrier.test',
  ...over,
});

beforeAll(async () => {
  smtp = await startSmtp();
  // No SMTP_* environment: every mail below goes through the configured mail senders.
  h = await startHarness({ SMTP_HOST: '' });
  admin = await h.setupAdmin();
  // Building the migrated database takes long on a busy machine.
}, 240_000);
afterAll(async () => {
  await h.close();
  await smtp.close();
});

const templateOf = async (event: string, language: string) =>
  ok(
    await h.call<Page<Template>>(
      'GET',
      `/api/config/mail_template/list?event=${event}&language=${language}`,
      {
        token: admin,
      },
    ),
  ).items[0]!;

describe('mail senders', () => {
  let senderId: number;

  it('stores the password sealed, never answers it, and tests the connection', async () => {
    senderId = ok(
      await h.call<{ object_id: number }>('POST', '/api/config/email_sender/create', {
        token: admin,
        body: senderBody(),
      }),
    ).object_id;
    const row = ok(await h.call<Sender>('GET', `/api/config/email_sender/${senderId}`, { token: admin }));
    expect(row).toMatchObject({
      has_password: true,
      status: 'disconnected',
      address: 'billing@carrier.test',
    });
    expect(JSON.stringify(row)).not.toContain('S3cret-relay');
    const stored = await h.built.services.db
      .selectFrom('mail_senders')
      .select('password_enc')
      .where('id', '=', senderId)
      .executeTakeFirstOrThrow();
    expect(stored.password_enc).toMatch(/^v1\./);
    expect(stored.password_enc).not.toContain('S3cret');
    expect(await h.built.services.secrets.open(stored.password_enc)).toBe('S3cret-relay');

    const test = ok(
      await h.call<{ status: string }>('POST', `/api/config/email_sender/${senderId}/test`, { token: admin }),
    );
    expect(test, JSON.stringify(test)).toMatchObject({ status: 'connected' });
    expect(smtp.logins.at(-1)).toEqual({ username: 'relay', password: 'S3cret-relay' });
    // An update that keeps the password (none sent) keeps it; the server change resets the status.
    ok(await h.call('PATCH', `/api/config/email_sender/${senderId}`, { token: admin, body: { port: 1 } }));
    const moved = ok(await h.call<Sender>('GET', `/api/config/email_sender/${senderId}`, { token: admin }));
    expect(moved).toMatchObject({ has_password: true, status: 'disconnected' });
    const bad = ok(
      await h.call<{ status: string; error: string }>('POST', `/api/config/email_sender/${senderId}/test`, {
        token: admin,
      }),
    );
    expect(bad.status).toBe('disconnected');
    expect(bad.error).not.toBe('');
    ok(
      await h.call('PATCH', `/api/config/email_sender/${senderId}`, {
        token: admin,
        body: { port: smtp.port },
      }),
    );
  });

  it('validates the fields with the spec messages', async () => {
    invalid(
      await h.call('POST', '/api/config/email_sender/create', {
        token: admin,
        body: senderBody({ address: '' }),
      }),
      'address',
      'From e-mail must be selected',
    );
    invalid(
      await h.call('POST', '/api/config/email_sender/create', {
        token: admin,
        body: senderBody({ security: 'x' }),
      }),
      'security',
    );
    fails(
      await h.call('POST', '/api/config/email_sender/create', { token: admin, body: senderBody() }),
      160,
      'Mail Sender [Billing relay] already exists',
    );
  });

  it('sends a test mail through the sender and logs it', async () => {
    const r = ok(
      await h.call<{ sent: boolean }>('POST', `/api/config/email_sender/${senderId}/test_send`, {
        token: admin,
        body: { to: 'ops@example.com' },
      }),
    );
    expect(r.sent).toBe(true);
    const mail = smtp.mails.at(-1)!;
    expect(mail.to).toEqual(['ops@example.com']);
    expect(mail.from).toBe('billing@carrier.test');
    const log = ok(await h.call<Page<LogRow>>('GET', '/api/log/email_log?kind=test', { token: admin }));
    expect(log.items[0]).toMatchObject({
      to_address: 'ops@example.com',
      status: 'sent',
      sender_name: 'Billing relay',
      from_address: 'billing@carrier.test',
    });
  });

  it('keeps one default sender', async () => {
    const second = ok(
      await h.call<{ object_id: number }>('POST', '/api/config/email_sender/create', {
        token: admin,
        body: senderBody({ name: 'Second', is_default: true }),
      }),
    ).object_id;
    ok(
      await h.call('PATCH', `/api/config/email_sender/${senderId}`, {
        token: admin,
        body: { is_default: true },
      }),
    );
    const list = ok(await h.call<Page<Sender>>('GET', '/api/config/email_sender/list', { token: admin }));
    expect(list.items.filter((s) => s.is_default).map((s) => s.id)).toEqual([senderId]);
    ok(await h.call('DELETE', `/api/config/email_sender/${second}`, { token: admin }));
  });

  it('refuses to delete a sender a template uses', async () => {
    const tpl = await templateOf('low_balance', 'en');
    ok(
      await h.call('PATCH', `/api/config/mail_template/${tpl.id}`, {
        token: admin,
        body: { sender_id: senderId },
      }),
    );
    fails(
      await h.call('DELETE', `/api/config/email_sender/${senderId}`, { token: admin }),
      170,
      'Email sender is already in use for a mail template',
    );
  });

  it('needs the Mail Sender permission', async () => {
    const other = await makeRestrictedAdmin(h, admin, 'mailless');
    denied(await h.call('GET', '/api/config/email_sender/list', { token: other.token }));
    denied(await h.call('POST', `/api/config/email_sender/${senderId}/test`, { token: other.token }));
    denied(await h.call('GET', '/api/config/mail_template/list', { token: other.token }));
    denied(await h.call('GET', '/api/log/email_log', { token: other.token }));
  });
});

describe('mail templates', () => {
  it('has the built-in template of every event in en, ch and de', async () => {
    const list = ok(
      await h.call<Page<Template>>('GET', '/api/config/mail_template/list?per_page=100', { token: admin }),
    );
    expect(list.total).toBe(21);
    for (const lang of ['en', 'ch', 'de'])
      expect(
        list.items
          .filter((t) => t.language === lang)
          .map((t) => t.event)
          .sort(),
      ).toEqual([
        'daily_balance',
        'daily_usage',
        'invoice_sent',
        'low_balance',
        'password_reset',
        'payment_received',
        'zero_balance',
      ]);
  });

  it('refuses unknown tags and a second template of the same event and language', async () => {
    const tpl = await templateOf('low_balance', 'de');
    invalid(
      await h.call('PATCH', `/api/config/mail_template/${tpl.id}`, {
        token: admin,
        body: { content: 'Saldo {balance}, Link {link}' },
      }),
      'content',
      /Unknown tag \{link\}/,
    );
    fails(
      await h.call('POST', '/api/config/mail_template/create', {
        token: admin,
        body: { event: 'low_balance', language: 'de', subject: 'x', content: 'y' },
      }),
      160,
      'Mail template [low_balance / de] already exists',
    );
    invalid(
      await h.call('POST', '/api/config/mail_template/create', {
        token: admin,
        body: { event: 'nope', language: 'de', subject: 'x', content: 'y' },
      }),
      'event',
    );
  });

  it('sends the password reset from its template, in the user language, through its sender', async () => {
    const tpl = await templateOf('password_reset', 'en');
    const sender = ok(await h.call<Page<Sender>>('GET', '/api/config/email_sender/list', { token: admin }))
      .items[0]!;
    ok(
      await h.call('PATCH', `/api/config/mail_template/${tpl.id}`, {
        token: admin,
        body: { subject: 'New password for {program}', sender_id: sender.id, cc: ['audit@carrier.test'] },
      }),
    );
    const before = smtp.mails.length;
    ok(await h.call('POST', '/api/auth/reset-password', { body: { email_or_name: ADMIN.name } }));
    await expect.poll(() => smtp.mails.length).toBeGreaterThan(before);
    const mail = smtp.mails.at(-1)!;
    expect(mail.subject).toBe('New password for Tandem');
    expect(mail.from).toBe(sender.address);
    expect(mail.to.sort()).toEqual(['admin@example.com', 'audit@carrier.test']);
    expect(mail.text).toMatch(/#\/auth\/reset\/[A-Za-z0-9_-]+/);
    // Without a usable template the built-in text still goes out.
    await h.built.services.db.deleteFrom('mail_templates').where('event', '=', 'password_reset').execute();
    ok(await h.call('POST', '/api/auth/reset-password', { body: { email_or_name: ADMIN.name } }));
    await expect.poll(() => smtp.mails.at(-1)!.subject).toMatch(/Reset your Tandem password/);
  });
});
