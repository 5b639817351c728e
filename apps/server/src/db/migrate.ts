import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './connection';
import * as m0001 from './migrations/0001_frame';
import * as m0002 from './migrations/0002_switch_config';
import * as m0003 from './migrations/0003_rates';
import * as m0004 from './migrations/0004_carriers_trunks';
import * as m0005 from './migrations/0005_routing';
import * as m0006 from './migrations/0006_rate_generation';
import * as m0007 from './migrations/0007_rate_delivery';
import * as m0008 from './migrations/0008_routing_extras';
import * as m0009 from './migrations/0009_rate_change_log';
import * as m0011 from './migrations/0011_trunk_qos_samples';
import * as m0012 from './migrations/0012_cdr';
import * as m0013 from './migrations/0013_hardening';
import * as m0014 from './migrations/0014_jobs';
import * as m0015 from './migrations/0015_cdr_search';
import * as m0016 from './migrations/0016_rerate';
import * as m0019 from './migrations/0019_cdr_summaries';
import * as m0020 from './migrations/0020_role_require_2fa';
import * as m0021 from './migrations/0021_billing';
import * as m0022 from './migrations/0022_mail';
import * as m0023 from './migrations/0023_did';
import * as m0024 from './migrations/0024_monitoring';
import * as m0025 from './migrations/0025_agents';
import * as m0026 from './migrations/0026_cdr_upload';
import * as m0027 from './migrations/0027_report_schedules';
import * as m0028 from './migrations/0028_note_idempotency';
import * as m0029 from './migrations/0029_did_assignments_import';
import * as m0030 from './migrations/0030_finance_extras';
import * as m0032 from './migrations/0032_monitoring_live';
import * as m0033 from './migrations/0033_stats_options';
import * as m0034 from './migrations/0034_did_port_requests';
import * as m0035 from './migrations/0035_cdr_summaries_daily_detail';
import * as m0036 from './migrations/0036_db_cleansing';
import * as m0037 from './migrations/0037_csv_cell';
import * as m0038 from './migrations/0038_cdr_summary_queue';
import * as m0039 from './migrations/0039_balance_resets';

/** Versioned migrations, applied in order at start (and by `tandem migrate`). */
const migrations: Record<string, Migration> = {
  '0001_frame': m0001,
  '0002_switch_config': m0002,
  '0003_rates': m0003,
  '0004_carriers_trunks': m0004,
  '0005_routing': m0005,
  '0006_rate_generation': m0006,
  '0007_rate_delivery': m0007,
  '0008_routing_extras': m0008,
  '0009_rate_change_log': m0009,
  '0011_trunk_qos_samples': m0011,
  '0012_cdr': m0012,
  '0013_hardening': m0013,
  '0014_jobs': m0014,
  '0015_cdr_search': m0015,
  '0016_rerate': m0016,
  '0019_cdr_summaries': m0019,
  '0020_role_require_2fa': m0020,
  '0021_billing': m0021,
  '0022_mail': m0022,
  '0023_did': m0023,
  '0024_monitoring': m0024,
  '0025_agents': m0025,
  '0026_cdr_upload': m0026,
  '0027_report_schedules': m0027,
  '0028_note_idempotency': m0028,
  '0029_did_assignments_import': m0029,
  '0030_finance_extras': m0030,
  '0032_monitoring_live': m0032,
  '0033_stats_options': m0033,
  '0034_did_port_requests': m0034,
  '0035_cdr_summaries_daily_detail': m0035,
  '0036_db_cleansing': m0036,
  '0037_csv_cell': m0037,
  '0038_cdr_summary_queue': m0038,
  '0039_balance_resets': m0039,
};

/** Every migration, in the order they apply. */
export const MIGRATION_NAMES = Object.keys(migrations);

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations) };

export async function migrateToLatest(db: Db): Promise<string[]> {
  // Migrations from parallel branches may land in any order; each one is independent of later numbers.
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(JSON.stringify(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
