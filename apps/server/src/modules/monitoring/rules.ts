import { api, type ListQuery } from '@tandem/contract';
import { fraudConditions, parseNumberRange, ruleConditions } from '@tandem/domain';
import type { FastifyInstance } from 'fastify';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/connection';
import { likeContains } from '../../db/paging';
import { implementCrud, serializeRow } from '../../http/crud';
import { invalidField } from '../../http/errors';
import type { Services } from '../../services';
import { noteWriter, writerOf } from '../routing/common';
import { blockActiveSql } from './blocks';

type M = api.monitoring.FraudRuleCreate;

/** '10.500000' -> '10.5' (NUMERIC columns read as text with their scale). */
export function trimDecimal(v: unknown): string | null {
  if (typeof v !== 'string' && typeof v !== 'number') return null;
  const s = String(v);
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

/** The trunks a rule lists, with their carrier, as the row's `trunks`. */
const trunksOf = (alias: string): RawBuilder<unknown> =>
  sql`coalesce((SELECT jsonb_agg(jsonb_build_object('trunk_id', t.trunk_id, 'name', t.name, 'carrier_name', c.name) ORDER BY t.name)
    FROM trunks t JOIN carriers c ON c.client_id = t.carrier_id
    WHERE t.trunk_id IN (SELECT (jsonb_array_elements_text(${sql.ref(`${alias}.trunk_ids`)}))::int)), '[]'::jsonb)`;

const activeBlocks = (kind: string, alias: string) =>
  sql<number>`(SELECT count(*)::int FROM monitoring_blocks b WHERE b.rule_kind = ${kind} AND b.rule_id = ${sql.ref(`${alias}.id`)}
    AND ${blockActiveSql('b')})`;

const triggers = (kind: string, alias: string, hours: number, event = 'triggered') =>
  sql<number>`(SELECT count(*)::int FROM monitoring_log l WHERE l.rule_kind = ${kind} AND l.rule_id = ${sql.ref(`${alias}.id`)}
    AND l.event = ${event} AND l.at > now() - make_interval(hours => ${hours}))`;

/** Refuses trunk ids that are not trunks of the side (110 on trunk_ids). */
async function checkTrunks(db: Db, ids: readonly number[], side: 'ingress' | 'egress'): Promise<void> {
  if (ids.length === 0) return;
  const rows = await db
    .selectFrom('trunks')
    .select(['trunk_id', 'name', 'direction'])
    .where('trunk_id', 'in', [...new Set(ids)])
    .execute();
  const found = new Map(rows.map((r) => [r.trunk_id, r]));
  for (const id of ids) {
    const t = found.get(id);
    if (!t) throw invalidField('trunk_ids', 'trunkNotFound', ['trunk_ids', id]);
    if (t.direction !== side) throw invalidField('trunk_ids', 'trunkWrongType', [t.name, side]);
  }
}

const json = (v: unknown) => JSON.stringify(v);
const nameFilter = (col: string, v: string | undefined) =>
  v ? sql<boolean>`${sql.ref(col)} ilike ${likeContains(v)}` : null;
const trunkFilter = (col: string, v: number | undefined) =>
  v ? sql<boolean>`${sql.ref(col)} @> ${json([v])}::jsonb` : null;

function rowOut(numeric: readonly string[]) {
  return (r: Record<string, unknown>) => {
    const out = serializeRow(r);
    for (const k of numeric) out[k] = trimDecimal(out[k]);
    return out;
  };
}

/** Body fields merged over the stored row (an update sends only what changes). */
function merged<T>(body: Record<string, unknown>, before: Record<string, unknown> | null): T {
  return { ...(before ?? {}), ...body } as T;
}

export function registerRules(app: FastifyInstance, s: Services, changed: () => void): void {
  // Fraud detection ---------------------------------------------------------------------------
  implementCrud(app, s, api.monitoring.fraudRule, {
    table: 'fraud_rules',
    id: 'id',
    entity: 'fraud_rule',
    label: 'Fraud Detection',
    select: (db) =>
      db
        .selectFrom('fraud_rules as r')
        .selectAll('r')
        .select(trunksOf('r').as('trunks'))
        .select(triggers('fraud', 'r', 1).as('triggers_1h'))
        .select(triggers('fraud', 'r', 24).as('triggers_24h'))
        .select(activeBlocks('fraud', 'r').as('active_blocks')),
    selectId: 'r.id',
    sortable: {
      rule_name: 'r.rule_name',
      id: 'r.id',
      updated_at: 'r.updated_at',
      last_run_at: 'r.last_run_at',
    },
    defaultSort: 'rule_name',
    unique: [{ column: 'rule_name', field: 'rule_name' }],
    filter: (qb, q: { rule_name?: string; trunk_id?: number } & ListQuery) => {
      let r = qb;
      const n = nameFilter('r.rule_name', q.rule_name);
      if (n) r = r.where(n);
      const t = trunkFilter('r.trunk_ids', q.trunk_id);
      if (t) r = r.where(t);
      return r;
    },
    validate: async (trx, body, before, ctx) => {
      noteWriter(body, ctx);
      const v = merged<M>(body, before);
      if (v.scope === 'trunks' && v.trunk_ids.length === 0)
        throw invalidField('trunk_ids', 'atLeastOneTrunk', ['trunk_ids']);
      await checkTrunks(trx, (body.trunk_ids as number[] | undefined) ?? [], 'ingress');
      if (fraudConditions(v).length === 0) throw invalidField('hour_revenue', 'thresholdRequired');
    },
    toColumns: (body) => {
      const out: Record<string, unknown> = { ...body, updated_at: new Date(), updated_by: writerOf(body) };
      if (body.trunk_ids !== undefined) out.trunk_ids = json(body.trunk_ids);
      return out;
    },
    toRow: rowOut(api.monitoring.FRAUD_THRESHOLDS),
    afterWrite: changed,
  });

  // Monitoring rules --------------------------------------------------------------------------
  implementCrud(app, s, api.monitoring.monitoringRule, {
    table: 'monitoring_rules',
    id: 'id',
    entity: 'monitoring_rule',
    label: 'Monitoring Rule',
    select: (db) =>
      db
        .selectFrom('monitoring_rules as r')
        .selectAll('r')
        .select(trunksOf('r').as('trunks'))
        .select(activeBlocks('rule', 'r').as('active_blocks')),
    selectId: 'r.id',
    sortable: {
      rule_name: 'r.rule_name',
      id: 'r.id',
      updated_at: 'r.updated_at',
      last_run_at: 'r.last_run_at',
      next_run_at: 'r.next_run_at',
    },
    defaultSort: 'rule_name',
    unique: [{ column: 'rule_name', field: 'rule_name' }],
    filter: (qb, q: { rule_name?: string; trunk_id?: number } & ListQuery) => {
      let r = qb;
      const n = nameFilter('r.rule_name', q.rule_name);
      if (n) r = r.where(n);
      const t = trunkFilter('r.trunk_ids', q.trunk_id);
      if (t) r = r.where(t);
      return r;
    },
    validate: async (trx, body, before, ctx) => {
      noteWriter(body, ctx);
      const v = merged<api.monitoring.MonitoringRuleCreate>(body, before);
      if (v.trunk_ids.length === 0) throw invalidField('trunk_ids', 'cannotBeEmpty', ['Trunk list']);
      if (body.trunk_ids !== undefined || body.side !== undefined)
        await checkTrunks(trx, v.trunk_ids, v.side);
      if (v.code_mode !== 'all' && v.codes.length === 0) throw invalidField('codes', 'codesRequired');
      if (v.action_block === 'route' && v.code_mode !== 'include')
        throw invalidField('action_block', 'routeBlockNeedsCodes');
      if (v.action_block !== 'none' && v.unblock_after_minutes == null)
        throw invalidField('unblock_after_minutes', 'cannotBeEmpty', ['Unblock after']);
      if (ruleConditions(v).length === 0) throw invalidField('asr_below', 'thresholdRequired');
    },
    toColumns: (body, before) => {
      const out: Record<string, unknown> = { ...body, updated_at: new Date(), updated_by: writerOf(body) };
      if (body.trunk_ids !== undefined) out.trunk_ids = json(body.trunk_ids);
      if (body.codes !== undefined) out.codes = json(body.codes);
      // A new schedule takes effect at once: the next pass runs the rule.
      if (before === null || body.every_minutes !== undefined) out.next_run_at = null;
      return out;
    },
    toRow: rowOut(api.monitoring.RULE_THRESHOLDS),
    afterWrite: changed,
  });

  // Loop detection ----------------------------------------------------------------------------
  implementCrud(app, s, api.monitoring.loopRule, {
    table: 'loop_rules',
    id: 'id',
    entity: 'loop_rule',
    label: 'Loop Detection',
    select: (db) =>
      db
        .selectFrom('loop_rules as r')
        .selectAll('r')
        .select(trunksOf('r').as('trunks'))
        .select(triggers('loop', 'r', 24, 'loop').as('loops_24h')),
    selectId: 'r.id',
    sortable: { rule_name: 'r.rule_name', id: 'r.id', updated_at: 'r.updated_at' },
    defaultSort: 'rule_name',
    unique: [{ column: 'rule_name', field: 'rule_name' }],
    filter: (qb, q: { rule_name?: string } & ListQuery) => {
      const n = nameFilter('r.rule_name', q.rule_name);
      return n ? qb.where(n) : qb;
    },
    validate: async (trx, body, before, ctx) => {
      noteWriter(body, ctx);
      const v = merged<api.monitoring.LoopRuleCreate>(body, before);
      if (v.trunk_ids.length === 0 && v.number_ranges.length === 0)
        throw invalidField('trunk_ids', 'loopScopeRequired');
      await checkTrunks(trx, (body.trunk_ids as number[] | undefined) ?? [], 'ingress');
      for (const r of (body.number_ranges as string[] | undefined) ?? [])
        if (parseNumberRange(r) === null) throw invalidField('number_ranges', 'numberRangeInvalid', [r]);
    },
    toColumns: (body) => {
      const out: Record<string, unknown> = { ...body, updated_at: new Date(), updated_by: writerOf(body) };
      if (body.trunk_ids !== undefined) out.trunk_ids = json(body.trunk_ids);
      if (body.number_ranges !== undefined)
        out.number_ranges = json((body.number_ranges as string[]).map((r) => r.replace(/\s+/g, '')));
      return out;
    },
    afterWrite: changed,
  });
}
