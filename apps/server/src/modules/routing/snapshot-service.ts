import type { api } from '@tandem/contract';
import type { z } from 'zod';
import {
  buildSnapshotSteps,
  patchDynamicQos,
  patchRateRows,
  runStepsSliced,
  type EngineConfig,
  type RoutingSnapshot,
} from '@tandem/domain';
import { yieldToLoop } from '../../event-loop';
import type { Services } from '../../services';
import { ConfigLoader, type LoadedConfig } from './snapshot-loader';
import { readErrorResponses } from './routing-settings';

/**
 * The routing engine's snapshot of the configuration, in memory. Built at start (in the background)
 * and rebuilt after every configuration change (configChanged, debounced): the loader reads what
 * changed, buildSnapshot compiles it, and the new snapshot replaces the old one in one assignment.
 * When only rate values or the dynamic routes' QoS figures changed, they are patched into the
 * snapshot in service instead of building a new one.
 * Until then calls are answered from the previous snapshot; a failed rebuild keeps it and records
 * the error.
 *
 * A full build runs in time slices of BUILD_SLICE_MS (domain buildSnapshotSteps), giving the event
 * loop back between slices, so route calls are answered from the previous snapshot while a
 * snapshot of a million rate rows is built (docs/decisions.md, "Snapshot builds in time slices").
 */
type EngineStatus = z.output<typeof api.routing.engineStatus>;

/** Longest stretch of a full build between two turns of the event loop. */
export const BUILD_SLICE_MS = 8;

export class SnapshotService {
  private current: RoutingSnapshot | null = null;
  private readonly loader: ConfigLoader;
  private version = 0;
  private builtAt: Date | null = null;
  private buildMs: number | null = null;
  private loadMs: number | null = null;
  private loadKind: 'full' | 'incremental' | 'patch' | null = null;
  /** The configuration besides the rate rows, as text: when it did not change, rate value changes are patched in. */
  private shape: string | null = null;
  private counts: LoadedConfig['counts'] = {
    carriers: 0,
    trunks: 0,
    rate_tables: 0,
    rates: 0,
    routing_plans: 0,
    static_routes: 0,
    dynamic_routes: 0,
    block_list: 0,
    jurisdiction: 0,
    digital_maps: 0,
    media_ip_blocks: 0,
    ocn_blocks: 0,
  };
  private lastError: string | null = null;
  private lastErrorAt: Date | null = null;
  private building = false;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private unsubscribe: (() => void) | null = null;
  private idleWaiters: (() => void)[] = [];
  /** Called after each snapshot is put in service, with the configuration it read and when. */
  onInstalled: ((loaded: LoadedConfig, loadStartedAt: number) => void) | null = null;
  /** Reject reason -> [SIP code, clause] of the global route error settings. */
  errorResponses = new Map<string, { code: number; clause: string }>();

  constructor(
    private readonly s: Services,
    private readonly debounceMs = 200,
  ) {
    this.loader = new ConfigLoader(s.db, s.settings);
  }

  /** Subscribes to configuration changes and starts the first build (not awaited). */
  start(): void {
    this.unsubscribe = this.s.configChanged.subscribe(() => this.schedule());
    this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    this.loader.stop();
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.releaseWaiters();
  }

  /** The snapshot calls are answered from (null until the first build is done). */
  get snapshot(): RoutingSnapshot | null {
    return this.current;
  }

  get snapshotVersion(): number {
    return this.version;
  }

  get snapshotBuiltAt(): Date | null {
    return this.builtAt;
  }

  /** Rebuild soon (debounced: a burst of changes makes one rebuild). */
  schedule(delay = this.debounceMs): void {
    if (this.stopped) return;
    if (this.building) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.rebuild();
    }, delay);
  }

  /** Resolves when no build is running or scheduled (tests, benchmarks). */
  idle(): Promise<void> {
    if (!this.building && !this.timer) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  status(): EngineStatus {
    return {
      ready: this.current !== null,
      building: this.building || this.timer !== null,
      version: this.version,
      built_at: this.builtAt?.toISOString() ?? null,
      build_ms: this.buildMs,
      load_ms: this.loadMs,
      load_kind: this.loadKind,
      counts: this.counts,
      warnings: [...(this.current?.warnings ?? [])].slice(0, 200),
      last_error: this.lastError,
      last_error_at: this.lastErrorAt?.toISOString() ?? null,
    };
  }

  private async rebuild(): Promise<void> {
    if (this.stopped) return;
    this.building = true;
    try {
      const t0 = performance.now();
      const loaded = await this.loader.load();
      const errors = await readErrorResponses(this.s.settings);
      if (this.stopped) return;
      const shape = shapeOf(loaded.config, this.loader.jurisdictionVersion);
      const t1 = performance.now();
      const patches = loaded.rates.patches;
      // Only rate values and QoS figures changed: write them into the snapshot in service
      // (domain patchDynamicQos, patchRateRows).
      const patched =
        this.current !== null &&
        patches !== null &&
        shape === this.shape &&
        patchDynamicQos(this.current, loaded.config.dynamic_routes ?? []) &&
        patchRateRows(this.current, patches);
      if (!patched) {
        const built = await runStepsSliced(buildSnapshotSteps(loaded.config), {
          sliceMs: BUILD_SLICE_MS,
          pause: yieldToLoop,
          cancelled: () => this.stopped,
        });
        if (built === null) return;
        this.current = built;
        this.shape = shape;
      }
      const t2 = performance.now();
      this.errorResponses = new Map(errors.map((e) => [e.reason, { code: e.code, clause: e.clause }]));
      this.version++;
      this.builtAt = new Date();
      this.loadMs = Math.round(t1 - t0);
      this.buildMs = Math.round(t2 - t1);
      this.loadKind = patched ? 'patch' : loaded.rates.kind;
      this.counts = loaded.counts;
      this.lastError = null;
      this.onInstalled?.(loaded, t0);
      this.s.log.info(
        { version: this.version, load_ms: this.loadMs, build_ms: this.buildMs, load: loaded.rates },
        'routing snapshot built',
      );
    } catch (error) {
      if (this.stopped) return;
      this.lastError = error instanceof Error ? error.message : String(error);
      this.lastErrorAt = new Date();
      this.s.log.error({ err: error }, 'routing snapshot rebuild failed; the previous snapshot stays');
    } finally {
      this.building = false;
      if (this.again && !this.stopped) {
        this.again = false;
        this.schedule(0);
      } else if (!this.timer) this.releaseWaiters();
    }
  }

  private releaseWaiters(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}

/**
 * The configuration without its rate rows and the dynamic routes' QoS figures (and with the
 * jurisdiction data's version), as text.
 */
function shapeOf(config: EngineConfig, jurisdictionVersion: number): string {
  return JSON.stringify({
    ...config,
    rate_tables: config.rate_tables.map(({ rows: _rows, columns: _columns, ...table }) => table),
    dynamic_routes: config.dynamic_routes?.map((d) => ({
      ...d,
      trunks: d.trunks.map(({ qos: _qos, ...t }) => t),
    })),
    jurisdiction: jurisdictionVersion,
  });
}
