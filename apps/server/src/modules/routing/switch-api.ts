import {
  api,
  CONTROL_CHARS,
  ErrorCode,
  INSTANT_MAX_MS,
  INSTANT_MIN_MS,
  inInstantRange,
} from '@tandem/contract';
import { decide, type FailoverTable, type RoutingDecision, type TrunkHostConfig } from '@tandem/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { AppError, invalidField } from '../../http/errors';
import { callPathAsked } from '../../event-loop';
import { checkInputRules, implement, refuseControlChars, registeredEndpoints } from '../../http/register';
import type { Services } from '../../services';
import type { LiveState } from './live-state';
import type { SnapshotService } from './snapshot-service';

type RouteAnswer = z.output<typeof api.routing.routeAnswer>;
type RouteRequest = z.output<typeof api.routing.routeRequest>;
type ErrorResponses = ReadonlyMap<string, { code: number; clause: string }>;

/**
 * The route API of the SIP proxy: POST /api/switch/route for every new call, POST /api/switch/calls
 * for the calls up per trunk. The route handler reads the snapshot and the live counters in memory
 * and makes no query.
 *
 * POST /switch/route is the one hot path of the server, so it is a lean Fastify route of its own
 * instead of going through `implement`: the same contract endpoint (listed for the OpenAPI
 * document), the same switch key check, the same envelope and error handling, but a well-formed
 * body is checked by hand (the contract schema runs only to word the field errors of a bad one) and
 * the answer is written as JSON text directly, hosts pre-serialised per trunk.
 */
export function registerSwitchApi(
  app: FastifyInstance,
  s: Services,
  engine: SnapshotService,
  live: LiveState,
): void {
  const endpoint = api.routing.switchRoute;
  if (!registeredEndpoints.includes(endpoint)) registeredEndpoints.push(endpoint);
  checkInputRules(endpoint);
  app.route({
    method: 'POST',
    url: '/api' + endpoint.path,
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      callPathAsked();
      const ok = s.switchKeys.accepts(req.headers['x-switch-key']);
      if (!(ok === true || (ok !== false && (await ok))))
        throw new AppError(ErrorCode.forbidden, 'switchKeyInvalid', [], 401);
      const b = wellFormed(req.body) ?? parseOrThrow(req.body);
      const snapshot = engine.snapshot;
      if (snapshot === null) throw new AppError(ErrorCode.internal, 'engineNotReady', [], 503);
      const now = Date.now();
      const time = callTime(b.time, now);
      live.tick(now);
      // A re-route of the same call (failover asked again) must not count its own earlier hold.
      if (b.call_id) live.release(b.call_id);
      const d = decide(
        snapshot,
        {
          source_ip: b.source_ip,
          source_port: b.source_port ?? null,
          ani: b.ani,
          dnis: b.dnis,
          lrn: b.lrn ?? null,
          time,
          ocn: b.ocn ?? null,
          origid: b.origid ?? null,
          attestation: b.attestation ?? null,
        },
        live,
      );
      const seq = live.count(d);
      if (d.hold !== undefined) live.hold(d, b.call_id, now);
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .send(answerJson(d, engine.errorResponses, seq));
    },
  });

  implement(app, s, api.routing.switchCalls, async (ctx) => {
    live.setCalls(ctx.body.trunks, engine.snapshot, ctx.body.seq);
    return null;
  });
}

