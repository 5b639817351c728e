import {
  allows,
  controlCharField,
  controlCharPath,
  ErrorCode,
  errorEnvelope,
  MESSAGE_KEYS,
  okEnvelope,
  unboundedNumbers,
  UPLOAD_MAX_MB,
  type Endpoint,
  type UserType,
} from '@tandem/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { forTimedSlices, SLICE_ITEMS } from '../event-loop';
import type { Services } from '../services';
import { enrolmentPending, type Actor, type Ctx } from './context';
import { AppError, forbidden, type FieldError } from './errors';
import { localize } from './localize';

type In<S> = [S] extends [undefined] ? undefined : S extends z.ZodType ? z.output<S> : undefined;

/** A handler gets the validated params, query and body of its endpoint and returns its payload. */
export type Handler<E extends Endpoint> = (
  ctx: Ctx<In<NonNullable<E['params']>>, In<NonNullable<E['query']>>, In<NonNullable<E['body']>>>,
) => Promise<z.input<E['payload']>>;

/** Every endpoint the app registers, for the OpenAPI document and the route-coverage test. */
export const registeredEndpoints: Endpoint[] = [];

/**
 * Registers one contract endpoint: authenticate, check access, validate params/query/body with the
 * contract's schemas (field errors named and localised), run the handler, wrap the envelope.
 * `ownToken`: the handler checks the token itself (check-token renews one past its access window,
 * which authentication would refuse with 120); the endpoint must be public.
 */
export function implement<E extends Endpoint>(
  app: FastifyInstance,
  services: Services,
  endpoint: E,
  handler: Handler<E>,
  opts: { ownToken?: boolean } = {},
): void {
  if (opts.ownToken && endpoint.access.kind !== 'public')
    throw new Error(`ownToken needs a public endpoint: ${endpoint.path}`);
  if (!registeredEndpoints.includes(endpoint)) registeredEndpoints.push(endpoint);
  checkInputRules(endpoint);
  app.route({
    method: endpoint.method,
    url: '/api' + endpoint.path,
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      const lang = services.i18n.languageOf(req);
      const kind = endpoint.access.kind;
      const actor = twoFactorGate(
        endpoint,
        opts.ownToken || kind === 'switch' ? null : await services.auth.authenticate(req, kind !== 'public'),
      );
      const switchKeyOk =
        kind === 'switch' && (await services.switchKeys.accepts(req.headers['x-switch-key']));
      checkAccess(endpoint, actor, switchKeyOk);
      const params = parse(endpoint.params, req.params);
      const query = parse(endpoint.query, req.query);
      // No body at all is an empty object; a JSON null body is refused like any non-object.
      const body = endpoint.multipart
        ? undefined
        : await parseSliced(endpoint.body, req.body === undefined ? {} : req.body);
      const ctx: Ctx<unknown, unknown, unknown> = {
        params,
        query,
        body,
        lang,
        ip: req.ip,
        actor,
        services,
        req,
        reply,
      };
      const result = await (handler as (c: Ctx<unknown, unknown, unknown>) => Promise<unknown>)(ctx);
      if (endpoint.raw) return reply;
      return reply.send(okEnvelope(result ?? null));
    },
  });
}

/**
 * Two-factor sign-in required by the role (issue 18, docs/security.md): a session whose role
 * requires it and that has not enrolled yet reaches only the endpoints the contract marks
 * `duringTwoFactorEnrolment` (enrolment, the frame's session reads, sign-out); any other endpoint
 * with a session answers 210. A public endpoint serves it as it serves anyone without a session (an
 * admin's session adds nothing there until enrolled). Every endpoint goes through here, so a new one
 * is covered without a word.
 */
export function twoFactorGate(endpoint: Endpoint, actor: Actor | null): Actor | null {
  if (!actor || !enrolmentPending(actor)) return actor;
  if (endpoint.access.kind === 'public') return null;
  if (endpoint.duringTwoFactorEnrolment) return actor;
  throw new AppError(ErrorCode.twoFactorEnrolment, 'twoFactorRequiredByRole', [], 403);
}

