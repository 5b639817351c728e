import { api, ErrorCode } from '@tandem/contract';
import { decide, type RoutingSnapshot, type SnapshotTrunk } from '@tandem/domain';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { z } from 'zod';
import { AppError, invalidField } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import type { LiveState } from './live-state';
import type { SnapshotService } from './snapshot-service';
import { answerOf, callTime } from './switch-api';

type AnalysisVendor = z.output<typeof api.routing.analysisVendor>;
const MAX_CODES = 500;

/**
 * Tools > Call Simulation (the engine's decision with its trace, on a copy of the live counters so
 * nothing is counted) and Tools > Routing Analysis (vendor order and margins per code for a
 * customer trunk). Both ask the same engine as the route API.
 */
export function registerRoutingTools(
  app: FastifyInstance,
  s: Services,
  engine: SnapshotService,
  live: LiveState,
): void {
  const snapshotOrFail = (): RoutingSnapshot => {
    const snapshot = engine.snapshot;
    if (snapshot === null) throw new AppError(ErrorCode.internal, 'engineNotReady', [], 503);
    return snapshot;
  };

  implement(app, s, api.routing.callSimulation, async (ctx) => {
    const snapshot = snapshotOrFail();
    const b = ctx.body;
    const time = callTime(b.time, Date.now());
    const d = decide(
      snapshot,
      {
        source_ip: b.source_ip,
        source_port: b.source_port,
        ani: b.ani,
        dnis: b.dnis,
        lrn: b.lrn,
        time,
        ocn: b.ocn,
        origid: b.origid,
        attestation: b.attestation,
      },
      live.copy(),
      { trace: true },
    );
    const answer = answerOf(d, engine.errorResponses);
    const names = namer(snapshot);
    const ingress = d.ingress;
    return {
      result: answer.result,
      reject_code: answer.reject_code,
      reject_reason: answer.reject_reason,
      ani: d.ani,
      dnis: d.dnis,
      time: new Date(time).toISOString(),
      ingress:
        ingress === null
          ? null
          : {
              ...answer.ingress!,
              ...names.trunk(ingress.trunk_id),
              tech_prefix: ingress.tech_prefix,
              rate_table_name:
                ingress.rate_table_id === null
                  ? null
                  : (snapshot.rate_tables.get(ingress.rate_table_id)?.name ?? null),
              routing_plan_id: ingress.routing_plan_id,
              routing_plan_name:
                ingress.routing_plan_id === null
                  ? null
                  : (snapshot.routing_plans.get(ingress.routing_plan_id)?.name ?? null),
            },
      routes: d.routes.map((r, i) => ({
        ...answer.routes[i]!,
        ...names.trunk(r.trunk_id),
        code_name: r.code_name,
        rate_table_id: r.rate_table_id,
        rate_table_name: snapshot.rate_tables.get(r.rate_table_id)?.name ?? `#${r.rate_table_id}`,
      })),
      trace: d.trace.map((t) => ({
        step: t.step,
        outcome: t.outcome,
        detail: t.detail,
        ...(t.data ? { data: JSON.parse(JSON.stringify(t.data)) as Record<string, unknown> } : {}),
      })),
      trunk_names: Object.fromEntries(
        [
          ...new Set(d.trace.map((s) => s.data?.trunk_id).filter((x): x is number => typeof x === 'number')),
        ].map((tid) => [String(tid), names.trunk(tid)]),
      ),
      snapshot: { version: engine.snapshotVersion, built_at: engine.snapshotBuiltAt?.toISOString() ?? null },
    };
  });

  implement(app, s, api.routing.routingAnalysis, async (ctx) => {
    const snapshot = snapshotOrFail();
    const b = ctx.body;
    const trunk = snapshot.trunks.get(b.trunk_id);
    if (!trunk) throw invalidField('trunk_id', 'invalidValue', ['trunk_id']);
    if (trunk.direction !== 'ingress')
      throw invalidField('trunk_id', 'trunkWrongType', [trunk.name, 'ingress']);
    const host = trunk.hosts.find((h) => /^\d+\.\d+\.\d+\.\d+$/.test(h.ip));
    if (!host) throw invalidField('trunk_id', 'trunkHasNoHost', [trunk.name]);
    const product = trunk.products.find((p) => p.tech_prefix === '') ?? trunk.products[0] ?? null;
    const time = callTime(b.time, Date.now());

    // The codes asked for, then the codes of the countries in the customer's rate table.
    const wanted = new Map<string, { code_name: string | null; country: string | null }>();
    for (const code of b.codes) wanted.set(code, { code_name: null, country: null });
    if (b.countries.length && product?.rate_table_id != null) {
      const names = b.countries.map((c) => c.toLowerCase());
      const rows = await s.db
        .selectFrom('rates')
        .select(['code', 'code_name', 'country'])
        .distinctOn('code')
        .where('rate_table_id', '=', product.rate_table_id)
        .where((eb) =>
          eb.or([
            eb(sql`lower(country)`, 'in', names),
            ...names.map((n) => eb(sql`lower(code_name)`, 'like', `${n.replace(/[\\%_]/g, '')}%`)),
          ]),
        )
        .orderBy('code')
        .limit(MAX_CODES + 1)
        .execute();
      for (const r of rows)
        if (!wanted.has(r.code))
          wanted.set(r.code, { code_name: r.code_name || null, country: r.country || null });
    }
    const codes = [...wanted.entries()].slice(0, MAX_CODES);
    const state = live.copy();
    const names = namer(snapshot);
    const rows = codes.map(([code, known]) => {
      const d = decide(
        snapshot,
        {
          source_ip: host.ip,
          source_port: host.port ?? null,
          ani: '',
          dnis: (product?.tech_prefix ?? '') + code,
          time,
        },
        state,
        { trace: true },
      );
      const vendors: AnalysisVendor[] = [];
      const position = new Map(d.routes.map((r, i) => [r.trunk_id, i]));
      for (const step of d.trace) {
        if (step.step !== 'egress' || !step.data || typeof step.data.trunk_id !== 'number') continue;
        const id = step.data.trunk_id;
        const at = position.get(id);
        const route = at === undefined ? undefined : d.routes[at];
        if (vendors.some((v) => v.trunk_id === id)) continue;
        vendors.push({
          ...names.trunk(id),
          trunk_id: id,
          position: at === undefined ? null : at + 1,
          rate: route?.rate ?? (typeof step.data.rate === 'string' ? step.data.rate : null),
          profit: route?.profit ?? null,
          margin_percent: typeof step.data.margin_percent === 'string' ? step.data.margin_percent : null,
          dropped:
            step.outcome === 'fail'
              ? typeof step.data.reason === 'string'
                ? step.data.reason
                : 'dropped'
              : at === undefined
                ? 'beyond_max_routes'
                : null,
        });
      }
      vendors.sort((x, y) => (x.position ?? Infinity) - (y.position ?? Infinity));
      return {
        code,
        code_name: d.ingress?.code_name ?? known.code_name,
        country: known.country,
        result: d.result,
        reject_reason: d.reject_reason,
        ingress_rate: d.ingress?.rate ?? null,
        vendors,
      };
    });
    return {
      trunk: {
        trunk_id: trunk.trunk_id,
        name: trunk.name,
        carrier_name: trunk.carrier?.name ?? `#${trunk.carrier_id}`,
        rate_table_id: product?.rate_table_id ?? null,
        rate_table_name: product?.rate_table?.name ?? null,
      },
      rows,
      truncated: wanted.size > MAX_CODES,
    };
  });
}

/** Trunk and carrier names for ids of a snapshot. */
function namer(snapshot: RoutingSnapshot) {
  return {
    trunk(id: number): { trunk_name: string; carrier_name: string } {
      const t: SnapshotTrunk | undefined = snapshot.trunks.get(id);
      return {
        trunk_name: t?.name ?? `#${id}`,
        carrier_name: t?.carrier?.name ?? (t ? `#${t.carrier_id}` : ''),
      };
    },
  };
}
