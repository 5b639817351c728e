import type { api } from '@tandem/contract';
import type { ServerResponse } from 'node:http';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { withIsoTimes } from '../../db/paging';
import type { LiveState } from '../routing/live-state';
import { blockActiveSql } from './blocks';

type LiveEvent = api.monitoring.LiveEventRow;
type LiveCalls = api.monitoring.LiveCalls;

/** How often the feed looks for new log rows while someone watches. */
export const LIVE_POLL_MS = 1000;
/** Calls up are pushed every this many polls. */
const CALLS_EVERY = 3;
/** A comment line this often keeps proxies from closing an idle stream. */
const KEEPALIVE_MS = 15_000;
/** Backlog a new subscriber gets (events after the id it sends). */
const BACKLOG = 100;

/** The newest execution-log events other than routine runs, after `afterId` (oldest first), or the latest `limit`. */
export async function liveEvents(db: Db, afterId: number | null, limit: number): Promise<LiveEvent[]> {
  let qb = db
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
    ])
    .where('l.event', '<>', 'run');
  if (afterId !== null) qb = qb.where('l.id', '>', afterId);
  const rows = await qb
    .orderBy('l.id', afterId === null ? 'desc' : 'asc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...withIsoTimes(r), id: Number(r.id) }) as LiveEvent);
}

/** Calls up now as the switch reported them to this process: the total and the 10 busiest trunks. */
export async function liveCalls(db: Db, live: LiveState): Promise<LiveCalls> {
  let total = 0;
  const busy: [number, number][] = [];
  for (const [trunk, calls] of live.trunk_calls) {
    if (calls <= 0) continue;
    total += calls;
    busy.push([trunk, calls]);
  }
  busy.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const top = busy.slice(0, 10);
  const names = top.length
    ? await db
        .selectFrom('trunks as t')
        .innerJoin('carriers as c', 'c.client_id', 't.carrier_id')
        .select(['t.trunk_id', 't.name as trunk_name', 'c.name as carrier_name'])
        .where(
          't.trunk_id',
          'in',
          top.map(([id]) => id),
        )
        .execute()
    : [];
  const byId = new Map(names.map((n) => [n.trunk_id, n]));
  return {
    at: new Date().toISOString(),
    total,
    trunks: top.map(([trunk_id, calls]) => ({
      trunk_id,
      trunk_name: byId.get(trunk_id)?.trunk_name ?? null,
      carrier_name: byId.get(trunk_id)?.carrier_name ?? null,
      calls,
    })),
  };
}

/** The summary figures of the live page: blocks in force, fraud triggers in 1 h and 24 h, loops in 1 h. */
export async function liveCounts(db: Db) {
  const r = await sql<{ blocks: number; h1: number; h24: number; loops: number }>`
    SELECT (SELECT count(*)::int FROM monitoring_blocks b WHERE ${blockActiveSql('b')}) AS blocks,
      count(*) FILTER (WHERE event = 'triggered' AND at > now() - interval '1 hour')::int AS h1,
      count(*) FILTER (WHERE event = 'triggered')::int AS h24,
      count(*) FILTER (WHERE event = 'loop' AND at > now() - interval '1 hour')::int AS loops
    FROM monitoring_log WHERE at > now() - interval '24 hours' AND event IN ('triggered', 'loop')`.execute(
    db,
  );
  const c = r.rows[0]!;
  return { active_blocks: c.blocks, triggers_1h: c.h1, triggers_24h: c.h24, loops_1h: c.loops };
}

interface Subscriber {
  res: ServerResponse;
  /** Events up to this id were sent. */
  lastId: number;
}

/**
 * The live feed's fan-out in this process (Monitoring > Live Event): while at least one browser
 * watches, it reads the execution log's new rows once a second (written by any process: the job,
 * the route API's loop sync, an unblock) and pushes each to every subscriber as a server-sent
 * event, and the calls up every few seconds. Nobody watching: no polling at all.
 */
export class LiveHub {
  private readonly subs = new Set<Subscriber>();
  private timer: NodeJS.Timeout | null = null;
  private keepalive: NodeJS.Timeout | null = null;
  private polling = false;
  private ticks = 0;
  private lastId = 0;

  constructor(
    private readonly db: Db,
    private readonly live: LiveState,
    private readonly warn: (err: unknown) => void,
  ) {}

  /** Opens a stream on `res`: the backlog after `afterId` (or nothing before now), then live events. */
  async subscribe(res: ServerResponse, afterId: number | undefined): Promise<void> {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(': live monitoring\n\n');
    if (this.subs.size === 0) this.lastId = await this.newestId();
    const sub: Subscriber = { res, lastId: this.lastId };
    if (afterId !== undefined && afterId < this.lastId) {
      const backlog = (await liveEvents(this.db, afterId, BACKLOG)).filter((e) => e.id <= this.lastId);
      for (const e of backlog) send(res, 'log', e);
    }
    this.subs.add(sub);
    res.on('close', () => this.unsubscribe(sub));
    send(res, 'calls', await liveCalls(this.db, this.live));
    this.start();
  }

  /** Ends every stream (server shutdown). */
  close(): void {
    for (const s of this.subs) s.res.end();
    this.subs.clear();
    this.stop();
  }

  get size(): number {
    return this.subs.size;
  }

  private unsubscribe(sub: Subscriber): void {
    this.subs.delete(sub);
    if (this.subs.size === 0) this.stop();
  }

  private start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.poll(), LIVE_POLL_MS);
    this.timer.unref();
    this.keepalive = setInterval(() => {
      for (const s of this.subs) s.res.write(': keepalive\n\n');
    }, KEEPALIVE_MS);
    this.keepalive.unref();
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.keepalive) clearInterval(this.keepalive);
    this.timer = null;
    this.keepalive = null;
  }

  private async newestId(): Promise<number> {
    const r = await this.db
      .selectFrom('monitoring_log')
      .select(sql<string>`coalesce(max(id), 0)::text`.as('id'))
      .executeTakeFirstOrThrow();
    return Number(r.id);
  }

  /** One look at the log (and every few, the calls up); never two at once. */
  private async poll(): Promise<void> {
    if (this.polling || this.subs.size === 0) return;
    this.polling = true;
    try {
      for (;;) {
        const rows = await liveEvents(this.db, this.lastId, 500);
        for (const e of rows) for (const s of this.subs) if (e.id > s.lastId) send(s.res, 'log', e);
        if (rows.length) {
          this.lastId = rows[rows.length - 1]!.id;
          for (const s of this.subs) s.lastId = Math.max(s.lastId, this.lastId);
        }
        if (rows.length < 500) break;
      }
      if (++this.ticks % CALLS_EVERY === 0) {
        const calls = await liveCalls(this.db, this.live);
        for (const s of this.subs) send(s.res, 'calls', calls);
      }
    } catch (err) {
      this.warn(err);
    } finally {
      this.polling = false;
    }
  }
}

function send(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}
