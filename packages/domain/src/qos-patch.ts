/**
 * New QoS figures of the dynamic routes' trunks written into a built snapshot, without building
 * it again.
 *
 * The switch reports QoS counters every few minutes (POST /switch/qos) and every report moves the
 * ASR and ACD the largest-ASR / largest-ACD routes order by. Nothing else changes, so a full
 * buildSnapshot (a second or more with hundreds of thousands of codes) would be wasted work: the
 * figures are written into the pool entries of the snapshot in service instead.
 *
 * All or nothing: the routes and their pools must be the snapshot's (same routes, same trunks in
 * the same order), else nothing is written and false is returned (the caller builds). The write is
 * one synchronous pass, so no decision sees half of it.
 */
import type { DynamicRouteConfig, QosFigures } from './config';
import type { RouteTrunk, RoutingSnapshot } from './snapshot-types';

type Writable = { -readonly [K in keyof RouteTrunk]: RouteTrunk[K] };

export function patchDynamicQos(snapshot: RoutingSnapshot, routes: readonly DynamicRouteConfig[]): boolean {
  if (routes.length !== snapshot.dynamic_routes.size) return false;
  for (const route of routes) {
    const built = snapshot.dynamic_routes.get(route.dynamic_route_id);
    if (built === undefined || built.trunks.length !== route.trunks.length) return false;
    for (let i = 0; i < route.trunks.length; i++)
      if (built.trunks[i]!.trunk_id !== route.trunks[i]!.trunk_id) return false;
  }
  for (const route of routes) {
    const built = snapshot.dynamic_routes.get(route.dynamic_route_id)!;
    for (let i = 0; i < route.trunks.length; i++) {
      const entry = built.trunks[i] as Writable;
      const qos: QosFigures | null = route.trunks[i]!.qos ?? null;
      if (!sameQos(entry.qos, qos)) entry.qos = qos;
    }
  }
  return true;
}

function sameQos(a: QosFigures | null, b: QosFigures | null): boolean {
  return a === b || (a !== null && b !== null && a.asr === b.asr && a.acd === b.acd);
}
