import { api } from '@tandem/contract';
import {
  blockInForce,
  parseNumberRange,
  type LoopRule,
  type MonitorBlock,
  type NumberRange,
} from '@tandem/domain';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { pageOf, withIsoTimes, withinTime, newestFirst } from '../../db/paging';
import { actorOf } from '../../http/context';
import { notFound, ruleBroken } from '../../http/errors';
import { implementCrud } from '../../http/crud';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { mediaIpBlockTable, uploadMediaIpBlocks } from '../routing-extras/block-lists';
import type { CallPath } from '../routing/routes';
import type { LiveState } from '../routing/live-state';
import { blockActiveSql, MONITORING_VERSION } from './blocks';
import { evaluatePass } from './evaluate';
import { LiveHub, liveCalls, liveCounts, liveEvents } from './live';
import { registerRules } from './rules';

/** How often each process looks whether the blocks or loop rules changed (and writes the loops it found). */
export const MONITOR_SYNC_MS = 1000;
export const EVALUATE_JOB = 'monitoring.evaluate';

/**
 * Keeps the route API's monitoring state (LiveState.monitorState) in step with the database: the
 * active blocks and the active loop rules. Every MONITOR_SYNC_MS it reads one row, the version a
 * trigger bumps on every write of `monitoring_blocks` or `loop_rules` (`config_versions`
 * 'monitoring', migration 0032, the pattern of the routing snapshot's cached data sets), and reads
 * the blocks and rules again only when it moved; a write in this process reloads at once. So a
 * block placed by the job in any process reaches every route API within about a second; a block's
 * end is checked per call against its `until`, so it lifts on time. The loops the route API found
 * since the last sync are written to the monitoring log here (off the hot path).
 */
export class MonitorSync {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private force = true;
  private version: number | null = null;

  constructor(
    private readonly s: Services,
    private readonly live: LiveState,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), MONITOR_SYNC_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Reads the blocks and loop rules now, whatever the version (after a write in this process). */
  sync(): Promise<void> {
    this.force = true;
    return this.tick();
  }

  /** Reloads when the version moved (or a reload was asked for); a call while one runs makes it run once more. */
  private tick(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.load();
        } catch (err) {
          this.s.log.warn({ err }, 'monitoring sync failed');
        }
      } while (this.again);
      this.running = null;
    })();
    return this.running;
  }

  private async load(): Promise<void> {
    const m = this.live.monitorState;
    const v = await this.s.db
      .selectFrom('config_versions')
      .select('version')
      .where('name', '=', MONITORING_VERSION)
      .executeTakeFirst();
    const version = Number(v?.version ?? 0);
    if (this.force || version !== this.version) {
      this.force = false;
      this.version = version;
      await this.reload(m);
    }
    await this.writeLoops(m);
  }

  private async reload(m: LiveState['monitorState']): Promise<void> {
    const blocks = await this.s.db
      .selectFrom('monitoring_blocks')
      .select(['block_id', 'side', 'trunk_id', 'ani', 'codes', 'until', 'rule_name'])
      .where(blockActiveSql(''))
      .execute();
    m.setBlocks(
      blocks.map((b): MonitorBlock => ({
        block_id: b.block_id,
        side: b.side,
        trunk_id: b.trunk_id,
        ani: b.ani,
        codes: b.codes,
        until: b.until === null ? null : b.until.getTime(),
        rule_name: b.rule_name,
      })),
    );
    const loops = await this.s.db
      .selectFrom('loop_rules')
      .selectAll()
      .where('is_active', '=', true)
      .execute();
    m.setLoopRules(
      loops.map((r): LoopRule => ({
        rule_id: r.id,
        name: r.rule_name,
        trunk_ids: r.trunk_ids,
        ranges: r.number_ranges.map(parseNumberRange).filter((x): x is NumberRange => x !== null),
        max_calls: r.max_calls,
        window_s: r.window_seconds,
        block_s: r.block_seconds,
      })),
    );
  }

  private async writeLoops(m: LiveState['monitorState']): Promise<void> {
    const found = m.drainLoopEvents();
    if (found.length)
      await this.s.db
        .insertInto('monitoring_log')
        .values(
          found.map((e) => ({
            at: new Date(e.at),
            rule_kind: 'loop' as const,
            rule_id: e.rule_id,
            rule_name: e.rule_name,
            event: 'loop',
            trunk_id: e.trunk_id,
            subject: `${e.ani} -> ${e.dnis}`,
            detail: `${e.calls} calls; refused until ${new Date(e.until).toISOString()}`,
          })),
        )
        .execute();
  }
}

/**
 * Monitoring (issue 15, docs/monitoring.md): fraud detection, monitoring and loop detection rules,
 * the evaluation job, the blocks it places (read by the route API through MonitorSync), the
 * execution logs and the fraud report.
 */
