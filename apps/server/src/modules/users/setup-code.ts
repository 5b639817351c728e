import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/connection';
import { countUsers } from './repository';

/**
 * The one-time setup code (issue 18, docs/security.md): while no user exists, creating the first
 * admin needs the code the server printed in its console and log at start, so whoever reaches the
 * port first cannot claim the instance. Kept in the settings table so every process of the
 * instance prints and accepts the same code; deleted with the first admin's creation.
 */
const KEY = 'setup_code';

/** The setup code while no user exists (made on first need), else null. */
export async function ensureSetupCode(db: Db, preset: string | null = null): Promise<string | null> {
  if ((await countUsers(db)) > 0) return null;
  if (preset) {
    await db
      .insertInto('settings')
      .values({ key: KEY, value: JSON.stringify({ code: preset }) })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify({ code: preset }) }))
      .execute();
    return preset;
  }
  const fresh = randomBytes(9)
    .toString('base64url')
    .replace(/[-_]/g, 'x')
    .match(/.{1,4}/g)!
    .join('-');
  await db
    .insertInto('settings')
    .values({ key: KEY, value: JSON.stringify({ code: fresh }) })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return storedSetupCode(db);
}

export async function storedSetupCode(db: Db): Promise<string | null> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', KEY).executeTakeFirst();
  const v = row?.value as { code?: unknown } | string | undefined;
  const parsed = typeof v === 'string' ? (JSON.parse(v) as { code?: unknown }) : v;
  return typeof parsed?.code === 'string' ? parsed.code : null;
}

/** Whether `given` is the stored setup code (compared in constant time). */
export async function setupCodeMatches(db: Db, given: string | undefined): Promise<boolean> {
  const code = await storedSetupCode(db);
  if (!code || !given) return false;
  const a = Buffer.from(code.toLowerCase());
  const b = Buffer.from(given.trim().toLowerCase());
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function dropSetupCode(db: Db): Promise<void> {
  await db.deleteFrom('settings').where('key', '=', KEY).execute();
}
