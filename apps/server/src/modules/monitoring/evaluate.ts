import {
  addFigures,
  DAY_MS,
  emptyFigures,
  evaluateConditions,
  figuresSummary,
  fraudConditions,
  nextRuleState,
  parseMoney,
  NER_USER_CAUSES,
  NER_USER_Q850,
  ruleConditions,
  SHORT_CALL_STAT_SECONDS,
  windowPlan,
  type Evaluation,
  type MonitorCondition,
  type MonitorFigures,
  type RuleState,
} from '@tandem/domain';
import { sql, type Insertable, type RawBuilder } from 'kysely';
import type { Db } from '../../db/connection';
import type { MonitoringLogTable } from '../../db/schema-monitoring';
import type { Services } from '../../services';
import { DEFAULT_SYSTEM } from '../config/settings';
import { trimDecimal } from './rules';
import { foldSummaries } from '../stats/summaries';

/**
 * One pass of the monitoring job (`monitoring.evaluate`, every minute, docs/monitoring.md):
 *
 * 1. Blocks whose time is up are marked lifted ('expired'), logged, and their subject re-armed.
 * 2. Every active fraud rule is judged per ingress trunk (or per ANI on it) over the last 60
 *    minutes and 24 hours; every active monitoring rule that is due, per trunk over its sample.
 * 3. The fire-once state of each (rule, subject) moves (domain monitoring.ts nextRuleState): a
 *    subject that starts breaching fires the rule's actions (block, e-mail) once, one that is fine
 *    again clears. Each rule's run is one transaction (rule row locked, so two passes in two
 *    processes never fire twice); e-mails go after the commit.
 *
 * Windows slide: the summaries' 15-minute buckets from the first boundary in the window on, plus
 * the raw CDRs of the window's leading edge (windowPlan). Per-trunk figures of a side and window
 * are read once per pass and shared by every rule without codes.
 */

type Side = 'ingress' | 'egress';
interface Subject {
  key: string;
  trunk_id: number;
  ani: string | null;
}
interface Fired {
  kind: 'fraud' | 'rule';
  rule_id: number;
  rule_name: string;
  email_to: 'none' | 'partner' | 'own' | 'both';
  email_subject: string;
  subject: Subject;
  text: string;
}

interface FigureRow {
  k: number;
  ani?: string;
  code?: string;
  attempts: number;
  answered: number;
  non_zero_calls: number;
  ner_calls: number;
  short_calls: number;
  duration: number;
  pdd_sum: number;
  pdd_calls: number;
  revenue: string;
  cost: string;
}

const toFigures = (r: FigureRow): MonitorFigures => ({
  attempts: Number(r.attempts),
  answered: Number(r.answered),
  non_zero_calls: Number(r.non_zero_calls),
  ner_calls: Number(r.ner_calls),
  short_calls: Number(r.short_calls),
  duration: Number(r.duration),
  pdd_sum: Number(r.pdd_sum),
  pdd_calls: Number(r.pdd_calls),
  revenue: parseMoney(r.revenue),
  cost: parseMoney(r.cost),
});

/**
 * A raw CDR's NER and short-call tests in SQL, from the domain's definitions (traffic-stats.ts), the
 * ones the summaries were built with: the leading edge of a window counts exactly as its buckets.
 */
const NER_SQL = sql`answer_time IS NOT NULL OR release_cause IN (${sql.join(NER_USER_CAUSES.map((c) => sql.lit(c)))})
  OR q850_cause IN (${sql.join(NER_USER_Q850.map((c) => sql.lit(c)))})`;
const SHORT_SQL = sql.lit(SHORT_CALL_STAT_SECONDS);

export interface FigureFilter {
  side: Side;
  /** null: every trunk of the side. */
  trunkIds: readonly number[] | null;
  codeMode: 'all' | 'include' | 'exclude';
  codes: readonly string[];
  /** Group by ANI too (fraud rules with ANI granularity; raw CDRs only). */
  byAni: boolean;
  /** Group by egress code too (keys `trunk|code`; the cache sums them per rule's codes). */
  byCode?: boolean;
}

