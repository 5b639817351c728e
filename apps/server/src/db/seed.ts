import { MENU_MODULES } from '@tandem/contract';
import type { Db } from './connection';

/**
 * Reference data every installation has: the main menu groups and the sys_submenu catalogue
 * (idempotent: new items are added, existing ones renamed/reordered, ids kept so role privileges hold).
 */
export async function seedReferenceData(db: Db): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const [gi, m] of MENU_MODULES.entries()) {
      await trx
        .insertInto('main_menu')
        .values({ id: m.id, group_name: m.group_name, ordering: gi })
        .onConflict((oc) => oc.column('id').doUpdateSet({ group_name: m.group_name, ordering: gi }))
        .execute();
      for (const [ii, it] of m.items.entries()) {
        await trx
          .insertInto('sys_submenu')
          .values({
            main_menu_id: m.id,
            display_name: it.display_name,
            web_url: it.web_url,
            ordering: ii,
            sub: it.sub ?? null,
          })
          .onConflict((oc) =>
            oc
              .columns(['main_menu_id', 'web_url'])
              .doUpdateSet({ display_name: it.display_name, ordering: ii, sub: it.sub ?? null }),
          )
          .execute();
      }
    }
  });
}
