import { ErrorCode } from '@tandem/contract';
import { AppError } from '../../http/errors';
import type { Services } from '../../services';

/**
 * Brute-force policy of sign-in, the live password check and reset requests (docs/security.md):
 *
 * - per account: the first ACCOUNT_FREE_FAILURES wrong passwords within the window cost nothing;
 *   after that the account waits ACCOUNT_BASE_WAIT_S, doubling with each further failure (up to
 *   ACCOUNT_MAX_WAIT_S), from its last failure. Wrong current passwords of the live check count
 *   the same.
 * - per IP: past IP_FREE_FAILURES failures (wrong passwords, unknown names, reset requests) within
 *   the window, the IP is slowed, not locked: one checked attempt per IP_SLOW_GAP_S. The right
 *   password of another account from the same office still signs in.
 * - attempts refused by the throttle are logged ('forbidden', 'throttled') and never counted, so
 *   hammering a locked account does not extend its wait.
 * - reset mails: at most RESET_MAILS_PER_ACCOUNT per account within the window.
 */
export const THROTTLE_WINDOW_MIN = 15;
export const ACCOUNT_FREE_FAILURES = 5;
export const ACCOUNT_BASE_WAIT_S = 30;
export const ACCOUNT_MAX_WAIT_S = 15 * 60;
export const IP_FREE_FAILURES = 20;
export const IP_SLOW_GAP_S = 3;
export const RESET_MAILS_PER_ACCOUNT = 3;

/** Reasons of signin_history rows that are password guesses against an account. */
export const GUESS_REASONS = ['wrong password', 'check-password', 'wrong code'] as const;

const since = () => new Date(Date.now() - THROTTLE_WINDOW_MIN * 60_000);

/** Seconds the account must still wait (0: it may try now). */
export async function accountWait(s: Services, userId: number): Promise<number> {
  const r = await s.db
    .selectFrom('signin_history')
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('created_at').as('last')])
    .where('user_id', '=', userId)
    .where('result', '=', 'failed')
    .where('reason', 'in', GUESS_REASONS)
    .where('created_at', '>', since())
    .executeTakeFirstOrThrow();
  const n = Number(r.n);
  if (n < ACCOUNT_FREE_FAILURES || !r.last) return 0;
  const wait = Math.min(ACCOUNT_BASE_WAIT_S * 2 ** (n - ACCOUNT_FREE_FAILURES), ACCOUNT_MAX_WAIT_S);
  const left = new Date(r.last as Date | string).getTime() + wait * 1000 - Date.now();
  return left > 0 ? Math.ceil(left / 1000) : 0;
}

/** Seconds the IP must still wait (0: it may try now). */
export async function ipWait(s: Services, ip: string): Promise<number> {
  const failures = await s.db
    .selectFrom('signin_history')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('ip', '=', ip)
    .where('result', '=', 'failed')
    .where('created_at', '>', since())
    .executeTakeFirstOrThrow();
  if (Number(failures.n) < IP_FREE_FAILURES) return 0;
  const last = await s.db
    .selectFrom('signin_history')
    .select('created_at')
    .where('ip', '=', ip)
    .where('reason', '!=', 'throttled')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!last) return 0;
  const left = last.created_at.getTime() + IP_SLOW_GAP_S * 1000 - Date.now();
  return left > 0 ? Math.ceil(left / 1000) : 0;
}

export async function logAttempt(
  s: Services,
  userId: number | null,
  name: string,
  ip: string,
  result: 'success' | 'failed' | 'forbidden',
  reason: string,
): Promise<void> {
  await s.db.insertInto('signin_history').values({ user_id: userId, name, ip, result, reason }).execute();
}

/** Refuses (429, code 180, not counted) when the account or the IP must wait. */
export async function enforce(s: Services, userId: number | null, name: string, ip: string): Promise<void> {
  const [byAccount, byIp] = await Promise.all([userId === null ? 0 : accountWait(s, userId), ipWait(s, ip)]);
  const wait = Math.max(byAccount, byIp);
  if (wait <= 0) return;
  await logAttempt(s, userId, name, ip, 'forbidden', 'throttled');
  throw new AppError(ErrorCode.throttled, 'tooManyAttemptsSeconds', [wait], 429);
}

/** Reset mails sent to the account within the window. */
export async function resetMailsSent(s: Services, userId: number): Promise<number> {
  const r = await s.db
    .selectFrom('retrieve_password_log')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('status', '=', 'email_sent')
    .where('created_at', '>', since())
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
