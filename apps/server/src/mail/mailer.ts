import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { AppConfig } from '../config';
import type { Db } from '../db/connection';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  kind: string;
  /** Sender address instead of SMTP_FROM (e.g. a rate e-mail template's From), same SMTP server. */
  from?: string;
  cc?: readonly string[];
  attachments?: readonly { filename: string; content: Buffer; contentType: string }[];
}

/**
 * Sends mail over SMTP with the configured sender (SMTP_* settings) and logs each attempt in
 * email_log. Without a configured sender, sending fails with a logged error.
 */
export class Mailer {
  private transport: Transporter | null = null;
  constructor(
    private readonly db: Db,
    private readonly config: AppConfig,
    private readonly log: Logger,
  ) {}

  get configured(): boolean {
    return this.config.smtp !== null;
  }

  async send(msg: MailMessage): Promise<boolean> {
    return (await this.deliver(msg)) === '';
  }

  /** Sends and logs like `send`; answers the error text ('' when the mail was accepted). */
  async deliver(msg: MailMessage): Promise<string> {
    const smtp = this.config.smtp;
    let error = '';
    if (!smtp) {
      error = 'No mail sender is configured (SMTP_HOST)';
    } else {
      try {
        this.transport ??= nodemailer.createTransport({
          host: smtp.host,
          port: smtp.port,
          secure: smtp.secure,
          auth: smtp.user ? { user: smtp.user, pass: smtp.pass } : undefined,
          tls: { rejectUnauthorized: false },
          ignoreTLS: !smtp.secure && smtp.host === '127.0.0.1',
        });
        await this.transport.sendMail({
          from: msg.from || smtp.from,
          to: msg.to,
          subject: msg.subject,
          text: msg.text,
          ...(msg.cc?.length ? { cc: [...msg.cc] } : {}),
          ...(msg.attachments?.length ? { attachments: msg.attachments.map((a) => ({ ...a })) } : {}),
        });
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
    }
    if (error) this.log.warn({ to: msg.to, kind: msg.kind, error }, 'mail not sent');
    await this.db
      .insertInto('email_log')
      .values({
        to_address: msg.to,
        subject: msg.subject,
        kind: msg.kind,
        status: error ? 'failed' : 'sent',
        error,
      })
      .execute();
    return error;
  }
}
