import { allows, api, type CdrFieldDef, type Language, type UserType } from '@tandem/contract';
import type { Db } from '../../db/connection';
import type { Actor } from '../../http/context';
import { forbidden } from '../../http/errors';

const { CDR_FIELDS, FUNC, portalSideOf } = api.cdrSearch;

/**
 * Who is searching, as the search, the one-call view and the CSV writer need it: plain data, so an
 * export job can carry it and run later without the request. Tenancy keys come from the session,
 * never from what the caller sends.
 */
export interface CdrViewer {
  type: UserType;
  /** The carrier of a client or vendor user (-1 when the user has none: sees nothing). */
  clientId: number;
  /** The agent of an agent user. */
  agentId: number;
  /** An admin whose role grants "view cost and rate in reports" (portal users see their own bill). */
  costs: boolean;
  lang: Language;
}

export function viewerOf(actor: Actor, lang: Language): CdrViewer {
  return {
    type: actor.type,
    clientId: actor.clientId ?? -1,
    agentId: actor.agentId ?? -1,
    costs: actor.type === 'admin' ? allows(actor.grants, FUNC.viewCostAndRate, 'read') : true,
    lang,
  };
}

/**
 * The viewer of a request: a client or vendor whose carrier has the CDR list switched off in its
 * portal permissions (is_panel_cdrslist) is refused, as its menu does not offer the page.
 */
export async function requestViewer(db: Db, actor: Actor, lang: Language): Promise<CdrViewer> {
  const v = viewerOf(actor, lang);
  if (v.type === 'client' || v.type === 'vendor') {
    const c = await db
      .selectFrom('carriers')
      .select('is_panel_cdrslist')
      .where('client_id', '=', v.clientId)
      .executeTakeFirst();
    if (!c?.is_panel_cdrslist) throw forbidden();
  }
  return v;
}

export interface PortalSetting {
  client_viewable: boolean;
  vendor_viewable: boolean;
}

/** The portal field settings: a field without a row has the catalogue's default. */
export async function portalSettings(db: Db): Promise<Map<string, PortalSetting>> {
  const rows = await db.selectFrom('cdr_portal_fields').selectAll().execute();
  const stored = new Map(rows.map((r) => [r.field, r]));
  const out = new Map<string, PortalSetting>();
  for (const f of CDR_FIELDS) {
    const r = stored.get(f.name);
    const on = (side: 'client' | 'vendor') =>
      f.portal.includes(side) &&
      (f.requiredFor.includes(side) ||
        (r ? (side === 'client' ? r.client_viewable : r.vendor_viewable) : f.defaultFor.includes(side)));
    out.set(f.name, { client_viewable: on('client'), vendor_viewable: on('vendor') });
  }
  return out;
}

/** The catalogue fields the viewer may see, in catalogue order. */
export async function visibleFields(db: Db, v: CdrViewer): Promise<CdrFieldDef[]> {
  if (v.type === 'admin') return CDR_FIELDS.filter((f) => v.costs || !f.money);
  const side = portalSideOf(v.type);
  if (!side) return [];
  const settings = await portalSettings(db);
  return CDR_FIELDS.filter((f) => {
    const s = settings.get(f.name);
    return side === 'client' ? s?.client_viewable : s?.vendor_viewable;
  });
}
