import type { CdrIn } from '@tandem/contract';
import { createRoutingState, decide, type RoutingSnapshot } from '@tandem/domain';
import { sql } from 'kysely';
import type { Services } from '../../services';
import type { BulkTotals, CdrChunk, CdrIngest } from './ingest';
import { openStandaloneIngest } from './standalone';

/**
 * Demo traffic (issue 10 section 6): a month of call attempts between the demo customers and
 * vendors, sent through the real ingest (ingestMany: rated, stored, billed through the ledger), so
 * a new user finds balances, CDRs and reports alive.
 *
 * Nothing about the carriers is hard-coded: the customers' ingress trunks (source IP, tech
 * prefixes, rate tables), the destinations (the codes of the customers' rate tables) and the
 * vendors come from the database when it runs, and each call is routed by the routing engine's
 * own decision (decide) over the snapshot, so the traffic follows whatever rates and routes the
 * demo has. A customer trunk without rates still sends calls (to common destinations, over the
 * active vendor trunks): they are stored unpriced with their reason.
 *
 * Realism: more calls on weekdays and in business hours (UTC), ASR about 40-60 % per vendor trunk,
 * ACD about 3 minutes (many short calls, a long tail), PDD of 1.5-6 s for calls that ring and well
 * under a second for fast failures, busy/no answer/cancelled/unavailable release causes with their
 * Q.850 causes and sides, failover to the next route on 503/408/500/502 (attempt 2, 3), and about 1 %
 * of calls to numbers no rate table has (stored unpriced).
 *
 * Idempotent and resumable: the calls are generated from a fixed seed and an anchor hour (the hour
 * of the first run, kept in the batch ids: `demo-<anchor ms>-<n>`), so a second run regenerates the
 * same batches and the ingest answers them as duplicates; a run stopped half-way completes. When
 * every batch is there, nothing is generated at all.
 */

/** About 200,000 attempts (failovers add about 5 %), as issue 10 asks of the demo month. */
export const DEMO_TRAFFIC_CALLS = 191_000;
export const DEMO_TRAFFIC_DAYS = 30;
/** Calls per batch (each call 1-3 attempts, so at most 3 × this many CDRs a batch). */
const CALLS_PER_BATCH = 2_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

export interface DemoTrafficOptions {
  calls?: number;
  days?: number;
  now?: Date;
  seed?: number;
  /** Reuse an ingest (tests, the server); else a standalone one is opened and closed. */
  ingest?: CdrIngest;
  onBatch?: (done: number, planned: number) => void;
}

export interface DemoTrafficReport extends BulkTotals {
  /** Batches this run would send; 0 when every batch was stored before (nothing generated). */
  planned: number;
  anchor: Date;
}

interface Customer {
  trunk_id: number;
  source_ip: string;
  /** The host's port when it sets one (the engine matches a host with a port only from that port). */
  source_port: number | null;
  /** (tech prefix, destination codes) the trunk's products price. */
  products: { tech_prefix: string; codes: string[] }[];
  weight: number;
}
interface Vendor {
  trunk_id: number;
  host: string | null;
  tech_prefix: string;
}

/** Common destinations when a customer trunk has no rates (its calls are stored unpriced). */
const FALLBACK_CODES = ['447', '4915', '4917', '336', '1212', '1305', '9198', '2348', '5511', '8613'];
/** Numbers no rate table prices (satellite, premium): a few calls go there and stay unpriced. */
const UNPRICED_CODES = ['88216', '87010', '9009'];
const CODECS = ['PCMA', 'PCMU', 'G729', 'G722'];
/** Relative calls per UTC hour (business-hours peak, evening shoulder, quiet night). */
const HOUR_WEIGHTS = [2, 1, 1, 1, 1, 2, 4, 7, 10, 12, 13, 13, 12, 12, 13, 13, 12, 10, 8, 7, 6, 5, 4, 3];

