import { sql, type Kysely } from 'kysely';

/**
 * 0011_trunk_qos_samples: the QoS counters the switch reports (POST /switch/qos) and the rolling
 * figures the dynamic routes order by.
 *
 * - trunk_qos_samples: one row per trunk and reported interval (attempts, answered, billed
 *   seconds), stamped with the time it was received; pruned past the longest QoS cycle.
 * - trunk_qos (0002) gets one row per trunk and QoS cycle length instead of one per trunk: dynamic
 *   routes with different cycles order the same trunk by figures over their own cycle. The sums
 *   the figures come from are kept beside them (the sample size shown on the QoS page).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
CREATE TABLE trunk_qos_samples (
  id bigserial PRIMARY KEY,
  trunk_id integer NOT NULL REFERENCES trunks(trunk_id) ON DELETE CASCADE,
  received_at timestamptz NOT NULL DEFAULT now(),
  attempts integer NOT NULL CHECK (attempts >= 0),
  answered integer NOT NULL CHECK (answered >= 0 AND answered <= attempts),
  billed_seconds bigint NOT NULL CHECK (billed_seconds >= 0)
);
CREATE INDEX trunk_qos_samples_trunk_time ON trunk_qos_samples (trunk_id, received_at);
CREATE INDEX trunk_qos_samples_time ON trunk_qos_samples (received_at);

-- Rows written before (by hand: nothing wrote the table) count as figures over the default 60-minute cycle.
ALTER TABLE trunk_qos
  ADD COLUMN cycle_minutes integer NOT NULL DEFAULT 60 CHECK (cycle_minutes > 0),
  ADD COLUMN attempts bigint NOT NULL DEFAULT 0,
  ADD COLUMN answered bigint NOT NULL DEFAULT 0,
  ADD COLUMN billed_seconds bigint NOT NULL DEFAULT 0,
  DROP CONSTRAINT trunk_qos_pkey,
  ADD PRIMARY KEY (trunk_id, cycle_minutes);
ALTER TABLE trunk_qos ALTER COLUMN cycle_minutes DROP DEFAULT;
`,
    )
    .execute(db);
}
