import fs from 'node:fs';
import path from 'node:path';
import { parseCsvLine } from '@tandem/contract';
import { formatMoney, invoiceBalance, parseMoney } from '@tandem/domain';
import { sql } from 'kysely';
import type { Services } from '../services';
import { saveSchedule } from '../modules/stats/reports';
import { moveBalances } from '../modules/cdr/ledger';
import { DEMO_TRAFFIC_DAYS } from '../modules/cdr/demo-traffic';
import type { Db } from './connection';
import {
  DEMO,
  type DemoCarrier,
  type DemoData,
  type DemoInvoice,
  type DemoLogin,
  type DemoRates,
  type DemoRouting,
} from './demo';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');

/** One login the demo created or found, for the credential table. */
export interface DemoCredential {
  role: string;
  name: string;
  password: string;
  email: string;
  /** created now, already there, or already there with another password (someone changed it). */
  status: 'created' | 'exists' | 'exists, password changed';
}

export interface DemoReport {
  credentials: DemoCredential[];
  /** Records created in this run, per entity (nothing when the demo was already complete). */
  created: Record<string, number>;
}

/**
 * Writes the demo data idempotently in one transaction: every record is looked up by its natural key
 * (user and carrier name, agent name, invoice number, subject ...) and only created when missing;
 * existing records are left as they are. Every creation leaves a modification log row.
 */
