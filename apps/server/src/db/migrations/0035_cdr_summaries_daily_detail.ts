import { sql, type Kysely } from 'kysely';

/**
 * 0035_cdr_summaries_daily_detail: the 15-minute summaries' whole key (customer, vendor, trunks,
 * egress code, country, release cause and side, non-zero) per UTC day (issue 11, docs/statistics.md).
 *
 * The hourly and daily roll-ups of 0019 drop the code, cause and non-zero keys, so a report grouped
 * or filtered by one of them (the code based report, disconnect causes, "Non-Zero" durations) read
 * the 15-minute rows over its whole range: at 10 million CDRs in 30 days that is nearly one row per
 * CDR, and a 30-day report by code took 3.9 s (docs/performance.md). This table answers the whole
 * UTC days of such a report; the 15-minute rows answer only its ragged ends. Kept by the ingest and
 * the rerate in the same statement as the others (`addToSummaries`). Filled here from the 15-minute
 * rows, so it covers every CDR summarised before it.
 */
export const SUMMARISE_DAILY_DETAIL = `INSERT INTO cdr_summaries_daily_detail
SELECT to_timestamp(floor(extract(epoch FROM bucket) / 86400) * 86400), ingress_client_id, egress_client_id,
  ingress_trunk_id, egress_trunk_id, egress_code, term_country, release_cause, release_side, non_zero,
  sum(attempts), sum(answered), sum(non_zero_calls), sum(ner_calls), sum(short_calls), sum(unpriced),
  sum(duration), sum(ingress_billed_time), sum(egress_billed_time), sum(revenue), sum(cost), sum(pdd_sum),
  sum(pdd_calls)
FROM cdr_summaries
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
CREATE TABLE cdr_summaries_daily_detail (LIKE cdr_summaries INCLUDING DEFAULTS);
ALTER TABLE cdr_summaries_daily_detail ADD PRIMARY KEY (bucket, ingress_client_id, egress_client_id,
  ingress_trunk_id, egress_trunk_id, egress_code, term_country, release_cause, release_side, non_zero);
CREATE INDEX cdr_summaries_daily_detail_customer ON cdr_summaries_daily_detail (ingress_client_id, bucket);
CREATE INDEX cdr_summaries_daily_detail_vendor ON cdr_summaries_daily_detail (egress_client_id, bucket);
${SUMMARISE_DAILY_DETAIL};
`,
    )
    .execute(db);
}