function codeWhere(col: RawBuilder<unknown>, f: FigureFilter): RawBuilder<boolean> {
  if (f.codeMode === 'all' || f.codes.length === 0) return sql<boolean>`true`;
  const any = sql.join(
    f.codes.map((c) => sql`starts_with(${col}, ${c})`),
    sql` OR `,
  );
  return f.codeMode === 'include' ? sql<boolean>`(${any})` : sql<boolean>`NOT (${any})`;
}

/** Figures per trunk (and ANI) over the last `minutes` before `now`. Keys: trunk id, or `trunk|ani`. */
export async function readFigures(
  db: Db,
  f: FigureFilter,
  now: number,
  minutes: number,
): Promise<Map<string, MonitorFigures>> {
  await foldSummaries(db); // every CDR committed before the pass counts
  const p = windowPlan(now, minutes);
  const out = new Map<string, MonitorFigures>();
  const add = (rows: FigureRow[]) => {
    for (const r of rows) {
      const key = f.byAni ? `${r.k}|${r.ani}` : f.byCode ? `${r.k}|${r.code}` : String(r.k);
      const g = out.get(key);
      if (g) addFigures(g, toFigures(r));
      else out.set(key, toFigures(r));
    }
  };
  const rawCol = f.side === 'ingress' ? sql.ref('ingress_trunk_id') : sql.ref('egress_trunk_id');
  const trunkWhere =
    f.trunkIds === null
      ? sql<boolean>`${rawCol} IS NOT NULL`
      : sql<boolean>`${rawCol} = ANY(${[...f.trunkIds]}::int[])`;
  const raw = async (from: number, to: number) => {
    const second = f.byAni ? sql`, ani` : f.byCode ? sql`, coalesce(egress_code, '') AS code` : sql``;
    const rows = await sql<FigureRow>`SELECT ${rawCol} AS k${second},
        count(*)::int AS attempts, count(answer_time)::int AS answered,
        count(*) FILTER (WHERE call_duration > 0)::int AS non_zero_calls,
        count(*) FILTER (WHERE ${NER_SQL})::int AS ner_calls,
        count(*) FILTER (WHERE call_duration > 0 AND call_duration < ${SHORT_SQL})::int AS short_calls,
        coalesce(sum(call_duration), 0)::bigint AS duration, coalesce(sum(pdd), 0)::bigint AS pdd_sum,
        count(*) FILTER (WHERE pdd > 0)::int AS pdd_calls,
        coalesce(sum(ingress_client_cost + short_call_charge), 0)::text AS revenue,
        coalesce(sum(egress_cost), 0)::text AS cost
      FROM cdrs
      WHERE start_time >= ${new Date(from).toISOString()}::timestamptz AND start_time < ${new Date(to).toISOString()}::timestamptz
        AND ${trunkWhere} AND ${codeWhere(sql`coalesce(egress_code, '')`, f)}
      GROUP BY 1${f.byAni || f.byCode ? sql`, 2` : sql``}`.execute(db);
    add(rows.rows);
  };
  if (f.byAni) {
    // Summaries keep no ANI: the whole window from the CDRs.
    await raw(p.from, now + 1);
    return out;
  }
  if (p.edgeTo > p.from) await raw(p.from, p.edgeTo);
  if (p.bucketsFrom <= now) {
    const col = f.side === 'ingress' ? sql.ref('ingress_trunk_id') : sql.ref('egress_trunk_id');
    const trunks =
      f.trunkIds === null ? sql<boolean>`${col} <> 0` : sql<boolean>`${col} = ANY(${[...f.trunkIds]}::int[])`;
    const rows = await sql<FigureRow>`SELECT ${col} AS k${f.byCode ? sql`, egress_code AS code` : sql``},
        sum(attempts)::bigint AS attempts, sum(answered)::bigint AS answered,
        sum(non_zero_calls)::bigint AS non_zero_calls, sum(ner_calls)::bigint AS ner_calls,
        sum(short_calls)::bigint AS short_calls, sum(duration)::bigint AS duration,
        sum(pdd_sum)::bigint AS pdd_sum, sum(pdd_calls)::bigint AS pdd_calls,
        sum(revenue)::text AS revenue, sum(cost)::text AS cost
      FROM cdr_summaries
      WHERE bucket >= ${new Date(p.bucketsFrom).toISOString()}::timestamptz AND bucket <= ${new Date(now).toISOString()}::timestamptz
        AND ${trunks} AND ${codeWhere(sql.ref('egress_code'), f)}
      GROUP BY 1${f.byCode ? sql`, 2` : sql``}`.execute(db);
    add(rows.rows);
  }
  return out;
}