export async function seedDemoData(
  s: Services,
  data: DemoData = DEMO,
  now = new Date(),
): Promise<DemoReport> {
  const report: DemoReport = { credentials: [], created: {} };
  const created = (entity: string) => (report.created[entity] = (report.created[entity] ?? 0) + 1);
  const audit = async (trx: Db, entity: string, id: string | number, after: unknown) => {
    created(entity);
    await s.audit.record(trx, null, entity, id, 'create (demo)', null, after);
  };

  await s.db.transaction().execute(async (trx) => {
    const ensureUser = async (
      role: string,
      login: DemoLogin,
      kind:
        | { user_type: 'admin' }
        | { user_type: 'client'; client_id: number }
        | { user_type: 'agent'; agent_id: number },
    ): Promise<{ userId: number; isNew: boolean }> => {
      const existing = await trx
        .selectFrom('users')
        .select(['user_id', 'password_hash'])
        .where(sql<string>`lower(name)`, '=', login.name.toLowerCase())
        .executeTakeFirst();
      if (existing) {
        const same = await s.auth.verify(login.password, existing.password_hash);
        report.credentials.push({
          role,
          ...pickLogin(login),
          status: same ? 'exists' : 'exists, password changed',
        });
        return { userId: existing.user_id, isNew: false };
      }
      const firstUser = !(await trx.selectFrom('users').select('user_id').limit(1).executeTakeFirst());
      const row = await trx
        .insertInto('users')
        .values({
          name: login.name,
          password_hash: await s.auth.hash(login.password),
          first_name: login.first_name,
          last_name: login.last_name,
          email: login.email,
          user_type: kind.user_type,
          role_id: null,
          client_id: kind.user_type === 'client' ? kind.client_id : null,
          agent_id: kind.user_type === 'agent' ? kind.agent_id : null,
          is_server_admin: firstUser && kind.user_type === 'admin',
          landing_page: null,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await audit(trx, 'user', row.user_id, row);
      report.credentials.push({ role, ...pickLogin(login), status: 'created' });
      return { userId: row.user_id, isNew: true };
    };

    const demoAdmin = await ensureUser('admin', data.admin, { user_type: 'admin' });

    const agentId = await ensureAgent(trx, data, now, audit);
    await ensureUser('agent', data.agent.login, { user_type: 'agent', agent_id: agentId });

    for (const def of data.carriers) {
      const clientId = await ensureCarrier(trx, def, def.via_agent ? agentId : null, now, audit);
      const user = await ensureUser(def.client_type, def.login, { user_type: 'client', client_id: clientId });
      await ensureCarrierLife(trx, def, clientId, user.userId, now, audit);
      await ensureTrunks(trx, def, clientId, now, audit);
      if (user.isNew) {
        for (const si of def.signins) {
          await trx
            .insertInto('signin_history')
            .values({
              user_id: user.userId,
              name: def.login.name,
              ip: si.ip,
              result: si.result,
              reason: si.result === 'failed' ? 'wrong password' : '',
              created_at: new Date(now.getTime() - si.minutes_ago * 60_000),
            })
            .execute();
          created('signin_history');
        }
      }
    }

    if (data.rates) await ensureRates(trx, data.rates, now, audit);
    if (data.routing) await ensureRouting(trx, data.routing, now, audit);
    if (data.rates && data.routing) await ensureProduct(trx, data.routing, now, audit);

    for (const sw of data.switches) {
      let row = await trx
        .selectFrom('switches')
        .select('switch_id')
        .where('name', '=', sw.name)
        .executeTakeFirst();
      if (!row) {
        const { sip_hosts: _hosts, ...fields } = sw;
        const inserted = await trx
          .insertInto('switches')
          .values({ ...fields, last_seen_at: sw.connected ? now : null })
          .returningAll()
          .executeTakeFirstOrThrow();
        await audit(trx, 'switch', inserted.switch_id, inserted);
        row = inserted;
      }
      for (const host of sw.sip_hosts) {
        const taken = await trx
          .selectFrom('sip_hosts')
          .select('id')
          .where('sip_ip', '=', host.sip_ip)
          .where('sip_port', '=', host.sip_port)
          .executeTakeFirst();
        if (taken) continue;
        const inserted = await trx
          .insertInto('sip_hosts')
          .values({ ...host, switch_id: row.switch_id })
          .returningAll()
          .executeTakeFirstOrThrow();
        await audit(trx, 'sip_host', inserted.id, inserted);
      }
    }

    // Statistics: a weekly usage report by customer mailed to the demo admin (docs/statistics.md "Schedules").
    const scheduled = await trx
      .selectFrom('report_schedules')
      .select('id')
      .where('user_id', '=', demoAdmin.userId)
      .executeTakeFirst();
    if (!scheduled) {
      const row = await saveSchedule(
        trx,
        { user_id: demoAdmin.userId, name: data.admin.name },
        'usage_report',
        {
          name: 'Weekly usage by customer',
          frequency: 'weekly',
          hour: 6,
          tz: '+0000',
          to: [data.admin.email],
          query: { group_by: ['customer'] },
        },
      );
      await audit(trx, 'report_schedule', row.id, row);
    }
  });
  // The routing engine serves the demo's trunks, rates and routes from its next snapshot.
  s.configChanged.notify();
  return report;
}

type Audit = (trx: Db, entity: string, id: string | number, after: unknown) => Promise<void>;

const pickLogin = (l: DemoLogin) => ({ name: l.name, password: l.password, email: l.email });

async function ensureAgent(trx: Db, data: DemoData, now: Date, audit: Audit): Promise<number> {
  const a = data.agent;
  const existing = await trx
    .selectFrom('agents')
    .select('agent_id')
    .where(sql<string>`lower(agent_name)`, '=', a.agent_name.toLowerCase())
    .executeTakeFirst();
  if (existing) return existing.agent_id;
  const row = await trx
    .insertInto('agents')
    .values({
      agent_name: a.agent_name,
      email: a.email,
      commission_method: a.commission_method,
      commission_percent: a.commission_percent,
      frequency: a.frequency,
      commission_since: new Date(now.getTime() - a.commission_since_days_ago * 86_400_000)
        .toISOString()
        .slice(0, 10),
      referral_key: a.referral_key,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await audit(trx, 'agent', row.agent_id, row);
  return row.agent_id;
}

async function ensureCarrier(
  trx: Db,
  def: DemoCarrier,
  agentId: number | null,
  now: Date,
  audit: Audit,
): Promise<number> {
  const existing = await trx
    .selectFrom('carriers')
    .select('client_id')
    .where(sql<string>`lower(name)`, '=', def.name.toLowerCase())
    .executeTakeFirst();
  if (existing) return existing.client_id;
  const row = await trx
    .insertInto('carriers')
    .values({
      name: def.name,
      company: def.company,
      client_type: def.client_type,
      company_type: def.company_type,
      mode: def.mode,
      balance: '0',
      credit_limit: def.credit_limit,
      main_email: def.login.email,
      noc_email: def.login.email,
      billing_email: def.login.email,
      agent_id: agentId,
      registration_status: 'approved',
      is_active: true,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await audit(trx, 'carrier', row.client_id, row);
  // The demo's starting balance is a ledger row, as every balance change is (balance = ledger sum).
  const opening = parseMoney(def.balance);
  if (opening !== 0n)
    await moveBalances(trx, [
      {
        client_id: row.client_id,
        kind: 'opening',
        ref: 'demo-opening',
        amount: opening,
        note: 'Demo opening balance',
      },
    ]);
  return row.client_id;
}

/** Messages, alerts, invoices and tickets of one carrier, each created once. */
async function ensureCarrierLife(
  trx: Db,
  def: DemoCarrier,
  clientId: number,
  userId: number,
  now: Date,
  audit: Audit,
): Promise<void> {
  for (const m of def.messages) {
    const found = await trx
      .selectFrom('client_messages')
      .select('id')
      .where('client_id', '=', clientId)
      .where('subject', '=', m.subject)
      .executeTakeFirst();
    if (found) continue;
    const row = await trx
      .insertInto('client_messages')
      .values({ ...m, client_id: clientId })
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(trx, 'client_message', row.id, row);
  }

  for (const alert of def.alerts) {
    const a = { ...alert, content: alertText(alert.content, def, now) };
    const found = await trx
      .selectFrom('client_alerts')
      .select('id')
      .where('client_id', '=', clientId)
      .where('content', '=', a.content)
      .executeTakeFirst();
    if (found) continue;
    const row = await trx
      .insertInto('client_alerts')
      .values({ ...a, client_id: clientId })
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(trx, 'client_alert', row.id, row);
  }

  for (const inv of def.invoices) {
    const found = await trx
      .selectFrom('invoices')
      .select('invoice_id')
      .where('invoice_number', '=', inv.invoice_number)
      .executeTakeFirst();
    if (found) continue;
    const { start, end, issued, due } = invoiceDates(def, inv, now);
    const row = await trx
      .insertInto('invoices')
      .values({
        client_id: clientId,
        invoice_number: inv.invoice_number,
        invoice_date: dateOnly(issued),
        period_start: start,
        period_end: end,
        amount: inv.amount,
        paid_amount: inv.paid_amount,
        // the paid state follows the paid amount, by the one rule invoices use
        pay_status: invoiceBalance(parseMoney(inv.amount), 0n, parseMoney(inv.paid_amount), 0n).payStatus,
        due_date: dateOnly(due),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(trx, 'invoice', row.invoice_id, row);
  }

  for (const t of def.tickets) {
    const found = await trx
      .selectFrom('tickets')
      .select('id')
      .where('client_id', '=', clientId)
      .where('subject', '=', t.subject)
      .executeTakeFirst();
    if (found) continue;
    const row = await trx
      .insertInto('tickets')
      .values({
        client_id: clientId,
        user_id: userId,
        username: def.login.name,
        department: t.department,
        subject: t.subject,
        content: t.content,
        url: '',
        type: 'support',
        ticket_status: t.status,
        modified_on: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await audit(trx, 'ticket', row.id, row);
  }
}

/** The carrier's trunks (looked up by name), with their hosts. */
async function ensureTrunks(
  trx: Db,
  def: DemoCarrier,
  clientId: number,
  now: Date,
  audit: Audit,
): Promise<void> {
  for (const t of def.trunks) {
    const found = await trx
      .selectFrom('trunks')
      .select('trunk_id')
      .where(sql<string>`lower(name)`, '=', t.name.toLowerCase())
      .executeTakeFirst();
    if (found) continue;
    const row = await trx
      .insertInto('trunks')
      .values({
        carrier_id: clientId,
        name: t.name,
        direction: t.direction,
        tech_prefix: t.tech_prefix,
        call_limit: t.call_limit,
        cps_limit: null,
        rate_table_id: null,
        routing_plan_id: null,
        min_profitability: null,
        random_ani_group_id: null,
        rounding: null,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('trunk_hosts')
      .values(t.hosts.map((h, i) => ({ trunk_id: row.trunk_id, host: h.host, port: h.port, ordering: i })))
      .execute();
    await audit(trx, 'trunk', row.trunk_id, { ...row, hosts: t.hosts });
  }
}

/** The LCR dynamic route (pool trunks found by name), the plan with its one prefix row, the plan on the ingress trunks. */
async function ensureRouting(trx: Db, def: DemoRouting, now: Date, audit: Audit): Promise<void> {
  const trunkIds = async (names: string[]) =>
    names.length
      ? await trx
          .selectFrom('trunks')
          .select(['trunk_id', 'routing_plan_id'])
          .where(
            sql<string>`lower(name)`,
            'in',
            names.map((n) => n.toLowerCase()),
          )
          .execute()
      : [];
  let route = await trx
    .selectFrom('dynamic_routes')
    .select('dynamic_route_id')
    .where(sql<string>`lower(name)`, '=', def.dynamic_route.name.toLowerCase())
    .executeTakeFirst();
  if (!route) {
    route = await trx
      .insertInto('dynamic_routes')
      .values({
        name: def.dynamic_route.name,
        rule: def.dynamic_route.rule,
        updated_at: now,
        updated_by: 'demo',
      })
      .returning('dynamic_route_id')
      .executeTakeFirstOrThrow();
    const pool = await trunkIds(def.dynamic_route.trunks);
    if (pool.length)
      await trx
        .insertInto('dynamic_route_trunks')
        .values(pool.map((t) => ({ dynamic_route_id: route!.dynamic_route_id, trunk_id: t.trunk_id })))
        .execute();
    await audit(trx, 'dynamic_route', route.dynamic_route_id, { ...def.dynamic_route });
  }
  let plan = await trx
    .selectFrom('routing_plans')
    .select('route_plan_id')
    .where(sql<string>`lower(name)`, '=', def.plan.name.toLowerCase())
    .executeTakeFirst();
  if (!plan) {
    plan = await trx
      .insertInto('routing_plans')
      .values({ name: def.plan.name, updated_at: now, updated_by: 'demo' })
      .returning('route_plan_id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('routing_plan_rows')
      .values({
        route_plan_id: plan.route_plan_id,
        prefix: def.plan.prefix,
        route_type: 'dynamic',
        dynamic_route_id: route.dynamic_route_id,
      })
      .execute();
    await audit(trx, 'routing_plan', plan.route_plan_id, { ...def.plan, route: def.dynamic_route.name });
  }
  for (const t of await trunkIds(def.ingress_trunks)) {
    if (t.routing_plan_id !== null) continue;
    await trx
      .updateTable('trunks')
      .set({ routing_plan_id: plan.route_plan_id, updated_at: now })
      .where('trunk_id', '=', t.trunk_id)
      .execute();
    await audit(trx, 'trunk_routing_plan', t.trunk_id, { routing_plan: def.plan.name });
  }
}

/**
 * A public product at the demo customer's rates over the demo routing plan, so the client and agent
 * portals' Products (and View Rates) show what a carrier can buy and an agent sell.
 */
async function ensureProduct(trx: Db, def: DemoRouting, now: Date, audit: Audit): Promise<void> {
  const name = 'Demo Global Termination';
  const found = await trx
    .selectFrom('products')
    .select('id')
    .where(sql<string>`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst();
  if (found) return;
  const trunk = await trx
    .selectFrom('trunks')
    .select(['rate_table_id', 'routing_plan_id'])
    .where(
      sql<string>`lower(name)`,
      'in',
      def.ingress_trunks.map((n) => n.toLowerCase()),
    )
    .where('rate_table_id', 'is not', null)
    .where('routing_plan_id', 'is not', null)
    .executeTakeFirst();
  if (!trunk) return;
  const row = await trx
    .insertInto('products')
    .values({
      name,
      rate_table_id: trunk.rate_table_id,
      routing_plan_id: trunk.routing_plan_id,
      description: 'Worldwide termination, least-cost routed over the demo vendors',
      scope: 'public',
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await audit(trx, 'product', row.id, { name, scope: 'public' });
}

const dateOnly = (d: Date) => d.toISOString().slice(0, 10);
const DAY_MS = 86_400_000;

/**
 * A legacy invoice's dates relative to the seeding day: issued `issued_days_ago`, covering one whole
 * month. The carrier's legacy invoices cover the consecutive months that end before the demo
 * traffic's first day (the last of them the month before it): billing/demo.ts invoices the traffic
 * weeks through the real path, and an invoice never overlaps another's period (on the 7th of a
 * month, "the month before issue" would cover the traffic's first weeks and leave the demo client
 * without a real invoice).
 */
export function invoiceDates(def: DemoCarrier, inv: DemoInvoice, now: Date) {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const issued = new Date(today - inv.issued_days_ago * DAY_MS);
  const trafficStart = new Date(today - DEMO_TRAFFIC_DAYS * DAY_MS);
  const back = def.invoices.length - 1 - def.invoices.indexOf(inv);
  const end = new Date(Date.UTC(trafficStart.getUTCFullYear(), trafficStart.getUTCMonth() - back, 1));
  const start = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - 1, 1));
  const due = new Date(issued.getTime() + inv.due_days * DAY_MS);
  return { start, end, issued, due };
}

/** Replaces {due_in:NUMBER} with the whole days from the seeding day to that invoice's due date. */
function alertText(content: string, def: DemoCarrier, now: Date): string {
  return content.replace(/\{due_in:([^}]+)\}/g, (m, number: string) => {
    const inv = def.invoices.find((i) => i.invoice_number === number);
    if (!inv) return m;
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    return String(Math.round((invoiceDates(def, inv, now).due.getTime() - today) / DAY_MS));
  });
}

interface DeckRow {
  code: string;
  code_name: string;
  country: string;
  rate: bigint;
  min_time: number;
  interval: number;
}

/** The SDF deck's rows (Destination, Prefix, First Interval, Sub Interval, Rate, ...). */
function readDeck(file: string): DeckRow[] {
  const lines = fs.readFileSync(path.resolve(REPO_ROOT, file), 'utf8').split(/\r?\n/);
  const rows: DeckRow[] = [];
  const seen = new Set<string>();
  for (const line of lines.slice(1)) {
    if (!line.trim()) continue;
    const [destination = '', code = '', first = '', sub = '', rate = ''] = parseCsvLine(line);
    // Rows without a rate (9 in the SDF deck) are skipped, as the rate import skips them.
    if (!/^[0-9]+$/.test(code) || !rate.trim() || seen.has(code)) continue;
    seen.add(code);
    rows.push({
      code,
      code_name: destination,
      country: destination.split(' - ')[0]!.trim(),
      rate: parseMoney(rate),
      min_time: Number(first) || 1,
      interval: Number(sub) || 1,
    });
  }
  return rows;
}

const BATCH = 2000;

/**
 * The code deck and rate tables made from the SDF deck, each put on the named trunks that have none.
 * The first table is the deck itself (100 %): it is written from the file, the code deck and the
 * other tables from it in SQL (numeric arithmetic, exact, rounded half up to 6 places).
 */
async function ensureRates(trx: Db, def: DemoRates, now: Date, audit: Audit): Promise<void> {
  const [base] = def.tables;
  if (!base || base.percent !== 100 || base.countries)
    throw new Error('the first demo rate table must be the deck at 100 %');
  const byName = (table: 'code_decks' | 'rate_tables', name: string) =>
    trx
      .selectFrom(table)
      .select(table === 'code_decks' ? 'code_deck_id as id' : 'rate_table_id as id')
      .where(sql<string>`lower(name)`, '=', name.toLowerCase())
      .executeTakeFirst()
      .then((r) => (r ? { id: Number(r.id) } : undefined));
  let deckId: number | undefined = (await byName('code_decks', def.code_deck))?.id;
  const newDeck = deckId === undefined;
  if (deckId === undefined)
    deckId = (
      await trx
        .insertInto('code_decks')
        .values({ name: def.code_deck, updated_at: now, updated_by: 'demo' })
        .returning('code_deck_id')
        .executeTakeFirstOrThrow()
    ).code_deck_id;
  const effective = new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - def.effective_days_ago * DAY_MS,
  );
  const tableIds: number[] = [];
  for (const [n, t] of def.tables.entries()) {
    const found = await byName('rate_tables', t.name);
    if (found) {
      tableIds.push(found.id);
      continue;
    }
    const id = (
      await trx
        .insertInto('rate_tables')
        .values({
          name: t.name,
          code_deck_id: deckId,
          currency: 'USD',
          // The scaled vendor rates have up to 6 places (0.0159 x 70 % = 0.01113).
          decimal_places: 6,
          updated_at: now,
          updated_by: 'demo',
        })
        .returning('rate_table_id')
        .executeTakeFirstOrThrow()
    ).rate_table_id;
    tableIds.push(id);
    if (n === 0) {
      const rows = readDeck(def.deck);
      for (let i = 0; i < rows.length; i += BATCH)
        await trx
          .insertInto('rates')
          .values(
            rows.slice(i, i + BATCH).map((r) => ({
              rate_table_id: id,
              code: r.code,
              code_name: r.code_name,
              country: r.country,
              rate: formatMoney(r.rate, 6),
              min_time: r.min_time,
              interval: r.interval,
              setup_fee: '0',
              effective_date: effective,
              end_date: null,
            })),
          )
          .execute();
    } else {
      const countries = Object.entries(t.countries ?? {});
      const percent = countries.length
        ? sql`CASE ${sql.join(
            countries.map(([c, p]) => sql`WHEN country = ${c} THEN ${p}::numeric`),
            sql` `,
          )} ELSE ${t.percent}::numeric END`
        : sql`${t.percent}::numeric`;
      await sql`
        INSERT INTO rates (rate_table_id, code, code_name, country, rate, min_time, "interval", setup_fee, effective_date)
        SELECT ${id}, code, code_name, country, round(rate * ${percent} / 100, 6), min_time, "interval", 0, effective_date
        FROM rates WHERE rate_table_id = ${tableIds[0]!}`.execute(trx);
    }
    await audit(trx, 'rate_table', id, {
      name: t.name,
      source: def.deck,
      percent: t.percent,
      countries: t.countries ?? {},
    });
  }
  if (newDeck) {
    await sql`
      INSERT INTO codes (code_deck_id, code, code_name, country)
      SELECT ${deckId}, code, code_name, country FROM rates WHERE rate_table_id = ${tableIds[0]!}`.execute(
      trx,
    );
    await audit(trx, 'code_deck', deckId, { name: def.code_deck, source: def.deck });
  }
  for (const [n, t] of def.tables.entries()) {
    const trunks = await trx
      .selectFrom('trunks')
      .select(['trunk_id', 'rate_table_id'])
      .where(
        sql<string>`lower(name)`,
        'in',
        t.trunks.map((x) => x.toLowerCase()),
      )
      .execute();
    for (const tr of trunks) {
      if (tr.rate_table_id !== null) continue;
      await trx
        .updateTable('trunks')
        .set({ rate_table_id: tableIds[n]!, updated_at: now })
        .where('trunk_id', '=', tr.trunk_id)
        .execute();
      await audit(trx, 'trunk_rate_table', tr.trunk_id, { rate_table: t.name });
    }
  }
}
