import { sql, type Kysely } from 'kysely';

/**
 * 0027_report_schedules: saved report schedules and the scheduled report log (issue 11,
 * docs/statistics.md "Schedules").
 *
 * report_schedules: a report (contract reports.REPORTS name), its grouping and filters (`query`,
 * JSON, no range), how often (daily, weekly, monthly) at which hour of which zone, to whom; owned
 * by the user who saved it (the report runs with that user's permissions and tenancy at each run).
 * `next_run_at` is moved forward in the same transaction that queues a run, so a run is queued once.
 *
 * scheduled_report_log: one row per report mailed (by a schedule, or "send by e-mail now"): the
 * period covered, recipients, status (pending, sent, failed), rows and error, the job that ran it.
 *
 * cdr_host_summaries: the traffic summaries (as 0019's) per 15 minutes, customer, vendor, trunks,
 * country, ingress host (the CDR's source IP) and egress host, for the Host Based Report; kept by
 * `addToSummaries` with the others. The CDRs stored before are summarised here.
 */
/** Summarises every CDR of `cdrs` into the host summaries (the same sums as addToSummaries). */
export const SUMMARISE_HOSTS = `INSERT INTO cdr_host_summaries
SELECT to_timestamp(floor(extract(epoch FROM start_time) / 900) * 900) AS bucket,
  coalesce(ingress_client_id, 0), coalesce(egress_client_id, 0), ingress_trunk_id, coalesce(egress_trunk_id, 0),
  coalesce(term_country, ''), source_ip, coalesce(egress_host, ''),
  count(*), count(answer_time), count(*) FILTER (WHERE call_duration > 0),
  count(*) FILTER (WHERE answer_time IS NOT NULL OR release_cause IN (480, 486, 487, 600, 603)
    OR q850_cause IN (17, 18, 19, 21)),
  count(*) FILTER (WHERE call_duration > 0 AND call_duration < 6),
  count(unpriced_reason), sum(call_duration), sum(ingress_billed_time), sum(egress_billed_time),
  sum(ingress_client_cost + short_call_charge), sum(egress_cost), sum(pdd), count(*) FILTER (WHERE pdd > 0)
FROM cdrs
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
CREATE TABLE report_schedules (
  id serial PRIMARY KEY,
  report text NOT NULL,
  name text NOT NULL,
  frequency text NOT NULL CHECK (frequency IN ('daily', 'weekly', 'monthly')),
  hour integer NOT NULL CHECK (hour BETWEEN 0 AND 23),
  tz text NOT NULL,
  recipients text NOT NULL,
  query text NOT NULL DEFAULT '{}',
  active boolean NOT NULL DEFAULT true,
  user_id integer NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
  owner text NOT NULL,
  next_run_at timestamptz NOT NULL,
  last_run_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX report_schedules_due ON report_schedules (next_run_at) WHERE active;
CREATE INDEX report_schedules_user ON report_schedules (user_id);

CREATE TABLE scheduled_report_log (
  id serial PRIMARY KEY,
  schedule_id integer REFERENCES report_schedules(id) ON DELETE SET NULL,
  schedule_name text NOT NULL DEFAULT '',
  report text NOT NULL,
  user_id integer,
  owner text NOT NULL,
  period_from text NOT NULL,
  period_to text NOT NULL,
  recipients text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  row_count integer NOT NULL DEFAULT 0,
  error text NOT NULL DEFAULT '',
  job_id integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  sent_at timestamptz
);
CREATE INDEX scheduled_report_log_created ON scheduled_report_log (created_at);

CREATE TABLE cdr_host_summaries (
  bucket timestamptz NOT NULL,
  ingress_client_id integer NOT NULL,
  egress_client_id integer NOT NULL,
  ingress_trunk_id integer NOT NULL,
  egress_trunk_id integer NOT NULL,
  term_country text NOT NULL,
  source_ip text NOT NULL,
  egress_host text NOT NULL,
  attempts bigint NOT NULL DEFAULT 0,
  answered bigint NOT NULL DEFAULT 0,
  non_zero_calls bigint NOT NULL DEFAULT 0,
  ner_calls bigint NOT NULL DEFAULT 0,
  short_calls bigint NOT NULL DEFAULT 0,
  unpriced bigint NOT NULL DEFAULT 0,
  duration bigint NOT NULL DEFAULT 0,
  ingress_billed_time bigint NOT NULL DEFAULT 0,
  egress_billed_time bigint NOT NULL DEFAULT 0,
  revenue numeric(24,6) NOT NULL DEFAULT 0,
  cost numeric(24,6) NOT NULL DEFAULT 0,
  pdd_sum bigint NOT NULL DEFAULT 0,
  pdd_calls bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (bucket, ingress_client_id, egress_client_id, ingress_trunk_id, egress_trunk_id, term_country,
    source_ip, egress_host)
);
CREATE INDEX cdr_host_summaries_customer ON cdr_host_summaries (ingress_client_id, bucket);
CREATE INDEX cdr_host_summaries_vendor ON cdr_host_summaries (egress_client_id, bucket);
${SUMMARISE_HOSTS};
`,
    )
    .execute(db);
}
