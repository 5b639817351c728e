import { ErrorCode } from '@tandem/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryQueue } from '../../src/modules/rate-delivery/send';
import {
  auditRows,
  denied,
  fails,
  invalid,
  makeCarrierUser,
  makeRestrictedAdmin,
  ok,
  startHarness,
  startSmtp,
  type CapturedMail,
  type Harness,
} from './harness';
import { carrier, rateTable, trunk } from './routing-fixtures';

let h: Harness;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let admin: string;
let table: number;
let otherTable: number;
let alpha: number;
let beta: number;
let gamma: number;
const ORIGIN = 'https://portal.carrier.test';

interface Delivery {
  id: number;
  send_id: number;
  client_id: number | null;
  carrier_name: string;
  email: string;
  status: string;
  error: string;
  sent_at: string | null;
  downloaded_at: string | null;
  download_ip: string;
  download_count: number;
  reminder_count: number;
  rate_table_name: string;
}
interface Page<T> {
  items: T[];
  total: number;
}

const inDays = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();

beforeAll(async () => {
  smtp = await startSmtp();
  h = await startHarness({
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp.port),
    SMTP_FROM: 'noc@tandem.test',
    PUBLIC_URL: ORIGIN,
  });
  admin = await h.setupAdmin();
  const db = h.built.services.db;
  table = await rateTable(db, 'Wholesale A-Z', [
    ['44', '0.0123', 'UK'],
    ['4477', '0.0456', 'UK Mobile'],
    ['49', '0.0200', 'Germany'],
  ]);
  otherTable = await rateTable(db, 'Premium', [['33', '0.0300', 'France']]);
  // An ended rate (not sent) and a future one.
  await db
    .insertInto('rates')
    .values([
      {
        rate_table_id: table,
        code: '1',
        rate: '0.0010',
        code_name: 'USA old',
        country: '',
        effective_date: new Date('2019-01-01T00:00:00Z'),
        end_date: new Date('2019-06-01T00:00:00Z'),
      },
      {
        rate_table_id: table,
        code: '50',
        rate: '0.5000',
        code_name: 'Future',
        country: '',
        effective_date: new Date('2030-01-01T00:00:00Z'),
      },
    ] as never)
    .execute();
  alpha = await carrier(db, 'Alpha', { rates_email: 'rates@alpha.test', main_email: 'main@alpha.test' });
  beta = await carrier(db, 'Beta', { main_email: 'main@beta.test' });
  gamma = await carrier(db, 'Gamma', { main_email: 'main@gamma.test' });
  await trunk(db, alpha, 'alpha-in', 'ingress', { rate_table_id: table });
  await trunk(db, beta, 'beta-in', 'ingress', { rate_table_id: table });
  await trunk(db, gamma, 'gamma-in', 'ingress', { rate_table_id: otherTable });
});

afterAll(async () => {
  await h.close();
  await smtp.close();
});

const template = (body: Record<string, unknown>) =>
  h.call<{ object_id: number }>('POST', '/api/rate/email_template/create', { token: admin, body });
const send = (tableId: number, body: Record<string, unknown>, token = admin) =>
  h.call<{ send_id: number; recipients: number }>('POST', `/api/rate/rate_table/${tableId}/send`, {
    token,
    body,
  });
const deliveries = async (query: string) =>
  ok(await h.call<Page<Delivery>>('GET', `/api/log/rate_delivery?per_page=100&${query}`, { token: admin }));
const mailsTo = (to: string) => smtp.mails.filter((m) => m.to.includes(to));
async function waitForMails(to: string, count: number): Promise<CapturedMail[]> {
  for (let i = 0; i < 200 && mailsTo(to).length < count; i++) await new Promise((r) => setTimeout(r, 20));
  expect(mailsTo(to)).toHaveLength(count);
  return mailsTo(to);
}
const tokenIn = (text: string) => {
  const m = /https:\/\/portal\.carrier\.test\/#\/download\/rate\/([A-Za-z0-9_-]+)/.exec(text);
  expect(m, text).not.toBeNull();
  return m![1]!;
};
const download = (token: string, ip = '203.0.113.7') =>
  h.built.app.inject({
    method: 'GET',
    url: `/api/rate/download/${token}`,
    headers: { 'x-forwarded-for': ip },
  });

const LINK_TEMPLATE = {
  name: 'Weekly deck',
  download_method: 'link',
  from_email: 'rates@tandem.test',
  cc: ['copy@tandem.test'],
  subject: 'Rates {rate_table_name} for {carrier_name}',
  content:
    'Dear {carrier_name},\nfile {file_name} ({file_format}) effective {effective_date}\nget it: {download_link}\nuntil {download_deadline}\n{unknown_tag}',
  file_format: 'csv',
};

