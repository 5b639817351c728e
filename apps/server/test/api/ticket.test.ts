import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditRows,
  denied,
  expectSessionRequired,
  fails,
  invalid,
  makeAgent,
  makeCarrierUser,
  makeRestrictedAdmin,
  makeSessionStates,
  notVisible,
  ok,
  startHarness,
  type Harness,
  type SessionStates,
} from './harness';

type Ticket = {
  id: number;
  client_id: number | null;
  company: string | null;
  username: string;
  department: string;
  subject: string;
  content: string;
  url: string;
  type: string;
  ticket_status: string;
  created_on: string;
  modified_on: string;
};
type Paged<T> = { items: T[]; total: number };

const WAITING = '/api/ticket/list?ticket_status=waiting&order_by=id&order_dir=desc&per_page=9999';

let h: Harness;
let admin: string;
let states: SessionStates;
let acme: { clientId: number; token: string; login: string };
let globex: { clientId: number; token: string; login: string };
let agent: { agentId: number; token: string };
let restricted: { token: string };
let ticketReader: { token: string };
let acmeTicket: number;

const create = async (token: string, body: Record<string, unknown>) =>
  ok(await h.call<{ object_id: number }>('POST', '/api/ticket/create', { token, body })).object_id;

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  states = await makeSessionStates(h);
  acme = await makeCarrierUser(h, admin, 'Acme');
  globex = await makeCarrierUser(h, admin, 'Globex', { client_type: 'vendor' });
  agent = await makeAgent(h, admin, 'Broker');
  restricted = await makeRestrictedAdmin(h, admin, 'no_tickets');
  ticketReader = await makeRestrictedAdmin(h, admin, 'ticket_reader', { '/origination/tickets': 'r' });
});
afterAll(() => h.close());

