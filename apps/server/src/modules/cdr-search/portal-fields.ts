import { api, type PortalFieldRow } from '@tandem/contract';
import type { Db } from '../../db/connection';
import type { Actor } from '../../http/context';
import type { Services } from '../../services';
import { portalSettings } from './viewer';

const { CDR_FIELDS } = api.cdrSearch;

/** Configuration > Carrier Portal CDR Fields: every catalogue field with what each portal side sees. */
export async function portalFieldRows(db: Db): Promise<PortalFieldRow[]> {
  const settings = await portalSettings(db);
  return CDR_FIELDS.filter((f) => f.portal.length > 0).map((f) => {
    const s = settings.get(f.name)!;
    return {
      name: f.name,
      label: f.label,
      leg: f.leg,
      client_allowed: f.portal.includes('client'),
      vendor_allowed: f.portal.includes('vendor'),
      client_viewable: s.client_viewable,
      vendor_viewable: s.vendor_viewable,
      requiredForClient: f.requiredFor.includes('client'),
      requiredForVendor: f.requiredFor.includes('vendor'),
    };
  });
}

/** Saves the settings of the fields sent (one transaction, one modification log row). */
export async function savePortalFields(
  s: Services,
  actor: Actor,
  fields: { name: string; client_viewable: boolean; vendor_viewable: boolean }[],
): Promise<PortalFieldRow[]> {
  return s.db.transaction().execute(async (trx) => {
    const before = await portalFieldRows(trx);
    for (const f of fields) {
      await trx
        .insertInto('cdr_portal_fields')
        .values({ field: f.name, client_viewable: f.client_viewable, vendor_viewable: f.vendor_viewable })
        .onConflict((oc) =>
          oc.column('field').doUpdateSet({
            client_viewable: f.client_viewable,
            vendor_viewable: f.vendor_viewable,
            updated_at: new Date(),
          }),
        )
        .execute();
    }
    const after = await portalFieldRows(trx);
    const brief = (rows: PortalFieldRow[]) =>
      Object.fromEntries(rows.map((r) => [r.name, { client: r.client_viewable, vendor: r.vendor_viewable }]));
    await s.audit.record(
      trx,
      actor,
      'carrier_portal_cdr_fields',
      'all',
      'update',
      brief(before),
      brief(after),
    );
    return after;
  });
}
