import { z } from 'zod';
import { PUBLIC, SIGNED_IN } from '../access';
import { portalPassword } from '../common';
import { endpoint } from '../endpoint';

export const tokenPayload = z.object({
  token: z.string(),
  cdr_api_token: z.string(),
  cdr_api_token_expiration: z.string(),
  expires_at: z.string(),
});

export const signIn = endpoint({
  method: 'POST',
  path: '/auth',
  summary: 'Sign in with user name or e-mail and password',
  tag: 'auth',
  access: PUBLIC,
  body: z.object({
    email_or_name: z.string().trim().min(1, { message: 'required' }).max(254),
    password: z.string().min(1, { message: 'required' }).max(128),
    /** The second factor of an account that has it on: a TOTP code or a recovery code. */
    code: z.string().trim().max(32).optional(),
  }),
  payload: tokenPayload,
});

export const checkToken = endpoint({
  method: 'POST',
  path: '/auth/check-token',
  summary: 'Check the X-Auth-Token; renews it (a new token) when it expired within the refresh window',
  tag: 'auth',
  access: PUBLIC,
  payload: tokenPayload,
});

export const checkPassword = endpoint({
  method: 'POST',
  path: '/auth/check-password',
  summary: "Live check of the signed-in user's current password",
  tag: 'auth',
  access: SIGNED_IN,
  body: z.object({ password: z.string().max(128) }),
  payload: z.object({ valid: z.boolean() }),
});

export const requestPasswordReset = endpoint({
  method: 'POST',
  path: '/auth/reset-password',
  summary: 'Send a password reset link by e-mail (always answers success, to not reveal users)',
  tag: 'auth',
  access: PUBLIC,
  body: z.object({
    email_or_name: z.string().trim().min(1, { message: 'required' }).max(254),
  }),
  payload: z.object({ sent: z.boolean() }),
});

export const resetPassword = endpoint({
  method: 'POST',
  path: '/auth/reset/:token',
  summary: 'Set a new password with a reset token from the e-mail',
  tag: 'auth',
  access: PUBLIC,
  params: z.object({ token: z.string().min(10).max(200) }),
  body: z.object({ password: portalPassword }),
  payload: z.object({ name: z.string() }),
});

export const signOut = endpoint({
  method: 'POST',
  path: '/auth/logout',
  summary: 'Revoke the current token',
  tag: 'auth',
  access: SIGNED_IN,
  // Signing out is always possible, also while a role requires enrolling first.
  duringTwoFactorEnrolment: true,
  payload: z.null(),
});

export const twoFactorSetup = endpoint({
  method: 'POST',
  path: '/auth/2fa/setup',
  summary: 'Start two-factor enrolment: a new TOTP secret (and its otpauth:// URL), pending until confirmed',
  tag: 'auth',
  access: SIGNED_IN,
  // The enrolment a role may require (issue 18).
  duringTwoFactorEnrolment: true,
  payload: z.object({ secret: z.string(), otpauth_url: z.string() }),
});

export const twoFactorEnable = endpoint({
  method: 'POST',
  path: '/auth/2fa/enable',
  summary: 'Confirm enrolment with a code of the new secret; answers 10 one-time recovery codes (shown once)',
  tag: 'auth',
  access: SIGNED_IN,
  // The enrolment a role may require (issue 18).
  duringTwoFactorEnrolment: true,
  body: z.object({ code: z.string().trim().min(1, { message: 'required' }).max(32) }),
  payload: z.object({ recovery_codes: z.array(z.string()) }),
});

export const twoFactorDisable = endpoint({
  method: 'POST',
  path: '/auth/2fa/disable',
  summary: 'Turn two-factor sign-in off (confirmed by the current password)',
  tag: 'auth',
  access: SIGNED_IN,
  body: z.object({ password: z.string().min(1, { message: 'required' }).max(128) }),
  payload: z.null(),
});
