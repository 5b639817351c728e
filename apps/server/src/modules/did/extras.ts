import { api, ErrorCode } from '@tandem/contract';
import { formatMoney, localDate, parseMoney } from '@tandem/domain';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/connection';
import { pageOf, withIsoTimes, newestFirst } from '../../db/paging';
import { actorOf, type Actor } from '../../http/context';
import { AppError, invalidField, notFound, ruleBroken } from '../../http/errors';
import { implement } from '../../http/register';
import type { AuditActor } from '../logs/audit';
import type { Services } from '../../services';
import { baseQuery, periodOf, stepFor, stepsOf } from '../stats/dashboard';
import { viewerFor } from '../stats/options';
import {
  coverageOf,
  groupedRows,
  offsetMinutes,
  scopeOf,
  totalsOf,
  type Range,
  type Scope,
} from '../stats/report';
import { numbersOf } from './service';
import { foldSummaries } from '../stats/summaries';

type Dashboard = z.output<typeof api.didExtras.didDashboard>;
type PortRow = z.output<typeof api.didExtras.portRequestRow>;
type PortStatus = api.didExtras.PortStatus;

/** DID traffic: calls that came in on a DID vendor's trunk (as the DID reports read it). */
const DID_TRAFFIC = sql`s.ingress_trunk_id IN (SELECT trunk_id FROM trunks WHERE trunk_type2 = 'did')`;

/**
 * The origination dashboard (docs/did.md "Dashboard"): the DID calls of the range from the traffic
 * summaries (the statistics dashboard's figures, steps and top lists with the DID condition), the
 * recurring DID charges of the range from the ledger, and the repository's numbers by state.
 */
export async function didDashboard(
  db: Db,
  viewer: Parameters<typeof scopeOf>[0],
  q: z.output<typeof api.stats.dashboardQuery>,
  now = Date.now(),
): Promise<Dashboard> {
  const base = scopeOf(viewer);
  const scope: Scope = {
    ...base,
    where: base.where ? sql`(${base.where} AND ${DID_TRAFFIC})` : DID_TRAFFIC,
  };
  const range = periodOf(q.range, q.tz, now);
  const query = { ...baseQuery(q.tz, q.top), traffic: 'did' as const };
  const step = stepFor(range.to - range.from);
  await foldSummaries(db); // every CDR committed before the question counts
  const [coverage, totals, series, clients, vendors, numbers, charges] = await Promise.all([
    coverageOf(db, range, scope),
    totalsOf(db, query, range, scope),
    stepsOf(db, range, scope, step, offsetMinutes(q.tz), false),
    groupedRows(db, { ...query, group_by: ['customer'] }, range, scope),
    groupedRows(db, { ...query, group_by: ['vendor'] }, range, scope),
    numbersByState(db),
    chargesOf(db, range, viewer.carrierIds),
  ]);
  const show = scope.costVisible;
  const usageRevenue = parseMoney(totals.revenue);
  const usageCost = parseMoney(totals.cost ?? '0');
  const revenue = usageRevenue + charges.revenue;
  const cost = usageCost + charges.cost;
  const m = (v: bigint) => formatMoney(v, 6);
  return {
    coverage,
    totals,
    step_minutes: step,
    series,
    numbers,
    money: {
      usage_revenue: m(usageRevenue),
      usage_cost: show ? m(usageCost) : null,
      charges_revenue: m(charges.revenue),
      charges_cost: show ? m(charges.cost) : null,
      revenue: m(revenue),
      cost: show ? m(cost) : null,
      profit: show ? m(revenue - cost) : null,
    },
    top_clients: clients.rows,
    top_vendors: vendors.rows,
  };
}

async function numbersByState(db: Db): Promise<Dashboard['numbers']> {
  const r = await sql<{ state: string; n: string; suspended: string }>`
    SELECT state, count(*)::text AS n, count(*) FILTER (WHERE suspended_at IS NOT NULL)::text AS suspended
    FROM dids GROUP BY state`.execute(db);
  const out = { total: 0, assigned: 0, unassigned: 0, reserved: 0, released: 0, suspended: 0 };
  for (const x of r.rows) {
    const n = Number(x.n);
    out.total += n;
    out.suspended += Number(x.suspended);
    if (x.state in out) out[x.state as api.did.DidStateName] = n;
  }
  return out;
}

/**
 * The recurring DID charges booked in the range (ledger kind 'did_charge'): what clients were
 * charged net of refunds (their rows are negative, refunds positive) and what vendors charged
 * (positive on the vendor's balance). An admin limited to its carriers sees theirs only.
 */
