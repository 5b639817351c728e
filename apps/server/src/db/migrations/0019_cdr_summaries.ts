import { sql, type Kysely } from 'kysely';

/**
 * 0019_cdr_summaries: the traffic summaries reports read (issue 11, docs/statistics.md).
 *
 * cdr_summaries: one row per 15-minute UTC interval and (customer, vendor, ingress trunk, egress
 * trunk, egress code, destination country, SIP release cause, release side, non-zero or not), with
 * the sums of its CDRs: attempts, answered, non-zero, NER calls, short calls, unpriced, duration,
 * billed seconds per side, revenue and cost (exact numeric), PDD sum and count. Kept by the CDR
 * ingest in the same transaction as the CDRs (`addToSummaries`), moved by a rerate (old figures
 * out, new in). Missing values are keys too: 0 for "no carrier/trunk", '' for "no code/country",
 * so every CDR has exactly one row. Not partitioned and not dropped with the CDR days: summaries
 * outlive the raw CDRs' retention.
 *
 * cdr_summaries_hourly: the same sums per hour by (customer, vendor, ingress trunk, egress trunk,
 * country) only: far fewer rows, for reports over long ranges that group and filter by nothing
 * finer (every zone the portal offers is whole hours from UTC, so local days are whole hours).
 * cdr_summaries_daily: the same per UTC day, for the whole UTC days of long ranges that do not
 * group by day or hour (a UTC day is not a local day).
 *
 * The CDRs stored before this migration are summarised here, so the summaries cover every CDR.
 * The NER causes are those of domain traffic-stats.ts at the time of writing.
 */
/** The sums both summary tables keep. */
const SUMS = `attempts bigint NOT NULL DEFAULT 0,
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
  pdd_calls bigint NOT NULL DEFAULT 0,`;

/** Summarises every CDR of `cdrs` (the same sums as the ingest's addToSummaries; the benchmark uses it too). */
export const SUMMARISE_CDRS = `INSERT INTO cdr_summaries
SELECT to_timestamp(floor(extract(epoch FROM start_time) / 900) * 900) AS bucket,
  coalesce(ingress_client_id, 0), coalesce(egress_client_id, 0), ingress_trunk_id, coalesce(egress_trunk_id, 0),
  coalesce(egress_code, ''), coalesce(term_country, ''), release_cause, release_side, call_duration > 0,
  count(*), count(answer_time), count(*) FILTER (WHERE call_duration > 0),
  count(*) FILTER (WHERE answer_time IS NOT NULL OR release_cause IN (480, 486, 487, 600, 603)
    OR q850_cause IN (17, 18, 19, 21)),
  count(*) FILTER (WHERE call_duration > 0 AND call_duration < 6),
  count(unpriced_reason), sum(call_duration), sum(ingress_billed_time), sum(egress_billed_time),
  sum(ingress_client_cost + short_call_charge), sum(egress_cost), sum(pdd), count(*) FILTER (WHERE pdd > 0)
FROM cdrs
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10`;

const SUM_NAMES = `attempts, answered, non_zero_calls, ner_calls, short_calls, unpriced, duration,
  ingress_billed_time, egress_billed_time, revenue, cost, pdd_sum, pdd_calls`;
/** Rolls the 15-minute summaries up into the hourly ones (the benchmark uses it too). */
export const SUMMARISE_HOURLY = `INSERT INTO cdr_summaries_hourly
SELECT to_timestamp(floor(extract(epoch FROM bucket) / 3600) * 3600), ingress_client_id, egress_client_id,
  ingress_trunk_id, egress_trunk_id, term_country, ${SUM_NAMES.split(',')
    .map((c) => `sum(${c.trim()})`)
    .join(', ')}
FROM cdr_summaries
GROUP BY 1, 2, 3, 4, 5, 6`;

/** Rolls the hourly summaries up into the daily (UTC) ones. */
export const SUMMARISE_DAILY = `INSERT INTO cdr_summaries_daily
SELECT to_timestamp(floor(extract(epoch FROM bucket) / 86400) * 86400), ingress_client_id, egress_client_id,
  ingress_trunk_id, egress_trunk_id, term_country, ${SUM_NAMES.split(',')
    .map((c) => `sum(${c.trim()})`)
    .join(', ')}
FROM cdr_summaries_hourly
GROUP BY 1, 2, 3, 4, 5, 6`;

const ROLLUP_DDL = (name: 'hourly' | 'daily') => `
CREATE TABLE cdr_summaries_${name} (
  bucket timestamptz NOT NULL,
  ingress_client_id integer NOT NULL,
  egress_client_id integer NOT NULL,
  ingress_trunk_id integer NOT NULL,
  egress_trunk_id integer NOT NULL,
  term_country text NOT NULL,
${SUMS}
  PRIMARY KEY (bucket, ingress_client_id, egress_client_id, ingress_trunk_id, egress_trunk_id, term_country)
);
CREATE INDEX cdr_summaries_${name}_customer ON cdr_summaries_${name} (ingress_client_id, bucket);
CREATE INDEX cdr_summaries_${name}_vendor ON cdr_summaries_${name} (egress_client_id, bucket);`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
CREATE TABLE cdr_summaries (
  bucket timestamptz NOT NULL,
  ingress_client_id integer NOT NULL,
  egress_client_id integer NOT NULL,
  ingress_trunk_id integer NOT NULL,
  egress_trunk_id integer NOT NULL,
  egress_code text NOT NULL,
  term_country text NOT NULL,
  release_cause integer NOT NULL,
  release_side text NOT NULL,
  non_zero boolean NOT NULL,
${SUMS}
  PRIMARY KEY (bucket, ingress_client_id, egress_client_id, ingress_trunk_id, egress_trunk_id,
    egress_code, term_country, release_cause, release_side, non_zero)
);
CREATE INDEX cdr_summaries_customer ON cdr_summaries (ingress_client_id, bucket);
CREATE INDEX cdr_summaries_vendor ON cdr_summaries (egress_client_id, bucket);

${ROLLUP_DDL('hourly')}
${ROLLUP_DDL('daily')}
${SUMMARISE_CDRS};
${SUMMARISE_HOURLY};
${SUMMARISE_DAILY};
`,
    )
    .execute(db);
}