/**
 * Per-pass cache of the figures: one query per side and window for every rule without codes (per
 * trunk), one more per side and window for the rules with codes (per trunk and code, summed here
 * for each rule's included or excluded prefixes). Fraud rules by ANI read their own.
 */
class FigureCache {
  private readonly cache = new Map<string, Promise<Map<string, MonitorFigures>>>();
  constructor(
    private readonly db: Db,
    private readonly now: number,
  ) {}
  private shared(side: Side, minutes: number, byCode: boolean) {
    const key = `${side}:${minutes}:${byCode}`;
    let p = this.cache.get(key);
    if (!p) {
      p = readFigures(
        this.db,
        { side, trunkIds: null, codeMode: 'all', codes: [], byAni: false, byCode },
        this.now,
        minutes,
      );
      this.cache.set(key, p);
    }
    return p;
  }
  async get(f: FigureFilter, minutes: number): Promise<Map<string, MonitorFigures>> {
    if (f.byAni) return readFigures(this.db, f, this.now, minutes);
    const ids = f.trunkIds === null ? null : new Set(f.trunkIds.map(String));
    if (f.codeMode === 'all' || f.codes.length === 0) {
      const all = await this.shared(f.side, minutes, false);
      return ids === null ? all : new Map([...all].filter(([k]) => ids.has(k)));
    }
    const out = new Map<string, MonitorFigures>();
    for (const [key, fig] of await this.shared(f.side, minutes, true)) {
      const bar = key.indexOf('|');
      const trunk = key.slice(0, bar);
      if (ids !== null && !ids.has(trunk)) continue;
      const code = key.slice(bar + 1);
      const listed = f.codes.some((c) => code.startsWith(c));
      if (listed !== (f.codeMode === 'include')) continue;
      const g = out.get(trunk);
      if (g) addFigures(g, fig);
      else out.set(trunk, addFigures(emptyFigures(), fig));
    }
    return out;
  }
}

export interface PassResult {
  expired: number;
  fraud_rules: number;
  monitoring_rules: number;
  fired: number;
  cleared: number;
}

const describeHits = (e: Evaluation) =>
  e.hits
    .map(
      (h) =>
        `${h.condition.metric} ${h.value ?? '-'} ${h.condition.op === 'gt' ? '>' : '<'} ${trimDecimal(h.condition.value)} (${h.condition.window_minutes} min)`,
    )
    .join('; ');

/** Lifts the blocks whose time is up; re-arms their subjects. */
export async function liftExpired(s: Services, now: Date): Promise<number> {
  return s.db.transaction().execute(async (trx) => {
    const rows = await trx
      .updateTable('monitoring_blocks')
      .set({ lifted_at: now, lifted_by: 'system', lift_reason: 'expired' })
      .where('lifted_at', 'is', null)
      .where('until', 'is not', null)
      .where('until', '<=', now)
      .returningAll()
      .execute();
    for (const b of rows) {
      await trx
        .insertInto('monitoring_log')
        .values({
          rule_kind: b.rule_kind,
          rule_id: b.rule_id,
          rule_name: b.rule_name,
          event: 'unblocked',
          trunk_id: b.trunk_id,
          subject: b.subject,
          detail: 'time is up',
          block_id: b.block_id,
        })
        .execute();
      if (b.rule_id !== null)
        await trx
          .updateTable('monitoring_state')
          .set({ state: 'clear', since: now })
          .where('rule_kind', '=', b.rule_kind)
          .where('rule_id', '=', b.rule_id)
          .where('subject', '=', b.subject)
          .execute();
      await s.audit.record(
        trx,
        null,
        'monitoring_block',
        b.block_id,
        'unblock',
        { lifted_at: null },
        {
          lifted_at: now.toISOString(),
          lift_reason: 'expired',
        },
      );
    }
    return rows.length;
  });
}

