import { sql, type Kysely } from 'kysely';

/**
 * 0038_cdr_summaries_pending: the traffic summaries follow the CDRs a moment later, folded in bulk
 * (issue 10's ingest target; docs/statistics.md "How the summaries follow the CDRs").
 *
 * The CDR ingest used to sum each batch's CDRs per summary key and upsert the five summary tables in
 * the batch's transaction: at 1,000 CDRs a batch, most keys new each time, that was half of the
 * batch's time. Now the batch, in its transaction, queues its stored CDRs' ids (one row in
 * cdr_summary_queue), and the fold (`foldSummaries`) summarises every queued batch from the stored
 * CDRs in SQL and moves the sums into the five tables in one transaction, summing across all the
 * batches since the last fold (fewer, larger upserts). A rerate moves the summaries by signed deltas
 * (old figures out, new in) appended to the two pending tables (no key, no index), folded the same
 * way. Each queued batch and each delta is deleted in the transaction that adds it to the tables.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
CREATE TABLE cdr_summary_queue (
  batch_id text PRIMARY KEY,
  cdr_ids bigint[] NOT NULL,
  start_times timestamptz[] NOT NULL
);
CREATE TABLE cdr_summaries_pending (LIKE cdr_summaries INCLUDING DEFAULTS);
CREATE TABLE cdr_host_summaries_pending (LIKE cdr_host_summaries INCLUDING DEFAULTS);
`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `DROP TABLE cdr_host_summaries_pending; DROP TABLE cdr_summaries_pending; DROP TABLE cdr_summary_queue;`,
    )
    .execute(db);
}
