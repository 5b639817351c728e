import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../http/context';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { writeCdrCsv } from './csv';
import { portalFieldRows, savePortalFields } from './portal-fields';
import { callAttempts, chosenFields, searchPage } from './search';
import { requestViewer, visibleFields } from './viewer';

const { CDR_ADMIN_DEFAULT_FIELDS } = api.cdrSearch;

/**
 * cdr-search (issue 10 section 4, docs/cdr.md#search): Statistics > CDRs List and the portals' CDR
 * pages (one endpoint, tenancy from the session), the one-call view, the field catalogue, the carrier
 * portal CDR field settings and the CSV download.
 */
export function registerCdrSearch(app: FastifyInstance, s: Services): void {
  implement(app, s, api.cdrSearch.searchCdrs, async (ctx) => {
    const viewer = await requestViewer(s.db, actorOf(ctx), ctx.lang);
    const fields = await chosenFields(s.db, viewer, ctx.query.fields);
    const { lastCursor: _, ...page } = await searchPage(s.db, viewer, ctx.query, fields);
    return page;
  });

  implement(app, s, api.cdrSearch.callDetail, async (ctx) =>
    callAttempts(s.db, await requestViewer(s.db, actorOf(ctx), ctx.lang), ctx.params.call_id),
  );

  implement(app, s, api.cdrSearch.cdrFields, async (ctx) => {
    const viewer = await requestViewer(s.db, actorOf(ctx), ctx.lang);
    const visible = new Set((await visibleFields(s.db, viewer)).map((f) => f.name));
    const items = api.cdrSearch.CDR_FIELDS.map((f) => ({
      name: f.name,
      label: { ...f.label },
      type: f.type,
      leg: f.leg,
      money: f.money,
      visible: visible.has(f.name),
    }));
    const defaults =
      viewer.type === 'admin' ? CDR_ADMIN_DEFAULT_FIELDS.filter((n) => visible.has(n)) : [...visible];
    return { items, default_fields: defaults };
  });

  implement(app, s, api.cdrSearch.downloadCdrs, async (ctx) => {
    const actor = actorOf(ctx);
    const viewer = await requestViewer(s.db, actor, ctx.lang);
    const { fields, ...filter } = ctx.query;
    const fileName = `cdrs-${filter.start.slice(0, 10)}.csv`;
    await s.db
      .insertInto('export_log')
      .values({
        user_id: actor.user.user_id,
        user_name: actor.user.name,
        client_id: actor.type === 'client' || actor.type === 'vendor' ? actor.clientId : null,
        entity: 'cdr',
        file_name: fileName,
      })
      .execute();
    const out = ctx.reply.raw;
    ctx.reply.hijack();
    out.writeHead(200, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${fileName}"`,
    });
    try {
      await writeCdrCsv(s.db, filter, fields, viewer, out);
    } catch (err) {
      s.log.error({ err }, 'CDR CSV download failed');
    }
    out.end();
  });

  implement(app, s, api.cdrSearch.getPortalFields, async () => ({ items: await portalFieldRows(s.db) }));
  implement(app, s, api.cdrSearch.putPortalFields, async (ctx) => ({
    items: await savePortalFields(s, actorOf(ctx), ctx.body.fields),
  }));
}