/**
 * What one evaluation of a rule looked at and decided (its 'run' row in the log): the subjects with
 * traffic in its windows (or still breached), each one's verdict, and the state changes it made.
 */
export interface RunFigures {
  [k: string]: number;
  /** Subjects judged: trunks (or ANIs on them) with traffic in the windows, or still breached. */
  subjects: number;
  breach: number;
  ok: number;
  /** Too few attempts to judge (nothing changes for them). */
  insufficient: number;
  fired: number;
  cleared: number;
  /** The longest window read, minutes. */
  window_minutes: number;
  /** Trunks the rule lists (0: every trunk of its side). */
  trunks: number;
}

interface Judged {
  fired: Fired[];
  fires: number;
  cleared: number;
  run: RunFigures;
  /** Keys of the subjects found breaching (the run row names a few). */
  breaching: string[];
}

/** How long the 'run' rows stay in the log. */
export const RUN_LOG_DAYS = 7;

/** The run row's text (English, like the other log details; the screens render the figures). */
export function runDetail(f: RunFigures, breaching: readonly string[], byAni: boolean): string {
  const what = byAni ? 'ANIs' : 'trunks';
  const named = breaching.slice(0, 5).map((k) => (byAni ? k.replace('|', ' ') : `trunk ${k}`));
  const more = breaching.length > named.length ? ` (+${breaching.length - named.length})` : '';
  return (
    `${f.subjects} ${what} over ${f.window_minutes} min: ${f.breach} breaching, ${f.ok} within, ` +
    `${f.insufficient} too few calls; ${f.fired} fired, ${f.cleared} cleared` +
    (named.length ? `; breaching: ${named.join(', ')}${more}` : '')
  );
}

interface RuleToJudge {
  kind: 'fraud' | 'rule';
  id: number;
  rule_name: string;
  conditions: MonitorCondition[];
  min_attempts: number;
  filter: FigureFilter;
  /** Block on fire: whole trunk, ANI on it, or the trunk for these codes. */
  block: { side: Side; codes: string[] | null } | null;
  unblock_after_minutes: number | null;
  email_to: Fired['email_to'];
  email_subject: string;
}