/** mulberry32: a small seeded PRNG (same seed, same traffic). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export async function seedDemoTraffic(
  s: Services,
  opts: DemoTrafficOptions = {},
): Promise<DemoTrafficReport> {
  const calls = opts.calls ?? DEMO_TRAFFIC_CALLS;
  const days = opts.days ?? DEMO_TRAFFIC_DAYS;
  const planned = Math.ceil(calls / CALLS_PER_BATCH);
  const empty = (anchor: Date, n: number): DemoTrafficReport => ({
    planned: n,
    anchor,
    batches: 0,
    skipped_batches: 0,
    received: 0,
    stored: 0,
    duplicates: 0,
    unpriced: 0,
    revenue: 0n,
    cost: 0n,
  });

  // The anchor of a previous run (resume), else the current hour.
  const prev = await sql<{ batch_id: string; n: number }>`
    SELECT min(batch_id) AS batch_id, count(*)::int AS n FROM cdr_batches WHERE source = 'demo'`.execute(
    s.db,
  );
  const found = /^demo-(\d+)-/.exec(prev.rows[0]?.batch_id ?? '');
  const anchorMs = found
    ? Number(found[1])
    : Math.floor((opts.now ?? new Date()).getTime() / HOUR_MS) * HOUR_MS;
  const anchor = new Date(anchorMs);
  if (found && Number(prev.rows[0]?.n) >= planned) return empty(anchor, 0);

  const customers = await readCustomers(s);
  const vendors = await readVendors(s);
  if (customers.length === 0) return empty(anchor, 0);

  const own = opts.ingest ? null : await openStandaloneIngest(s);
  try {
    const ingest = opts.ingest ?? own!.ingest;
    const snapshot = ingest.snapshot();
    const gen = generate({
      calls,
      days,
      anchorMs,
      seed: opts.seed ?? 20_261_125,
      customers,
      vendors,
      snapshot,
    });
    const t = await ingest.ingestMany(gen, 'demo', (_r, tot) => opts.onBatch?.(tot.batches, planned));
    return { ...t, planned, anchor };
  } finally {
    await own?.close();
  }
}

async function readCustomers(s: Services): Promise<Customer[]> {
  const trunks = await sql<{
    trunk_id: number;
    tech_prefix: string;
    rate_table_id: number | null;
    host: string;
    port: number | null;
  }>`
    SELECT t.trunk_id, t.tech_prefix, t.rate_table_id, h.host, h.port
    FROM trunks t
    LEFT JOIN LATERAL (SELECT host, port FROM trunk_hosts WHERE trunk_id = t.trunk_id ORDER BY ordering, id LIMIT 1) h
      ON true JOIN carriers c ON c.client_id = t.carrier_id
    WHERE t.direction = 'ingress' AND t.is_active AND c.is_active ORDER BY t.trunk_id`.execute(s.db);
  const rows = await sql<{ trunk_id: number; tech_prefix: string; rate_table_id: number | null }>`
    SELECT r.trunk_id, r.tech_prefix, coalesce(r.rate_table_id, p.rate_table_id) AS rate_table_id
    FROM trunk_routing_rows r LEFT JOIN products p ON p.id = r.product_id ORDER BY r.id`.execute(s.db);
  const out: Customer[] = [];
  const tables = new Set<number>();
  const prods = new Map<number, { tech_prefix: string; table: number | null }[]>();
  for (const t of trunks.rows) {
    if (!t.host || !/^[0-9.:a-fA-F]+$/.test(t.host)) continue; // calls come from an IP host
    const own = rows.rows.filter((r) => r.trunk_id === t.trunk_id);
    const list = own.length
      ? own.map((r) => ({ tech_prefix: r.tech_prefix, table: r.rate_table_id ?? t.rate_table_id }))
      : [{ tech_prefix: t.tech_prefix, table: t.rate_table_id }];
    for (const p of list) if (p.table !== null) tables.add(p.table);
    prods.set(t.trunk_id, list);
    out.push({ trunk_id: t.trunk_id, source_ip: t.host, source_port: t.port, products: [], weight: 0 });
  }
  const codes = new Map<number, string[]>();
  if (tables.size) {
    const r = await sql<{ rate_table_id: number; code: string }>`
      SELECT DISTINCT rate_table_id, code FROM rates
      WHERE rate_table_id = ANY(${[...tables]}::int4[]) AND code ~ '^[0-9]+$'
        AND (end_date IS NULL OR end_date > now()) ORDER BY rate_table_id, code LIMIT 50000`.execute(s.db);
    for (const x of r.rows) {
      const list = codes.get(x.rate_table_id) ?? [];
      list.push(x.code);
      codes.set(x.rate_table_id, list);
    }
  }
  for (const c of out) {
    c.products = prods
      .get(c.trunk_id)!
      .map((p) => ({ tech_prefix: p.tech_prefix, codes: (p.table !== null && codes.get(p.table)) || [] }));
    // Customers with rates send most of the traffic.
    c.weight = c.products.some((p) => p.codes.length) ? 4 : 1;
  }
  return out;
}

async function readVendors(s: Services): Promise<Vendor[]> {
  const r = await sql<Vendor>`
    SELECT t.trunk_id, t.tech_prefix,
      (SELECT h.host FROM trunk_hosts h WHERE h.trunk_id = t.trunk_id ORDER BY h.ordering, h.id LIMIT 1) AS host
    FROM trunks t JOIN carriers c ON c.client_id = t.carrier_id
    WHERE t.direction = 'egress' AND t.is_active AND c.is_active ORDER BY t.trunk_id`.execute(s.db);
  return r.rows;
}

interface Plan {
  calls: number;
  days: number;
  anchorMs: number;
  seed: number;
  customers: Customer[];
  vendors: Vendor[];
  snapshot: RoutingSnapshot;
}

/** How a vendor trunk behaves: its answer rate and how often it fails fast (so the call fails over). */
function vendorQuality(trunkId: number): { asr: number; fail: number } {
  const r = prng(trunkId * 7919)();
  return { asr: 0.4 + r * 0.2, fail: 0.04 + (1 - r) * 0.08 };
}

