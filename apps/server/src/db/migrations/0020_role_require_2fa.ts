import { sql, type Kysely } from 'kysely';

/**
 * 0020_role_require_2fa: two-factor sign-in required per role (issue 18 point 8, docs/security.md).
 *
 * roles.require_2fa: a user of the role who has not turned two-factor sign-in on still signs in with
 * the password, but the session may only enrol (set up and confirm TOTP), read what the frame needs
 * and sign out until it is on (`implement()` in apps/server/src/http/register.ts). Off for every
 * existing role: the operator chooses.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE roles ADD COLUMN require_2fa boolean NOT NULL DEFAULT false`.execute(db);
}