/** Judges one rule and applies its state changes in one transaction; returns what fired. */
async function judge(
  s: Services,
  cache: FigureCache,
  r: RuleToJudge,
  now: Date,
  prestate: ReadonlyMap<string, RuleState>,
): Promise<Judged> {
  const windows = [...new Set(r.conditions.map((c) => c.window_minutes))];
  const byWindow = new Map<number, Map<string, MonitorFigures>>();
  for (const w of windows) byWindow.set(w, await cache.get(r.filter, w));
  const subjectOf = (key: string): Subject => {
    if (r.filter.byAni) {
      const bar = key.indexOf('|');
      const trunk = Number(key.slice(0, bar));
      const ani = key.slice(bar + 1);
      return { key: `ani:${trunk}:${ani}`, trunk_id: trunk, ani };
    }
    return { key: `trunk:${key}`, trunk_id: Number(key), ani: null };
  };
  const keyOf = (subject: string): string => {
    if (subject.startsWith('ani:')) {
      const [, trunk, ...ani] = subject.split(':');
      return `${trunk}|${ani.join(':')}`;
    }
    return subject.slice('trunk:'.length);
  };

  // Most runs change nothing: judge against the state read before the pass (every subject, for
  // the run's log row), and open a transaction (rule locked, state read again) only for a rule
  // where a subject moves.
  const candidates = new Set<string>();
  for (const m of byWindow.values()) for (const k of m.keys()) candidates.add(k);
  for (const [subject, st] of prestate) if (st === 'breached') candidates.add(keyOf(subject));
  const run: RunFigures = {
    subjects: candidates.size,
    breach: 0,
    ok: 0,
    insufficient: 0,
    fired: 0,
    cleared: 0,
    window_minutes: Math.max(...windows),
    trunks: r.filter.trunkIds?.length ?? 0,
  };
  const breaching: string[] = [];
  let moves = false;
  for (const key of candidates) {
    const figures = new Map<number, MonitorFigures>();
    for (const w of windows) figures.set(w, byWindow.get(w)!.get(key) ?? emptyFigures());
    const e = evaluateConditions(r.conditions, figures, r.min_attempts);
    run[e.verdict]++;
    if (e.verdict === 'breach') breaching.push(key);
    if (nextRuleState(prestate.get(subjectOf(key).key) ?? 'clear', e.verdict).step !== 'none') moves = true;
  }
  const done = (fired: Fired[], fires: number, cleared: number): Judged => {
    run.fired = fires;
    run.cleared = cleared;
    return { fired, fires, cleared, run, breaching };
  };
  if (!moves) return done([], 0, 0);

  const moved = await s.db.transaction().execute(async (trx) => {
    const table = r.kind === 'fraud' ? 'fraud_rules' : 'monitoring_rules';
    const live = await trx
      .selectFrom(table)
      .select(['id', 'is_active'])
      .where('id', '=', r.id)
      .forUpdate()
      .executeTakeFirst();
    if (!live?.is_active) return { fired: [], fires: 0, cleared: 0 };
    const states = await trx
      .selectFrom('monitoring_state')
      .select(['subject', 'state'])
      .where('rule_kind', '=', r.kind)
      .where('rule_id', '=', r.id)
      .execute();
    const state = new Map<string, RuleState>(states.map((x) => [x.subject, x.state]));
    const keys = new Set<string>();
    for (const m of byWindow.values()) for (const k of m.keys()) keys.add(k);
    for (const [subject, st] of state) if (st === 'breached') keys.add(keyOf(subject));

    const fired: Fired[] = [];
    let cleared = 0;
    let fires = 0;
    for (const key of keys) {
      const subject = subjectOf(key);
      const figures = new Map<number, MonitorFigures>();
      for (const w of windows) figures.set(w, byWindow.get(w)!.get(key) ?? emptyFigures());
      const e = evaluateConditions(r.conditions, figures, r.min_attempts);
      const prev = state.get(subject.key) ?? 'clear';
      const next = nextRuleState(prev, e.verdict);
      if (next.step === 'none') continue;
      await trx
        .insertInto('monitoring_state')
        .values({ rule_kind: r.kind, rule_id: r.id, subject: subject.key, state: next.state, since: now })
        .onConflict((oc) =>
          oc.columns(['rule_kind', 'rule_id', 'subject']).doUpdateSet({ state: next.state, since: now }),
        )
        .execute();
      const shown = figures.get(windows[0]!)!;
      const log = {
        rule_kind: r.kind,
        rule_id: r.id,
        rule_name: r.rule_name,
        trunk_id: subject.trunk_id,
        subject: subject.ani ?? '',
        figures: JSON.stringify(figuresSummary(shown)),
      };
      if (next.step === 'clear') {
        cleared++;
        await trx
          .insertInto('monitoring_log')
          .values({ ...log, event: 'cleared', detail: `back within the thresholds (${windows[0]} min)` })
          .execute();
        continue;
      }
      fires++;
      const text = describeHits(e);
      let blockId: number | null = null;
      let until: Date | null = null;
      if (r.block !== null) {
        until =
          r.unblock_after_minutes === null
            ? null
            : new Date(now.getTime() + r.unblock_after_minutes * 60_000);
        const b = await trx
          .insertInto('monitoring_blocks')
          .values({
            rule_kind: r.kind,
            rule_id: r.id,
            rule_name: r.rule_name,
            subject: subject.key,
            side: r.block.side,
            trunk_id: subject.trunk_id,
            ani: subject.ani,
            codes: r.block.codes === null ? null : JSON.stringify(r.block.codes),
            created_at: now,
            until,
          })
          .returning('block_id')
          .executeTakeFirstOrThrow();
        blockId = b.block_id;
        await s.audit.record(trx, null, 'monitoring_block', b.block_id, 'block', null, {
          rule: `${r.kind} ${r.rule_name}`,
          trunk_id: subject.trunk_id,
          ani: subject.ani,
          codes: r.block.codes,
          until: until?.toISOString() ?? null,
        });
      }
      await trx
        .insertInto('monitoring_log')
        .values({ ...log, event: 'triggered', detail: text, block_id: blockId })
        .execute();
      if (blockId !== null)
        await trx
          .insertInto('monitoring_log')
          .values({
            ...log,
            figures: null,
            event: 'blocked',
            block_id: blockId,
            detail: until === null ? 'until lifted by hand' : `until ${until.toISOString()}`,
          })
          .execute();
      if (r.email_to !== 'none')
        fired.push({
          kind: r.kind,
          rule_id: r.id,
          rule_name: r.rule_name,
          email_to: r.email_to,
          email_subject: r.email_subject,
          subject,
          text,
        });
    }
    return { fired, fires, cleared };
  });
  return done(moved.fired, moved.fires, moved.cleared);
}

