import { sql, type Kysely } from 'kysely';

/**
 * 0013_hardening (issue 18): references held by foreign keys.
 *
 * - carrier_templates.payment_term_id, trunk_templates.rate_table_id and routing_plan_id: the
 *   references of a template get columns of their own (they lived only inside the settings jsonb,
 *   where nothing held them), each a foreign key; deleting the referenced row clears the template's
 *   preset (ON DELETE SET NULL). Existing presets are copied over when the row exists, else dropped.
 * - random ANI group ids (trunks, trunk templates): no such groups exist yet, so every stored id
 *   referred to nothing and is cleared.
 * - two-factor sign-in: users' TOTP secret (pending while enrolling), flag and last used time step;
 *   user_recovery_codes, hashed, each usable once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
ALTER TABLE carrier_templates
  ADD COLUMN payment_term_id integer REFERENCES payment_terms(payment_term_id) ON DELETE SET NULL;
ALTER TABLE trunk_templates
  ADD COLUMN rate_table_id integer REFERENCES rate_tables(rate_table_id) ON DELETE SET NULL,
  ADD COLUMN routing_plan_id integer REFERENCES routing_plans(route_plan_id) ON DELETE SET NULL;

UPDATE carrier_templates ct SET payment_term_id = p.payment_term_id
  FROM payment_terms p
  WHERE jsonb_typeof(ct.settings->'payment_term_id') = 'number'
    AND p.payment_term_id::numeric = (ct.settings->>'payment_term_id')::numeric;
UPDATE carrier_templates SET settings = settings - 'payment_term_id';

UPDATE trunk_templates tt SET rate_table_id = r.rate_table_id
  FROM rate_tables r
  WHERE jsonb_typeof(tt.settings->'rate_table_id') = 'number'
    AND r.rate_table_id::numeric = (tt.settings->>'rate_table_id')::numeric;
UPDATE trunk_templates tt SET routing_plan_id = p.route_plan_id
  FROM routing_plans p
  WHERE jsonb_typeof(tt.settings->'routing_plan_id') = 'number'
    AND p.route_plan_id::numeric = (tt.settings->>'routing_plan_id')::numeric;
UPDATE trunk_templates
  SET settings = (settings - 'rate_table_id' - 'routing_plan_id') ||
    CASE WHEN settings ? 'random_ani_group_id' THEN '{"random_ani_group_id": null}'::jsonb ELSE '{}'::jsonb END;

UPDATE trunks SET random_ani_group_id = NULL WHERE random_ani_group_id IS NOT NULL;

-- Two-factor sign-in (TOTP): the secret while enrolling (pending) and once on, the last time step
-- used (a code is accepted once), and one-time recovery codes stored as hashes.
ALTER TABLE users
  ADD COLUMN totp_secret text,
  ADD COLUMN totp_pending_secret text,
  ADD COLUMN totp_enabled boolean NOT NULL DEFAULT false,
  ADD COLUMN totp_last_step bigint NOT NULL DEFAULT 0;
CREATE TABLE user_recovery_codes (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users(user_id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz
);
CREATE INDEX user_recovery_codes_user ON user_recovery_codes (user_id);
`,
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
ALTER TABLE carrier_templates DROP COLUMN payment_term_id;
ALTER TABLE trunk_templates DROP COLUMN rate_table_id, DROP COLUMN routing_plan_id;
DROP TABLE user_recovery_codes;
ALTER TABLE users DROP COLUMN totp_secret, DROP COLUMN totp_pending_secret, DROP COLUMN totp_enabled,
  DROP COLUMN totp_last_step;
`,
    )
    .execute(db);
}