async function chargesOf(db: Db, range: Range, carrierIds: readonly number[] | null) {
  const r = await sql<{ revenue: string; cost: string }>`
    SELECT coalesce(-sum(amount) FILTER (WHERE side = 'customer'), 0)::text AS revenue,
      coalesce(sum(amount) FILTER (WHERE side = 'vendor'), 0)::text AS cost
    FROM ledger
    WHERE kind = 'did_charge'
      AND created_at >= ${new Date(range.from).toISOString()}::timestamptz
      AND created_at < ${new Date(range.to).toISOString()}::timestamptz
      ${carrierIds === null ? sql`` : sql`AND client_id = ANY(${[...carrierIds]}::int4[])`}`.execute(db);
  const row = r.rows[0];
  return { revenue: parseMoney(row?.revenue ?? '0'), cost: parseMoney(row?.cost ?? '0') };
}

// ------------------------------------------------------------------------------------------------
// Port-in requests
// ------------------------------------------------------------------------------------------------

const portSelect = (db: Db) =>
  db
    .selectFrom('did_port_requests as p')
    .innerJoin('carriers as c', 'c.client_id', 'p.carrier_id')
    .select([
      'p.id',
      'p.numbers',
      'p.current_provider',
      'p.note',
      'p.status',
      'p.operator_note',
      'p.created_by',
      'p.created_at',
      'p.updated_at',
      'p.updated_by',
    ])
    .select('p.carrier_id as client_id')
    .select('c.name as client_name')
    .select(sql<string>`to_char(p.requested_date, 'YYYY-MM-DD')`.as('requested_date'));

const portRow = (r: Record<string, unknown>): PortRow => withIsoTimes(r) as unknown as PortRow;

async function portHistory(db: Db, id: number) {
  const rows = await db
    .selectFrom('did_port_request_history')
    .select(['id', 'at', 'status', 'note', 'user_name'])
    .where('request_id', '=', id)
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => withIsoTimes(r));
}

/** The DID client of a portal session (403 for any other carrier: the DID pages are theirs). */
async function portalDidClient(db: Db, actor: Actor) {
  const c =
    actor.clientId === null
      ? undefined
      : await db
          .selectFrom('did_clients as d')
          .innerJoin('carriers as c', 'c.client_id', 'd.carrier_id')
          .select(['d.carrier_id', 'c.time_zone'])
          .where('d.carrier_id', '=', actor.clientId)
          .executeTakeFirst();
  if (!c) throw new AppError(ErrorCode.forbidden, 'didPortalOnly', [], 403);
  return c;
}

const listSort = { id: 'p.id', created_at: 'p.created_at', requested_date: 'p.requested_date' };

type PortRequestIn = z.output<typeof api.didExtras.portRequestBody>;

/**
 * A DID client's port-in request, in the caller's transaction: the numbers read as the DID import
 * reads a list (one per line, at most 1000), a requested date not before the client's today, none
 * already in the repository; the request, its first history row and the audit row.
 */