describe('POST /ticket/create, PATCH /ticket/:id/send, GET /ticket/:id', () => {
  it("creates a carrier's ticket as a draft, sends it to the operator as waiting", async () => {
    acmeTicket = await create(acme.token, {
      department: 'Admin',
      subject: '  No audio on calls to 44 ',
      content: 'Since 10:00 UTC',
      url: '/clients/termination/report',
    });
    const draft = ok(await h.call<Ticket>('GET', `/api/ticket/${acmeTicket}`, { token: acme.token }));
    expect(draft).toMatchObject({
      id: acmeTicket,
      client_id: acme.clientId,
      company: 'Acme Ltd',
      username: acme.login,
      department: 'Admin',
      subject: 'No audio on calls to 44',
      content: 'Since 10:00 UTC',
      url: '/clients/termination/report',
      type: 'support',
      ticket_status: 'open',
    });
    expect(ok(await h.call('PATCH', `/api/ticket/${acmeTicket}/send`, { token: acme.token }))).toBeNull();
    const sent = ok(await h.call<Ticket>('GET', `/api/ticket/${acmeTicket}`, { token: admin }));
    expect(sent.ticket_status).toBe('waiting');
    expect(Date.parse(sent.modified_on)).toBeGreaterThanOrEqual(Date.parse(sent.created_on));
    const rows = await auditRows(h, 'ticket', acmeTicket);
    expect(rows.map((r) => r.action)).toEqual(['send', 'create']);
    expect(rows[0]).toMatchObject({
      user_name: acme.login,
      before: { ticket_status: 'open' },
      after: { ticket_status: 'waiting' },
    });
  });

  it('defaults the department to Admin and refuses to send a ticket twice', async () => {
    const id = await create(globex.token, { subject: 'Invoice question' });
    expect(ok(await h.call<Ticket>('GET', `/api/ticket/${id}`, { token: globex.token }))).toMatchObject({
      department: 'Admin',
      content: '',
      url: '',
      client_id: globex.clientId,
    });
    ok(await h.call('PATCH', `/api/ticket/${id}/send`, { token: globex.token }));
    fails(
      await h.call('PATCH', `/api/ticket/${id}/send`, { token: globex.token }),
      170,
      'ticket_status is not valid',
    );
  });

  it("never shows or sends another carrier's ticket, whatever id is sent", async () => {
    notVisible(await h.call('GET', `/api/ticket/${acmeTicket}`, { token: globex.token }));
    notVisible(await h.call('PATCH', `/api/ticket/${acmeTicket}/send`, { token: globex.token }));
    notVisible(await h.call('GET', `/api/ticket/${acmeTicket}`, { token: agent.token }));
    const adminTicket = await create(admin, { subject: 'Internal note' });
    expect(ok(await h.call<Ticket>('GET', `/api/ticket/${adminTicket}`, { token: admin }))).toMatchObject({
      client_id: null,
      company: null,
      username: 'admin',
    });
    notVisible(await h.call('GET', `/api/ticket/${adminTicket}`, { token: acme.token }));
    notVisible(await h.call('GET', '/api/ticket/99999', { token: admin }));
  });

  it("keeps an agent's tickets to the agent", async () => {
    const id = await create(agent.token, { subject: 'Commission report' });
    expect(ok(await h.call<Ticket>('GET', `/api/ticket/${id}`, { token: agent.token }))).toMatchObject({
      client_id: null,
      username: 'broker_agent',
    });
    notVisible(await h.call('GET', `/api/ticket/${id}`, { token: acme.token }));
    ok(await h.call('GET', `/api/ticket/${id}`, { token: admin }));
  });

  it('names malformed fields', async () => {
    invalid(
      await h.call('POST', '/api/ticket/create', { token: acme.token, body: {} }),
      'subject',
      'subject is required',
    );
    invalid(
      await h.call('POST', '/api/ticket/create', { token: acme.token, body: { subject: '   ' } }),
      'subject',
      'Subject is required',
    );
    invalid(
      await h.call('POST', '/api/ticket/create', { token: acme.token, body: { subject: 'x'.repeat(201) } }),
      'subject',
      'subject must be at most 200 characters',
    );
    invalid(
      await h.call('POST', '/api/ticket/create', {
        token: acme.token,
        body: { subject: 'Hi', client_id: globex.clientId },
      }),
      '_',
    );
    invalid(
      await h.call('POST', '/api/ticket/create', { token: acme.token, body: { subject: 'Hi', content: 5 } }),
      'content',
    );
    fails(
      await h.call('POST', '/api/ticket/create', { token: acme.token, raw: "{'subject':'Hi'}" }),
      110,
      'The request body is not valid JSON',
    );
    invalid(await h.call('GET', '/api/ticket/abc', { token: acme.token }), 'id');
    invalid(await h.call('PATCH', '/api/ticket/1.5/send', { token: acme.token }), 'id');
  });

  it('refuses admins without the tickets permission (read-only admins may read but not write)', async () => {
    denied(await h.call('POST', '/api/ticket/create', { token: restricted.token, body: { subject: 'Hi' } }));
    denied(await h.call('GET', `/api/ticket/${acmeTicket}`, { token: restricted.token }));
    denied(await h.call('PATCH', `/api/ticket/${acmeTicket}/send`, { token: restricted.token }));
    ok(await h.call('GET', `/api/ticket/${acmeTicket}`, { token: ticketReader.token }));
    denied(
      await h.call('POST', '/api/ticket/create', { token: ticketReader.token, body: { subject: 'Hi' } }),
    );
  });

  it('refuses unusable sessions', async () => {
    await expectSessionRequired(h, states, 'POST', '/api/ticket/create', { body: { subject: 'Hi' } });
    await expectSessionRequired(h, states, 'PATCH', `/api/ticket/${acmeTicket}/send`);
    await expectSessionRequired(h, states, 'GET', `/api/ticket/${acmeTicket}`);
  });
});