/** Sends the e-mails of the rules that fired (partner NOC: the trunk's carrier; own NOC: system settings). */
async function sendMails(s: Services, fired: readonly Fired[]): Promise<void> {
  if (fired.length === 0) return;
  const system = await s.settings.get('system', DEFAULT_SYSTEM);
  const own = (system.notify_noc_emails ?? []) as string[];
  for (const f of fired) {
    const t = await s.db
      .selectFrom('trunks as t')
      .innerJoin('carriers as c', 'c.client_id', 't.carrier_id')
      .select(['t.name as trunk', 'c.name as carrier', 'c.noc_email'])
      .where('t.trunk_id', '=', f.subject.trunk_id)
      .executeTakeFirst();
    const partner = (t?.noc_email ?? '')
      .split(/[;,]/)
      .map((x) => x.trim())
      .filter(Boolean);
    const to = [
      ...(f.email_to === 'partner' || f.email_to === 'both' ? partner : []),
      ...(f.email_to === 'own' || f.email_to === 'both' ? own : []),
    ];
    const what = `${f.kind === 'fraud' ? 'Fraud detection' : 'Monitoring'} rule ${f.rule_name}`;
    const on = `trunk ${t?.trunk ?? f.subject.trunk_id} (${t?.carrier ?? ''})${f.subject.ani ? `, ANI ${f.subject.ani}` : ''}`;
    const log = {
      rule_kind: f.kind,
      rule_id: f.rule_id,
      rule_name: f.rule_name,
      trunk_id: f.subject.trunk_id,
      subject: f.subject.ani ?? '',
    };
    if (to.length === 0) {
      await s.db
        .insertInto('monitoring_log')
        .values({ ...log, event: 'email_failed', detail: 'no NOC e-mail address to send to' })
        .execute();
      continue;
    }
    const error = await s.mailer.deliver({
      to: to.join(', '),
      subject: f.email_subject
        ? f.email_subject
            .replaceAll('{rule}', f.rule_name)
            .replaceAll('{trunk}', t?.trunk ?? String(f.subject.trunk_id))
            .replaceAll('{carrier}', t?.carrier ?? '')
            .replaceAll('{ani}', f.subject.ani ?? '')
        : `${what} fired on ${on}`,
      text: `${what} fired on ${on}.\n\n${f.text}\n`,
      kind: 'monitoring',
    });
    await s.db
      .insertInto('monitoring_log')
      .values({
        ...log,
        event: error === '' ? 'email_sent' : 'email_failed',
        detail: error === '' ? `to ${to.join(', ')}` : error,
      })
      .execute();
  }
}