describe('rate e-mail templates', () => {
  it('creates, lists, edits and deletes with a modification log', async () => {
    const id = ok(await template({ ...LINK_TEMPLATE, name: 'Scratch' })).object_id;
    const row = ok(
      await h.call<Record<string, unknown>>('GET', `/api/rate/email_template/${id}`, { token: admin }),
    );
    expect(row).toMatchObject({
      name: 'Scratch',
      download_method: 'link',
      from_email: 'rates@tandem.test',
      cc: ['copy@tandem.test'],
      file_format: 'csv',
      usage_count: 0,
      updated_by: 'admin',
    });
    ok(
      await h.call('PATCH', `/api/rate/email_template/${id}`, {
        token: admin,
        body: { download_method: 'attachment', file_format: 'xlsx' },
      }),
    );
    const list = ok(
      await h.call<Page<{ name: string; download_method: string }>>(
        'GET',
        '/api/rate/email_template/list?name=scra',
        { token: admin },
      ),
    );
    expect(list.items).toEqual([expect.objectContaining({ name: 'Scratch', download_method: 'attachment' })]);
    ok(await h.call('DELETE', `/api/rate/email_template/${id}`, { token: admin }));
    const log = await auditRows(h, 'rate_email_template', id);
    expect(log.map((r) => r.action)).toEqual(['delete', 'update', 'create']);
  });

  it('refuses a missing From, invalid e-mails, duplicate names and unknown methods', async () => {
    invalid(
      await template({ ...LINK_TEMPLATE, from_email: '' }),
      'from_email',
      'From e-mail must be selected',
    );
    invalid(
      await template({ ...LINK_TEMPLATE, from_email: 'not-an-address' }),
      'from_email',
      'The from_email field must be a valid email',
    );
    invalid(await template({ ...LINK_TEMPLATE, cc: ['ok@x.test', 'bad'] }), 'cc.1', /valid email/);
    invalid(await template({ ...LINK_TEMPLATE, download_method: 'fax' }), 'download_method');
    invalid(
      await template({ ...LINK_TEMPLATE, name: '***' }),
      'name',
      'Name must include alphanumeric characters',
    );
    ok(await template(LINK_TEMPLATE));
    const dup = await template({ ...LINK_TEMPLATE, name: 'WEEKLY DECK' });
    fails(dup, ErrorCode.conflict, 'Rate Email Template [WEEKLY DECK] already exists');
    expect(dup.body.errors).toHaveProperty('name');
    const de = await h.call('POST', '/api/rate/email_template/create', {
      token: admin,
      headers: { 'x-lang': 'de' },
      body: { ...LINK_TEMPLATE, name: 'x1', from_email: '' },
    });
    invalid(de, 'from_email', 'Absender-E-Mail muss ausgewählt werden');
  });
});

