import { sql, type Kysely } from 'kysely';

/**
 * 0007_rate_delivery: sending rate decks. Rate e-mail templates; one rate_sends row per send of a
 * rate table (the background job: options, progress, counts) with the file it sent (rate_send_files,
 * the deck as it was at send time, so every recipient and every later download gets the same file);
 * one rate_deliveries row per recipient (sent succeed / sent failed / downloaded / reminder); the
 * download tokens of the link method (only their SHA-256 hashes; a reminder adds a token, the
 * earlier link keeps working until the deadline).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
CREATE TABLE rate_email_templates (
  id serial PRIMARY KEY,
  name text NOT NULL,
  download_method text NOT NULL DEFAULT 'link' CHECK (download_method IN ('attachment', 'link')),
  from_email text NOT NULL,
  cc text[] NOT NULL DEFAULT '{}',
  subject text NOT NULL,
  content text NOT NULL,
  file_format text NOT NULL DEFAULT 'csv' CHECK (file_format IN ('csv', 'xlsx')),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX rate_email_templates_name_uq ON rate_email_templates (lower(name));

CREATE TABLE rate_sends (
  id serial PRIMARY KEY,
  rate_table_id integer REFERENCES rate_tables(rate_table_id) ON DELETE SET NULL,
  rate_table_name text NOT NULL,
  template_id integer REFERENCES rate_email_templates(id) ON DELETE SET NULL,
  template_name text NOT NULL,
  download_method text NOT NULL CHECK (download_method IN ('attachment', 'link')),
  from_email text NOT NULL,
  cc text[] NOT NULL DEFAULT '{}',
  subject text NOT NULL,
  content text NOT NULL,
  file_format text NOT NULL CHECK (file_format IN ('csv', 'xlsx')),
  file_name text NOT NULL DEFAULT '',
  rate_rows integer NOT NULL DEFAULT 0,
  effective_from timestamptz,
  language text NOT NULL DEFAULT 'en',
  download_deadline timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'finished', 'failed')),
  total integer NOT NULL DEFAULT 0,
  succeeded integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0,
  message text NOT NULL DEFAULT '',
  user_id integer,
  user_name text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX rate_sends_table ON rate_sends (rate_table_id);

CREATE TABLE rate_send_files (
  send_id integer PRIMARY KEY REFERENCES rate_sends(id) ON DELETE CASCADE,
  mime text NOT NULL,
  size_bytes integer NOT NULL,
  data bytea NOT NULL
);

CREATE TABLE rate_deliveries (
  id bigserial PRIMARY KEY,
  send_id integer NOT NULL REFERENCES rate_sends(id) ON DELETE CASCADE,
  client_id integer REFERENCES carriers(client_id) ON DELETE SET NULL,
  carrier_name text NOT NULL DEFAULT '',
  company text NOT NULL DEFAULT '',
  email text NOT NULL,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sent_succeed', 'sent_failed', 'downloaded', 'reminder')),
  error text NOT NULL DEFAULT '',
  sent_at timestamptz,
  downloaded_at timestamptz,
  download_ip text NOT NULL DEFAULT '',
  download_count integer NOT NULL DEFAULT 0,
  reminder_count integer NOT NULL DEFAULT 0,
  reminded_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rate_deliveries_send ON rate_deliveries (send_id);
CREATE INDEX rate_deliveries_created ON rate_deliveries (created_at);
CREATE INDEX rate_deliveries_client ON rate_deliveries (client_id);

CREATE TABLE rate_delivery_tokens (
  token_hash text PRIMARY KEY,
  delivery_id bigint NOT NULL REFERENCES rate_deliveries(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rate_delivery_tokens_delivery ON rate_delivery_tokens (delivery_id);
`,
    )
    .execute(db);
}
