import { VERSION, envelopeSchema, type Endpoint } from '@tandem/contract';
import { z } from 'zod';
import { allEndpoints } from './modules';

/** The OpenAPI 3.1 document, generated from the contract's endpoint declarations. */
export function buildOpenApi(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of allEndpoints()) {
    const p = '/api' + e.path.replace(/:(\w+)/g, '{$1}');
    paths[p] ??= {};
    paths[p][e.method.toLowerCase()] = operation(e);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tandem API',
      version: VERSION,
      description:
        'Every answer is the envelope { success, payload, error: { code, message }, errors }. Authenticate with the X-Auth-Token header.',
    },
    components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'X-Auth-Token' } } },
    paths,
  };
}

function schema(t: z.ZodType, io: 'input' | 'output'): unknown {
  try {
    return z.toJSONSchema(t, { io, unrepresentable: 'any' });
  } catch {
    return {};
  }
}

function operation(e: Endpoint): Record<string, unknown> {
  const parameters: unknown[] = [];
  for (const [where, s] of [
    ['path', e.params],
    ['query', e.query],
  ] as const) {
    if (!s) continue;
    const js = schema(s, 'input') as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, sch] of Object.entries(js.properties ?? {})) {
      parameters.push({
        name,
        in: where,
        required: where === 'path' || (js.required ?? []).includes(name),
        schema: sch,
      });
    }
  }
  const access =
    e.access.kind === 'admin'
      ? `admin permission ${e.access.func} (${e.access.level})${e.access.portal ? `; also ${e.access.portal.join(', ')} (own data)` : ''}`
      : e.access.kind === 'session'
        ? `signed in${e.access.types ? ` as ${e.access.types.join(', ')}` : ''}`
        : e.access.kind;
  return {
    summary: e.summary,
    description: `Access: ${access}${e.access.kind !== 'public' && e.duringTwoFactorEnrolment ? '; also while enrolling in the two-factor sign-in a role requires (others answer 210 then)' : ''}`,
    tags: [e.tag],
    ...(e.access.kind === 'public' ? {} : { security: [{ token: [] }] }),
    parameters,
    ...(e.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: schema(e.body, 'input') } },
          },
        }
      : {}),
    ...(e.multipart
      ? {
          requestBody: {
            content: {
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  properties: {
                    entity: { type: 'string' },
                    format: { type: 'string' },
                    file: { type: 'string', format: 'binary' },
                  },
                },
              },
            },
          },
        }
      : {}),
    responses: {
      '200': {
        description: 'Envelope',
        content: e.raw
          ? { 'application/octet-stream': {} }
          : { 'application/json': { schema: schema(envelopeSchema(e.payload), 'output') } },
      },
    },
  };
}
