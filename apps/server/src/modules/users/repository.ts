import type { UserRow } from '@tandem/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { iso } from '../../db/paging';

/** Users joined with role and carrier names, as list and edit pages show them. */
export const userRowQuery = (db: Db) =>
  db
    .selectFrom('users as u')
    .leftJoin('roles as r', 'r.role_id', 'u.role_id')
    .leftJoin('carriers as c', 'c.client_id', 'u.client_id')
    .select([
      'u.user_id',
      'u.name',
      'u.first_name',
      'u.last_name',
      'u.email',
      'u.user_type',
      'u.role_id',
      'r.role_name',
      'u.client_id',
      'c.name as client_name',
      'u.agent_id',
      'u.active',
      'u.landing_page',
      'u.allowed_ips',
      'u.last_login_at',
      'u.last_seen_at',
      'u.created_at',
      sql<boolean>`exists (select 1 from sessions s where s.user_id = u.user_id and s.revoked_at is null and s.expires_at > now() and s.last_used_at > now() - interval '15 minutes')`.as(
        'is_online',
      ),
    ]);

type RawRow = Awaited<ReturnType<ReturnType<typeof userRowQuery>['execute']>>[number];

export const toUserRow = (r: RawRow): UserRow => ({
  user_id: r.user_id,
  name: r.name,
  first_name: r.first_name,
  last_name: r.last_name,
  email: r.email,
  user_type: r.user_type,
  role_id: r.role_id ?? 0,
  role_name: r.role_name ?? null,
  client_id: r.client_id,
  client_name: r.client_name ?? null,
  agent_id: r.agent_id,
  active: r.active,
  is_online: Boolean(r.is_online),
  landing_page: r.landing_page,
  allowed_ips: r.allowed_ips,
  last_login: iso(r.last_login_at),
  last_seen: iso(r.last_seen_at),
  created_at: r.created_at.toISOString(),
});

export async function nameTaken(db: Db, name: string, exceptId?: number): Promise<boolean> {
  let q = db
    .selectFrom('users')
    .select('user_id')
    .where(sql<string>`lower(name)`, '=', name.toLowerCase());
  if (exceptId) q = q.where('user_id', '!=', exceptId);
  return Boolean(await q.executeTakeFirst());
}

/**
 * Serialises the first-admin setup with other user creation that is open while no user exists (a
 * transaction-level lock): without it two concurrent setups could both see no user.
 */
export async function lockUserCreation(db: Db): Promise<void> {
  await sql`select pg_advisory_xact_lock(7362001)`.execute(db);
}

export async function countUsers(db: Db): Promise<number> {
  const r = await db
    .selectFrom('users')
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
