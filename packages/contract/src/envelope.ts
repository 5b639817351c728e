import { z } from 'zod';

/**
 * Error codes of the response envelope (spec 01 section 8, DESIGN section 3).
 * 120 and 130 are the frame's session codes; the rest classify failures so the web app can react
 * without parsing messages.
 */
export const ErrorCode = {
  /** Unexpected server failure; details are logged, never sent. */
  internal: 100,
  /** Input failed validation; `errors` maps field names to messages. */
  validation: 110,
  /** The token must be checked: call POST /auth/check-token, then reload or sign out. */
  tokenCheck: 120,
  /** The session is over (revoked, unknown or expired beyond refresh): sign out. */
  logout: 130,
  /** The signed-in user lacks the permission ("don't have permissions"). */
  forbidden: 140,
  /** The record or route does not exist, or is not visible to this user. */
  notFound: 150,
  /** A duplicate or conflicting record. */
  conflict: 160,
  /** A state or dependency rule refuses the operation. */
  rule: 170,
  /** Too many attempts; try later. */
  throttled: 180,
  /** Sign-in failed: wrong name or password, or not allowed. */
  signIn: 190,
  /** The password was right; the account's second factor (a TOTP or recovery code) is needed. */
  twoFactor: 200,
  /**
   * The user's role requires two-factor sign-in and it is not on: this session may only set it up
   * (POST /auth/2fa/setup and /enable), read the session (GET /user, /config/system, the own role
   * and menu) and sign out until it is.
   */
  twoFactorEnrolment: 210,
} as const;
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

export interface ApiError {
  code: number;
  message: string;
}

export interface ApiEnvelope<T> {
  success: boolean;
  payload: T | null;
  error: ApiError | null;
  errors: Record<string, string> | null;
}

export const envelopeSchema = <T extends z.ZodType>(payload: T) =>
  z.object({
    success: z.boolean(),
    payload: payload.nullable(),
    error: z.object({ code: z.number(), message: z.string() }).nullable(),
    errors: z.record(z.string(), z.string()).nullable(),
  });

export const okEnvelope = <T>(payload: T): ApiEnvelope<T> => ({
  success: true,
  payload,
  error: null,
  errors: null,
});

export const errorEnvelope = (
  code: number,
  message: string,
  errors: Record<string, string> | null = null,
): ApiEnvelope<null> => ({ success: false, payload: null, error: { code, message }, errors });
