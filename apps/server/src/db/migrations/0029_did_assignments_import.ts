import { sql, type Kysely } from 'kysely';

/**
 * 0029_did_assignments_import: a DID client's monthly charge and release refund are now named by the
 * ASSIGNMENT as well as the DID and month (`did-monthly:<did>:<assigned ms>:<YYYY-MM>`, docs/did.md
 * "Recurring charges"), so a number released and assigned again within a month is charged again
 * (before, the second assignment found the month "already charged" and got it free).
 *
 * The charges already made for the CURRENT assignment of each assigned DID (its months from the
 * assignment month on, in the client's zone) are renamed to the new form, in did_charges and in
 * the ledger rows that carry the same reference, so the charge job does not charge them again.
 * Charges of assignments that have ended keep their old reference: nothing charges those again.
 * The zone is read as the application reads it (a fixed offset '+0800' / '-05:30', else UTC).
 *
 * The DID import log also gains what a CSV file import needs to run as a durable job (docs/did.md
 * "Import"): the stored file, the vendor billing rule asked for and the job.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
CREATE TEMP TABLE did_ref_0029 AS
WITH cur AS (
  SELECT d.did_id, d.client_id,
    floor(extract(epoch FROM d.assigned_at) * 1000)::bigint AS ms,
    to_char((d.assigned_at AT TIME ZONE 'UTC') + make_interval(mins => z.m), 'YYYY-MM') AS first_period
  FROM dids d
  JOIN carriers c ON c.client_id = d.client_id
  CROSS JOIN LATERAL (
    SELECT CASE
      WHEN btrim(c.time_zone) ~ '^[+-][0-9]{2}:?[0-9]{2}$'
        AND substr(btrim(c.time_zone), 2, 2)::int * 60 + right(btrim(c.time_zone), 2)::int <= 840
        AND right(btrim(c.time_zone), 2)::int < 60
      THEN (CASE WHEN left(btrim(c.time_zone), 1) = '-' THEN -1 ELSE 1 END)
        * (substr(btrim(c.time_zone), 2, 2)::int * 60 + right(btrim(c.time_zone), 2)::int)
      ELSE 0 END AS m
  ) z
  WHERE d.state = 'assigned' AND d.assigned_at IS NOT NULL AND d.client_id IS NOT NULL
)
SELECT x.id, x.carrier_id, x.ref AS old_ref,
  'did-monthly:' || cur.did_id || ':' || cur.ms || ':' || x.period AS new_ref
FROM did_charges x
JOIN cur ON cur.did_id = x.did_id AND cur.client_id = x.carrier_id
WHERE x.side = 'customer' AND x.kind = 'monthly' AND x.period >= cur.first_period
  AND x.ref = 'did-monthly:' || cur.did_id || ':' || x.period;

UPDATE ledger l SET ref = r.new_ref
FROM did_ref_0029 r
WHERE l.client_id = r.carrier_id AND l.kind = 'did_charge' AND l.side = 'customer' AND l.ref = r.old_ref;

UPDATE did_charges x SET ref = r.new_ref FROM did_ref_0029 r WHERE x.id = r.id;

DROP TABLE did_ref_0029;

ALTER TABLE did_upload_tasks
  ADD COLUMN path text,
  ADD COLUMN billing_rule_id integer REFERENCES did_billing_rules(id) ON DELETE SET NULL,
  ADD COLUMN job_id bigint;
`,
    )
    .execute(db);
}