describe('GET /ticket/list', () => {
  it('answers the operator the waiting tickets, newest first', async () => {
    const later = await create(acme.token, { subject: 'Second issue' });
    ok(await h.call('PATCH', `/api/ticket/${later}/send`, { token: acme.token }));
    const p = ok(await h.call<Paged<Ticket>>('GET', WAITING, { token: admin }));
    expect(p.items.every((t) => t.ticket_status === 'waiting')).toBe(true);
    expect(p.items.map((t) => t.id)).toEqual([...p.items.map((t) => t.id)].sort((a, b) => b - a));
    expect(p.items[0]!.id).toBe(later);
    expect(p.items.map((t) => t.id)).toContain(acmeTicket);
    expect(p.total).toBe(3);
    expect(ok(await h.call<Paged<Ticket>>('GET', WAITING, { token: ticketReader.token })).total).toBe(3);
  });

  it('answers a carrier only its own tickets, whatever filter it sends', async () => {
    const own = ok(
      await h.call<Paged<Ticket>>('GET', '/api/ticket/list?per_page=9999', { token: acme.token }),
    );
    expect(own.items.every((t) => t.client_id === acme.clientId)).toBe(true);
    expect(own.total).toBe(2);
    const sneaky = ok(
      await h.call<Paged<Ticket>>('GET', `/api/ticket/list?per_page=9999&client_id=${globex.clientId}`, {
        token: acme.token,
      }),
    );
    expect(sneaky.items.map((t) => t.id).sort()).toEqual(own.items.map((t) => t.id).sort());
    const vendor = ok(await h.call<Paged<Ticket>>('GET', WAITING, { token: globex.token }));
    expect(vendor.items.map((t) => t.subject)).toEqual(['Invoice question']);
    const agentList = ok(await h.call<Paged<Ticket>>('GET', '/api/ticket/list', { token: agent.token }));
    expect(agentList.items.map((t) => t.subject)).toEqual(['Commission report']);
  });

  it('filters open tickets (only_opened) and pages', async () => {
    const open = ok(
      await h.call<Paged<Ticket>>('GET', '/api/ticket/list?only_opened=true&per_page=9999', { token: admin }),
    );
    expect(
      open.items.every((t) => ['open', 'waiting', 'in_progress', 'reopened'].includes(t.ticket_status)),
    ).toBe(true);
    expect(open.total).toBe(5);
    const page = ok(
      await h.call<Paged<Ticket>>('GET', '/api/ticket/list?order_by=id&page=2&per_page=2', { token: admin }),
    );
    expect(page.items.map((t) => t.id)).toEqual([5]);
    expect(page.total).toBe(5);
  });

  it('names malformed query fields and refuses admins without permission', async () => {
    invalid(await h.call('GET', '/api/ticket/list?ticket_status=lost', { token: admin }), 'ticket_status');
    invalid(await h.call('GET', '/api/ticket/list?per_page=ten', { token: acme.token }), 'per_page');
    denied(await h.call('GET', '/api/ticket/list', { token: restricted.token }));
    await expectSessionRequired(h, states, 'GET', WAITING);
  });
});

describe('PATCH /ticket/:id/status (operator)', () => {
  it('moves a ticket through its states and logs it', async () => {
    ok(
      await h.call('PATCH', `/api/ticket/${acmeTicket}/status`, {
        token: admin,
        body: { ticket_status: 'in_progress' },
      }),
    );
    expect(
      ok(await h.call<Ticket>('GET', `/api/ticket/${acmeTicket}`, { token: acme.token })).ticket_status,
    ).toBe('in_progress');
    ok(
      await h.call('PATCH', `/api/ticket/${acmeTicket}/status`, {
        token: admin,
        body: { ticket_status: 'resolved' },
      }),
    );
    const [row] = await auditRows(h, 'ticket', acmeTicket);
    expect(row).toMatchObject({
      action: 'status',
      before: { ticket_status: 'in_progress' },
      after: { ticket_status: 'resolved' },
    });
    const open = ok(
      await h.call<Paged<Ticket>>('GET', '/api/ticket/list?only_opened=true&per_page=9999', {
        token: acme.token,
      }),
    );
    expect(open.items.map((t) => t.id)).not.toContain(acmeTicket);
  });

  it('is refused to carriers, agents and admins without the write permission', async () => {
    const body = { ticket_status: 'closed' };
    denied(await h.call('PATCH', `/api/ticket/${acmeTicket}/status`, { token: acme.token, body }));
    denied(await h.call('PATCH', `/api/ticket/${acmeTicket}/status`, { token: agent.token, body }));
    denied(await h.call('PATCH', `/api/ticket/${acmeTicket}/status`, { token: ticketReader.token, body }));
    denied(await h.call('PATCH', `/api/ticket/${acmeTicket}/status`, { token: restricted.token, body }));
    expect(ok(await h.call<Ticket>('GET', `/api/ticket/${acmeTicket}`, { token: admin })).ticket_status).toBe(
      'resolved',
    );
  });

  it('names malformed fields, answers 150 for an unknown ticket, refuses unusable sessions', async () => {
    invalid(
      await h.call('PATCH', `/api/ticket/${acmeTicket}/status`, {
        token: admin,
        body: { ticket_status: 'done' },
      }),
      'ticket_status',
      /must be one of: open, waiting/,
    );
    invalid(
      await h.call('PATCH', `/api/ticket/${acmeTicket}/status`, { token: admin, body: {} }),
      'ticket_status',
      'ticket_status is required',
    );
    notVisible(
      await h.call('PATCH', '/api/ticket/99999/status', { token: admin, body: { ticket_status: 'closed' } }),
    );
    await expectSessionRequired(h, states, 'PATCH', `/api/ticket/${acmeTicket}/status`, {
      body: { ticket_status: 'closed' },
    });
  });
});