/** The body when it is plainly valid (the common case), else null. */
function wellFormed(body: unknown): RouteRequest | null {
  if (typeof body !== 'object' || body === null) return null;
  const b = body as Record<string, unknown>;
  let n = 0;
  for (const k in b) {
    n++;
    if (
      k !== 'source_ip' &&
      k !== 'source_port' &&
      k !== 'ani' &&
      k !== 'dnis' &&
      k !== 'lrn' &&
      k !== 'time' &&
      k !== 'ocn' &&
      k !== 'origid' &&
      k !== 'attestation' &&
      k !== 'call_id'
    )
      return null;
  }
  const { source_ip, source_port, ani, dnis, lrn, time, ocn, origid, attestation, call_id } = b;
  if (
    typeof source_ip !== 'string' ||
    source_ip.length === 0 ||
    source_ip.length > 64 ||
    source_ip.trim() !== source_ip
  )
    return null;
  if (typeof dnis !== 'string' || dnis.length === 0 || dnis.length > 64) return null;
  if (ani !== undefined && (typeof ani !== 'string' || ani.length > 64)) return null;
  if (
    source_port !== undefined &&
    source_port !== null &&
    !(
      typeof source_port === 'number' &&
      Number.isInteger(source_port) &&
      source_port >= 0 &&
      source_port <= 65535
    )
  )
    return null;
  if (lrn !== undefined && lrn !== null && !(typeof lrn === 'string' && lrn.length <= 32)) return null;
  if (
    time !== undefined &&
    !(
      (typeof time === 'number' && time >= INSTANT_MIN_MS && time <= INSTANT_MAX_MS) ||
      (typeof time === 'string' && time.length <= 40)
    )
  )
    return null;
  if (ocn !== undefined && ocn !== null && !(typeof ocn === 'string' && ocn.length <= 16)) return null;
  if (origid !== undefined && origid !== null && !(typeof origid === 'string' && origid.length <= 64))
    return null;
  if (
    attestation !== undefined &&
    attestation !== null &&
    attestation !== 'A' &&
    attestation !== 'B' &&
    attestation !== 'C'
  )
    return null;
  if (
    call_id !== undefined &&
    call_id !== null &&
    !(typeof call_id === 'string' && call_id.length > 0 && call_id.length <= 128)
  )
    return null;
  // The input rule of every endpoint (no NUL or control characters in text), by hand: one regex
  // test per present string.
  if (
    CONTROL_CHARS.test(source_ip) ||
    CONTROL_CHARS.test(dnis) ||
    (typeof ani === 'string' && CONTROL_CHARS.test(ani)) ||
    (typeof lrn === 'string' && CONTROL_CHARS.test(lrn)) ||
    (typeof time === 'string' && CONTROL_CHARS.test(time)) ||
    (typeof ocn === 'string' && CONTROL_CHARS.test(ocn)) ||
    (typeof origid === 'string' && CONTROL_CHARS.test(origid)) ||
    (typeof call_id === 'string' && CONTROL_CHARS.test(call_id))
  )
    return null;
  return n > 0
    ? {
        call_id: call_id as string | null | undefined,
        source_ip,
        dnis,
        ani: (ani as string | undefined) ?? '',
        source_port: source_port as number | null | undefined,
        lrn: lrn as string | null | undefined,
        time,
        ocn: ocn as string | null | undefined,
        origid: origid as string | null | undefined,
        attestation: attestation as 'A' | 'B' | 'C' | null | undefined,
      }
    : null;
}

/** The contract's parse, for its field errors (throws the same 110 answer as every endpoint). */
function parseOrThrow(body: unknown): RouteRequest {
  refuseControlChars(body);
  const r = api.routing.routeRequest.safeParse(body === undefined ? {} : body);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const field = issue.path.length ? issue.path.map(String).join('.') : '_';
  const missing =
    issue.code === 'invalid_type' &&
    (body === null || typeof body !== 'object' || (body as Record<string, unknown>)[field] == null);
  throw invalidField(
    field,
    missing ? 'required' : issue.code === 'unrecognized_keys' ? 'invalidValue' : 'invalidValue',
    [field === '_' ? 'request body' : field],
  );
}

/** The call time of a request: epoch ms, or ISO 8601, or now. */
export function callTime(time: string | number | null | undefined, now: number): number {
  if (time === undefined || time === null || time === '') return now;
  const ms = typeof time === 'number' ? time : Date.parse(time);
  if (!inInstantRange(ms)) throw invalidField('time', 'invalidCallTime', ['time']);
  return ms;
}

