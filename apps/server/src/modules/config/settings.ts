import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { SystemConfig } from '@tandem/contract';
import type { Db } from '../../db/connection';

export interface LoginBrandingSettings {
  logo_image_id: number | null;
  favicon_id: number | null;
  background_image_id: number | null;
  title: string;
  content: string;
}

export const DEFAULT_SYSTEM: SystemConfig = {
  inactivity_timeout: 30,
  timezone: '+0000',
  hide_version: false,
  hide_support_link: false,
  hide_help_link: false,
  hide_license: false,
  support_link: 'mailto:support@example.com',
  help_link: '/api/docs',
  user_registration_enabled: true,
  base_url: '',
  operating_company: 'Tandem',
};
export const DEFAULT_BRANDING: LoginBrandingSettings = {
  logo_image_id: null,
  favicon_id: null,
  background_image_id: null,
  title: 'Tandem',
  content: '',
};

/** Key-value settings with typed defaults; unknown or missing keys fall back to the defaults. */
export class SettingsService {
  private secretCache: string | null = null;
  constructor(private readonly db: Db) {}

  async get<T extends object>(key: string, defaults: T, db: Db = this.db): Promise<T> {
    const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    return { ...defaults, ...((row?.value as Partial<T> | undefined) ?? {}) };
  }

  async set<T extends object>(key: string, value: T, db: Db = this.db): Promise<void> {
    await db
      .insertInto('settings')
      .values({ key, value: JSON.stringify(value) })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: sql`now()` }),
      )
      .execute();
  }

  system(db?: Db): Promise<SystemConfig> {
    return this.get('system', DEFAULT_SYSTEM, db);
  }
  branding(db?: Db): Promise<LoginBrandingSettings> {
    return this.get('login_branding', DEFAULT_BRANDING, db);
  }

  /** Server secret for derived tokens (the CDR API token); created on first use. */
  async secret(): Promise<string> {
    if (this.secretCache) return this.secretCache;
    const s = await this.get<{ value: string }>('server_secret', { value: '' });
    if (s.value) return (this.secretCache = s.value);
    const value = randomBytes(32).toString('base64url');
    await this.db
      .insertInto('settings')
      .values({ key: 'server_secret', value: JSON.stringify({ value }) })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    const again = await this.get<{ value: string }>('server_secret', { value: '' });
    return (this.secretCache = again.value);
  }
}
