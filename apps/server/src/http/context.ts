import type { Grants, Language, UserType } from '@tandem/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserRecord } from '../db/schema';
import type { Services } from '../services';

/** The signed-in caller of a request. */
export interface Actor {
  user: UserRecord;
  type: UserType;
  sessionId: number;
  cdrExpiresAt: Date;
  grants: Grants;
  /** Carrier of a client or vendor user; agent of an agent user. Tenancy keys. */
  clientId: number | null;
  agentId: number | null;
  /** The user's role requires two-factor sign-in (roles.require_2fa, issue 18). */
  twoFactorRequired: boolean;
}

/**
 * Whether the session may only enrol in two-factor sign-in: its role requires it and it is not on
 * yet. Read from the user row of each request, so it lifts as soon as enrolment is confirmed (and
 * comes back when the CLI clears the user's two-factor sign-in).
 */
export const enrolmentPending = (actor: Actor): boolean =>
  actor.twoFactorRequired && !actor.user.totp_enabled;

export interface Ctx<P = unknown, Q = unknown, B = unknown> {
  params: P;
  query: Q;
  body: B;
  lang: Language;
  ip: string;
  /** null only on public endpoints called without a token. */
  actor: Actor | null;
  services: Services;
  req: FastifyRequest;
  reply: FastifyReply;
}

/** The actor of an endpoint that requires a session (never null there). */
export function actorOf(ctx: Ctx<unknown, unknown, unknown>): Actor {
  if (!ctx.actor) throw new Error('actorOf called on a request without a session');
  return ctx.actor;
}
