import { sql, type Kysely } from 'kysely';

/**
 * 0038_cdr_summaries_pending: the traffic summaries follow the CDRs through a queue of deltas
 * (issue 10's ingest target, docs/statistics.md "How the summaries follow the CDRs").
 *
 * The CDR ingest and the rerate used to upsert the five summary tables in their own transaction:
 * at 1,000 CDRs a batch that was half of the batch's time, as most keys are new per batch. Now they
 * append their batch's 15-minute groups (and host groups) to these two tables, which have no key and
 * no index (an append costs about what a heap row costs), in the same transaction as the CDRs, so a
 * batch still commits its CDRs, ledger, balances and summary figures together. The fold
 * (`foldSummaries`) moves every pending delta into the five summary tables in one transaction,
 * summing across all the batches since the last fold (fewer, larger upserts). The deltas are signed
 * and additive, so the order in which batches and rerates are folded does not matter.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
CREATE TABLE cdr_summaries_pending (LIKE cdr_summaries INCLUDING DEFAULTS);
CREATE TABLE cdr_host_summaries_pending (LIKE cdr_host_summaries INCLUDING DEFAULTS);
`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`DROP TABLE cdr_host_summaries_pending; DROP TABLE cdr_summaries_pending;`).execute(db);
}