function checkAccess(endpoint: Endpoint, actor: Actor | null, switchKeyOk: boolean): void {
  const a = endpoint.access;
  switch (a.kind) {
    case 'public':
      return;
    case 'switch':
      // The switch API key (X-Switch-Key), not a user session.
      if (!switchKeyOk) throw new AppError(ErrorCode.forbidden, 'switchKeyInvalid', [], 401);
      return;
    case 'session':
      if (!actor) throw forbidden();
      if (a.types && !a.types.includes(actor.type)) throw forbidden();
      return;
    case 'admin':
      if (!actor) throw forbidden();
      if (actor.type === 'admin') {
        if (!allows(actor.grants, a.func, a.level)) throw forbidden();
        return;
      }
      if (!(a.portal ?? ([] as readonly UserType[])).includes(actor.type)) throw forbidden();
      return;
  }
}

/** Validates input against a schema as the endpoints do: bad input answers 110 naming each field. */
export function parseInput(schema: z.ZodType | undefined, value: unknown): unknown {
  return parse(schema, value);
}

/**
 * The input rules shared by every endpoint, checked once at registration: every number of its
 * params, query and body is bounded by the column it lands in (contract `integer()`, `int4()`,
 * `bigInteger()`; decimals within DECIMAL_MAX). An endpoint that forgets it does not start.
 */
export function checkInputRules(endpoint: Endpoint): void {
  for (const part of ['params', 'query', 'body'] as const) {
    const schema = endpoint[part];
    const loose = schema ? unboundedNumbers(schema) : [];
    if (loose.length)
      throw new Error(
        `${endpoint.method} ${endpoint.path}: unbounded number in ${part}: ${loose.join(', ')} ` +
          '(use int4(), integer() or bigInteger() of the contract)',
      );
  }
}

/** Text of any input (params, query, body) may not hold NUL or other control characters. */
export function refuseControlChars(value: unknown): void {
  const field = controlCharField(value);
  if (field) throw controlCharError(field);
}

const controlCharError = (field: string) =>
  new AppError(ErrorCode.validation, 'validationFailed', [], 400, {
    [field]: { key: 'controlCharacter', params: [field === '_' ? 'request body' : field] },
  });

function parse(schema: z.ZodType | undefined, value: unknown): unknown {
  if (!schema) return undefined;
  refuseControlChars(value);
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw invalidInput(r.error.issues, value);
}

/**
 * As parse, but a body whose top-level array field holds more than SLICE_ITEMS items (a CDR
 * batch of 10,000) is checked slice by slice, yielding to the event loop between slices: the same
 * schema and the same errors (item indexes as sent), without holding the route API for the
 * length of the whole check (issue 16). The array's own length rule is checked first, on the whole.
 */
async function parseSliced(schema: z.ZodType | undefined, value: unknown): Promise<unknown> {
  const long = schema && longArrayField(schema, value);
  if (!long) return parse(schema, value);
  const { field, items, maximum } = long;
  // Too many items: the plain check (it names the length rule); no slicing of a refused body.
  if (items.length > maximum) return parse(schema, value);
  const whole = value as Record<string, unknown>;
  // Control characters come before every schema issue, as in refuseControlChars on the whole body:
  // the other fields first, then each slice's items before the slice is checked (the field named
  // with the item's own index); schema issues are only thrown after the last slice.
  refuseControlChars({ ...whole, [field]: [] });
  const issues: z.core.$ZodIssue[] = [];
  const out: unknown[] = [];
  let rest: Record<string, unknown> = {};
  await forTimedSlices(items.length, (start, end) => {
    const part = items.slice(start, end);
    const at = controlCharPath(part);
    if (at) throw controlCharError([field, (at[0] as number) + start, ...at.slice(1)].join('.'));
    const slice = { ...whole, [field]: part };
    const r = schema.safeParse(slice);
    if (r.success) {
      rest = r.data as Record<string, unknown>;
      for (const item of rest[field] as unknown[]) out.push(item);
      return;
    }
    for (const issue of r.error.issues) {
      const [head, index, ...tail] = issue.path;
      // Item issues point at the item's index in the whole array; the others are the same each slice.
      if (head === field && typeof index === 'number')
        issues.push({ ...issue, path: [head, index + start, ...tail] });
      else if (start === 0) issues.push(issue);
    }
  });
  if (issues.length) throw invalidInput(issues, value);
  return { ...rest, [field]: out };
}

