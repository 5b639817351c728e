/**
 * The stall benchmark's JSON document (stall.bench.ts's stdout) as the Markdown table of
 * docs/performance.md:
 *   npx tsx bench/stall/stall.bench.ts > stall.json && npx tsx bench/stall/table.ts < stall.json
 */
import fs from 'node:fs';

interface Phase {
  phase: string;
  seconds: number;
  route: { rps: number; p99_ms: number };
  health: { p99_ms: number };
  probe_cpu: number;
  route_rate_vs_baseline: number;
  worst_wait_ms: number;
  server_loop_delay_max_ms: number | null;
  server_busy: number | null;
}
interface Result {
  database: string;
  import: { rows: number };
  cdr?: { ingest?: { cdrs: number }; export?: { rows: number }; rerate?: { cdrs: number } };
  snapshot: { rates: number };
  phases: Phase[];
}

const doc = JSON.parse(fs.readFileSync(0, 'utf8')) as { results: Result[] };
const n = (v: number | undefined) => (v ?? 0).toLocaleString('en-US');
const ms = (v: number) => `${Math.round(v * 10) / 10} ms`;
const label = (r: Result, phase: string): string =>
  ({
    baseline: 'baseline',
    import: `${n(r.import.rows)}-row import (+snap)`,
    snapshot: `full snapshot load (${Math.round(r.snapshot.rates / 1000)} k)`,
    'cdr-ingest': `CDR ingest, ${n(r.cdr?.ingest?.cdrs)}`,
    export: `CDR export, ${n(r.cdr?.export?.rows)}`,
    rerate: `rerate of ${n(r.cdr?.rerate?.cdrs)} CDRs`,
  })[phase] ?? phase;

const rows = [
  [
    'database',
    'phase',
    'seconds',
    'route calls/s (vs baseline)',
    'route p99',
    'health p99',
    'worst wait',
    'server',
    'busy',
    'probe',
  ],
];
for (const r of doc.results)
  for (const p of r.phases.filter((x) => x.phase !== 'between' && x.seconds > 0))
    rows.push([
      r.database === 'pglite' ? 'PGlite' : 'PostgreSQL',
      label(r, p.phase),
      String(Math.round(p.seconds * 10) / 10),
      `${n(Math.round(p.route.rps))} (${p.route_rate_vs_baseline.toFixed(2)})`,
      ms(p.route.p99_ms),
      ms(p.health.p99_ms),
      ms(p.worst_wait_ms),
      p.server_loop_delay_max_ms === null ? '' : String(Math.round(p.server_loop_delay_max_ms * 10) / 10),
      p.server_busy === null ? '' : p.server_busy.toFixed(2),
      p.probe_cpu.toFixed(2),
    ]);
const width = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
const line = (r: string[]) =>
  `| ${r.map((c, i) => (i < 2 ? c.padEnd(width[i]!) : c.padStart(width[i]!))).join(' | ')} |`;
console.log(line(rows[0]!));
console.log(`| ${width.map((w, i) => (i < 2 ? '-'.repeat(w) : '-'.repeat(w - 1) + ':')).join(' | ')} |`);
for (const r of rows.slice(1)) console.log(line(r));
