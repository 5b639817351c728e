import { api, ErrorCode } from '@tandem/contract';
import { decide, type RoutingDecision, type TrunkHostConfig } from '@tandem/domain';
import type { FastifyInstance } from 'fastify';
import { AppError, invalidField } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import type { z } from 'zod';

type RouteAnswer = z.output<typeof api.routing.routeAnswer>;
import type { LiveState } from './live-state';
import type { SnapshotService } from './snapshot-service';

/**
 * The route API of the SIP proxy: POST /api/switch/route for every new call, POST /api/switch/calls
 * for the calls up per trunk. The handler reads the snapshot and the live counters in memory and
 * makes no query.
 */
export function registerSwitchApi(
  app: FastifyInstance,
  s: Services,
  engine: SnapshotService,
  live: LiveState,
): void {
  implement(app, s, api.routing.switchRoute, async (ctx) => {
    const snapshot = engine.snapshot;
    if (snapshot === null) throw new AppError(ErrorCode.internal, 'engineNotReady', [], 503);
    const b = ctx.body;
    const now = Date.now();
    const time = callTime(b.time, now);
    live.tick(now);
    const d = decide(
      snapshot,
      {
        source_ip: b.source_ip,
        source_port: b.source_port ?? null,
        ani: b.ani,
        dnis: b.dnis,
        lrn: b.lrn ?? null,
        time,
      },
      live,
    );
    live.count(d);
    return answerOf(d, engine.errorResponses);
  });

  implement(app, s, api.routing.switchCalls, async (ctx) => {
    live.setCalls(ctx.body.trunks, engine.snapshot);
    return null;
  });
}

/** The call time of a request: epoch ms, or ISO 8601, or now. */
export function callTime(time: string | number | null | undefined, now: number): number {
  if (time === undefined || time === null || time === '') return now;
  const ms = typeof time === 'number' ? time : Date.parse(time);
  if (!Number.isFinite(ms)) throw invalidField('time', 'invalidCallTime', ['time']);
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

/** The answer payload of a decision, with the reject code and clause of the global route error settings. */
export function answerOf(
  d: RoutingDecision,
  errors: ReadonlyMap<string, { code: number; clause: string }>,
): RouteAnswer {
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
    })),
  };
}