describe('sending a rate table', () => {
  let linkTemplate: number;
  let sendId: number;

  beforeAll(async () => {
    const list = ok(
      await h.call<Page<{ id: number; name: string }>>('GET', '/api/rate/email_template/list?name=Weekly', {
        token: admin,
      }),
    );
    linkTemplate = list.items[0]!.id;
  });

  it('offers the carriers whose trunks use the table first, at their rates e-mail', async () => {
    const r = ok(
      await h.call<{ items: { client_id: number; email: string; uses_rate_table: boolean }[] }>(
        'GET',
        `/api/rate/rate_table/${table}/send_candidates`,
        { token: admin },
      ),
    );
    expect(r.items.slice(0, 2)).toEqual([
      expect.objectContaining({ client_id: alpha, email: 'rates@alpha.test', uses_rate_table: true }),
      expect.objectContaining({ client_id: beta, email: 'main@beta.test', uses_rate_table: true }),
    ]);
    expect(r.items.find((c) => c.client_id === gamma)).toMatchObject({ uses_rate_table: false });
  });

  it('refuses a deadline in the past, no recipients and an unknown template', async () => {
    invalid(
      await send(table, { template_id: linkTemplate, client_ids: [alpha], download_deadline: inDays(-1) }),
      'download_deadline',
      'The download deadline must be later than the current date',
    );
    invalid(
      await send(table, { template_id: linkTemplate, download_deadline: inDays(3) }),
      'client_ids',
      'Select at least one carrier or enter an e-mail address',
    );
    invalid(
      await send(table, { template_id: 999999, client_ids: [alpha], download_deadline: inDays(3) }),
      'template_id',
    );
    invalid(
      await send(table, { template_id: linkTemplate, emails: ['nope'], download_deadline: inDays(3) }),
      'emails.0',
      /valid email/,
    );
  });

  it('mails two carriers a download link in the background and logs each delivery', async () => {
    const deadline = inDays(7);
    const r = ok(
      await send(table, {
        template_id: linkTemplate,
        client_ids: [alpha, beta],
        emails: ['RATES@alpha.test', 'extra@buyer.test'],
        download_deadline: deadline,
      }),
    );
    // The rates e-mail of Alpha given again as an address is not mailed twice.
    expect(r.recipients).toBe(3);
    sendId = r.send_id;
    await deliveryQueue(h.built.services).idle();

    const status = ok(
      await h.call<Record<string, unknown>>('GET', `/api/rate/rate_send/${sendId}`, { token: admin }),
    );
    expect(status).toMatchObject({ status: 'finished', total: 3, succeeded: 3, failed: 0, rate_rows: 4 });

    const [a] = await waitForMails('rates@alpha.test', 1);
    const [b] = await waitForMails('main@beta.test', 1);
    await waitForMails('extra@buyer.test', 1);
    expect(a!.from).toBe('rates@tandem.test');
    expect(a!.raw).toMatch(/^Cc: copy@tandem\.test/m);
    expect(a!.subject).toBe('Rates Wholesale A-Z for Alpha');
    expect(b!.subject).toBe('Rates Wholesale A-Z for Beta');
    expect(a!.text).toContain('Dear Alpha,');
    expect(a!.text).toMatch(/file Wholesale_A-Z_\d{4}-\d{2}-\d{2}\.csv \(CSV\) effective \d{4}-\d{2}-\d{2}/);
    expect(a!.text).toContain(`until ${deadline.slice(0, 10)} ${deadline.slice(11, 16)} UTC`);
    // Unknown tags stay as written.
    expect(a!.text).toContain('{unknown_tag}');
    expect(tokenIn(a!.text)).not.toBe(tokenIn(b!.text));

    const log = await deliveries(`send_id=${sendId}`);
    expect(log.total).toBe(3);
    expect(log.items.map((d) => [d.carrier_name, d.email, d.status]).sort()).toEqual([
      ['', 'extra@buyer.test', 'sent_succeed'],
      ['Alpha', 'rates@alpha.test', 'sent_succeed'],
      ['Beta', 'main@beta.test', 'sent_succeed'],
    ]);
    expect(log.items.every((d) => d.sent_at !== null && d.rate_table_name === 'Wholesale A-Z')).toBe(true);

    // Filters: carrier, status, rate table, time range; and the rate table's own send log.
    expect((await deliveries(`client_id=${beta}`)).items.map((d) => d.email)).toEqual(['main@beta.test']);
    expect((await deliveries(`rate_table_id=${otherTable}`)).total).toBe(0);
    expect((await deliveries(`time_from=${inDays(1)}`)).total).toBe(0);
    expect((await deliveries(`time_from=${inDays(-1)}&time_to=${inDays(1)}&status=sent_succeed`)).total).toBe(
      3,
    );
    const scoped = ok(
      await h.call<Page<Delivery>>('GET', `/api/rate/rate_table/${table}/send_log`, { token: admin }),
    );
    expect(scoped.total).toBe(3);
    const audit = await auditRows(h, 'rate_table', table);
    expect(audit[0]).toMatchObject({ action: 'send_rate', user_name: 'admin' });
  });

  it('the link downloads the deck without a session and records downloaded with time and IP', async () => {
    const token = tokenIn(mailsTo('rates@alpha.test')[0]!.text);
    const info = ok(await h.call<Record<string, unknown>>('GET', `/api/rate/download/${token}/info`));
    expect(info).toMatchObject({
      rate_table_name: 'Wholesale A-Z',
      carrier_name: 'Alpha',
      file_format: 'csv',
      downloaded_at: null,
    });
    const res = await download(token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="Wholesale_A-Z_.*\.csv"/);
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'code,code_name,country,rate,intra_rate,inter_rate,ij_rate,local_rate,min_time,interval,setup_fee,grace_time,effective_date,end_date',
    );
    // Current and future rates, not the ended one; amounts at the table's 4 places.
    expect(lines.slice(1).map((l) => l.split(',').slice(0, 4).join(','))).toEqual([
      '44,UK,,0.0123',
      '4477,UK Mobile,,0.0456',
      '49,Germany,,0.0200',
      '50,Future,,0.5000',
    ]);
    expect((await download(token, '203.0.113.8')).statusCode).toBe(200);

    const [row] = (await deliveries(`client_id=${alpha}`)).items;
    expect(row).toMatchObject({ status: 'downloaded', download_ip: '203.0.113.8', download_count: 2 });
    expect(row!.downloaded_at).not.toBeNull();
    const downloadedLog = await deliveries('status=downloaded');
    expect(downloadedLog.items.map((d) => d.email)).toEqual(['rates@alpha.test']);
  });

  it('refuses unknown and expired tokens with a clear message', async () => {
    const unknown = await h.call('GET', `/api/rate/download/${'x'.repeat(43)}/info`);
    fails(unknown, ErrorCode.notFound, 'This rate download link is not valid');
    expect((await download('y'.repeat(43))).statusCode).toBe(404);

    const token = tokenIn(mailsTo('main@beta.test')[0]!.text);
    const past = new Date(Date.now() - 60_000);
    await h.built.services.db
      .updateTable('rate_sends')
      .set({ download_deadline: past })
      .where('id', '=', sendId)
      .execute();
    try {
      const expired = await h.call('GET', `/api/rate/download/${token}`, { headers: { 'x-lang': 'de' } });
      fails(
        expired,
        ErrorCode.rule,
        /^Dieser Link zum Herunterladen der Tarife ist am \d{4}-\d{2}-\d{2} .* abgelaufen$/,
      );
      expect(expired.status).toBe(410);
      // Reminders after the deadline are refused as well.
      fails(
        await h.call('POST', '/api/rate/delivery/remind', { token: admin, body: { send_id: sendId } }),
        ErrorCode.rule,
        /download deadline of this send passed/,
      );
    } finally {
      await h.built.services.db
        .updateTable('rate_sends')
        .set({ download_deadline: new Date(Date.now() + 86_400_000) })
        .where('id', '=', sendId)
        .execute();
    }
    const [beta0] = (await deliveries(`client_id=${beta}`)).items;
    expect(beta0!.status).toBe('sent_succeed');
  });

  it('reminds those who have not downloaded; the old and the new link both work', async () => {
    const r = ok(
      await h.call<{ reminded: number }>('POST', '/api/rate/delivery/remind', {
        token: admin,
        body: { send_id: sendId },
      }),
    );
    expect(r.reminded).toBe(2);
    await deliveryQueue(h.built.services).idle();
    const betaMails = await waitForMails('main@beta.test', 2);
    await waitForMails('extra@buyer.test', 2);
    expect(mailsTo('rates@alpha.test')).toHaveLength(1);
    expect(betaMails[1]!.subject).toBe('Reminder: Rates Wholesale A-Z for Beta');
    const log = await deliveries(`send_id=${sendId}`);
    const byEmail = Object.fromEntries(log.items.map((d) => [d.email, d]));
    expect(byEmail['main@beta.test']).toMatchObject({ status: 'reminder', reminder_count: 1 });
    expect(byEmail['extra@buyer.test']).toMatchObject({ status: 'reminder', reminder_count: 1 });
    expect(byEmail['rates@alpha.test']).toMatchObject({ status: 'downloaded', reminder_count: 0 });
    expect((await deliveries('status=reminder')).total).toBe(2);

    const first = tokenIn(betaMails[0]!.text);
    const second = tokenIn(betaMails[1]!.text);
    expect(second).not.toBe(first);
    expect((await download(first)).statusCode).toBe(200);
    expect((await download(second)).statusCode).toBe(200);
    expect((await deliveries(`client_id=${beta}`)).items[0]).toMatchObject({
      status: 'downloaded',
      download_count: 2,
    });
  });

  it('sends the deck as an attachment in the chosen format, effective-date filtered', async () => {
    const id = ok(
      await template({
        ...LINK_TEMPLATE,
        name: 'Attached deck',
        download_method: 'attachment',
        cc: [],
        content: 'Hello {company_name}: {download_link}',
      }),
    ).object_id;
    const r = ok(
      await send(table, {
        template_id: id,
        client_ids: [gamma],
        effective_from: '2025-01-01',
        download_deadline: inDays(2),
      }),
    );
    await deliveryQueue(h.built.services).idle();
    const [mail] = await waitForMails('main@gamma.test', 1);
    expect(mail!.raw).toMatch(
      /Content-Disposition: attachment; filename=Wholesale_A-Z_\d{4}-\d{2}-\d{2}\.csv/,
    );
    expect(mail!.raw).toMatch(/Hello Gamma Ltd|Hello Gamma/);
    const part =
      /Content-Disposition: attachment;[^\r\n]*\r\n(?:[^\r\n]+\r\n)*\r\n([A-Za-z0-9+/=\r\n]+)/.exec(
        mail!.raw,
      );
    expect(part).not.toBeNull();
    const csv = Buffer.from(part![1]!.replace(/\s+/g, ''), 'base64').toString('utf8');
    // Only the rates effective on or after 2025-01-01: the future one.
    expect(
      csv
        .trim()
        .split('\r\n')
        .slice(1)
        .map((l) => l.split(',')[0]),
    ).toEqual(['50']);
    const status = ok(
      await h.call<Record<string, unknown>>('GET', `/api/rate/rate_send/${r.send_id}`, { token: admin }),
    );
    expect(status).toMatchObject({
      status: 'finished',
      download_method: 'attachment',
      rate_rows: 1,
      succeeded: 1,
    });
    // The template shows how many sends used it.
    const t = ok(
      await h.call<{ usage_count: number }>('GET', `/api/rate/email_template/${id}`, { token: admin }),
    );
    expect(t.usage_count).toBe(1);
  });

  it('an XLSX deck downloads as a workbook', async () => {
    ok(
      await send(table, {
        template_id: linkTemplate,
        emails: ['xlsx@buyer.test'],
        file_format: 'xlsx',
        download_deadline: inDays(2),
      }),
    );
    await deliveryQueue(h.built.services).idle();
    const [mail] = await waitForMails('xlsx@buyer.test', 1);
    const res = await download(tokenIn(mail!.text));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.rawPayload.subarray(0, 2).toString('latin1')).toBe('PK');
  });

  it('records a failed send with the error when the mail is refused', async () => {
    const before = smtp.mails.length;
    const services = h.built.services;
    const real = services.mailer.deliver.bind(services.mailer);
    services.mailer.deliver = async (m) => (m.to === 'bounce@buyer.test' ? 'mailbox unavailable' : real(m));
    try {
      const r = ok(
        await send(table, {
          template_id: linkTemplate,
          emails: ['bounce@buyer.test', 'fine@buyer.test'],
          download_deadline: inDays(2),
        }),
      );
      await deliveryQueue(services).idle();
      const log = await deliveries(`send_id=${r.send_id}`);
      const byEmail = Object.fromEntries(log.items.map((d) => [d.email, d]));
      expect(byEmail['bounce@buyer.test']).toMatchObject({
        status: 'sent_failed',
        error: 'mailbox unavailable',
      });
      expect(byEmail['fine@buyer.test']).toMatchObject({ status: 'sent_succeed', error: '' });
      expect((await deliveries('status=sent_failed')).items.map((d) => d.email)).toEqual([
        'bounce@buyer.test',
      ]);
      const status = ok(
        await h.call<Record<string, unknown>>('GET', `/api/rate/rate_send/${r.send_id}`, { token: admin }),
      );
      expect(status).toMatchObject({ succeeded: 1, failed: 1 });
    } finally {
      services.mailer.deliver = real;
    }
    await waitForMails('fine@buyer.test', 1);
    expect(smtp.mails.length).toBe(before + 1);
  });
});