/** One pass: expired blocks, fraud rules, due monitoring rules (all of them with `force`). */
export async function evaluatePass(
  s: Services,
  opts: { force?: boolean; now?: Date; signal?: AbortSignal } = {},
): Promise<PassResult> {
  const now = opts.now ?? new Date();
  const result: PassResult = { expired: 0, fraud_rules: 0, monitoring_rules: 0, fired: 0, cleared: 0 };
  result.expired = await liftExpired(s, now);
  await s.db
    .deleteFrom('monitoring_log')
    .where('event', '=', 'run')
    .where('at', '<', new Date(now.getTime() - RUN_LOG_DAYS * DAY_MS))
    .execute();
  const cache = new FigureCache(s.db, now.getTime());
  const fired: Fired[] = [];
  // Only breached subjects matter before the pass (a subject without a row is clear).
  const prestates = new Map<string, Map<string, RuleState>>();
  for (const x of await s.db
    .selectFrom('monitoring_state')
    .select(['rule_kind', 'rule_id', 'subject', 'state'])
    .where('state', '=', 'breached')
    .execute()) {
    const k = `${x.rule_kind}:${x.rule_id}`;
    let m = prestates.get(k);
    if (!m) prestates.set(k, (m = new Map<string, RuleState>()));
    m.set(x.subject, x.state);
  }
  const prestate = (kind: string, id: number) =>
    prestates.get(`${kind}:${id}`) ?? new Map<string, RuleState>();
  const runs: Insertable<MonitoringLogTable>[] = [];
  const evaluate = async (r: RuleToJudge) => {
    opts.signal?.throwIfAborted();
    const t0 = performance.now();
    const j = await judge(s, cache, r, now, prestate(r.kind, r.id));
    result.fired += j.fires;
    result.cleared += j.cleared;
    fired.push(...j.fired);
    runs.push({
      at: now,
      rule_kind: r.kind,
      rule_id: r.id,
      rule_name: r.rule_name,
      event: 'run',
      detail: runDetail(j.run, j.breaching, r.filter.byAni),
      figures: JSON.stringify({ ...j.run, ms: Math.round(performance.now() - t0) }),
    });
  };

  const fraud = await s.db.selectFrom('fraud_rules').selectAll().where('is_active', '=', true).execute();
  for (const f of fraud) {
    await evaluate({
      kind: 'fraud',
      id: f.id,
      rule_name: f.rule_name,
      conditions: fraudConditions(f),
      min_attempts: f.min_attempts,
      filter: {
        side: 'ingress',
        trunkIds: f.scope === 'all' ? null : f.trunk_ids,
        codeMode: 'all',
        codes: [],
        byAni: f.granularity === 'ani',
      },
      block: f.block ? { side: 'ingress', codes: null } : null,
      unblock_after_minutes: f.unblock_after_minutes,
      email_to: f.email_to,
      email_subject: f.email_subject,
    });
    result.fraud_rules++;
  }

  let rules = s.db.selectFrom('monitoring_rules').selectAll().where('is_active', '=', true);
  if (!opts.force)
    rules = rules.where((eb) => eb.or([eb('next_run_at', 'is', null), eb('next_run_at', '<=', now)]));
  const ran = await rules.execute();
  for (const m of ran) {
    await evaluate({
      kind: 'rule',
      id: m.id,
      rule_name: m.rule_name,
      conditions: ruleConditions(m),
      min_attempts: m.min_attempts,
      filter: { side: m.side, trunkIds: m.trunk_ids, codeMode: m.code_mode, codes: m.codes, byAni: false },
      block:
        m.action_block === 'none'
          ? null
          : { side: m.side, codes: m.action_block === 'route' ? m.codes : null },
      unblock_after_minutes: m.unblock_after_minutes,
      email_to: m.email_to,
      email_subject: m.email_subject,
    });
    result.monitoring_rules++;
  }
  // The run rows, the rules' last (and next) run: together, after the rules' own transactions.
  await s.db.transaction().execute(async (trx) => {
    for (let i = 0; i < runs.length; i += 1000)
      await trx
        .insertInto('monitoring_log')
        .values(runs.slice(i, i + 1000))
        .execute();
    if (fraud.length)
      await trx
        .updateTable('fraud_rules')
        .set({ last_run_at: now })
        .where(
          'id',
          'in',
          fraud.map((f) => f.id),
        )
        .execute();
    if (ran.length)
      await trx
        .updateTable('monitoring_rules')
        .set({
          last_run_at: now,
          next_run_at: sql<Date>`${now.toISOString()}::timestamptz + every_minutes * interval '1 minute'`,
        })
        .where(
          'id',
          'in',
          ran.map((m) => m.id),
        )
        .execute();
  });
  await sendMails(s, fired);
  return result;
}
