import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { implementCrud } from '../../http/crud';
import { notFound } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { trunkGroupTable } from './groups';
import { lookups } from './lookups';
import { trunkTemplateTable } from './templates';
import { trunkTable } from './trunk-table';
import { listUnclaimed } from './unclaimed';

/** Trunks (issue 3): ingress and egress trunks, trunk groups, trunk templates, unclaimed trunks. */
export function registerTrunks(app: FastifyInstance, s: Services): void {
  implementCrud(app, s, api.trunks.trunk, trunkTable(s));
  implementCrud(app, s, api.trunks.trunkGroup, trunkGroupTable);
  implementCrud(app, s, api.trunks.ingressTrunkTemplate, trunkTemplateTable('ingress'));
  implementCrud(app, s, api.trunks.egressTrunkTemplate, trunkTemplateTable('egress'));

  implement(app, s, api.trunks.trunkRoutes, async (ctx) => {
    const id = ctx.params.id;
    if (!(await s.db.selectFrom('trunks').select('trunk_id').where('trunk_id', '=', id).executeTakeFirst()))
      throw notFound();
    const stat = await s.db
      .selectFrom('static_route_item_trunks as it')
      .innerJoin('static_route_items as i', 'i.id', 'it.item_id')
      .innerJoin('static_routes as r', 'r.static_route_id', 'i.static_route_id')
      .select(['r.static_route_id', 'r.name', 'i.code'])
      .where('it.trunk_id', '=', id)
      .orderBy('r.name')
      .orderBy('i.code')
      .execute();
    const byRoute = new Map<number, { static_route_id: number; name: string; codes: string[] }>();
    for (const r of stat) {
      const e = byRoute.get(r.static_route_id) ?? {
        static_route_id: r.static_route_id,
        name: r.name,
        codes: [],
      };
      e.codes.push(r.code);
      byRoute.set(r.static_route_id, e);
    }
    const dyn = await s.db
      .selectFrom('dynamic_route_trunks as dt')
      .innerJoin('dynamic_routes as d', 'd.dynamic_route_id', 'dt.dynamic_route_id')
      .select(['d.dynamic_route_id', 'd.name', 'd.rule'])
      .where('dt.trunk_id', '=', id)
      .orderBy('d.name')
      .execute();
    return { static_routes: [...byRoute.values()], dynamic_routes: dyn };
  });

  implement(app, s, api.trunks.unclaimedTrunks, async (ctx) => listUnclaimed(s.db, ctx.query) as never);
  implement(app, s, api.trunks.lookups, async () => lookups(s.db));
}
