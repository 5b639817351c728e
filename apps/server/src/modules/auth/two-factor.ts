import { randomBytes } from 'node:crypto';
import { ErrorCode, PROGRAM_NAME } from '@tandem/contract';
import { generateSecret, generateURI, verify } from 'otplib';
import type { UserRecord } from '../../db/schema';
import type { Actor } from '../../http/context';
import { AppError, invalidField, ruleBroken } from '../../http/errors';
import type { Services } from '../../services';
import { enforce, logAttempt } from './throttle';
import { hashToken } from './tokens';

/**
 * Two-factor sign-in (issue 18, docs/security.md): TOTP (RFC 6238, 30-second steps, 6 digits) by
 * otplib, optional per user, with 10 one-time recovery codes. A code is accepted once (the last used
 * time step is kept) and one step of clock drift either way is tolerated.
 */
const STEP_S = 30;
const RECOVERY_CODES = 10;

const recoveryCode = () =>
  randomBytes(5)
    .toString('hex')
    .replace(/^(.{5})/, '$1-');

/** Starts enrolment: a new secret, pending until a code of it is confirmed. */
export async function setupTwoFactor(
  s: Services,
  actor: Actor,
): Promise<{ secret: string; otpauth_url: string }> {
  if (actor.user.totp_enabled) throw ruleBroken('twoFactorAlreadyOn');
  const secret = generateSecret();
  await s.db
    .updateTable('users')
    .set({ totp_pending_secret: secret })
    .where('user_id', '=', actor.user.user_id)
    .execute();
  const label = actor.user.email || actor.user.name;
  return { secret, otpauth_url: generateURI({ issuer: PROGRAM_NAME, label, secret }) };
}

/** The time step of a valid TOTP `code` of `secret` newer than `lastStep`, else null. */
async function totpStep(secret: string, code: string, lastStep: number): Promise<number | null> {
  if (!/^\d{6}$/.test(code)) return null;
  const r = await verify({ secret, token: code, epochTolerance: STEP_S });
  if (!r.valid) return null;
  const step = (r as { timeStep?: number }).timeStep ?? Math.floor(Date.now() / 1000 / STEP_S);
  return step > lastStep ? step : null;
}

/** Confirms enrolment with a code of the pending secret; answers the recovery codes (shown once). */
export async function enableTwoFactor(
  s: Services,
  actor: Actor,
  code: string,
  ip: string,
): Promise<{ recovery_codes: string[] }> {
  const u = await s.db
    .selectFrom('users')
    .select(['totp_pending_secret', 'totp_enabled'])
    .where('user_id', '=', actor.user.user_id)
    .executeTakeFirstOrThrow();
  if (u.totp_enabled) throw ruleBroken('twoFactorAlreadyOn');
  if (!u.totp_pending_secret) throw ruleBroken('twoFactorNotStarted');
  await enforce(s, actor.user.user_id, actor.user.name, ip);
  const step = await totpStep(u.totp_pending_secret, code.trim(), 0);
  if (step === null) {
    await logAttempt(s, actor.user.user_id, actor.user.name, ip, 'failed', 'wrong code');
    throw invalidField('code', 'twoFactorCodeInvalid');
  }
  const codes = Array.from({ length: RECOVERY_CODES }, recoveryCode);
  await s.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({
        totp_secret: u.totp_pending_secret,
        totp_pending_secret: null,
        totp_enabled: true,
        totp_last_step: step,
      })
      .where('user_id', '=', actor.user.user_id)
      .execute();
    await trx.deleteFrom('user_recovery_codes').where('user_id', '=', actor.user.user_id).execute();
    await trx
      .insertInto('user_recovery_codes')
      .values(codes.map((c) => ({ user_id: actor.user.user_id, code_hash: hashToken(c) })))
      .execute();
    await s.audit.record(trx, actor, 'user', actor.user.user_id, 'two-factor on', null, null);
  });
  return { recovery_codes: codes };
}

/** Turns two-factor sign-in off (the current password confirms it); also what the CLI clears. */
export async function disableTwoFactor(
  s: Services,
  actor: Actor,
  password: string,
  ip: string,
): Promise<void> {
  // A role that requires it keeps it on (the operator's CLI still clears it for a lost authenticator).
  if (actor.twoFactorRequired) throw ruleBroken('twoFactorKeptByRole');
  if (!(await s.auth.checkPassword(actor, password, ip)))
    throw invalidField('password', 'incorrectCurrentPassword');
  await s.db.transaction().execute(async (trx) => {
    await clearTwoFactor(trx as unknown as Services['db'], actor.user.user_id);
    await s.audit.record(trx, actor, 'user', actor.user.user_id, 'two-factor off', null, null);
  });
}

export async function clearTwoFactor(db: Services['db'], userId: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ totp_secret: null, totp_pending_secret: null, totp_enabled: false, totp_last_step: 0 })
    .where('user_id', '=', userId)
    .execute();
  await db.deleteFrom('user_recovery_codes').where('user_id', '=', userId).execute();
}

/**
 * The second factor at sign-in, after the right password: no code answers 200 (ask for it, not
 * counted); a wrong one counts as a failed guess of the account (throttle.ts). A recovery code is
 * used up.
 */
export async function checkSecondFactor(
  s: Services,
  user: UserRecord,
  code: string | undefined,
  ip: string,
): Promise<void> {
  if (!user.totp_enabled || !user.totp_secret) return;
  if (!code) throw new AppError(ErrorCode.twoFactor, 'twoFactorCodeRequired', [], 401);
  const given = code.trim().toLowerCase();
  const step = await totpStep(user.totp_secret, given, Number(user.totp_last_step));
  if (step !== null) {
    await s.db
      .updateTable('users')
      .set({ totp_last_step: step })
      .where('user_id', '=', user.user_id)
      .execute();
    return;
  }
  const used = await s.db
    .updateTable('user_recovery_codes')
    .set({ used_at: new Date() })
    .where('user_id', '=', user.user_id)
    .where('code_hash', '=', hashToken(given))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(used.numUpdatedRows) > 0) return;
  await logAttempt(s, user.user_id, user.name, ip, 'failed', 'wrong code');
  throw new AppError(ErrorCode.signIn, 'twoFactorCodeInvalid', [], 401);
}