/**
 * The body's top-level array field longer than one slice, with the array's maximum length. Only
 * where slices cannot change the answer: no rule on the object as a whole, and none on the array
 * but its length (a rule across items, such as "no duplicates", needs the whole array at once).
 */
function longArrayField(
  schema: z.ZodType,
  value: unknown,
): { field: string; items: unknown[]; maximum: number } | null {
  type Def = { type: string; shape?: Record<string, z.ZodType>; checks?: { _zod: { def: CheckDef } }[] };
  type CheckDef = { check: string; maximum?: number };
  const def = schema._zod.def as Def;
  if (def.type !== 'object' || !def.shape || def.checks?.length) return null;
  if (value === null || typeof value !== 'object') return null;
  for (const [field, fieldSchema] of Object.entries(def.shape)) {
    const items = (value as Record<string, unknown>)[field];
    const arrayDef = fieldSchema._zod.def as Def;
    if (arrayDef.type !== 'array' || !Array.isArray(items) || items.length <= SLICE_ITEMS) continue;
    const checks = (arrayDef.checks ?? []).map((c) => c._zod.def);
    if (checks.some((c) => c.check !== 'min_length' && c.check !== 'max_length')) return null;
    const maximum = Math.min(...checks.map((c) => (c.check === 'max_length' ? c.maximum! : Infinity)));
    return { field, items, maximum };
  }
  return null;
}

/** Code 110 naming each field of the issues (the first issue of a field wins). */
function invalidInput(issues: readonly z.core.$ZodIssue[], value: unknown): AppError {
  const fields: Record<string, FieldError> = {};
  for (const issue of issues) {
    const field = issue.path.length ? issue.path.map(String).join('.') : '_';
    if (fields[field]) continue;
    fields[field] = issueToField(issue, field, valueAt(value, issue.path) == null);
  }
  return new AppError(ErrorCode.validation, 'validationFailed', [], 400, fields);
}

/** The input value at an issue's path (zod issues do not carry it). */
function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const k of path)
    v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

/** A contract refinement may give the message's arguments itself (e.g. '{0} cannot be larger than {1}'). */
function argsOf(issue: z.core.$ZodIssue): (string | number)[] | null {
  const args = issue.code === 'custom' ? (issue.params as { args?: unknown } | undefined)?.args : undefined;
  return Array.isArray(args) ? (args as (string | number)[]) : null;
}

function issueToField(issue: z.core.$ZodIssue, field: string, missing: boolean): FieldError {
  const label = field === '_' ? 'request body' : field;
  if (issue.code === 'unrecognized_keys') return { key: 'invalidValue', params: [issue.keys.join(', ')] };
  if (missing && (issue.code === 'invalid_type' || issue.code === 'invalid_value'))
    return { key: 'required', params: [label] };
  // A message the contract chose (a catalogue key such as passwordLength) wins over the generic ones.
  if ((MESSAGE_KEYS as string[]).includes(issue.message))
    return { key: issue.message, params: argsOf(issue) ?? [label] };
  if (issue.code === 'invalid_type') return { key: 'invalidValue', params: [label] };
  if (issue.code === 'invalid_value' && 'values' in issue)
    return { key: 'mustBeOneOf', params: [label, issue.values.map(String).join(', ')] };
  if (issue.code === 'too_big' && issue.origin === 'string')
    return { key: 'tooLong', params: [label, Number(issue.maximum)] };
  if (issue.code === 'too_small' && issue.origin === 'string' && Number(issue.minimum) === 1)
    return { key: 'required', params: [label] };
  if (issue.code === 'too_small' && issue.origin === 'number' && issue.inclusive)
    return { key: 'numberAtLeast', params: [label, Number(issue.minimum)] };
  if (issue.code === 'too_big' && issue.origin === 'number' && issue.inclusive)
    return { key: 'numberAtMost', params: [label, Number(issue.maximum)] };
  if (issue.code === 'too_big' && issue.origin === 'array')
    return { key: 'tooManyItems', params: [label, Number(issue.maximum)] };
  // Contract schemas use message keys of the catalogue as their messages.
  return { key: issue.message, params: [label] };
}

