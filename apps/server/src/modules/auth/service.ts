import { ErrorCode, type UserType } from '@tandem/contract';
import type { FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { UserRecord } from '../../db/schema';
import type { Actor } from '../../http/context';
import { AppError } from '../../http/errors';
import type { Services } from '../../services';
import { GrantsCache } from './grants';
import { ipAllowed } from './ip';
import { enforce, logAttempt } from './throttle';
import { checkSecondFactor } from './two-factor';
import { hashPassword, verifyPassword } from './password';
import { cdrTokenFor, hashToken, newToken } from './tokens';

/** Session lifetimes. The access window slides with use; past it, check-token renews within the refresh window. */
export const ACCESS_TTL_MS = 12 * 3600_000;
export const REFRESH_TTL_MS = 7 * 24 * 3600_000;
export const CDR_TOKEN_TTL_MS = 24 * 3600_000;

export interface IssuedToken {
  token: string;
  cdr_api_token: string;
  cdr_api_token_expiration: string;
  expires_at: string;
}

const tokenError = (
  code: number,
  key: 'tokenIncorrect' | 'tokenDisabled' | 'tokenExpired' | 'tokenNotProvided',
) => new AppError(code, key, [], 401);

export class AuthService {
  readonly grants = new GrantsCache();
  constructor(private readonly s: Services) {}

  hash(password: string): Promise<string> {
    return hashPassword(password, this.s.config.passwordCost);
  }
  verify(password: string, hash: string): Promise<boolean> {
    return verifyPassword(password, hash);
  }

  async signIn(
    nameOrEmail: string,
    password: string,
    code: string | undefined,
    ip: string,
    userAgent: string,
  ): Promise<IssuedToken> {
    const db = this.s.db;
    const user = await db
      .selectFrom('users')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb(sql<string>`lower(name)`, '=', nameOrEmail.toLowerCase()),
          eb(sql<string>`lower(email)`, '=', nameOrEmail.toLowerCase()),
        ]),
      )
      .orderBy(sql`lower(name) = ${nameOrEmail.toLowerCase()}`, 'desc')
      .executeTakeFirst();
    // Brute force (throttle.ts, docs/security.md): per-account backoff, per-IP slow-down; refused
    // attempts are not counted.
    await enforce(this.s, user?.user_id ?? null, nameOrEmail, ip);
    if (!user || !(await this.verify(password, user.password_hash))) {
      await logAttempt(
        this.s,
        user?.user_id ?? null,
        nameOrEmail,
        ip,
        'failed',
        user ? 'wrong password' : 'unknown user',
      );
      throw new AppError(ErrorCode.signIn, 'incorrectCredentials', [], 401);
    }
    const refusal = await this.refusal(user, ip);
    if (refusal) {
      await logAttempt(this.s, user.user_id, user.name, ip, 'forbidden', refusal.reason);
      throw new AppError(ErrorCode.signIn, refusal.key, [ip], 403);
    }
    await checkSecondFactor(this.s, user, code, ip);
    const issued = await this.issue(user.user_id, ip, userAgent);
    await db
      .updateTable('users')
      .set({ last_login_at: new Date(), last_seen_at: new Date() })
      .where('user_id', '=', user.user_id)
      .execute();
    await logAttempt(this.s, user.user_id, user.name, ip, 'success', '');
    return issued;
  }

  /** Why a correct password still may not sign in: inactive user or carrier, pending registration, IP. */
  private async refusal(
    user: UserRecord,
    ip: string,
  ): Promise<{ key: 'userInactive' | 'ipNotAllowed'; reason: string } | null> {
    if (!user.active) return { key: 'userInactive', reason: 'user inactive' };
    if (user.client_id) {
      const c = await this.s.db
        .selectFrom('carriers')
        .select(['is_active', 'registration_status'])
        .where('client_id', '=', user.client_id)
        .executeTakeFirst();
      if (!c || !c.is_active || c.registration_status !== 'approved')
        return { key: 'userInactive', reason: 'carrier inactive or not approved' };
    }
    if (user.agent_id) {
      const a = await this.s.db
        .selectFrom('agents')
        .select('status')
        .where('agent_id', '=', user.agent_id)
        .executeTakeFirst();
      if (!a || a.status !== 'active') return { key: 'userInactive', reason: 'agent inactive' };
    }
    if (!ipAllowed(user.allowed_ips, ip)) return { key: 'ipNotAllowed', reason: `ip ${ip} not allowed` };
    return null;
  }

  /**
   * The live check of the signed-in user's current password: a password guess like a sign-in, so
   * it waits and counts under the same per-account policy.
   */
  async checkPassword(actor: Actor, password: string, ip: string): Promise<boolean> {
    const u = actor.user;
    await enforce(this.s, u.user_id, u.name, ip);
    const valid = await this.verify(password, u.password_hash);
    if (!valid) await logAttempt(this.s, u.user_id, u.name, ip, 'failed', 'check-password');
    return valid;
  }

  async issue(userId: number, ip: string, userAgent: string): Promise<IssuedToken> {
    const token = newToken();
    const secret = await this.s.settings.secret();
    const cdr = cdrTokenFor(token, secret);
    const now = Date.now();
    const expires = new Date(now + ACCESS_TTL_MS);
    const cdrExpires = new Date(now + CDR_TOKEN_TTL_MS);
    await this.s.db
      .insertInto('sessions')
      .values({
        token_hash: hashToken(token),
        cdr_token_hash: hashToken(cdr),
        user_id: userId,
        ip,
        user_agent: userAgent.slice(0, 300),
        last_used_at: new Date(now),
        expires_at: expires,
        refresh_until: new Date(now + REFRESH_TTL_MS),
        cdr_expires_at: cdrExpires,
      })
      .execute();
    return {
      token,
      cdr_api_token: cdr,
      cdr_api_token_expiration: cdrExpires.toISOString(),
      expires_at: expires.toISOString(),
    };
  }

  /**
   * Resolves X-Auth-Token to an actor. Unknown token: 130 'Incorrect token provided'; revoked or user
   * inactive: 130 'token is disabled'; past the access window but within refresh: 120 (check the token);
   * past refresh: 130. Without a token: null when optional, else 130.
   */
  async authenticate(req: FastifyRequest, required: boolean): Promise<Actor | null> {
    const token = tokenOf(req);
    if (!token) {
      if (required) throw tokenError(ErrorCode.logout, 'tokenNotProvided');
      return null;
    }
    const row = await this.s.db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.user_id', 's.user_id')
      .leftJoin('carriers as c', 'c.client_id', 'u.client_id')
      .leftJoin('roles as r', 'r.role_id', 'u.role_id')
      .select([
        's.id as session_id',
        's.expires_at',
        's.refresh_until',
        's.revoked_at',
        's.last_used_at',
        's.cdr_expires_at',
        'c.client_type',
        'r.require_2fa',
      ])
      .selectAll('u')
      .where('s.token_hash', '=', hashToken(token))
      .executeTakeFirst();
    if (!row) {
      if (!required) return null;
      throw tokenError(ErrorCode.logout, 'tokenIncorrect');
    }
    const now = Date.now();
    if (row.revoked_at || !row.active) throw tokenError(ErrorCode.logout, 'tokenDisabled');
    if (row.refresh_until.getTime() <= now) throw tokenError(ErrorCode.logout, 'tokenExpired');
    if (row.expires_at.getTime() <= now) throw tokenError(ErrorCode.tokenCheck, 'tokenExpired');
    if (now - row.last_used_at.getTime() > 60_000) {
      const at = new Date(now);
      await this.s.db
        .updateTable('sessions')
        .set({ last_used_at: at, expires_at: new Date(now + ACCESS_TTL_MS) })
        .where('id', '=', row.session_id)
        .execute();
      await this.s.db
        .updateTable('users')
        .set({ last_seen_at: at })
        .where('user_id', '=', row.user_id)
        .execute();
    }
    const {
      session_id,
      expires_at: _e,
      refresh_until: _r,
      revoked_at: _v,
      last_used_at: _l,
      cdr_expires_at,
      client_type,
      require_2fa,
      ...user
    } = row;
    const type: UserType =
      user.user_type === 'client' ? (client_type === 'vendor' ? 'vendor' : 'client') : user.user_type;
    return {
      user,
      type,
      sessionId: session_id,
      cdrExpiresAt: cdr_expires_at,
      grants: await this.grants.forUser(this.s.db, user),
      clientId: type === 'client' || type === 'vendor' ? user.client_id : null,
      agentId: type === 'agent' ? user.agent_id : null,
      twoFactorRequired: Boolean(require_2fa),
    };
  }

  /**
   * POST /auth/check-token: a live token is extended and returned; one past its access window but
   * within the refresh window is replaced by a new token (the old one is revoked).
   */
  async checkToken(req: FastifyRequest): Promise<IssuedToken> {
    const token = tokenOf(req);
    if (!token) throw tokenError(ErrorCode.logout, 'tokenNotProvided');
    const row = await this.s.db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.user_id', 's.user_id')
      .select([
        's.id',
        's.user_id',
        's.expires_at',
        's.refresh_until',
        's.revoked_at',
        's.cdr_expires_at',
        'u.active',
        'u.allowed_ips',
      ])
      .where('s.token_hash', '=', hashToken(token))
      .executeTakeFirst();
    if (!row) throw tokenError(ErrorCode.logout, 'tokenIncorrect');
    if (row.revoked_at || !row.active) throw tokenError(ErrorCode.logout, 'tokenDisabled');
    const now = Date.now();
    if (row.refresh_until.getTime() <= now) throw tokenError(ErrorCode.logout, 'tokenExpired');
    if (!ipAllowed(row.allowed_ips, req.ip)) throw tokenError(ErrorCode.logout, 'tokenDisabled');
    if (row.expires_at.getTime() > now) {
      const expires = new Date(now + ACCESS_TTL_MS);
      const cdrExpires = new Date(now + CDR_TOKEN_TTL_MS);
      await this.s.db
        .updateTable('sessions')
        .set({ expires_at: expires, last_used_at: new Date(now), cdr_expires_at: cdrExpires })
        .where('id', '=', row.id)
        .execute();
      return {
        token,
        cdr_api_token: cdrTokenFor(token, await this.s.settings.secret()),
        cdr_api_token_expiration: cdrExpires.toISOString(),
        expires_at: expires.toISOString(),
      };
    }
    await this.revoke(row.id, 'renewed');
    return this.issue(row.user_id, req.ip, String(req.headers['user-agent'] ?? ''));
  }

  /** The CDR API token of the caller's session (derived, never stored in clear). */
  async cdrTokenOf(req: FastifyRequest, actor: Actor): Promise<{ token: string; expiration: string }> {
    return {
      token: cdrTokenFor(tokenOf(req) ?? '', await this.s.settings.secret()),
      expiration: actor.cdrExpiresAt.toISOString(),
    };
  }

  async revoke(sessionId: number, reason: string): Promise<void> {
    await this.s.db
      .updateTable('sessions')
      .set({ revoked_at: new Date(), revoked_reason: reason })
      .where('id', '=', sessionId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  async revokeAllOf(userId: number, reason: string, exceptSessionId?: number): Promise<void> {
    let q = this.s.db
      .updateTable('sessions')
      .set({ revoked_at: new Date(), revoked_reason: reason })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (exceptSessionId !== undefined) q = q.where('id', '!=', exceptSessionId);
    await q.execute();
  }
}

function tokenOf(req: FastifyRequest): string | null {
  const h = req.headers['x-auth-token'];
  if (typeof h === 'string' && h) return h;
  const a = req.headers.authorization;
  if (typeof a === 'string') {
    const m = /^(?:Token|Bearer)\s+(.+)$/i.exec(a);
    if (m?.[1]) return m[1];
  }
  return null;
}
