import type { z } from 'zod';
import type { Access } from './access';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * One API call, declared once: the server registers it (validation, permission, OpenAPI), the web
 * app calls it with typed params, query and body.
 */
export interface Endpoint<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  method: HttpMethod;
  /** Path under /api with :name parameters. */
  path: string;
  summary: string;
  tag: string;
  access: Access;
  params?: P;
  query?: Q;
  body?: B;
  /** Multipart upload (body is not JSON). */
  multipart?: boolean;
  /** The answer is a file, not the JSON envelope. */
  raw?: boolean;
  /** The answer is a stream that stays open (server-sent events); implies raw. */
  stream?: boolean;
  /**
   * Callable by a session still enrolling in two-factor sign-in: the user's role requires it and it
   * is not on yet (issue 18, docs/security.md). Every other endpoint with a session answers code 210
   * to such a session. Only the enrolment calls, the frame's session reads and sign-out set it.
   */
  duringTwoFactorEnrolment?: boolean;
  payload: R;
}

export const endpoint = <P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  e: Endpoint<P, Q, B, R>,
) => e;

type Inp<T> = T extends z.ZodType ? z.input<T> : never;
export type ParamsOf<E> = E extends Endpoint<infer P, z.ZodType, z.ZodType, z.ZodType> ? Inp<P> : never;
export type QueryOf<E> = E extends Endpoint<z.ZodType, infer Q, z.ZodType, z.ZodType> ? Inp<Q> : never;
export type BodyOf<E> = E extends Endpoint<z.ZodType, z.ZodType, infer B, z.ZodType> ? Inp<B> : never;
export type PayloadOf<E> = E extends Endpoint<z.ZodType, z.ZodType, z.ZodType, infer R> ? z.output<R> : never;

/** Fills :name parameters of a path. */
export function buildPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:(\w+)/g, (_, k: string) => {
    const v = params[k];
    if (v === undefined) throw new Error(`Missing path parameter ${k} for ${path}`);
    return encodeURIComponent(String(v));
  });
}
