import { sql, type Kysely } from 'kysely';

/**
 * 0005_routing: what the routing area adds to 0002.
 * - who changed static and dynamic routes last; per-route QoS overrides of a dynamic route's trunks;
 * - switch API keys show their first characters (the key itself is stored hashed only);
 * - rate_changes: a log of the rate rows each statement touched, written by statement-level triggers
 *   on rates, so the routing snapshot reloads only what changed (a statement touching more than
 *   1,000 rows logs its rate tables instead, and the snapshot reloads those whole). Each row carries
 *   the writing transaction's id: the loader knows which changes every committed transaction left.
 * - config_versions: a version per data set the snapshot caches whole (US jurisdiction data).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
ALTER TABLE static_routes ADD COLUMN updated_by text NOT NULL DEFAULT '';
ALTER TABLE dynamic_routes ADD COLUMN updated_by text NOT NULL DEFAULT '';
ALTER TABLE dynamic_route_trunks
  ADD COLUMN override_asr numeric(6,2) CHECK (override_asr IS NULL OR override_asr BETWEEN 0 AND 100),
  ADD COLUMN override_acd numeric(10,2) CHECK (override_acd IS NULL OR override_acd >= 0);
ALTER TABLE switch_api_keys
  ADD COLUMN key_prefix text NOT NULL DEFAULT '',
  ADD COLUMN created_by text NOT NULL DEFAULT '';
CREATE INDEX block_list_trunk ON block_list (trunk_id);
CREATE INDEX static_route_item_trunks_trunk ON static_route_item_trunks (trunk_id);
CREATE INDEX dynamic_route_trunks_trunk ON dynamic_route_trunks (trunk_id);
CREATE INDEX routing_plan_rows_static ON routing_plan_rows (static_route_id);
CREATE INDEX routing_plan_rows_dynamic ON routing_plan_rows (dynamic_route_id);

CREATE TABLE rate_changes (
  seq bigserial PRIMARY KEY,
  xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  rate_table_id integer NOT NULL,
  -- null: reload the whole table
  rate_id bigint,
  at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX rate_changes_xid ON rate_changes (xid);

-- Versions of data sets the snapshot caches whole (bumped by statement triggers).
CREATE TABLE config_versions (name text PRIMARY KEY, version bigint NOT NULL DEFAULT 0);
CREATE FUNCTION config_versions_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO config_versions (name, version) VALUES (TG_ARGV[0], 1)
    ON CONFLICT (name) DO UPDATE SET version = config_versions.version + 1;
  RETURN NULL;
END $$;
CREATE TRIGGER us_jurisdiction_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON us_jurisdiction
  FOR EACH STATEMENT EXECUTE FUNCTION config_versions_bump('us_jurisdiction');

CREATE FUNCTION rate_changes_log() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE n bigint;
BEGIN
  IF TG_OP = 'DELETE' THEN
    SELECT count(*) INTO n FROM old_rows;
    IF n > 1000 THEN
      INSERT INTO rate_changes (rate_table_id, rate_id) SELECT DISTINCT rate_table_id, NULL::bigint FROM old_rows;
    ELSE
      INSERT INTO rate_changes (rate_table_id, rate_id) SELECT rate_table_id, rate_id FROM old_rows;
    END IF;
    RETURN NULL;
  END IF;
  SELECT count(*) INTO n FROM new_rows;
  IF n > 1000 THEN
    INSERT INTO rate_changes (rate_table_id, rate_id) SELECT DISTINCT rate_table_id, NULL::bigint FROM new_rows;
  ELSE
    INSERT INTO rate_changes (rate_table_id, rate_id) SELECT rate_table_id, rate_id FROM new_rows;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    -- a row moved to another rate table leaves the old one
    INSERT INTO rate_changes (rate_table_id, rate_id)
      SELECT o.rate_table_id, o.rate_id FROM old_rows o JOIN new_rows w ON w.rate_id = o.rate_id WHERE w.rate_table_id <> o.rate_table_id;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION rate_changes_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO rate_changes (rate_table_id, rate_id) VALUES (0, NULL);
  RETURN NULL;
END $$;

CREATE TRIGGER rates_log_insert AFTER INSERT ON rates REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION rate_changes_log();
CREATE TRIGGER rates_log_update AFTER UPDATE ON rates REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION rate_changes_log();
CREATE TRIGGER rates_log_delete AFTER DELETE ON rates REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION rate_changes_log();
CREATE TRIGGER rates_log_truncate AFTER TRUNCATE ON rates
  FOR EACH STATEMENT EXECUTE FUNCTION rate_changes_truncate();
`,
    )
    .execute(db);
}
