import { sql, type Kysely } from 'kysely';

/**
 * 0028_note_idempotency: a credit or debit note moves money once, like a payment. A note created
 * with an idempotency key (the form's retry key, an integration's request id) that the carrier
 * already has is answered with the earlier note and moves nothing (billing/payments.ts recordNote).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `ALTER TABLE billing_notes ADD COLUMN idempotency_key text;
ALTER TABLE billing_notes ADD CONSTRAINT billing_notes_idempotency UNIQUE (client_id, idempotency_key);`,
    )
    .execute(db);
}
