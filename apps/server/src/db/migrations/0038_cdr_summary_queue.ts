import { sql, type Kysely } from 'kysely';

/**
 * 0038_cdr_summary_queue: the traffic summaries follow the CDRs a moment later, folded in bulk
 * (issue 10's ingest target; docs/statistics.md "How the summaries follow the CDRs").
 *
 * The CDR ingest used to sum each batch's CDRs per summary key and upsert the five summary tables in
 * the batch's transaction: at 1,000 CDRs a batch, most keys new each time, that was half of the
 * batch's time. Now the batch, in its transaction, queues its stored CDRs' ids (one row in
 * cdr_summary_queue), and the fold (`foldSummaries`) summarises every queued batch from the stored
 * CDRs in SQL and moves the sums into the five tables in one transaction, summing across all the
 * batches since the last fold (fewer, larger upserts). A queued batch is deleted in the transaction
 * that adds it to the tables. A rerate still moves the summaries itself, by signed deltas (old
 * figures out, new in) in its chunk's transaction, except for CDRs whose batch is still queued.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
CREATE TABLE cdr_summary_queue (
  batch_id text PRIMARY KEY,
  cdr_ids bigint[] NOT NULL,
  start_times timestamptz[] NOT NULL,
  cdr_count integer NOT NULL
);
`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`DROP TABLE cdr_summary_queue;`).execute(db);
}
