import { sql, type Kysely } from 'kysely';

/**
 * 0024_monitoring: fraud detection, monitoring and loop detection rules (issue 15,
 * docs/monitoring.md).
 *
 * - fraud_rules, monitoring_rules, loop_rules: the rules (trunk lists, codes and number ranges as
 *   JSON arrays; thresholds as exact NUMERIC, null when not used).
 * - monitoring_state: the fire-once state of each (rule, subject): 'breached' after the rule fired
 *   for it, back to 'clear' when the traffic is fine again (or its block ran out).
 * - monitoring_blocks: blocks placed by rules, read by the route API of every server process
 *   (active: not lifted and `until` not passed); lifted by time ('expired') or by hand ('manual').
 * - monitoring_log: the execution log (runs, triggers, clears, blocks, unblocks, e-mails, loops).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
CREATE TABLE fraud_rules (
  id serial PRIMARY KEY,
  rule_name text NOT NULL,
  is_active boolean NOT NULL DEFAULT true,
  scope text NOT NULL DEFAULT 'trunks' CHECK (scope IN ('all', 'trunks')),
  granularity text NOT NULL DEFAULT 'trunk' CHECK (granularity IN ('trunk', 'ani')),
  trunk_ids jsonb NOT NULL DEFAULT '[]',
  hour_minutes numeric(20,6),
  hour_revenue numeric(20,6),
  hour_cost numeric(20,6),
  day_minutes numeric(20,6),
  day_revenue numeric(20,6),
  day_cost numeric(20,6),
  asr_below numeric(20,6),
  acd_below numeric(20,6),
  min_attempts integer NOT NULL DEFAULT 1,
  block boolean NOT NULL DEFAULT true,
  unblock_after_minutes integer,
  email_to text NOT NULL DEFAULT 'none' CHECK (email_to IN ('none', 'partner', 'own', 'both')),
  email_subject text NOT NULL DEFAULT '',
  last_run_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL DEFAULT 'system'
);
CREATE UNIQUE INDEX fraud_rules_name ON fraud_rules (lower(rule_name));

CREATE TABLE monitoring_rules (
  id serial PRIMARY KEY,
  rule_name text NOT NULL,
  is_active boolean NOT NULL DEFAULT true,
  side text NOT NULL DEFAULT 'egress' CHECK (side IN ('egress', 'ingress')),
  trunk_ids jsonb NOT NULL DEFAULT '[]',
  code_mode text NOT NULL DEFAULT 'all' CHECK (code_mode IN ('all', 'include', 'exclude')),
  codes jsonb NOT NULL DEFAULT '[]',
  asr_below numeric(20,6),
  acd_below numeric(20,6),
  ner_below numeric(20,6),
  profit_below numeric(20,6),
  sdp_above numeric(20,6),
  pdd_above numeric(20,6),
  min_attempts integer NOT NULL,
  sample_minutes integer NOT NULL,
  every_minutes integer NOT NULL,
  action_block text NOT NULL DEFAULT 'none' CHECK (action_block IN ('none', 'trunk', 'route')),
  unblock_after_minutes integer,
  email_to text NOT NULL DEFAULT 'none' CHECK (email_to IN ('none', 'partner', 'own', 'both')),
  email_subject text NOT NULL DEFAULT '',
  last_run_at timestamptz,
  next_run_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL DEFAULT 'system'
);
CREATE UNIQUE INDEX monitoring_rules_name ON monitoring_rules (lower(rule_name));

CREATE TABLE loop_rules (
  id serial PRIMARY KEY,
  rule_name text NOT NULL,
  is_active boolean NOT NULL DEFAULT true,
  trunk_ids jsonb NOT NULL DEFAULT '[]',
  number_ranges jsonb NOT NULL DEFAULT '[]',
  max_calls integer NOT NULL,
  window_seconds integer NOT NULL,
  block_seconds integer NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL DEFAULT 'system'
);
CREATE UNIQUE INDEX loop_rules_name ON loop_rules (lower(rule_name));

CREATE TABLE monitoring_state (
  rule_kind text NOT NULL,
  rule_id integer NOT NULL,
  subject text NOT NULL,
  state text NOT NULL CHECK (state IN ('clear', 'breached')),
  since timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rule_kind, rule_id, subject)
);

CREATE TABLE monitoring_blocks (
  block_id serial PRIMARY KEY,
  rule_kind text NOT NULL CHECK (rule_kind IN ('fraud', 'rule', 'loop')),
  rule_id integer,
  rule_name text NOT NULL,
  subject text NOT NULL,
  side text NOT NULL CHECK (side IN ('ingress', 'egress')),
  trunk_id integer NOT NULL,
  ani text,
  codes jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  until timestamptz,
  lifted_at timestamptz,
  lifted_by text,
  lift_reason text CHECK (lift_reason IN ('expired', 'manual'))
);
CREATE INDEX monitoring_blocks_live ON monitoring_blocks (block_id) WHERE lifted_at IS NULL;
CREATE INDEX monitoring_blocks_rule ON monitoring_blocks (rule_kind, rule_id, created_at);

CREATE TABLE monitoring_log (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  rule_kind text NOT NULL CHECK (rule_kind IN ('fraud', 'rule', 'loop')),
  rule_id integer,
  rule_name text NOT NULL,
  event text NOT NULL,
  trunk_id integer,
  subject text NOT NULL DEFAULT '',
  detail text NOT NULL DEFAULT '',
  figures jsonb,
  block_id integer
);
CREATE INDEX monitoring_log_kind ON monitoring_log (rule_kind, at);
CREATE INDEX monitoring_log_rule ON monitoring_log (rule_kind, rule_id, at);
`,
    )
    .execute(db);
}
