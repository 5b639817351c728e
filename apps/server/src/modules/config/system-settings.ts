import type { SystemSettings } from '@tandem/contract';
import type { Actor } from '../../http/context';
import type { Services } from '../../services';
import { SYSTEM_ROUTING_KEYS } from '../routing/routing-settings';

/**
 * Changes some system settings: read, merged, stored and audited in one transaction; the routing
 * snapshot is rebuilt when a setting it holds changed. The one write path of System Setting and
 * DB Cleansing (its retentions are system settings).
 */
export async function patchSystemSettings(
  s: Services,
  actor: Actor,
  patch: Partial<SystemSettings>,
): Promise<void> {
  const { before, after } = await s.db.transaction().execute(async (trx) => {
    const before = await s.settings.system(trx);
    const after = { ...before, ...patch };
    await s.settings.set('system', after, trx);
    await s.audit.record(trx, actor, 'system_setting', 'system', 'update', before, after);
    return { before, after };
  });
  if (SYSTEM_ROUTING_KEYS.some((k) => before[k] !== after[k])) s.configChanged.notify();
}
