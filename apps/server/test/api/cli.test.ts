import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATION_NAMES } from '../../src/db/migrate';
import {
  CliError,
  createAdminCommand,
  migrateCommand,
  openTandem,
  resetPasswordCommand,
  seedDemoCommand,
} from '../../src/cli-commands';
import { loadConfig } from '../../src/config';
import { DEMO } from '../../src/db/demo';
import { ok, startHarness, type Harness } from './harness';
import { settled } from './routing-fixtures';

// The operator commands run in-process against the harness's database (PGlite in memory, or a fresh
// PostgreSQL database when DATABASE_URL is set); cli.ts itself is run as a process at the end.

let h: Harness;
const lines: string[] = [];
const out = (l: string) => void lines.push(l);
const memoryConfig = () =>
  loadConfig({ ...process.env, DATABASE_URL: '', PASSWORD_COST: '10', LOG_LEVEL: 'error' });

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const TABLES = [
  'users',
  'agents',
  'carriers',
  'client_messages',
  'client_alerts',
  'invoices',
  'tickets',
  'switches',
  'sip_hosts',
  'signin_history',
  'modification_log',
  'cdrs',
  'cdr_batches',
  'ledger',
  'agent_commission_periods',
  'agent_ledger',
] as const;

async function counts(): Promise<Record<string, number>> {
  const r: Record<string, number> = {};
  for (const t of TABLES) {
    const row = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(t)}`.execute(
      h.built.services.db,
    );
    r[t] = Number(row.rows[0]?.n);
  }
  return r;
}

describe('tandem migrate', () => {
  it('opens an empty database migrated and seeded as the server does; migrating again applies nothing', async () => {
    const t = await openTandem(memoryConfig(), { memory: true });
    try {
      expect(t.applied).toEqual(MIGRATION_NAMES);
      expect(t.applied[0]).toBe('0001_frame');
      expect(t.services.dbKind).toBe('pglite');
      const menu = await t.database.db
        .selectFrom('sys_submenu')
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow();
      expect(menu.n).toBeGreaterThan(50);

      lines.length = 0;
      expect(await migrateCommand(t.database.db, out)).toEqual([]);
      expect(lines.join('\n')).toMatch(/up to date/);
    } finally {
      await t.close();
    }
  });
});

describe('tandem create-admin', () => {
  it('creates an unrestricted admin who signs in and manages users', async () => {
    const s = h.built.services;
    const id = await createAdminCommand(
      s,
      { name: 'ops', email: 'ops@example.com', password: 'Ops#Pass01' },
      out,
    );
    const token = await h.signIn('ops', 'Ops#Pass01');
    const me = await h.call<{ user_id: number; user_type: string; role_id: number }>('GET', '/api/user', {
      token,
    });
    expect(me.body.payload).toMatchObject({ user_id: id, user_type: 'admin', role_id: 0 });
    const users = await h.call<{ total: number }>('GET', '/api/user/list', { token });
    expect(users.body.success).toBe(true);

    const log = await s.db
      .selectFrom('modification_log')
      .selectAll()
      .where('entity', '=', 'user')
      .where('entity_id', '=', String(id))
      .execute();
    expect(log.map((r) => r.action)).toEqual(['create admin (cli)']);
    expect(JSON.stringify(log[0]?.after)).not.toContain('scrypt$');
  });

  it('refuses a taken name (any case) and passwords outside 8-15 characters, creating nothing', async () => {
    const s = h.built.services;
    const before = await counts();
    await expect(
      createAdminCommand(s, { name: 'OPS', email: 'x@example.com', password: 'Good#Pass1' }, out),
    ).rejects.toThrow(/already exists/);
    await expect(
      createAdminCommand(s, { name: 'ops2', email: 'x@example.com', password: 'short' }, out),
    ).rejects.toThrow(/8 to 15/);
    await expect(
      createAdminCommand(s, { name: 'ops2', email: 'x@example.com', password: '1234567890123456' }, out),
    ).rejects.toThrow(/8 to 15/);
    await expect(
      createAdminCommand(s, { name: 'ops2', email: 'not-an-email', password: 'Good#Pass1' }, out),
    ).rejects.toThrow(/email/);
    await expect(
      createAdminCommand(s, { name: 'ops 2', email: 'x@example.com', password: 'Good#Pass1' }, out),
    ).rejects.toThrow(CliError);
    expect(await counts()).toEqual(before);
  });
});

describe('tandem reset-password', () => {
  it('sets the new password and ends every open session of the user', async () => {
    const s = h.built.services;
    const oldToken = await h.signIn('ops', 'Ops#Pass01');
    lines.length = 0;
    await resetPasswordCommand(s, { name: 'OPS', password: 'New#Pass02' }, out);
    // the session of the create-admin test and this one
    expect(lines.join('\n')).toMatch(/2 open session\(s\) revoked/);

    const stale = await h.call('GET', '/api/user', { token: oldToken });
    expect(stale.status).toBe(401);
    expect(stale.body.error?.code).toBe(130);

    const wrong = await h.call('POST', '/api/auth', {
      body: { email_or_name: 'ops', password: 'Ops#Pass01' },
    });
    expect(wrong.body.success).toBe(false);
    await h.signIn('ops', 'New#Pass02');
  });

  it('fails clearly for an unknown user or a bad password', async () => {
    const s = h.built.services;
    await expect(resetPasswordCommand(s, { name: 'nobody', password: 'Good#Pass1' }, out)).rejects.toThrow(
      /No user named "nobody"/,
    );
    await expect(resetPasswordCommand(s, { name: 'ops', password: 'short' }, out)).rejects.toThrow(/8 to 15/);
  });
});

/** The tests' demo month: smaller than the CLI's default, the same code. */
const DEMO_SIZE = { calls: 12_000 };

describe('tandem seed-demo', () => {
  it('creates the demo once; a second run creates nothing and reports the same logins', async () => {
    const s = h.built.services;
    const first = await seedDemoCommand(s, out, DEMO_SIZE);
    expect(first.map((c) => [c.role, c.name, c.status])).toEqual([
      ['admin', DEMO.admin.name, 'created'],
      ['agent', DEMO.agent.login.name, 'created'],
      ['client', 'demo_client', 'created'],
      ['vendor', 'demo_vendor', 'created'],
      ['vendor', 'demo_vendor_two', 'created'],
      ['DID client', 'did_client', 'created'],
    ]);
    const after1 = await counts();
    // a month of demo traffic went through the ingest
    expect(after1.cdrs).toBeGreaterThan(DEMO_SIZE.calls);
    expect(lines.some((l) => /Demo data created: .*cdr \d+/.test(l))).toBe(true);
    // every demo balance, the opening ones included, is the sum of its ledger
    const off = await sql<{ name: string }>`
      SELECT c.name FROM carriers c
      LEFT JOIN (SELECT client_id, sum(amount) AS s FROM ledger GROUP BY client_id) l ON l.client_id = c.client_id
      WHERE c.balance <> coalesce(l.s, 0)`.execute(s.db);
    expect(off.rows).toEqual([]);
    // the demo customer's calls route to the demo vendors: answered, failed over, and billed both ways
    const traffic = (
      await sql<{ answered: number; attempts: number; calls: number; usage: number }>`
        SELECT count(*) FILTER (WHERE call_duration > 0)::int AS answered, count(*)::int AS attempts,
          count(DISTINCT call_id)::int AS calls,
          (SELECT count(DISTINCT client_id)::int FROM ledger WHERE kind = 'usage' AND amount <> 0) AS usage
        FROM cdrs`.execute(s.db)
    ).rows[0]!;
    expect(traffic.answered / traffic.calls).toBeGreaterThan(0.3);
    expect(traffic.attempts).toBeGreaterThan(traffic.calls);
    // monitoring: a fraud, a monitoring and a loop rule, already run once over the demo traffic
    expect(lines.some((l) => /monitoring_rule 3/.test(l))).toBe(true);
    const runs = await sql<{ fraud: number; rule: number }>`SELECT
      (SELECT count(*)::int FROM fraud_rules WHERE last_run_at IS NOT NULL) AS fraud,
      (SELECT count(*)::int FROM monitoring_rules WHERE next_run_at IS NOT NULL) AS rule`.execute(s.db);
    expect(runs.rows[0]).toEqual({ fraud: 1, rule: 1 });
    // the demo agent earned its weeks of that month: 5 % of its client's revenue per closed week
    const weeks = (
      await sql<{ n: number; amount: string; expected: string; owed: string }>`
        SELECT count(*)::int AS n, sum(p.amount)::text AS amount,
          sum(round(p.revenue * 5 / 100, 2))::numeric(20,6)::text AS expected, max(a.balance)::text AS owed
        FROM agent_commission_periods p JOIN agents a USING (agent_id)`.execute(s.db)
    ).rows[0]!;
    expect(weeks.n).toBeGreaterThanOrEqual(4);
    expect(Number(weeks.amount)).toBeGreaterThan(0);
    expect(weeks.amount).toBe(weeks.expected);
    expect(weeks.owed).toBe(weeks.amount);
    expect(traffic.usage).toBe(5); // the client paid, both vendors earned; the DID client paid, the DID vendor earned
    lines.length = 0;
    const second = await seedDemoCommand(s, out, DEMO_SIZE);
    expect(await counts()).toEqual(after1);
    expect(second.every((c) => c.status === 'exists')).toBe(true);
    expect(lines[0]).toMatch(/nothing created/);
    // the credential table lists every login with its password
    for (const c of second)
      expect(lines.some((l) => l.includes(c.name) && l.includes(c.password))).toBe(true);
    // (signed in last: a sign-in is a row the counts above would see)
    // a public product at the demo customer's rates: the client and agent portals' Products
    const demoClient = await h.signIn('demo_client', 'Demo#Client26');
    const products = (
      await h.call<{ items: { name: string; rate_table_id: number }[] }>('GET', '/api/product/list', {
        token: demoClient,
      })
    ).body.payload!.items;
    expect(products.map((p) => p.name)).toEqual(['Demo Global Termination']);
    const rates = await h.call<{ total: number }>(
      'GET',
      `/api/portal/rate_tables/${products[0]!.rate_table_id}/rates`,
      {
        token: demoClient,
      },
    );
    expect(rates.body.payload!.total).toBeGreaterThan(100);
  }, 420_000);

  it('gives each demo login a working portal with living data', async () => {
    const creds = Object.fromEntries(
      (await seedDemoCommand(h.built.services, out, DEMO_SIZE)).map((c) => [c.role, c]),
    );
    const tokenOf = (role: string) => h.signIn(creds[role]!.name, creds[role]!.password);

    const admin = await tokenOf('admin');
    const home = await h.call<{ clients: number; vendors: number; agents: number; waiting_tickets: number }>(
      'GET',
      '/api/home/admin',
      {
        token: admin,
      },
    );
    // the DID client and the DID vendor (origination carriers) count too
    expect(home.body.payload).toMatchObject({ clients: 2, vendors: 3, agents: 1, waiting_tickets: 1 });
    const did = await tokenOf('DID client');
    const mine = await h.call<{ total: number }>('GET', '/api/did/portal/my?per_page=999', { token: did });
    expect(mine.body.payload.total).toBe(25);
    const switches = await h.call<{ total: number }>('GET', '/api/switch/full/list', { token: admin });
    expect(switches.body.payload.total).toBe(1);
    const hosts = await h.call<{ total: number }>('GET', '/api/switch/sip_host/list', { token: admin });
    expect(hosts.body.payload.total).toBe(2);

    const client = await tokenOf('client');
    const me = await h.call<{ user_type: string; client: { name: string } }>('GET', '/api/user', {
      token: client,
    });
    expect(me.body.payload.user_type).toBe('client');
    const messages = await h.call<{ total: number }>('GET', '/api/home/client/message/list', {
      token: client,
    });
    expect(messages.body.payload.total).toBe(3);
    const alerts = await h.call<{ total: number }>('GET', '/api/home/client/alert/list', { token: client });
    expect(alerts.body.payload.total).toBe(2);
    const unpaid = await h.call<{ items: { invoice_number: string }[] }>(
      'GET',
      '/api/home/client/invoice/list?paid=false',
      {
        token: client,
      },
    );
    const unpaidNumbers = unpaid.body.payload.items.map((i) => i.invoice_number);
    expect(unpaidNumbers.filter((n) => n.startsWith('DEMO-')).sort()).toEqual(['DEMO-C-0002', 'DEMO-C-0003']);
    // seed-demo's invoices of the demo month's weeks, made through the real paths (issue 12): some open
    expect(unpaidNumbers.some((n) => /^INV\d{6}$/.test(n))).toBe(true);
    const paid = ok(
      await h.call<{ items: { pay_status: string }[] }>('GET', '/api/finance/invoice/list?per_page=100', {
        token: client,
      }),
    );
    expect(paid.items.some((i) => i.pay_status === 'paid')).toBe(true);
    const tickets = await h.call<{ items: { ticket_status: string }[] }>('GET', '/api/ticket/list', {
      token: client,
    });
    expect(tickets.body.payload.items.map((t) => t.ticket_status).sort()).toEqual(['resolved', 'waiting']);

    // Finance > Extra Charges is not empty: a client's monthly and one-off charges, a vendor's
    // monthly one, each already charged through the ledger
    const charges = ok(
      await h.call<{
        items: { side: string; frequency: string; charged_count: number; charged_total: string }[];
      }>('GET', '/api/finance/extra_charge/list', { token: admin }),
    ).items;
    expect(charges.map((c) => `${c.side} ${c.frequency}`).sort()).toEqual([
      'customer monthly',
      'customer once',
      'vendor monthly',
    ]);
    for (const c of charges) expect(c.charged_count).toBeGreaterThanOrEqual(1);
    // the DID client's port-in requests, one in each state, with the operator's moves as its notices
    const didClient = await tokenOf('DID client');
    const ports = ok(
      await h.call<{ items: { status: string }[] }>('GET', '/api/did/portal/port_request/list', {
        token: didClient,
      }),
    ).items;
    expect(ports.map((p) => p.status).sort()).toEqual(['completed', 'in_progress', 'rejected', 'requested']);

    const vendor = await tokenOf('vendor');
    const vme = await h.call<{ user_type: string }>('GET', '/api/user', { token: vendor });
    expect(vme.body.payload.user_type).toBe('vendor');

    const agent = await tokenOf('agent');
    const ame = await h.call<{ user_type: string; referal_key: string }>('GET', '/api/user', {
      token: agent,
    });
    expect(ame.body.payload).toMatchObject({ user_type: 'agent', referal_key: DEMO.agent.referral_key });
    const clients = await h.call<{ items: { name: string }[] }>('GET', '/api/home/agent/client_balances', {
      token: agent,
    });
    expect(clients.body.payload.items.map((c) => c.name)).toEqual(['Demo Client']);
  });

  it('routes a demo call: the SDF deck as the customer rates, two vendors by LCR, dates from today', async () => {
    const first = await seedDemoCommand(h.built.services, out, DEMO_SIZE);
    const creds = Object.fromEntries(first.map((c) => [c.role, c]));
    const admin = await h.signIn(creds.admin!.name, creds.admin!.password);
    // The seeding asked for a rebuild: wait for a snapshot newer than the current one.
    const before = ok(
      await h.call<{ version: number }>('GET', '/api/routing/engine/status', { token: admin }),
    );
    await h.call('POST', '/api/routing/engine/rebuild', { token: admin });
    await settled(h, admin, before.version);
    type Sim = {
      result: string;
      reject_reason: string | null;
      ingress: { trunk_name: string; rate_table_name: string | null } | null;
      routes: { trunk_name: string; carrier_name: string; rate: string }[];
    };
    const simulate = async (dnis: string) =>
      ok(
        await h.call<Sim>('POST', '/api/tools/call_simulation', {
          token: admin,
          body: { source_ip: '198.51.100.23', source_port: 5060, ani: '4930555000', dnis },
        }),
      );
    // Germany: Demo Vendor Two (70 % of 0.0159) before Demo Vendor (80 %).
    const de = await simulate('4930123456');
    expect(de.result, JSON.stringify(de)).toBe('route');
    expect(de.ingress).toMatchObject({ trunk_name: 'Demo Client In', rate_table_name: 'Demo Client A-Z' });
    expect(de.routes.map((r) => [r.trunk_name, r.rate])).toEqual([
      ['Demo Vendor Two Out', '0.011130'],
      ['Demo Vendor Out', '0.012720'],
    ]);
    const uk = await simulate('442071234567');
    expect(uk.routes.map((r) => [r.carrier_name, r.rate])).toEqual([
      ['Demo Vendor Two', '0.007210'],
      ['Demo Vendor', '0.008240'],
    ]);
    // France: Demo Vendor (80 % of 0.0257) before Demo Vendor Two (90 %).
    const fr = await simulate('33123456789');
    expect(fr.routes.map((r) => [r.carrier_name, r.rate])).toEqual([
      ['Demo Vendor', '0.020560'],
      ['Demo Vendor Two', '0.023130'],
    ]);
    // The alert's "due in N days" agrees with the invoice's due date (seeded relative to today).
    const client = await h.signIn(creds.client!.name, creds.client!.password);
    const alerts = ok(
      await h.call<{ items: { content: string }[] }>('GET', '/api/home/client/alert/list', { token: client }),
    );
    expect(alerts.items.map((a) => a.content)).toContain('Invoice DEMO-C-0003 is due in 10 days');
  });

  it('tells when a demo password was changed since seeding', async () => {
    await resetPasswordCommand(h.built.services, { name: 'demo_vendor', password: 'Changed#26' }, out);
    const creds = await seedDemoCommand(h.built.services, out, DEMO_SIZE);
    expect(creds.find((c) => c.name === 'demo_vendor')?.status).toBe('exists, password changed');
    expect(creds.find((c) => c.name === 'demo_client')?.status).toBe('exists');
  });
});

describe('cli.ts', () => {
  const root = path.resolve(import.meta.dirname, '../../../..');
  const run = (args: string[], dataDir: string) =>
    spawnSync(path.join(root, 'node_modules/.bin/tsx'), ['apps/server/src/cli.ts', ...args], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PASSWORD_COST: '10' },
      timeout: 60_000,
    });

  it('runs commands against DATA_DIR and exits non-zero with a clear message on bad input', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-cli-'));
    try {
      const usage = run(['frobnicate'], dataDir);
      expect(usage.status).toBe(2);
      expect(usage.stderr).toMatch(/Unknown command "frobnicate"/);

      const bad = run(
        ['create-admin', '--name', 'root', '--email', 'root@example.com', '--password', 'short'],
        dataDir,
      );
      expect(bad.status).toBe(1);
      expect(bad.stderr).toMatch(/--password: Password must be 8 to 15 characters/);
      expect(fs.existsSync(path.join(dataDir, 'pglite'))).toBe(false); // checked before opening the database

      const badCalls = run(['seed-demo', '--calls', '12k'], dataDir);
      expect(badCalls.status).toBe(2);
      expect(badCalls.stderr).toMatch(/--calls: a whole number from 1 to 2000000/);

      const noCsv = run(['import-cdrs', 'calls.txt', '--batch-size', '100'], dataDir);
      expect(noCsv.status).toBe(2);
      expect(noCsv.stderr).toMatch(/must end in \.csv, \.jsonl or \.ndjson/);
      expect(fs.existsSync(path.join(dataDir, 'pglite'))).toBe(false);

      const migrate = run(['migrate'], dataDir);
      expect(migrate.status, migrate.stderr).toBe(0);
      expect(migrate.stdout).toMatch(/applied 0001_frame/);

      const created = run(
        ['create-admin', '--name', 'root', '--email', 'root@example.com', '--password', 'Root#Pass1'],
        dataDir,
      );
      expect(created.status, created.stderr).toBe(0);
      expect(created.stdout).toMatch(/Created admin "root"/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
