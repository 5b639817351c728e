import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { SystemSettings } from '@tandem/contract';
import type { Db } from '../../db/connection';

export interface LoginBrandingSettings {
  logo_image_id: number | null;
  favicon_id: number | null;
  background_image_id: number | null;
  title: string;
  content: string;
}

/** System settings until an admin changes them (docs/system-settings.md says what reads each). */
export const DEFAULT_SYSTEM: SystemSettings = {
  base_url: '',
  timezone: '+0000',
  inactivity_timeout: 30,
  operating_company: 'Tandem',
  // Off until the operator turns it on (issue 18): an unclaimed instance is not open to anyone.
  user_registration_enabled: false,
  default_ring_timeout_s: 60,
  max_call_duration_s: 7200,
  default_us_ij_rule: 'inter',
  hide_version: false,
  hide_support_link: false,
  hide_help_link: false,
  hide_license: false,
  support_link: 'mailto:support@example.com',
  help_link: '/api/docs',
  notify_admin_emails: [],
  notify_finance_emails: [],
  notify_noc_emails: [],
  notify_ftp_failure_emails: [],
  billing_decimals: 6,
  report_decimals: 4,
  cdr_include_unauthorized_ip: false,
  short_call_seconds: 6,
  cdr_retention_days: 180,
  log_retention_days: 180,
  export_retention_days: 30,
  lrn_master_ip: '',
  lrn_master_port: 5060,
  lrn_slave_ip: '',
  lrn_slave_port: 5060,
  lrn_timeout_s: 3,
  lrn_retry_attempts: 1,
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

  /** The system settings: stored values over the defaults; keys no longer in the settings are dropped. */
  async system(db?: Db): Promise<SystemSettings> {
    const v = await this.get('system', DEFAULT_SYSTEM, db);
    return pick(v, Object.keys(DEFAULT_SYSTEM) as (keyof SystemSettings)[]);
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

/** Only the given keys of an object. */
export function pick<T extends object, K extends keyof T>(v: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const k of keys) out[k] = v[k];
  return out;
}
