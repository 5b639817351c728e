import { sql, type Kysely } from 'kysely';

/**
 * 0033_stats_options: the rest of issue 11 (docs/statistics.md).
 *
 * - users.report_grouping: the user setting "enable reporting grouping" (spec 02 section 6). Off,
 *   the user's reports keep their default grouping (the server refuses another one).
 * - user_carriers: the carriers a system user looks after. A user whose role lacks the function
 *   permission "View All Carriers" (`statistics:view_all_carriers`) sees only the traffic of these
 *   carriers (as customer or vendor) in statistics. Every role that has privileges gets the
 *   permission here, so nothing changes for the roles that exist.
 * - trunk_qos.source: where a dynamic route's ASR/ACD of a trunk came from: 'cdr' (the traffic
 *   summaries of the CDRs) or 'switch' (the /switch/qos samples, for switches that send no CDRs).
 * - trunk_channel_peaks: per 5 minutes (UTC) and trunk, the most calls up at once the switch
 *   reported through /switch/calls; trunk_id 0 is the whole switch (the ingress trunks' sum).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
ALTER TABLE users ADD COLUMN report_grouping boolean NOT NULL DEFAULT true;

CREATE TABLE user_carriers (
  user_id integer NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
  client_id integer NOT NULL REFERENCES carriers(client_id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, client_id)
);

INSERT INTO role_privileges (role_id, func_name, readable, writable, executable)
SELECT DISTINCT p.role_id, 'statistics:view_all_carriers', true, false, false
FROM role_privileges p
WHERE NOT EXISTS (
  SELECT 1 FROM role_privileges q WHERE q.role_id = p.role_id AND q.func_name = 'statistics:view_all_carriers'
);

ALTER TABLE trunk_qos ADD COLUMN source text NOT NULL DEFAULT 'switch' CHECK (source IN ('switch', 'cdr'));

CREATE TABLE trunk_channel_peaks (
  slot timestamptz NOT NULL,
  trunk_id integer NOT NULL,
  peak integer NOT NULL,
  PRIMARY KEY (slot, trunk_id)
);
`,
    )
    .execute(db);
}
