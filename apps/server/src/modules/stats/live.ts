import type { RoutingSnapshot } from '@tandem/domain';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Db } from '../../db/connection';
import type { CallsReport, LiveState } from '../routing/live-state';
import { offsetMinutes, type Viewer } from './report';

/** Channel peaks are kept per 5 minutes (UTC). */
export const PEAK_SLOT_MS = 5 * 60_000;
/** The current slot's peaks are written at most this often (and when the slot ends). */
const FLUSH_MS = 30_000;
/** Peaks older than this are deleted (the dashboard reaches back 60 days). */
const KEEP_DAYS = 62;

/**
 * The most calls up at once per 5 minutes and trunk, from the switch's calls-up reports
 * (POST /switch/calls, docs/statistics.md "Channels"): kept in memory for the current slot and
 * written to `trunk_channel_peaks` every 30 seconds and when the slot ends (an upsert keeping the
 * larger, so several server processes hearing reports add up to the highest). Trunk 0 is the whole
 * switch: the calls up over the ingress trunks (each call has one), as one report gave them.
 */
export class ChannelPeaks {
  private slot = 0;
  private peaks = new Map<number, number>();
  private lastFlush = 0;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly log: Pick<Logger, 'warn'>,
  ) {}

  /** A report of the switch (a LiveState listener: never throws). */
  record(report: CallsReport, snapshot: RoutingSnapshot | null, now = Date.now()): void {
    const slot = Math.floor(now / PEAK_SLOT_MS) * PEAK_SLOT_MS;
    if (slot !== this.slot) {
      if (this.slot !== 0) void this.flush(true, now);
      this.slot = slot;
      this.peaks = new Map();
    }
    let total = 0;
    for (const { trunk_id, calls } of report) {
      if (calls > (this.peaks.get(trunk_id) ?? 0)) this.peaks.set(trunk_id, calls);
      if (snapshot?.trunks.get(trunk_id)?.direction === 'ingress') total += calls;
    }
    if (total >= (this.peaks.get(0) ?? 0)) this.peaks.set(0, total);
    if (now - this.lastFlush >= FLUSH_MS) void this.flush(false, now);
  }

  /** The current slot's peaks not yet written (read with the stored ones). */
  current(): { slot: number; peaks: ReadonlyMap<number, number> } {
    return { slot: this.slot, peaks: this.peaks };
  }

  /** Writes the current slot's peaks (one at a time; an error is logged, the next flush tries again). */
  flush(prune = false, now = Date.now()): Promise<void> {
    this.lastFlush = now;
    const slot = new Date(this.slot);
    const rows = [...this.peaks].sort((a, b) => a[0] - b[0]);
    this.writing = this.writing.then(async () => {
      try {
        if (rows.length)
          await sql`
            INSERT INTO trunk_channel_peaks (slot, trunk_id, peak)
            SELECT ${slot}::timestamptz, t, p FROM unnest(${rows.map((r) => r[0])}::int4[], ${rows.map((r) => r[1])}::int4[]) AS x(t, p)
            ON CONFLICT (slot, trunk_id) DO UPDATE SET peak = greatest(trunk_channel_peaks.peak, excluded.peak)`.execute(
            this.db,
          );
        if (prune)
          await sql`DELETE FROM trunk_channel_peaks WHERE slot < ${new Date(now - KEEP_DAYS * 86_400_000)}`.execute(
            this.db,
          );
      } catch (e) {
        this.log.warn({ err: e }, 'channel peaks not written');
      }
    });
    return this.writing;
  }
}

/**
 * GET /stats/active_calls: the calls up now per trunk (the switch's last report plus the calls
 * routed since, as the call limits count them: LiveState), with each trunk's name, carrier, call
 * limit and peak today (in `tz`), and the sums per carrier. A viewer limited to its carriers sees
 * their trunks only.
 */
export async function activeCalls(
  db: Db,
  viewer: Viewer,
  live: LiveState,
  peaks: ChannelPeaks,
  tz: string,
  now = Date.now(),
) {
  const off = offsetMinutes(tz) * 60_000;
  const midnight = Math.floor((now + off) / 86_400_000) * 86_400_000 - off;
  const stored = await sql<{ trunk_id: number; peak: number }>`
    SELECT trunk_id, max(peak)::int AS peak FROM trunk_channel_peaks
    WHERE slot >= ${new Date(midnight)} GROUP BY trunk_id`.execute(db);
  const peakToday = new Map(stored.rows.map((r) => [Number(r.trunk_id), Number(r.peak)]));
  const cur = peaks.current();
  if (cur.slot >= midnight)
    for (const [t, p] of cur.peaks) if (p > (peakToday.get(t) ?? 0)) peakToday.set(t, p);

  const ids = [
    ...new Set([...[...live.trunk_calls].filter(([, n]) => n > 0).map(([t]) => t), ...peakToday.keys()]),
  ].filter((t) => t !== 0);
  const info = ids.length
    ? await db
        .selectFrom('trunks as t')
        .leftJoin('carriers as c', 'c.client_id', 't.carrier_id')
        .select(['t.trunk_id', 't.name', 't.direction', 't.carrier_id', 't.call_limit', 'c.name as carrier'])
        .where('t.trunk_id', 'in', ids)
        .execute()
    : [];
  const byId = new Map(info.map((r) => [r.trunk_id, r]));
  const allowed = viewer.carrierIds === null ? null : new Set(viewer.carrierIds);
  const trunks = ids
    .map((id) => {
      const t = byId.get(id);
      return {
        trunk_id: id,
        trunk: t?.name ?? null,
        direction: t?.direction ?? null,
        carrier_id: t?.carrier_id ?? null,
        carrier: t?.carrier ?? null,
        calls: live.trunk_calls.get(id) ?? 0,
        call_limit: t?.call_limit ?? null,
        peak_today: peakToday.get(id) ?? null,
      };
    })
    .filter((t) => allowed === null || (t.carrier_id !== null && allowed.has(t.carrier_id)))
    .filter((t) => t.calls > 0 || (t.peak_today ?? 0) > 0)
    .sort(
      (a, b) => b.calls - a.calls || (b.peak_today ?? 0) - (a.peak_today ?? 0) || a.trunk_id - b.trunk_id,
    );

  const carriers = new Map<
    number,
    { carrier_id: number; carrier: string | null; ingress_calls: number; egress_calls: number }
  >();
  for (const t of trunks) {
    if (t.carrier_id === null || t.calls === 0) continue;
    const c = carriers.get(t.carrier_id) ?? {
      carrier_id: t.carrier_id,
      carrier: t.carrier,
      ingress_calls: 0,
      egress_calls: 0,
    };
    if (t.direction === 'egress') c.egress_calls += t.calls;
    else c.ingress_calls += t.calls;
    carriers.set(t.carrier_id, c);
  }
  return {
    reported_at: live.reportedAt === null ? null : new Date(live.reportedAt).toISOString(),
    total: trunks.filter((t) => t.direction === 'ingress').reduce((n, t) => n + t.calls, 0),
    peak_today: allowed === null ? (peakToday.get(0) ?? null) : null,
    trunks,
    carriers: [...carriers.values()].sort(
      (a, b) =>
        b.ingress_calls + b.egress_calls - (a.ingress_calls + a.egress_calls) || a.carrier_id - b.carrier_id,
    ),
  };
}