/** Hosts as the proxy needs them (ip, port), shared by every answer naming the trunk. */
const hostCache = new WeakMap<readonly TrunkHostConfig[], { ip: string; port: number | null }[]>();
function hostsOf(hosts: readonly TrunkHostConfig[]): { ip: string; port: number | null }[] {
  let out = hostCache.get(hosts);
  if (!out) {
    out = hosts.map((h) => ({ ip: h.ip, port: h.port ?? null }));
    hostCache.set(hosts, out);
  }
  return out;
}
const hostJsonCache = new WeakMap<readonly TrunkHostConfig[], string>();
function hostsJson(hosts: readonly TrunkHostConfig[]): string {
  let out = hostJsonCache.get(hosts);
  if (out === undefined) {
    out = JSON.stringify(hostsOf(hosts));
    hostJsonCache.set(hosts, out);
  }
  return out;
}

/** A failover table as JSON text, once per table (every route of a trunk shares its table). */
const failoverJsonCache = new WeakMap<FailoverTable, string>();
function failoverJson(table: FailoverTable): string {
  let out = failoverJsonCache.get(table);
  if (out === undefined) {
    out = JSON.stringify(table);
    failoverJsonCache.set(table, out);
  }
  return out;
}

/**
 * The answer payload of a decision, with the reject code and clause of the global route error
 * settings; `seq` the answer's number in the calls-up count (LiveState.count), null if none.
 */
export function answerOf(d: RoutingDecision, errors: ErrorResponses, seq: number | null = null): RouteAnswer {
  const configured = d.reject_reason === null ? undefined : errors.get(d.reject_reason);
  const i = d.ingress;
  return {
    result: d.result,
    reject_code: configured?.code ?? d.reject_code,
    reject_reason: configured?.clause || d.reject_reason,
    ingress:
      i === null
        ? null
        : {
            carrier_id: i.carrier_id,
            trunk_id: i.trunk_id,
            rate: i.rate,
            code: i.code,
            code_name: i.code_name,
            jurisdiction: i.jurisdiction,
            rate_table_id: i.rate_table_id,
          },
    routes: d.routes.map((r) => ({
      trunk_id: r.trunk_id,
      carrier_id: r.carrier_id,
      hosts: hostsOf(r.hosts),
      dnis: r.dnis,
      ani: r.ani,
      rate: r.rate,
      code: r.code,
      profit: r.profit,
      ring_timeout_s: r.ring_timeout_s,
      pdd_timeout_ms: r.pdd_timeout_ms,
      max_duration_s: r.max_duration_s,
      failover: r.failover,
    })),
    seq,
  };
}

const str = (v: string | null): string => (v === null ? 'null' : JSON.stringify(v));

/** The envelope of answerOf(d) as JSON text, written directly (same fields, same order). */
export function answerJson(d: RoutingDecision, errors: ErrorResponses, seq: number | null = null): string {
  const configured = d.reject_reason === null ? undefined : errors.get(d.reject_reason);
  const i = d.ingress;
  let out = `{"success":true,"payload":{"result":"${d.result}","reject_code":${configured?.code ?? d.reject_code ?? 'null'},"reject_reason":${str(configured?.clause || d.reject_reason)},"ingress":`;
  out +=
    i === null
      ? 'null'
      : `{"carrier_id":${i.carrier_id},"trunk_id":${i.trunk_id},"rate":${str(i.rate)},"code":${str(i.code)},"code_name":${str(i.code_name)},"jurisdiction":${str(i.jurisdiction)},"rate_table_id":${i.rate_table_id ?? 'null'}}`;
  out += ',"routes":[';
  const routes = d.routes;
  for (let k = 0; k < routes.length; k++) {
    const r = routes[k]!;
    if (k > 0) out += ',';
    out += `{"trunk_id":${r.trunk_id},"carrier_id":${r.carrier_id},"hosts":${hostsJson(r.hosts)},"dnis":${JSON.stringify(r.dnis)},"ani":${JSON.stringify(r.ani)},"rate":"${r.rate}","code":"${r.code}","profit":"${r.profit}","ring_timeout_s":${r.ring_timeout_s},"pdd_timeout_ms":${r.pdd_timeout_ms},"max_duration_s":${r.max_duration_s},"failover":${failoverJson(r.failover)}}`;
  }
  return out + `],"seq":${seq}},"error":null,"errors":null}`;
}
