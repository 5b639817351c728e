import type { Db } from '../../db/connection';

/** Who made a change: a signed-in user, or a named process (seed-demo, a job) without a user id. */
export type AuditActor = { user: { user_id: number | null; name: string } } | null;

/** The modification log: one row for every write (who, when, entity, before, after). */
export class AuditLog {
  async record(
    db: Db,
    actor: AuditActor,
    entity: string,
    entityId: string | number,
    action: string,
    before: unknown,
    after: unknown,
  ): Promise<void> {
    await db
      .insertInto('modification_log')
      .values({
        user_id: actor?.user.user_id ?? null,
        user_name: actor?.user.name ?? 'system',
        entity,
        entity_id: String(entityId),
        action,
        before: before === null || before === undefined ? null : JSON.stringify(redact(before)),
        after: after === null || after === undefined ? null : JSON.stringify(redact(after)),
      })
      .execute();
  }
}

const SECRET_FIELDS = new Set([
  'password_hash',
  'passwd',
  'password',
  'data',
  'token_hash',
  'password_enc',
  'secret_enc',
  'webhook_secret_enc',
  'secret_key',
  'webhook_secret',
]);
function redact(v: unknown): unknown {
  if (v === null || typeof v !== 'object' || v instanceof Date) return v;
  if (Array.isArray(v)) return v.map(redact);
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(v)) out[k] = SECRET_FIELDS.has(k) ? '***' : redact(val);
  return out;
}