export async function createPortRequest(
  s: Services,
  trx: Db,
  c: { carrier_id: number; time_zone: string },
  b: PortRequestIn,
  actor: AuditActor,
  now = new Date(),
): Promise<{ id: number }> {
  const numbers = numbersOf('list', { numbers: b.numbers });
  const today = localDate(now.getTime(), c.time_zone);
  if (b.requested_date < today) throw invalidField('requested_date', 'didPortDateInPast', [today]);
  // A number already in the repository is this platform's: there is nothing to port in.
  const held = await trx
    .selectFrom('dids')
    .select('number')
    .where('number', 'in', numbers)
    .orderBy('number')
    .executeTakeFirst();
  if (held) throw invalidField('numbers', 'didPortHeld', [held.number]);
  const by = actor?.user.name ?? 'system';
  const row = await trx
    .insertInto('did_port_requests')
    .values({
      carrier_id: c.carrier_id,
      numbers,
      current_provider: b.current_provider,
      requested_date: b.requested_date,
      note: b.note,
      created_by: by,
      updated_at: now,
      updated_by: by,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('did_port_request_history')
    .values({ request_id: row.id, status: 'requested', note: b.note, user_name: by })
    .execute();
  await s.audit.record(trx, actor, 'did_port_request', row.id, 'create', null, { ...b, numbers });
  return { id: row.id };
}

/**
 * The operator moves a port-in request (PORT_MOVES: completed and rejected are final), in the
 * caller's transaction: the request, a history row, a notice on the client's dashboard, the audit row.
 */
export async function movePortRequest(
  s: Services,
  trx: Db,
  id: number,
  move: { status: PortStatus; note: string },
  actor: AuditActor,
): Promise<void> {
  const { status, note } = move;
  const by = actor?.user.name ?? 'system';
  const before = await trx
    .selectFrom('did_port_requests')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!before) throw notFound();
  const from = before.status as PortStatus;
  if (!api.didExtras.PORT_MOVES[from].includes(status)) throw ruleBroken('didPortMove', [from, status]);
  await trx
    .updateTable('did_port_requests')
    .set({ status, operator_note: note, updated_at: new Date(), updated_by: by })
    .where('id', '=', id)
    .execute();
  await trx
    .insertInto('did_port_request_history')
    .values({ request_id: before.id, status, note, user_name: by })
    .execute();
  // The client reads the move on its dashboard as its other DID notices.
  await trx
    .insertInto('client_alerts')
    .values({
      client_id: before.carrier_id,
      level: status === 'rejected' ? 'error' : 'info',
      content: `Port-in request #${before.id} (${before.numbers.length} number(s) from ${before.current_provider}): ${status.replace('_', ' ')}${note ? ` (${note})` : ''}`,
    })
    .execute();
  await s.audit.record(trx, actor, 'did_port_request', before.id, 'status', { status: from }, move);
}

export function registerDidExtras(app: FastifyInstance, s: Services): void {
  const x = api.didExtras;

  implement(app, s, x.getDashboard, async (ctx) =>
    didDashboard(s.db, await viewerFor(s.db, actorOf(ctx)), ctx.query),
  );

  // Port-in requests: the client's own (portal), every one (operator).
  implement(app, s, x.portalPortRequests, async (ctx) => {
    const c = await portalDidClient(s.db, actorOf(ctx));
    let qb = portSelect(s.db).where('p.carrier_id', '=', c.carrier_id);
    if (ctx.query.status) qb = qb.where('p.status', '=', ctx.query.status);
    const page = await pageOf(qb, newestFirst(ctx.query), listSort, 'id', 'p.id');
    return { items: page.items.map(portRow), total: Number(page.total) };
  });

  implement(app, s, x.portalPortRequest, async (ctx) => {
    const c = await portalDidClient(s.db, actorOf(ctx));
    // Another client's request is "not found" to this one, whatever id it sends.
    const r = await portSelect(s.db)
      .where('p.id', '=', ctx.params.id)
      .where('p.carrier_id', '=', c.carrier_id)
      .executeTakeFirst();
    if (!r) throw notFound();
    return { request: portRow(r), history: await portHistory(s.db, r.id) };
  });

  implement(app, s, x.portalCreatePortRequest, async (ctx) => {
    const actor = actorOf(ctx);
    const c = await portalDidClient(s.db, actor);
    return s.db.transaction().execute((trx) => createPortRequest(s, trx, c, ctx.body, actor));
  });

  implement(app, s, x.listPortRequests, async (ctx) => {
    let qb = portSelect(s.db);
    if (ctx.query.status) qb = qb.where('p.status', '=', ctx.query.status);
    if (ctx.query.client_id) qb = qb.where('p.carrier_id', '=', ctx.query.client_id);
    const page = await pageOf(
      qb,
      newestFirst(ctx.query),
      { ...listSort, client_name: 'c.name', status: 'p.status' },
      'id',
      'p.id',
    );
    return { items: page.items.map(portRow), total: Number(page.total) };
  });

  implement(app, s, x.getPortRequest, async (ctx) => {
    const r = await portSelect(s.db).where('p.id', '=', ctx.params.id).executeTakeFirst();
    if (!r) throw notFound();
    return { request: portRow(r), history: await portHistory(s.db, r.id) };
  });

  implement(app, s, x.movePortRequest, async (ctx) => {
    const actor = actorOf(ctx);
    await s.db.transaction().execute((trx) => movePortRequest(s, trx, ctx.params.id, ctx.body, actor));
    return null;
  });

  // The portal's DID trunks: the carrier's own, read only.
  implement(app, s, x.portalTrunks, async (ctx) => {
    const actor = actorOf(ctx);
    const id = actor.clientId ?? -1;
    const carrier = await s.db
      .selectFrom('carriers')
      .select('client_id')
      .where('client_id', '=', id)
      .where(
        sql<boolean>`client_id IN (SELECT carrier_id FROM did_clients UNION ALL SELECT carrier_id FROM did_vendors)`,
      )
      .executeTakeFirst();
    if (!carrier) throw new AppError(ErrorCode.forbidden, 'didPortalOnly', [], 403);
    const rows = await sql<z.output<typeof x.portalTrunkRow>>`
      SELECT t.trunk_id, t.name, t.direction, coalesce(t.auth_type, 'host') AS auth_type,
        coalesce((SELECT array_agg(h.host || CASE WHEN h.netmask < 32 THEN '/' || h.netmask ELSE '' END
          ORDER BY h.ordering, h.id) FROM trunk_hosts h WHERE h.trunk_id = t.trunk_id), '{}') AS hosts,
        coalesce(t.media_type, 'proxy') AS media_type, coalesce(t.t38, false) AS t38,
        coalesce(t.tech_prefix, '') AS tech_prefix, t.call_limit, t.is_active,
        (SELECT count(*)::int FROM dids d WHERE
          (t.direction = 'egress' AND d.client_id = t.carrier_id AND d.state = 'assigned')
          OR (t.direction = 'ingress' AND d.vendor_id = t.carrier_id)) AS did_count
      FROM trunks t
      WHERE t.carrier_id = ${id} AND t.trunk_type2 = 'did'
      ORDER BY t.trunk_id`.execute(s.db);
    return { items: rows.rows.map((r) => ({ ...r, did_count: Number(r.did_count) })) };
  });
}
