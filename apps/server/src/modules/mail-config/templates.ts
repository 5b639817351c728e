import { api, isLanguage, message, type Language } from '@tandem/contract';
import type { Db } from '../../db/connection';
import type { Services } from '../../services';

const { renderMail, unknownMailTags, MAIL_EVENT_LABELS } = api.mail;
type MailEvent = api.mail.MailEvent;

export interface TemplatedMail {
  event: MailEvent;
  lang: Language;
  to: string;
  values: Partial<Record<string, string>>;
  /** The carrier it is about (e-mail log). */
  clientId?: number | null;
  /** e-mail log kind; default the event. */
  kind?: string;
  attachments?: readonly { filename: string; content: Buffer; contentType: string }[];
  /** Sent instead when the template is missing or wrong (mail that must go out, e.g. password reset). */
  fallback?: { subject: string; text: string };
}

export interface TemplatedResult {
  /** '' when the mail was accepted by the SMTP server. */
  error: string;
  /** The template is not defined or defined incorrectly: nothing was attempted, retrying won't help. */
  templateProblem: boolean;
}

/** The language a carrier's mail is written in: its first client user's, else English. */
export async function carrierLanguage(db: Db, clientId: number): Promise<Language> {
  const user = await db
    .selectFrom('users')
    .select('language')
    .where('client_id', '=', clientId)
    .where('user_type', '=', 'client')
    .orderBy('user_id')
    .executeTakeFirst();
  return user && isLanguage(user.language) ? user.language : 'en';
}

/** The template of an event in a language, else in English; null when neither is usable. */
export async function usableTemplate(db: Db, event: MailEvent, lang: Language) {
  const rows = await db
    .selectFrom('mail_templates')
    .selectAll()
    .where('event', '=', event)
    .where('language', 'in', [lang, 'en'])
    .execute();
  const ok = (r: (typeof rows)[number] | undefined) =>
    r &&
    r.subject.trim() &&
    r.content.trim() &&
    unknownMailTags(event, r.subject + '\n' + r.content).length === 0
      ? r
      : undefined;
  return ok(rows.find((r) => r.language === lang)) ?? ok(rows.find((r) => r.language === 'en')) ?? null;
}

/**
 * Sends the mail of an event from its template (Configuration > Mail Template): the template of the
 * recipient's language (else English) gives the sender, CC, subject and content; the values fill its
 * tags as plain text. A missing or broken template logs "<Event> email template is not defined or
 * defined incorrectly" in the e-mail log and sends nothing (or the fallback text, when given).
 */
export async function sendTemplated(s: Services, m: TemplatedMail): Promise<TemplatedResult> {
  const tpl = await usableTemplate(s.db, m.event, m.lang);
  const kind = m.kind ?? m.event;
  if (!tpl) {
    if (m.fallback) {
      const error = await s.mailer.deliver({
        to: m.to,
        ...m.fallback,
        kind,
        clientId: m.clientId,
        event: m.event,
      });
      return { error, templateProblem: false };
    }
    const error = message('templateMissing', 'en', [MAIL_EVENT_LABELS[m.event]]);
    s.log.warn({ event: m.event, to: m.to }, error);
    await s.mailer.logAttempt(
      { to: m.to, subject: '', text: '', kind, clientId: m.clientId, event: m.event },
      null,
      error,
    );
    return { error, templateProblem: true };
  }
  const error = await s.mailer.deliver({
    to: m.to,
    subject: renderMail(m.event, tpl.subject, m.values, true),
    text: renderMail(m.event, tpl.content, m.values),
    cc: tpl.cc,
    senderId: tpl.sender_id,
    kind,
    clientId: m.clientId,
    event: m.event,
    attachments: m.attachments,
  });
  return { error, templateProblem: false };
}
