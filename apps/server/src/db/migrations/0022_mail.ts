import { sql, type Kysely } from 'kysely';

/**
 * 0022_mail: mail senders, mail templates, notifications and online payment (issue 12 part 3 and 4,
 * docs/mail.md).
 *
 * - mail_senders: SMTP servers mail goes out through (password encrypted with the server secret,
 *   AES-256-GCM); one may be the default sender.
 * - mail_templates: one per event and language (en, ch, de), with From sender, CC, subject and
 *   content with {tags}. The built-in texts of every event are inserted here once; the operator
 *   edits them.
 * - email_log gains who sent what for which carrier and event.
 * - balance_alerts: per carrier and alert (low balance, zero balance), whether it is below the line
 *   now and how many crossings were mailed (the crossing number keys the mail job: once each).
 * - payment_gateways: the card (Stripe) and wallet (PayPal) providers' keys, fees and service charge.
 * - online_payments: each top-up (Log > Auto Payment Log: initial, failed, succeed);
 *   payment_webhook_events: each provider event id handled once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
CREATE TABLE mail_senders (
  id serial PRIMARY KEY,
  name text NOT NULL,
  server text NOT NULL,
  port integer NOT NULL CHECK (port BETWEEN 1 AND 65535),
  username text NOT NULL DEFAULT '',
  password_enc text NOT NULL DEFAULT '',
  security text NOT NULL DEFAULT 'tls' CHECK (security IN ('ssl', 'tls', 'none')),
  address text NOT NULL,
  is_default boolean NOT NULL DEFAULT false,
  status text NOT NULL DEFAULT 'disconnected' CHECK (status IN ('connected', 'disconnected')),
  status_error text NOT NULL DEFAULT '',
  checked_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX mail_senders_name ON mail_senders (lower(name));
CREATE UNIQUE INDEX mail_senders_one_default ON mail_senders (is_default) WHERE is_default;

CREATE TABLE mail_templates (
  id serial PRIMARY KEY,
  event text NOT NULL,
  language text NOT NULL CHECK (language IN ('en', 'ch', 'de')),
  sender_id integer REFERENCES mail_senders(id),
  cc text[] NOT NULL DEFAULT '{}',
  subject text NOT NULL,
  content text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL DEFAULT '',
  UNIQUE (event, language)
);

ALTER TABLE email_log
  ADD COLUMN from_address text NOT NULL DEFAULT '',
  ADD COLUMN cc text NOT NULL DEFAULT '',
  ADD COLUMN sender_id integer REFERENCES mail_senders(id) ON DELETE SET NULL,
  ADD COLUMN client_id integer REFERENCES carriers(client_id) ON DELETE SET NULL,
  ADD COLUMN event text NOT NULL DEFAULT '';
CREATE INDEX email_log_created ON email_log (created_at);
CREATE INDEX email_log_client ON email_log (client_id, created_at);

CREATE TABLE balance_alerts (
  client_id integer NOT NULL REFERENCES carriers(client_id) ON DELETE CASCADE,
  event text NOT NULL CHECK (event IN ('low_balance', 'zero_balance')),
  below boolean NOT NULL DEFAULT false,
  crossings integer NOT NULL DEFAULT 0,
  changed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (client_id, event)
);

CREATE TABLE payment_gateways (
  provider text PRIMARY KEY CHECK (provider IN ('stripe', 'paypal')),
  enabled boolean NOT NULL DEFAULT false,
  public_key text NOT NULL DEFAULT '',
  secret_enc text NOT NULL DEFAULT '',
  webhook_secret_enc text NOT NULL DEFAULT '',
  api_url text NOT NULL,
  currency text NOT NULL DEFAULT 'USD',
  fee_percent numeric(9,4) NOT NULL DEFAULT 0,
  fee_fixed numeric(20,6) NOT NULL DEFAULT 0,
  service_charge_percent numeric(9,4) NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL DEFAULT ''
);
INSERT INTO payment_gateways (provider, api_url) VALUES
  ('stripe', 'https://api.stripe.com'),
  ('paypal', 'https://api-m.paypal.com');

CREATE TABLE online_payments (
  id bigserial PRIMARY KEY,
  client_id integer NOT NULL REFERENCES carriers(client_id),
  provider text NOT NULL CHECK (provider IN ('stripe', 'paypal')),
  amount numeric(20,6) NOT NULL,
  service_charge numeric(20,6) NOT NULL DEFAULT 0,
  charged numeric(20,6) NOT NULL,
  fee numeric(20,6) NOT NULL DEFAULT 0,
  currency text NOT NULL,
  status text NOT NULL DEFAULT 'initial' CHECK (status IN ('initial', 'failed', 'succeed')),
  provider_ref text NOT NULL DEFAULT '',
  transaction_id text NOT NULL DEFAULT '',
  error text NOT NULL DEFAULT '',
  created_by text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz
);
CREATE UNIQUE INDEX online_payments_ref ON online_payments (provider, provider_ref) WHERE provider_ref <> '';
CREATE INDEX online_payments_client ON online_payments (client_id, created_at);

CREATE TABLE payment_webhook_events (
  provider text NOT NULL,
  event_id text NOT NULL,
  event_type text NOT NULL DEFAULT '',
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, event_id)
);
`.execute(db);
  for (const t of DEFAULT_TEMPLATES) {
    await sql`INSERT INTO mail_templates (event, language, subject, content, updated_by)
      VALUES (${t.event}, ${t.language}, ${t.subject}, ${t.content}, 'system')`.execute(db);
  }
}

/** The built-in texts, frozen here as they were released (the operator edits the rows). */
const T = (event: string, language: string, subject: string, content: string[]) => ({
  event,
  language,
  subject,
  content: content.join('\n'),
});
const DEFAULT_TEMPLATES = [
  T('password_reset', 'en', 'Reset your {program} password', [
    'Hello {name},',
    '',
    'Someone asked to reset the password of your account "{user}". Open this link within one hour to choose a new password:',
    '',
    '{link}',
    '',
    'If it was not you, ignore this message.',
  ]),
  T('password_reset', 'ch', '重置您的 {program} 密码', [
    '{name} 您好，',
    '',
    '有人请求重置您的账户“{user}”的密码。请在一小时内打开此链接设置新密码：',
    '',
    '{link}',
    '',
    '如果不是您本人操作，请忽略此邮件。',
  ]),
  T('password_reset', 'de', 'Ihr {program}-Passwort zurücksetzen', [
    'Hallo {name},',
    '',
    'jemand hat das Zurücksetzen des Passworts für Ihr Konto "{user}" angefordert. Öffnen Sie diesen Link innerhalb einer Stunde:',
    '',
    '{link}',
    '',
    'Falls Sie das nicht waren, ignorieren Sie diese Nachricht.',
  ]),
  T('low_balance', 'en', 'Low balance: {carrier_name} {available} {currency}', [
    'Dear {carrier_name},',
    '',
    'your available credit of {available} {currency} has fallen below {threshold} {currency}.',
    'Balance: {balance} {currency}. Please top up to avoid an interruption of service.',
    '',
    '{operating_company}',
  ]),
  T('low_balance', 'ch', '余额不足：{carrier_name} {available} {currency}', [
    '尊敬的 {carrier_name}：',
    '',
    '您的可用额度 {available} {currency} 已低于 {threshold} {currency}。',
    '余额：{balance} {currency}。请及时充值，以免服务中断。',
    '',
    '{operating_company}',
  ]),
  T('low_balance', 'de', 'Niedriges Guthaben: {carrier_name} {available} {currency}', [
    'Sehr geehrte Damen und Herren von {carrier_name},',
    '',
    'Ihr verfügbares Guthaben von {available} {currency} ist unter {threshold} {currency} gefallen.',
    'Saldo: {balance} {currency}. Bitte laden Sie auf, um eine Unterbrechung zu vermeiden.',
    '',
    '{operating_company}',
  ]),
  T('zero_balance', 'en', 'No credit left: {carrier_name}', [
    'Dear {carrier_name},',
    '',
    'your available credit is used up ({available} {currency}); calls will be refused until you top up.',
    'Balance: {balance} {currency}.',
    '',
    '{operating_company}',
  ]),
  T('zero_balance', 'ch', '额度已用完：{carrier_name}', [
    '尊敬的 {carrier_name}：',
    '',
    '您的可用额度已用完（{available} {currency}），充值前呼叫将被拒绝。',
    '余额：{balance} {currency}。',
    '',
    '{operating_company}',
  ]),
  T('zero_balance', 'de', 'Kein Guthaben mehr: {carrier_name}', [
    'Sehr geehrte Damen und Herren von {carrier_name},',
    '',
    'Ihr verfügbares Guthaben ist aufgebraucht ({available} {currency}); Anrufe werden bis zur Aufladung abgewiesen.',
    'Saldo: {balance} {currency}.',
    '',
    '{operating_company}',
  ]),
  T('payment_received', 'en', 'Payment received: {amount} {currency}', [
    'Dear {carrier_name},',
    '',
    'we received your payment of {amount} {currency} ({method}, transaction {transaction_id}) on {time}.',
    'Your balance is now {balance} {currency}. Thank you.',
    '',
    '{operating_company}',
  ]),
  T('payment_received', 'ch', '已收到付款：{amount} {currency}', [
    '尊敬的 {carrier_name}：',
    '',
    '我们已于 {time} 收到您的付款 {amount} {currency}（{method}，交易号 {transaction_id}）。',
    '您当前的余额为 {balance} {currency}。谢谢。',
    '',
    '{operating_company}',
  ]),
  T('payment_received', 'de', 'Zahlung erhalten: {amount} {currency}', [
    'Sehr geehrte Damen und Herren von {carrier_name},',
    '',
    'wir haben Ihre Zahlung über {amount} {currency} ({method}, Transaktion {transaction_id}) am {time} erhalten.',
    'Ihr Saldo beträgt jetzt {balance} {currency}. Vielen Dank.',
    '',
    '{operating_company}',
  ]),
  T('daily_balance', 'en', 'Daily balance {date}: {balance} {currency}', [
    'Dear {carrier_name},',
    '',
    'your balance at the end of {date} (UTC) is {balance} {currency}; available credit {available} {currency}.',
    '',
    '{operating_company}',
  ]),
  T('daily_balance', 'ch', '每日余额 {date}：{balance} {currency}', [
    '尊敬的 {carrier_name}：',
    '',
    '截至 {date}（UTC）结束，您的余额为 {balance} {currency}；可用额度 {available} {currency}。',
    '',
    '{operating_company}',
  ]),
  T('daily_balance', 'de', 'Tagessaldo {date}: {balance} {currency}', [
    'Sehr geehrte Damen und Herren von {carrier_name},',
    '',
    'Ihr Saldo am Ende des {date} (UTC) beträgt {balance} {currency}; verfügbares Guthaben {available} {currency}.',
    '',
    '{operating_company}',
  ]),
  T('daily_usage', 'en', 'Daily usage {date}: {calls} calls, {usage} {currency}', [
    'Dear {carrier_name},',
    '',
    'on {date} (UTC) your traffic was {calls} rated calls for {usage} {currency}.',
    'Balance: {balance} {currency}.',
    '',
    '{operating_company}',
  ]),
  T('daily_usage', 'ch', '每日用量 {date}：{calls} 次呼叫，{usage} {currency}', [
    '尊敬的 {carrier_name}：',
    '',
    '{date}（UTC）您的话务为 {calls} 次计费呼叫，共 {usage} {currency}。',
    '余额：{balance} {currency}。',
    '',
    '{operating_company}',
  ]),
  T('daily_usage', 'de', 'Tagesnutzung {date}: {calls} Anrufe, {usage} {currency}', [
    'Sehr geehrte Damen und Herren von {carrier_name},',
    '',
    'am {date} (UTC) hatten Sie {calls} abgerechnete Anrufe über {usage} {currency}.',
    'Saldo: {balance} {currency}.',
    '',
    '{operating_company}',
  ]),
  T('invoice_sent', 'en', 'Invoice {invoice_number} from {operating_company}', [
    'Dear {carrier_name},',
    '',
    'please find invoice {invoice_number} for {period} over {amount} {currency}, due on {due_date}.',
    '{link}',
    '',
    '{operating_company}',
  ]),
  T('invoice_sent', 'ch', '来自 {operating_company} 的发票 {invoice_number}', [
    '尊敬的 {carrier_name}：',
    '',
    '附上 {period} 的发票 {invoice_number}，金额 {amount} {currency}，到期日 {due_date}。',
    '{link}',
    '',
    '{operating_company}',
  ]),
  T('invoice_sent', 'de', 'Rechnung {invoice_number} von {operating_company}', [
    'Sehr geehrte Damen und Herren von {carrier_name},',
    '',
    'anbei die Rechnung {invoice_number} für {period} über {amount} {currency}, fällig am {due_date}.',
    '{link}',
    '',
    '{operating_company}',
  ]),
];