function* generate(p: Plan): Generator<CdrChunk> {
  const rnd = prng(p.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const totalWeight = p.customers.reduce((a, c) => a + c.weight, 0);
  const hourTotal = HOUR_WEIGHTS.reduce((a, b) => a + b, 0);
  const startDay = Math.floor(p.anchorMs / DAY_MS) * DAY_MS - (p.days - 1) * DAY_MS;

  // Start times first (sorted: batches go in time order, as a switch sends them).
  const starts: number[] = [];
  for (let i = 0; i < p.calls; i++) {
    let t = 0;
    for (;;) {
      const day = startDay + Math.floor(rnd() * p.days) * DAY_MS;
      const dow = new Date(day).getUTCDay();
      if ((dow === 0 || dow === 6) && rnd() < 0.55) continue; // quieter weekends
      let h = rnd() * hourTotal;
      let hour = 0;
      while (h >= HOUR_WEIGHTS[hour]!) h -= HOUR_WEIGHTS[hour++]!;
      t = day + hour * HOUR_MS + Math.floor(rnd() * HOUR_MS);
      if (t < p.anchorMs) break;
    }
    starts.push(t);
  }
  starts.sort((a, b) => a - b);

  const state = createRoutingState(rnd);
  let batch: CdrIn[] = [];
  let n = 0;
  for (let i = 0; i < p.calls; i++) {
    const callId = `demo-${p.anchorMs}-${i}`;
    // customer
    let w = rnd() * totalWeight;
    let cust = p.customers[0]!;
    for (const c of p.customers) {
      if (w < c.weight) {
        cust = c;
        break;
      }
      w -= c.weight;
    }
    const product = pick(cust.products);
    const priced = product.codes.length > 0;
    const unpricedCall = rnd() < 0.01;
    // destination: popular codes more often
    const codes = unpricedCall ? UNPRICED_CODES : priced ? product.codes : FALLBACK_CODES;
    const code = codes[Math.floor(codes.length * rnd() * rnd())]!;
    const len = code.startsWith('1') ? 11 : 11 + Math.floor(rnd() * 2);
    let number = code;
    while (number.length < len) number += Math.floor(rnd() * 10);
    const dnis = product.tech_prefix + number;
    const ani = `1${200 + Math.floor(rnd() * 700)}${String(Math.floor(rnd() * 1e7)).padStart(7, '0')}`;
    const start = starts[i]!;

    // routes: the engine's decision, or (no rates) the active vendor trunks
    let routes: { trunk_id: number; dnis: string; host: string | null }[] = [];
    let reject: { code: number; side: 'N' | 'B' } | null = null;
    if (priced || unpricedCall) {
      const d = decide(
        p.snapshot,
        { source_ip: cust.source_ip, source_port: cust.source_port, ani, dnis, time: start },
        state,
      );
      if (d.result === 'route')
        routes = d.routes.map((r) => ({ trunk_id: r.trunk_id, dnis: r.dnis, host: r.hosts[0]?.ip ?? null }));
      else
        reject = { code: d.reject_code ?? 503, side: d.reject_reason === 'insufficient_balance' ? 'B' : 'N' };
    } else if (p.vendors.length) {
      const first = Math.floor(rnd() * p.vendors.length);
      for (let k = 0; k < Math.min(3, p.vendors.length); k++) {
        const v = p.vendors[(first + k) % p.vendors.length]!;
        routes.push({ trunk_id: v.trunk_id, dnis: v.tech_prefix + number, host: v.host });
      }
    } else reject = { code: 503, side: 'N' };

    const base = {
      call_id: callId,
      ingress_trunk_id: cust.trunk_id,
      source_ip: cust.source_ip,
      ani,
      dnis,
      codec: pick(CODECS),
    };
    if (reject !== null || routes.length === 0) {
      const pdd = 20 + Math.floor(rnd() * 150);
      batch.push({
        ...base,
        attempt: 1,
        is_final_attempt: true,
        start_time: iso(start),
        answer_time: null,
        end_time: iso(start + pdd),
        duration: 0,
        egress_trunk_id: null,
        egress_dnis: null,
        release_cause: reject?.code ?? 503,
        q850_cause: reject?.code === 404 ? 1 : reject?.code === 402 ? 21 : 34,
        release_side: reject?.side ?? 'N',
        pdd_ms: pdd,
      });
    } else {
      let t = start;
      for (let k = 0; k < routes.length && k < 3; k++) {
        const r = routes[k]!;
        const q = vendorQuality(r.trunk_id);
        const last = k === routes.length - 1 || k === 2;
        const x = rnd();
        const attempt = {
          ...base,
          attempt: k + 1,
          egress_trunk_id: r.trunk_id,
          egress_dnis: r.dnis,
          egress_host: r.host,
        };
        if (x < q.fail) {
          // fast failure at the vendor: fails over to the next route
          const cause = pick([503, 503, 503, 408, 500, 502] as const);
          const pdd = cause === 408 ? 6_000 + Math.floor(rnd() * 2_000) : 80 + Math.floor(rnd() * 700);
          batch.push({
            ...attempt,
            is_final_attempt: last,
            start_time: iso(t),
            answer_time: null,
            end_time: iso(t + pdd),
            duration: 0,
            release_cause: cause,
            q850_cause: cause === 408 ? 18 : cause === 503 ? 34 : 38,
            release_side: 'T',
            pdd_ms: pdd,
          });
          t += pdd + 20;
          if (last) break;
          continue;
        }
        const pdd = Math.round(1_500 + rnd() * rnd() * 4_500);
        if (x < q.fail + q.asr) {
          // answered: ACD about 3 minutes, many short calls and a long tail
          const ring = 2_000 + Math.floor(rnd() * 14_000);
          const duration = Math.max(1, Math.round(-Math.log(1 - rnd() * 0.999) * 170));
          const answer = t + pdd + ring;
          batch.push({
            ...attempt,
            is_final_attempt: true,
            start_time: iso(t),
            answer_time: iso(answer),
            end_time: iso(answer + duration * 1000 + Math.floor(rnd() * 1000)),
            duration,
            release_cause: 200,
            q850_cause: 16,
            release_side: rnd() < 0.55 ? 'O' : 'T',
            pdd_ms: pdd,
            ring_time_ms: ring,
          });
        } else {
          // rang but was not answered: busy, no answer, caller gave up, not available
          const y = rnd();
          const [cause, q850, side, ringMs] =
            y < 0.35
              ? [486, 17, 'T', 0]
              : y < 0.6
                ? [480, 19, 'T', 30_000 + Math.floor(rnd() * 30_000)]
                : y < 0.9
                  ? [487, 16, 'O', 3_000 + Math.floor(rnd() * 20_000)]
                  : [404, 1, 'T', 0];
          batch.push({
            ...attempt,
            is_final_attempt: true,
            start_time: iso(t),
            answer_time: null,
            end_time: iso(t + pdd + ringMs),
            duration: 0,
            release_cause: cause,
            q850_cause: q850,
            release_side: side as 'T' | 'O',
            pdd_ms: pdd,
            ring_time_ms: ringMs || null,
          });
        }
        break;
      }
    }
    if ((i + 1) % CALLS_PER_BATCH === 0 || i === p.calls - 1) {
      yield { batch_id: `demo-${p.anchorMs}-${String(n++).padStart(4, '0')}`, cdrs: batch };
      batch = [];
    }
  }
}

const iso = (ms: number) => new Date(ms).toISOString();
