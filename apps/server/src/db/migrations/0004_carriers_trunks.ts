import { sql, type Kysely } from 'kysely';

/**
 * 0004_carriers_trunks: what carriers and trunks add to 0002.
 * - carriers: invoice options (tax inclusion, CDR attachment, summary); main e-mail lookups.
 * - trunks: billing by minutes or port, rounding, early-media options, SIP registration
 *   credentials, SIP profiles.
 * - carrier and trunk templates (settings stored as the contract's template bodies).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
ALTER TABLE carriers ADD COLUMN invoice_options jsonb NOT NULL DEFAULT '{}';
CREATE INDEX carriers_main_email ON carriers (lower(main_email));

ALTER TABLE trunks
  ADD COLUMN billing_mode text NOT NULL DEFAULT 'minutes' CHECK (billing_mode IN ('minutes', 'port')),
  ADD COLUMN rounding integer CHECK (rounding IS NULL OR rounding > 0),
  ADD COLUMN ignore_early_media boolean NOT NULL DEFAULT false,
  ADD COLUMN ignore_early_no_sdp boolean NOT NULL DEFAULT false,
  ADD COLUMN registration jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN sip_profiles text[] NOT NULL DEFAULT '{}';
CREATE INDEX trunk_hosts_lower_host ON trunk_hosts (lower(host));

CREATE TABLE carrier_templates (
  template_id serial PRIMARY KEY,
  name text NOT NULL,
  settings jsonb NOT NULL DEFAULT '{}',
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX carrier_templates_name_uq ON carrier_templates (lower(name));

CREATE TABLE trunk_templates (
  template_id serial PRIMARY KEY,
  name text NOT NULL,
  direction text NOT NULL CHECK (direction IN ('ingress', 'egress')),
  settings jsonb NOT NULL DEFAULT '{}',
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX trunk_templates_name_uq ON trunk_templates (lower(name));
`,
    )
    .execute(db);
}
