import type { Services } from '../../services';
import { evaluatePass } from './evaluate';

/**
 * `tandem seed-demo`: a fraud detection rule on the demo customer's trunk, a monitoring rule over
 * the demo vendors' trunks and a loop detection rule, each created once (looked up by name), then
 * one evaluation pass over the demo traffic so the screens show their first run. Returns how many
 * rules were created.
 */
export async function seedDemoMonitoring(s: Services): Promise<number> {
  const trunkId = async (name: string) =>
    (await s.db.selectFrom('trunks').select('trunk_id').where('name', '=', name).executeTakeFirst())
      ?.trunk_id;
  const ingress = await trunkId('Demo Client In');
  const vendors = [await trunkId('Demo Vendor Out'), await trunkId('Demo Vendor Two Out')].filter(
    (x): x is number => x !== undefined,
  );
  if (ingress === undefined || vendors.length === 0) return 0;
  let created = 0;
  const now = new Date();
  await s.db.transaction().execute(async (trx) => {
    const exists = async (table: 'fraud_rules' | 'monitoring_rules' | 'loop_rules', name: string) =>
      (await trx.selectFrom(table).select('id').where('rule_name', '=', name).executeTakeFirst()) !==
      undefined;
    const audit = (entity: string, id: number, after: unknown) =>
      s.audit.record(trx, null, entity, id, 'create (demo)', null, after);
    if (!(await exists('fraud_rules', 'Demo expensive hour'))) {
      const row = {
        rule_name: 'Demo expensive hour',
        scope: 'trunks' as const,
        granularity: 'trunk' as const,
        trunk_ids: JSON.stringify([ingress]),
        hour_revenue: '1000',
        day_revenue: '10000',
        min_attempts: 1,
        block: true,
        unblock_after_minutes: 60,
        email_to: 'own' as const,
        email_subject: 'Fraud alert: {trunk} ({rule})',
        updated_at: now,
      };
      const r = await trx.insertInto('fraud_rules').values(row).returning('id').executeTakeFirstOrThrow();
      await audit('fraud_rule', r.id, row);
      created++;
    }
    if (!(await exists('monitoring_rules', 'Demo vendor ASR'))) {
      const row = {
        rule_name: 'Demo vendor ASR',
        side: 'egress' as const,
        trunk_ids: JSON.stringify(vendors),
        codes: JSON.stringify([]),
        asr_below: '15',
        acd_below: '0.5',
        min_attempts: 20,
        sample_minutes: 60,
        every_minutes: 5,
        action_block: 'none' as const,
        email_to: 'own' as const,
        updated_at: now,
      };
      const r = await trx
        .insertInto('monitoring_rules')
        .values(row)
        .returning('id')
        .executeTakeFirstOrThrow();
      await audit('monitoring_rule', r.id, row);
      created++;
    }
    if (!(await exists('loop_rules', 'Demo loops'))) {
      const row = {
        rule_name: 'Demo loops',
        trunk_ids: JSON.stringify([ingress]),
        number_ranges: JSON.stringify([]),
        max_calls: 5,
        window_seconds: 10,
        block_seconds: 300,
        updated_at: now,
      };
      const r = await trx.insertInto('loop_rules').values(row).returning('id').executeTakeFirstOrThrow();
      await audit('loop_rule', r.id, row);
      created++;
    }
  });
  if (created > 0) await evaluatePass(s, { force: true });
  return created;
}
