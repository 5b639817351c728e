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
  payload: z.null(),
});
