import { message, PROGRAM_NAME, type Language } from '@tandem/contract';
import { sql } from 'kysely';
import { AppError } from '../../http/errors';
import type { Services } from '../../services';
import { sendTemplated } from '../mail-config/templates';
import { enforce, logAttempt, RESET_MAILS_PER_ACCOUNT, resetMailsSent } from './throttle';
import { hashToken, newToken } from './tokens';

const RESET_TTL_MS = 3600_000;

/** Sends a reset link when the name or e-mail is known; answers the same either way. */
export async function requestPasswordReset(
  s: Services,
  nameOrEmail: string,
  lang: Language,
  ip: string,
): Promise<{ sent: boolean }> {
  const key = nameOrEmail.toLowerCase();
  // Reset requests count toward the IP's slow-down like failed sign-ins (throttle.ts).
  await enforce(s, null, nameOrEmail, ip);
  await logAttempt(s, null, nameOrEmail, ip, 'failed', 'reset requested');
  const user = await s.db
    .selectFrom('users')
    .select(['user_id', 'name', 'email', 'first_name', 'active'])
    .where((eb) => eb.or([eb(sql<string>`lower(name)`, '=', key), eb(sql<string>`lower(email)`, '=', key)]))
    .executeTakeFirst();
  if (!user || !user.active || !user.email) return { sent: true };
  // A few mails per account and window; more would only flood the user's mailbox.
  if ((await resetMailsSent(s, user.user_id)) >= RESET_MAILS_PER_ACCOUNT) return { sent: true };
  const token = newToken();
  await s.db
    .insertInto('password_resets')
    .values({
      token_hash: hashToken(token),
      user_id: user.user_id,
      expires_at: new Date(Date.now() + RESET_TTL_MS),
    })
    .execute();
  // Only the operator's configuration names the link's site, never the (anonymous) caller: a
  // caller-given URL would mail a valid token to a site of the caller's choosing (issue 18).
  const origin = safeOrigin((await s.settings.system()).base_url) ?? s.config.publicUrl;
  const link = `${origin.replace(/\/$/, '')}/#/auth/reset/${token}`;
  // Configuration > Mail Template (event password_reset, the user's language); the built-in text
  // when the template is missing or broken, so a reset always goes out.
  const values = { name: user.first_name || user.name, user: user.name, link, program: PROGRAM_NAME };
  const { error } = await sendTemplated(s, {
    event: 'password_reset',
    lang,
    to: user.email,
    values,
    kind: 'password_reset',
    fallback: {
      subject: message('resetMailSubject', lang, [PROGRAM_NAME]),
      text: message('resetMailBody', lang, values),
    },
  });
  const ok = !error;
  await s.db
    .insertInto('retrieve_password_log')
    .values({
      user_id: user.user_id,
      name: user.name,
      email: user.email,
      status: ok ? 'email_sent' : 'modify_failure',
      ip,
    })
    .execute();
  return { sent: true };
}

/** Only http(s) origins are used for links, never arbitrary text. */
function safeOrigin(u: string | undefined): string | null {
  if (!u) return null;
  try {
    const url = new URL(u);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

export async function resetPassword(
  s: Services,
  token: string,
  password: string,
  ip: string,
): Promise<{ name: string }> {
  const hash = await s.auth.hash(password);
  return s.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('password_resets as r')
      .innerJoin('users as u', 'u.user_id', 'r.user_id')
      .select(['r.user_id', 'r.expires_at', 'r.used_at', 'u.name', 'u.email'])
      .where('r.token_hash', '=', hashToken(token))
      .forUpdate()
      .executeTakeFirst();
    if (!row || row.used_at || row.expires_at.getTime() < Date.now())
      throw new AppError(170, 'resetLinkInvalid', [], 400);
    await trx
      .updateTable('password_resets')
      .set({ used_at: new Date() })
      .where('token_hash', '=', hashToken(token))
      .execute();
    await trx
      .updateTable('users')
      .set({ password_hash: hash, updated_at: new Date() })
      .where('user_id', '=', row.user_id)
      .execute();
    await trx
      .updateTable('sessions')
      .set({ revoked_at: new Date(), revoked_reason: 'password reset' })
      .where('user_id', '=', row.user_id)
      .where('revoked_at', 'is', null)
      .execute();
    await trx
      .insertInto('retrieve_password_log')
      .values({ user_id: row.user_id, name: row.name, email: row.email, status: 'modified_successfully', ip })
      .execute();
    await s.audit.record(trx, null, 'user', row.user_id, 'password reset', null, { user_id: row.user_id });
    return { name: row.name };
  });
}
