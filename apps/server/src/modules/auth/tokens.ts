import { createHash, createHmac, randomBytes } from 'node:crypto';

export const newToken = (): string => randomBytes(32).toString('base64url');
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('base64url');
/** The CDR API token is derived from the session token, so it is never stored in clear. */
export const cdrTokenFor = (sessionToken: string, secret: string): string =>
  'cdr_' + createHmac('sha256', secret).update(sessionToken).digest('base64url');
