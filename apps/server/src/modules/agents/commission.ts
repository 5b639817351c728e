import {
  closedPeriods,
  commissionCorrection,
  commissionOf,
  DAY_MS,
  formatMoney,
  parseMoney,
  periodKey,
  type CommissionFrequency,
  type CommissionMethod,
  type CommissionPeriod,
  type Micros,
} from '@tandem/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { AgentLedgerKind } from '../../db/schema-agents';
import { foldSummaries } from '../stats/summaries';

/**
 * Agent commission: the agent ledger (what an agent is owed, moved once per source) and the
 * computation of closed periods from the traffic summaries (docs/agents.md). The math is the
 * domain's `commissionOf`; this file reads and writes.
 */

/** Closed periods this many days old are still computed again (late CDRs, rerates). */
export const RECOMPUTE_DAYS = 62;

const m6 = (v: Micros) => formatMoney(v, 6);

export interface AgentBalanceChange {
  readonly agent_id: number;
  readonly kind: AgentLedgerKind;
  /** The source, unique per agent and kind: commission:<period>:<revision>, payout:<id>. */
  readonly ref: string;
  readonly amount: Micros;
  readonly period_start?: Date | null;
  readonly note?: string;
  readonly created_by?: string;
}

/**
 * The one place what an agent is owed moves, as `moveBalances` does for carriers: inside the
 * caller's transaction, with the agent row locked; a (agent, kind, ref) already in the ledger is
 * not written again (answers the existing row, `created: false`); each row keeps the balance before
 * and after, and the agent's balance becomes the last "after".
 */
export async function moveAgentBalance(
  trx: Db,
  c: AgentBalanceChange,
): Promise<{ ledger_id: number; balance: Micros; created: boolean }> {
  const agent = await trx
    .selectFrom('agents')
    .select(sql<string>`balance::text`.as('balance'))
    .where('agent_id', '=', c.agent_id)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const seen = await trx
    .selectFrom('agent_ledger')
    .select('ledger_id')
    .where('agent_id', '=', c.agent_id)
    .where('kind', '=', c.kind)
    .where('ref', '=', c.ref)
    .executeTakeFirst();
  const before = parseMoney(agent.balance);
  if (seen) return { ledger_id: Number(seen.ledger_id), balance: before, created: false };
  const after = before + c.amount;
  const row = await trx
    .insertInto('agent_ledger')
    .values({
      agent_id: c.agent_id,
      kind: c.kind,
      ref: c.ref,
      period_start: c.period_start ?? null,
      amount: m6(c.amount),
      balance_before: m6(before),
      balance_after: m6(after),
      note: c.note ?? '',
      created_by: c.created_by ?? 'system',
    })
    .returning('ledger_id')
    .executeTakeFirstOrThrow();
  await trx
    .updateTable('agents')
    .set({ balance: m6(after) })
    .where('agent_id', '=', c.agent_id)
    .execute();
  return { ledger_id: Number(row.ledger_id), balance: after, created: true };
}

interface ClientTraffic {
  revenue: Micros;
  cost: Micros;
}

/**
 * Each client's revenue and cost as customer per UTC day over [from, to), from the daily
 * summaries (revenue = what the client was charged, cost = what carrying its calls cost).
 */
async function dailyTraffic(
  db: Db,
  clientIds: readonly number[],
  from: Date,
  to: Date,
): Promise<{ day: number; client_id: number; revenue: Micros; cost: Micros }[]> {
  if (!clientIds.length) return [];
  await foldSummaries(db); // every CDR committed before the run is paid on
  const r = await sql<{ day: Date; client_id: number; revenue: string; cost: string }>`
    SELECT bucket AS day, ingress_client_id AS client_id, sum(revenue)::text AS revenue, sum(cost)::text AS cost
    FROM cdr_summaries_daily
    WHERE ingress_client_id = ANY(${[...clientIds]}::int4[]) AND bucket >= ${from} AND bucket < ${to}
    GROUP BY 1, 2`.execute(db);
  return r.rows.map((x) => ({
    day: new Date(x.day).getTime(),
    client_id: Number(x.client_id),
    revenue: parseMoney(x.revenue),
    cost: parseMoney(x.cost),
  }));
}