/** Error handler: every failure becomes the envelope; internals are logged, never sent. */
export function installErrorHandling(app: FastifyInstance, services: Services): void {
  app.setErrorHandler((err: unknown, req, reply) => {
    const lang = services.i18n.languageOf(req);
    if (err instanceof AppError) {
      const errors = err.fields ? localize.fields(err.fields, lang) : null;
      const message =
        errors && err.key === 'validationFailed'
          ? Object.values(errors).join('; ')
          : localize.message(err.key, lang, err.params);
      return reply.status(err.status).send(errorEnvelope(err.code, message, errors));
    }
    const e = err as { statusCode?: number; code?: string; message?: string };
    if (
      e.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
      (e.statusCode === 400 && /JSON/i.test(e.message ?? ''))
    ) {
      return reply.status(400).send(
        errorEnvelope(ErrorCode.validation, localize.message('malformedJson', lang), {
          _: localize.message('malformedJson', lang),
        }),
      );
    }
    if (
      e.statusCode === 413 ||
      e.code === 'FST_REQ_FILE_TOO_LARGE' ||
      e.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
    ) {
      // A multipart file is limited to the upload maximum, any other body to the app's body limit.
      const maxBytes =
        e.code === 'FST_REQ_FILE_TOO_LARGE' ? UPLOAD_MAX_MB * 1048576 : app.initialConfig.bodyLimit;
      const size = Number(req.headers['content-length']);
      return reply.status(413).send(
        errorEnvelope(
          ErrorCode.validation,
          localize.message('fileTooBig', lang, {
            size: size ? (size / 1048576).toFixed(1) : '?',
            max: Math.round((maxBytes ?? 0) / 1048576),
          }),
        ),
      );
    }
    // Safety net behind the contract's rules (docs/security.md): data PostgreSQL refuses (22xxx:
    // out of range, bad encoding, bad date) is bad input, and a reference to nothing (23503) a
    // conflict; both are logged, as they mean a rule is missing in front of the database.
    const pgCode = typeof e.code === 'string' && /^2[23][0-9A-Z]{3}$/.test(e.code) ? e.code : null;
    if (pgCode?.startsWith('22') || pgCode === '23503') {
      req.log.warn({ err }, 'database refused input a contract rule should have refused');
      const column = (err as { column?: string }).column || '_';
      const label = column === '_' ? 'request body' : column;
      return pgCode === '23503'
        ? reply
            .status(409)
            .send(
              errorEnvelope(
                ErrorCode.conflict,
                localize.message('referenceMissing', lang, [label]),
                localize.fields({ [column]: { key: 'referenceMissing', params: [label] } }, lang),
              ),
            )
        : reply
            .status(400)
            .send(
              errorEnvelope(
                ErrorCode.validation,
                localize.message('valueOutOfRange', lang, [label]),
                localize.fields({ [column]: { key: 'valueOutOfRange', params: [label] } }, lang),
              ),
            );
    }
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
      return reply.status(e.statusCode).send(errorEnvelope(ErrorCode.validation, e.message ?? 'Bad request'));
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send(errorEnvelope(ErrorCode.internal, localize.message('internalError', lang)));
  });
  app.setNotFoundHandler((req, reply) => {
    const lang = services.i18n.languageOf(req);
    return reply
      .status(404)
      .send(
        errorEnvelope(
          ErrorCode.notFound,
          localize.message('routeNotFound', lang, [req.method, req.url.split('?')[0] ?? '']),
        ),
      );
  });
}
