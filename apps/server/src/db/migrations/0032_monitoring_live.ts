import { sql, type Kysely } from 'kysely';

/**
 * 0032_monitoring_live (issue 15, docs/monitoring.md):
 *
 * - The route API's monitoring state is reloaded only when it changed: every write of
 *   `monitoring_blocks` or `loop_rules` bumps the version 'monitoring' in `config_versions` (the
 *   statement triggers of 0005 for the routing snapshot's cached data sets), and each process's
 *   MonitorSync reads that one row every second instead of every block and rule.
 * - Each evaluation of a rule leaves a 'run' row in `monitoring_log` (what it looked at and what it
 *   decided); they are kept for a week, purged through this partial index.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `INSERT INTO config_versions (name, version) VALUES ('monitoring', 1) ON CONFLICT (name) DO NOTHING;
CREATE TRIGGER monitoring_blocks_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON monitoring_blocks
  FOR EACH STATEMENT EXECUTE FUNCTION config_versions_bump('monitoring');
CREATE TRIGGER loop_rules_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON loop_rules
  FOR EACH STATEMENT EXECUTE FUNCTION config_versions_bump('monitoring');
CREATE INDEX monitoring_log_runs ON monitoring_log (at) WHERE event = 'run';`,
    )
    .execute(db);
}
