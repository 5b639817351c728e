import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { AppConfig } from '../config';
import type { Db } from '../db/connection';
import type { MailSendersTable } from '../db/schema-mail';
import type { Selectable } from 'kysely';
import type { SecretBox } from './secret-box';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  kind: string;
  /** Sender address instead of the sender's own (e.g. a rate e-mail template's From), same SMTP server. */
  from?: string;
  cc?: readonly string[];
  attachments?: readonly { filename: string; content: Buffer; contentType: string }[];
  /** The mail sender (Configuration > Mail Sender) to send through; default: the default sender. */
  senderId?: number | null;
  /** The carrier it is about (e-mail log). */
  clientId?: number | null;
  /** The template event it was rendered from (e-mail log). */
  event?: string;
}

type SenderRow = Selectable<MailSendersTable>;

/** nodemailer options of a configured sender: SSL is TLS from the first byte, TLS is STARTTLS required. */
export function senderTransportOptions(
  row: Pick<SenderRow, 'server' | 'port' | 'security' | 'username'>,
  password: string,
) {
  return {
    host: row.server,
    port: row.port,
    secure: row.security === 'ssl',
    requireTLS: row.security === 'tls',
    ignoreTLS: row.security === 'none',
    auth: row.username ? { user: row.username, pass: password } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  };
}

/**
 * Sends mail over SMTP and logs each attempt in email_log. The server is the message's sender
 * (`senderId`), else the default mail sender of Configuration > Mail Sender, else the SMTP_*
 * settings of the environment; with none of them, sending fails with a logged error.
 */
export class Mailer {
  private envTransport: Transporter | null = null;
  private readonly senderTransports = new Map<string, Transporter>();
  constructor(
    private readonly db: Db,
    private readonly config: AppConfig,
    private readonly log: Logger,
    private readonly secrets: SecretBox,
  ) {}

  get configured(): boolean {
    return this.config.smtp !== null;
  }

  async send(msg: MailMessage): Promise<boolean> {
    return (await this.deliver(msg)) === '';
  }

  /** Sends and logs like `send`; answers the error text ('' when the mail was accepted). */
  async deliver(msg: MailMessage): Promise<string> {
    let error = '';
    let from = msg.from ?? '';
    let senderId: number | null = null;
    try {
      const t = await this.transportFor(msg.senderId ?? null);
      senderId = t.senderId;
      from = msg.from || t.from;
      await t.transport.sendMail({
        from,
        to: msg.to,
        subject: msg.subject,
        text: msg.text,
        ...(msg.cc?.length ? { cc: [...msg.cc] } : {}),
        ...(msg.attachments?.length ? { attachments: msg.attachments.map((a) => ({ ...a })) } : {}),
      });
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    if (error) this.log.warn({ to: msg.to, kind: msg.kind, error }, 'mail not sent');
    await this.logAttempt({ ...msg, from }, senderId, error);
    return error;
  }

  /** An e-mail log row for a mail that was not even attempted (e.g. its template is missing). */
  async logAttempt(msg: MailMessage, senderId: number | null, error: string): Promise<void> {
    await this.db
      .insertInto('email_log')
      .values({
        to_address: msg.to,
        subject: msg.subject,
        kind: msg.kind,
        status: error ? 'failed' : 'sent',
        error,
        from_address: msg.from ?? '',
        cc: (msg.cc ?? []).join(', '),
        sender_id: senderId,
        client_id: msg.clientId ?? null,
        event: msg.event ?? '',
      })
      .execute();
  }

  /** Opens a connection to a sender and says whether it greets and accepts the credentials ('' = yes). */
  async verify(senderId: number): Promise<string> {
    try {
      const t = await this.transportFor(senderId);
      await t.transport.verify();
      return '';
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }

  private async transportFor(
    senderId: number | null,
  ): Promise<{ transport: Transporter; from: string; senderId: number | null }> {
    let q = this.db.selectFrom('mail_senders').selectAll();
    q = senderId !== null ? q.where('id', '=', senderId) : q.where('is_default', '=', true);
    const row = await q.executeTakeFirst();
    if (senderId !== null && !row) throw new Error(`Mail sender ${senderId} does not exist`);
    if (row) {
      const key = `${row.id}:${row.updated_at.getTime()}`;
      let transport = this.senderTransports.get(key);
      if (!transport) {
        for (const k of this.senderTransports.keys())
          if (k.startsWith(`${row.id}:`)) this.senderTransports.get(k)?.close();
        transport = nodemailer.createTransport(
          senderTransportOptions(row, await this.secrets.open(row.password_enc)),
        );
        this.senderTransports.set(key, transport);
      }
      return { transport, from: row.address, senderId: row.id };
    }
    const smtp = this.config.smtp;
    if (!smtp) throw new Error('No mail sender is configured (SMTP_HOST)');
    this.envTransport ??= nodemailer.createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.secure,
      auth: smtp.user ? { user: smtp.user, pass: smtp.pass } : undefined,
      tls: { rejectUnauthorized: false },
      ignoreTLS: !smtp.secure && smtp.host === '127.0.0.1',
    });
    return { transport: this.envTransport, from: smtp.from, senderId: null };
  }
}
