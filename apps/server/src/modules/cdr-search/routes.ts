import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../../db/connection';
import { actorOf } from '../../http/context';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { CDR_PAGE_ROWS, cdrCsvPages, iterateCdrs, writeCdrCsv } from './csv';
import { portalFieldRows, savePortalFields } from './portal-fields';
import { callAttempts, chosenFields, searchPage } from './search';
import { requestViewer, visibleFields, type CdrViewer } from './viewer';

const { CDR_ADMIN_DEFAULT_FIELDS, cdrField } = api.cdrSearch;
type CdrExportFilter = z.output<typeof api.cdrSearch.cdrExportFilter>;

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

  implement(app, s, api.cdrSearch.cdrFields, async (ctx) =>
    fieldCatalogue(s.db, await requestViewer(s.db, actorOf(ctx), ctx.lang)),
  );

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

  registerCdrExport(s);

  implement(app, s, api.cdrSearch.getPortalFields, async () => ({ items: await portalFieldRows(s.db) }));
  implement(app, s, api.cdrSearch.putPortalFields, async (ctx) => ({
    items: await savePortalFields(s, actorOf(ctx), ctx.body.fields),
  }));
}

/** The field catalogue with what the viewer may see and its default columns (GET /cdr/fields). */
export async function fieldCatalogue(db: Db, viewer: CdrViewer) {
  const visible = new Set((await visibleFields(db, viewer)).map((f) => f.name));
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
}

/**
 * Export kind `cdr` (POST /export/create): a whole search (up to 62 days) as CSV or XLSX, written by
 * a job into the export log. The viewer and its fields are worked out when it is asked for (tenancy,
 * portal fields, cost permission, the user's language for the headers) and travel with the job.
 */
function registerCdrExport(s: Services): void {
  const defsOf = (fields: readonly string[]) => fields.flatMap((n) => cdrField(n) ?? []);
  s.exports.register<CdrExportFilter, { viewer: CdrViewer; fields: string[] }>('cdr', {
    permission: { func: api.cdrSearch.FUNC.cdrsList, level: 'read', portal: ['client', 'vendor', 'agent'] },
    filter: api.cdrSearch.cdrExportFilter,
    fileName: 'cdrs',
    entity: 'cdr',
    async prepare(filter, actor, lang) {
      const viewer = await requestViewer(s.db, actor, lang);
      const fields = (await chosenFields(s.db, viewer, filter.fields)).map((f) => f.name);
      return { viewer, fields };
    },
    columns: ({ viewer, fields }) =>
      fields.map((name) => {
        const f = cdrField(name);
        return {
          key: name,
          header: f?.label[viewer.lang] ?? name,
          numeric: f?.type === 'money' || f?.type === 'int' || f?.type === 'seconds' || f?.type === 'ms',
        };
      }),
    pages: (filter, _user, { viewer, fields }) =>
      iterateCdrs(s.db, filter, defsOf(fields), viewer, CDR_PAGE_ROWS[s.dbKind]),
    csvPages: (filter, _user, { viewer, fields }) => cdrCsvPages(s.db, filter, defsOf(fields), viewer),
  });
}