export interface CommissionRun {
  agent_id: number;
  /** Periods computed for the first time. */
  created: number;
  /** Periods whose traffic changed since (a correction row when the amount changed). */
  corrected: number;
  /** Sum of the ledger rows written. */
  accrued: string;
}

/**
 * Computes an agent's closed periods up to `now` in one transaction (the agent row locked, so two
 * runners take turns and the second finds nothing to do):
 * - a period never computed: its traffic (the agent's current clients), base and amount, one
 *   ledger row `commission:<period>:1` for the amount (none when it is zero);
 * - a period computed before and ended within RECOMPUTE_DAYS: the same clients as then, its traffic
 *   read again; if it changed, the period row takes the new figures (revision + 1) and the
 *   difference to what was accrued is a new ledger row `commission:<period>:<revision>`; the
 *   terms (method, percent) stay those of the first computation;
 * - periods continue after the last one computed, so a change of frequency takes effect from there.
 * Running it again with the same traffic writes nothing.
 */
export async function computeAgentCommission(db: Db, agentId: number, now: Date): Promise<CommissionRun> {
  return db.transaction().execute(async (trx) => {
    const agent = await trx
      .selectFrom('agents')
      .select([
        'agent_id',
        'frequency',
        'commission_method',
        'commission_percent',
        sql<string>`to_char(commission_since, 'YYYY-MM-DD')`.as('since'),
      ])
      .where('agent_id', '=', agentId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const known = await trx
      .selectFrom('agent_commission_periods')
      .selectAll()
      .where('agent_id', '=', agentId)
      .orderBy('period_start')
      .execute();
    const knownClients = await trx
      .selectFrom('agent_commission_clients')
      .select(['period_start', 'client_id', 'revenue', 'cost'])
      .where('agent_id', '=', agentId)
      .where('period_start', '>=', new Date(now.getTime() - (RECOMPUTE_DAYS + 31) * DAY_MS))
      .execute();
    const clientsOf = new Map<number, Map<number, ClientTraffic>>();
    for (const c of knownClients) {
      const k = new Date(c.period_start).getTime();
      const m = clientsOf.get(k) ?? new Map<number, ClientTraffic>();
      m.set(c.client_id, { revenue: parseMoney(c.revenue), cost: parseMoney(c.cost) });
      clientsOf.set(k, m);
    }

    // Work: the known periods still open to correction, then the new ones after the last known.
    const horizon = now.getTime() - RECOMPUTE_DAYS * DAY_MS;
    const recheck = known.filter((p) => new Date(p.period_end).getTime() > horizon);
    const last = known.at(-1);
    const since = last ? new Date(last.period_end) : new Date(`${agent.since}T00:00:00Z`);
    const fresh = closedPeriods(agent.frequency as CommissionFrequency, since, now);
    const current = (
      await trx.selectFrom('carriers').select('client_id').where('agent_id', '=', agentId).execute()
    ).map((c) => c.client_id);

    const work: { p: CommissionPeriod; clients: number[]; row?: (typeof known)[number] }[] = [
      ...recheck.map((row) => ({
        p: { start: new Date(row.period_start), end: new Date(row.period_end) },
        clients: [...(clientsOf.get(new Date(row.period_start).getTime())?.keys() ?? [])],
        row,
      })),
      ...fresh.map((p) => ({ p, clients: current })),
    ];
    const run: CommissionRun = { agent_id: agentId, created: 0, corrected: 0, accrued: '0.000000' };
    if (!work.length) return run;
    const from = work.reduce((a, w) => (w.p.start < a ? w.p.start : a), work[0]!.p.start);
    const to = work.reduce((a, w) => (w.p.end > a ? w.p.end : a), work[0]!.p.end);
    const allClients = [...new Set(work.flatMap((w) => w.clients))];
    const days = await dailyTraffic(trx, allClients, from, to);
    let accrued = 0n;

    for (const w of work) {
      const inPeriod = new Set(w.clients);
      const perClient = new Map<number, ClientTraffic>(
        w.clients.map((id) => [id, { revenue: 0n, cost: 0n }]),
      );
      for (const d of days) {
        if (d.day < w.p.start.getTime() || d.day >= w.p.end.getTime() || !inPeriod.has(d.client_id)) continue;
        const t = perClient.get(d.client_id)!;
        t.revenue += d.revenue;
        t.cost += d.cost;
      }
      let revenue = 0n;
      let cost = 0n;
      for (const t of perClient.values()) {
        revenue += t.revenue;
        cost += t.cost;
      }
      const method = (w.row?.method ?? agent.commission_method) as CommissionMethod;
      const percentText = w.row?.percent ?? agent.commission_percent;
      const { base, amount } = commissionOf({ method, percent: parseMoney(percentText) }, { revenue, cost });
      const key = periodKey(w.p);

      if (!w.row) {
        await trx
          .insertInto('agent_commission_periods')
          .values({
            agent_id: agentId,
            period_start: w.p.start,
            period_end: w.p.end,
            frequency: agent.frequency,
            method,
            percent: percentText,
            clients: w.clients.length,
            revenue: m6(revenue),
            cost: m6(cost),
            base: m6(base),
            amount: m6(amount),
            accrued: m6(amount),
          })
          .execute();
        if (w.clients.length)
          await trx
            .insertInto('agent_commission_clients')
            .values(
              [...perClient].map(([client_id, t]) => ({
                agent_id: agentId,
                period_start: w.p.start,
                client_id,
                revenue: m6(t.revenue),
                cost: m6(t.cost),
              })),
            )
            .execute();
        if (amount !== 0n)
          await moveAgentBalance(trx, {
            agent_id: agentId,
            kind: 'commission',
            ref: `commission:${key}:1`,
            amount,
            period_start: w.p.start,
            note: `${method} ${percentText}% of ${m6(base)}`,
          });
        run.created++;
        accrued += amount;
        continue;
      }

      const before = clientsOf.get(w.p.start.getTime()) ?? new Map<number, ClientTraffic>();
      const changed = [...perClient].filter(([id, t]) => {
        const b = before.get(id);
        return !b || b.revenue !== t.revenue || b.cost !== t.cost;
      });
      if (!changed.length) continue;
      const revision = w.row.revision + 1;
      const correction = commissionCorrection(amount, parseMoney(w.row.accrued));
      await trx
        .updateTable('agent_commission_periods')
        .set({
          revenue: m6(revenue),
          cost: m6(cost),
          base: m6(base),
          amount: m6(amount),
          accrued: m6(amount),
          revision,
          computed_at: new Date(),
        })
        .where('agent_id', '=', agentId)
        .where('period_start', '=', w.p.start)
        .execute();
      for (const [client_id, t] of changed)
        await trx
          .updateTable('agent_commission_clients')
          .set({ revenue: m6(t.revenue), cost: m6(t.cost) })
          .where('agent_id', '=', agentId)
          .where('period_start', '=', w.p.start)
          .where('client_id', '=', client_id)
          .execute();
      if (correction !== 0n)
        await moveAgentBalance(trx, {
          agent_id: agentId,
          kind: 'commission',
          ref: `commission:${key}:${revision}`,
          amount: correction,
          period_start: w.p.start,
          note: `correction: traffic of the period changed (${method} ${percentText}% of ${m6(base)})`,
        });
      run.corrected++;
      accrued += correction;
    }
    run.accrued = m6(accrued);
    return run;
  });
}

/** seed-demo: computes the demo agent's closed periods (the job's own computation); returns how many were new. */
export async function seedDemoCommission(db: Db, agentName: string, now: Date): Promise<number> {
  const a = await db
    .selectFrom('agents')
    .select('agent_id')
    .where(sql<string>`lower(agent_name)`, '=', agentName.toLowerCase())
    .executeTakeFirst();
  return a ? (await computeAgentCommission(db, a.agent_id, now)).created : 0;
}
