import { sql, type Kysely } from 'kysely';

/**
 * 0034_did_port_requests: the client portal's port-in requests (issue 14, docs/did.md "Port-in
 * requests"). A DID client asks to bring numbers it holds at another provider (the numbers, the
 * provider, the date it wants them moved, a note); the operator moves the request through its
 * states (requested, in progress, completed, rejected) with a note the client reads. Each move is
 * kept in did_port_request_history.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(
      `
CREATE TABLE did_port_requests (
  id serial PRIMARY KEY,
  carrier_id integer NOT NULL REFERENCES carriers(client_id) ON DELETE CASCADE,
  numbers text[] NOT NULL,
  current_provider text NOT NULL,
  requested_date date NOT NULL,
  note text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'requested'
    CHECK (status IN ('requested', 'in_progress', 'completed', 'rejected')),
  operator_note text NOT NULL DEFAULT '',
  created_by text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text NOT NULL DEFAULT ''
);
CREATE INDEX did_port_requests_carrier ON did_port_requests (carrier_id, id);
CREATE INDEX did_port_requests_status ON did_port_requests (status, id);

CREATE TABLE did_port_request_history (
  id serial PRIMARY KEY,
  request_id integer NOT NULL REFERENCES did_port_requests(id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  status text NOT NULL,
  note text NOT NULL DEFAULT '',
  user_name text NOT NULL DEFAULT ''
);
CREATE INDEX did_port_request_history_request ON did_port_request_history (request_id, id);
`,
    )
    .execute(db);
}