describe('permissions', () => {
  it('refuses portal users and admins without the permission', async () => {
    const client = await makeCarrierUser(h, admin, 'Portal');
    denied(await h.call('GET', '/api/rate/email_template/list', { token: client.token }));
    denied(await h.call('GET', '/api/log/rate_delivery', { token: client.token }));
    denied(
      await send(table, { template_id: 1, emails: ['a@b.test'], download_deadline: inDays(1) }, client.token),
    );
    denied(await h.call('POST', '/api/rate/delivery/remind', { token: client.token, body: { send_id: 1 } }));
    denied(await h.call('GET', `/api/rate/rate_table/${table}/send_log`, { token: client.token }));

    const reader = await makeRestrictedAdmin(h, admin, 'deckreader', {
      '/routing/rate_table': 'r',
      '/log/rate_delivery_log': 'r',
    });
    ok(await h.call('GET', '/api/log/rate_delivery', { token: reader.token }));
    ok(await h.call('GET', `/api/rate/rate_table/${table}/send_log`, { token: reader.token }));
    denied(
      await send(table, { template_id: 1, emails: ['a@b.test'], download_deadline: inDays(1) }, reader.token),
    );
    denied(
      await h.call('POST', '/api/rate/email_template/create', {
        token: reader.token,
        body: { ...LINK_TEMPLATE, name: 'nope' },
      }),
    );
  });
});