export function registerMonitoring(app: FastifyInstance, s: Services, callPath: CallPath): MonitorSync {
  const sync = new MonitorSync(s, callPath.live);
  app.addHook('onReady', async () => {
    await sync.sync();
    sync.start();
  });
  app.addHook('onClose', async () => sync.stop());

  registerRules(app, s, () => void sync.sync());

  s.jobs.define<{ force?: boolean }>(
    EVALUATE_JOB,
    async (payload, ctx) => {
      const r = await evaluatePass(s, { force: payload.force === true, signal: ctx.signal });
      ctx.progress({
        done: r.fraud_rules + r.monitoring_rules,
        message: `${r.fired} fired, ${r.cleared} cleared`,
      });
      await sync.sync();
      return r;
    },
    { maxAttempts: 1 },
  );
  s.jobs.every(EVALUATE_JOB, { everyMinutes: 1 });

  const logOf =
    (kind: 'fraud' | 'rule' | 'loop') => async (ctx: { query: typeof api.monitoring.logQuery._output }) => {
      const q = ctx.query;
      let qb = s.db
        .selectFrom('monitoring_log as l')
        .leftJoin('trunks as t', 't.trunk_id', 'l.trunk_id')
        .leftJoin('carriers as c', 'c.client_id', 't.carrier_id')
        .select([
          'l.id',
          'l.at',
          'l.rule_kind',
          'l.rule_id',
          'l.rule_name',
          'l.event',
          'l.trunk_id',
          't.name as trunk_name',
          'c.name as carrier_name',
          'l.subject',
          'l.detail',
          'l.figures',
        ])
        .where('l.rule_kind', '=', kind);
      if (q.rule_id) qb = qb.where('l.rule_id', '=', q.rule_id);
      if (q.event) qb = qb.where('l.event', '=', q.event);
      if (q.trunk_id) qb = qb.where('l.trunk_id', '=', q.trunk_id);
      qb = withinTime(qb, 'l.at', q.from, q.to);
      const page = await pageOf(
        qb,
        newestFirst(q),
        { at: 'l.at', rule_name: 'l.rule_name', event: 'l.event' },
        'at',
        'l.id',
      );
      return { items: page.items.map((r) => withIsoTimes(r)) as never, total: page.total };
    };

  const blocksOf =
    (kind: 'fraud' | 'rule') => async (ctx: { query: typeof api.monitoring.blockQuery._output }) => {
      const q = ctx.query;
      const active = blockActiveSql('b');
      let qb = s.db
        .selectFrom('monitoring_blocks as b')
        .leftJoin('trunks as t', 't.trunk_id', 'b.trunk_id')
        .leftJoin('carriers as c', 'c.client_id', 't.carrier_id')
        .select([
          'b.block_id',
          'b.rule_kind',
          'b.rule_id',
          'b.rule_name',
          'b.side',
          'b.trunk_id',
          't.name as trunk_name',
          'c.name as carrier_name',
          'b.ani',
          'b.codes',
          'b.created_at',
          'b.until',
          'b.lifted_at',
          'b.lifted_by',
          'b.lift_reason',
        ])
        .select(active.as('active'))
        .where('b.rule_kind', '=', kind);
      if (q.rule_id) qb = qb.where('b.rule_id', '=', q.rule_id);
      if (q.active === 'true') qb = qb.where(active);
      if (q.active === 'false') qb = qb.where(sql<boolean>`NOT ${active}`);
      const page = await pageOf(
        qb,
        newestFirst(q),
        { created_at: 'b.created_at', until: 'b.until', rule_name: 'b.rule_name' },
        'created_at',
        'b.block_id',
      );
      return { items: page.items.map((r) => withIsoTimes(r)) as never, total: page.total };
    };

  const m = api.monitoring;
  for (const [kind, area] of [
    ['fraud', { log: m.fraudLog, blocks: m.fraudBlocks, unblock: m.fraudUnblock, run: m.fraudRun }],
    ['rule', { log: m.ruleLog, blocks: m.ruleBlocks, unblock: m.ruleUnblock, run: m.ruleRun }],
  ] as const) {
    implement(app, s, area.log, logOf(kind));
    implement(app, s, area.blocks, blocksOf(kind));
    implement(app, s, area.unblock, async (ctx) => {
      const actor = actorOf(ctx);
      const now = new Date();
      await s.db.transaction().execute(async (trx) => {
        const b = await trx
          .selectFrom('monitoring_blocks')
          .selectAll()
          .where('block_id', '=', ctx.params.id)
          .where('rule_kind', '=', kind)
          .forUpdate()
          .executeTakeFirst();
        if (!b) throw notFound();
        if (
          !blockInForce(
            { until: b.until?.getTime() ?? null, lifted_at: b.lifted_at?.getTime() ?? null },
            now.getTime(),
          )
        )
          throw ruleBroken('blockAlreadyLifted');
        await trx
          .updateTable('monitoring_blocks')
          .set({ lifted_at: now, lifted_by: actor?.user.name ?? 'system', lift_reason: 'manual' })
          .where('block_id', '=', b.block_id)
          .execute();
        await trx
          .insertInto('monitoring_log')
          .values({
            rule_kind: b.rule_kind,
            rule_id: b.rule_id,
            rule_name: b.rule_name,
            event: 'unblocked',
            trunk_id: b.trunk_id,
            subject: b.ani ?? '',
            detail: `lifted by hand by ${actor?.user.name ?? 'system'}`,
            block_id: b.block_id,
          })
          .execute();
        await s.audit.record(
          trx,
          actor,
          'monitoring_block',
          b.block_id,
          'unblock',
          { lifted_at: null },
          {
            lifted_at: now.toISOString(),
            lift_reason: 'manual',
          },
        );
      });
      await sync.sync();
      return null;
    });
    implement(app, s, area.run, async (ctx) => {
      const actor = actorOf(ctx);
      const job = await s.jobs.enqueue(
        EVALUATE_JOB,
        { force: true },
        { user: { user_id: actor?.user.user_id ?? null, name: actor?.user.name ?? 'system' } },
      );
      return { job_id: job.id };
    });
  }
  implement(app, s, api.monitoring.loopLog, logOf('loop'));

  // Live monitoring: the summary, and the feed pushed as server-sent events.
  const hub = new LiveHub(s.db, callPath.live, (err) => s.log.warn({ err }, 'live monitoring feed failed'));
  app.addHook('preClose', async () => hub.close());
  implement(app, s, api.monitoring.liveSummary, async () => {
    const events = await liveEvents(s.db, null, 100);
    return {
      events,
      last_id: events[0]?.id ?? 0,
      ...(await liveCounts(s.db)),
      calls: await liveCalls(s.db, callPath.live),
    };
  });
  implement(app, s, api.monitoring.liveStream, async (ctx) => {
    ctx.reply.hijack();
    await hub.subscribe(ctx.reply.raw, ctx.query.after_id);
    return null;
  });

  // Media IP blocking: the routing screen's list (one table, one engine rule) under this permission.
  implementCrud(app, s, api.monitoring.mediaIpBlock, mediaIpBlockTable(s));
  implement(app, s, api.monitoring.uploadMediaIpBlocks, uploadMediaIpBlocks(s));

  implement(app, s, api.monitoring.fraudReport, async (ctx) => {
    const q = ctx.query;
    let qb = s.db
      .selectFrom('monitoring_log as l')
      .leftJoin('trunks as t', 't.trunk_id', 'l.trunk_id')
      .leftJoin('carriers as c', 'c.client_id', 't.carrier_id')
      .select([
        'l.id',
        'l.at',
        'l.rule_id',
        'l.rule_name',
        'l.trunk_id',
        't.name as trunk_name',
        'c.name as carrier_name',
        'l.subject',
        'l.detail',
        'l.figures',
      ])
      .select('l.block_id')
      .where('l.rule_kind', '=', 'fraud')
      .where('l.event', '=', 'triggered');
    if (q.rule_id) qb = qb.where('l.rule_id', '=', q.rule_id);
    if (q.trunk_id) qb = qb.where('l.trunk_id', '=', q.trunk_id);
    qb = withinTime(qb, 'l.at', q.from, q.to);
    const page = await pageOf(
      qb,
      newestFirst(q),
      { at: 'l.at', rule_name: 'l.rule_name', trunk_name: 't.name' },
      'at',
      'l.id',
    );
    const ids = page.items.map((r) => r.block_id).filter((x): x is number => x !== null);
    const blocks = ids.length
      ? await s.db
          .selectFrom('monitoring_blocks')
          .select(['block_id', 'until', 'lifted_at'])
          .where('block_id', 'in', ids)
          .execute()
      : [];
    const byId = new Map(blocks.map((b) => [b.block_id, b]));
    const now = Date.now();
    const counts = await s.db
      .selectFrom('monitoring_log')
      .select([
        sql<number>`count(*) FILTER (WHERE at > now() - interval '1 hour')::int`.as('h1'),
        sql<number>`count(*)::int`.as('h24'),
      ])
      .where('rule_kind', '=', 'fraud')
      .where('event', '=', 'triggered')
      .where('at', '>', sql<Date>`now() - interval '24 hours'`)
      .executeTakeFirstOrThrow();
    return {
      items: page.items.map((r) => {
        const b = r.block_id === null ? undefined : byId.get(r.block_id);
        return {
          ...withIsoTimes(r),
          blocked_until: b?.until?.toISOString() ?? null,
          block_active:
            b !== undefined &&
            blockInForce(
              { until: b.until?.getTime() ?? null, lifted_at: b.lifted_at?.getTime() ?? null },
              now,
            ),
        };
      }) as never,
      total: page.total,
      triggers_1h: Number(counts.h1),
      triggers_24h: Number(counts.h24),
    };
  });

  return sync;
}
