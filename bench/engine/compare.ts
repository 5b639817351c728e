/**
 * Engine A/B: the routing benchmark of the working tree against the same benchmark over another
 * revision's `packages/domain`, run alternately in fresh processes.
 *
 *   npx tsx bench/engine/compare.ts [REV] [--rounds N] [--scenario sdf|us]
 *     REV: the revision to compare with (default HEAD); --rounds: pairs of runs (default 5);
 *     --scenario: sdf (default, about 10 s a run) or us (the 700,000-code deck, about a minute).
 *
 * Why this and not two engines in one process: in one process the first snapshot built gets the
 * better heap and caches (the same code against itself measured a ratio of 1.26), and this
 * machine's speed drifts by a factor of two between minutes. So each run is a fresh process, the
 * two versions take turns, and the verdict is the median of each side over several pairs, with
 * each pair's ratio shown so drift is visible.
 *
 * How: `git archive` extracts REV's packages/domain/src into a temporary folder. esbuild bundles
 * bench/engine/routing.bench.ts twice, with `@tandem/domain` aliased once to that copy and once
 * to the working tree's. Each bundle then runs with `--quick` and BENCH_ONLY set to the scenario.
 * Prints one line per run and a JSON summary.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const args = process.argv.slice(2);
const option = (name: string, fallback: string): string => {
  const at = args.indexOf(name);
  return at >= 0 ? (args[at + 1] ?? fallback) : fallback;
};
const rev = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? 'HEAD';
const rounds = Number(option('--rounds', '5'));
const scenario = option('--scenario', 'sdf');
if (!['sdf', 'us'].includes(scenario) || !Number.isInteger(rounds) || rounds < 1) {
  console.error('usage: compare.ts [REV] [--rounds N] [--scenario sdf|us]');
  process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'tandem-engine-ab-'));
const DATA_DIR = process.env.TANDEM_DATA_DIR ?? join(ROOT, '..', 'shared', 'data') + '/';

async function bundle(name: string, domainSrc: string): Promise<string> {
  const out = join(work, `${name}.mjs`);
  await build({
    entryPoints: [join(ROOT, 'bench/engine/routing.bench.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: out,
    logLevel: 'warning',
    alias: { '@tandem/domain': join(domainSrc, 'index.ts') },
  });
  return out;
}

interface Run {
  decisions: number;
  chase: number | null;
}

function runOnce(file: string): Run {
  const text = execFileSync(process.execPath, [file, '--quick'], {
    env: { ...process.env, BENCH_ONLY: scenario, TANDEM_DATA_DIR: DATA_DIR },
    encoding: 'utf8',
    maxBuffer: 16 * 2 ** 20,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const report = JSON.parse(text.slice(text.indexOf('{'))) as {
    scenarios: Record<
      string,
      { decisions_per_sec: { cpu: number }; baseline_memory_chase_per_sec?: { cpu: number } } | null
    >;
  };
  const s = report.scenarios[scenario === 'us' ? 'us_700k' : 'sdf'];
  if (!s) throw new Error(`no ${scenario} scenario in the report`);
  return { decisions: s.decisions_per_sec.cpu, chase: s.baseline_memory_chase_per_sec?.cpu ?? null };
}

const median = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? 0;

async function main(): Promise<void> {
  const baseSrc = join(work, 'base');
  mkdirSync(baseSrc);
  const archive = execFileSync('git', ['-C', ROOT, 'archive', rev, 'packages/domain/src']);
  execFileSync('tar', ['-x', '-C', baseSrc], { input: archive });
  const base = await bundle('base', join(baseSrc, 'packages/domain/src'));
  const tree = await bundle('tree', join(ROOT, 'packages/domain/src'));
  const runs = { base: [] as number[], tree: [] as number[] };
  /** Decisions per memory-chase step of the same run: steadier when the machine's memory slows down. */
  const perChase = { base: [] as number[], tree: [] as number[] };
  const pairRatios: number[] = [];
  for (let r = 1; r <= rounds; r++) {
    // Alternate which side goes first, so a drift within a pair does not always favour one side.
    const order = r % 2 === 1 ? (['base', 'tree'] as const) : (['tree', 'base'] as const);
    const pair: Record<string, number> = {};
    for (const side of order) {
      const run = runOnce(side === 'base' ? base : tree);
      pair[side] = run.decisions;
      runs[side].push(run.decisions);
      if (run.chase) perChase[side].push(run.decisions / run.chase);
      console.log(
        `round ${r} ${side.padEnd(4)} ${String(run.decisions).padStart(8)} decisions/s` +
          (run.chase === null ? '' : `  (memory chase ${run.chase} steps/s)`),
      );
    }
    pairRatios.push(Math.round(((pair.tree ?? 0) / (pair.base ?? 1)) * 1000) / 1000);
  }
  const baseMedian = median(runs.base);
  const treeMedian = median(runs.tree);
  console.log(
    JSON.stringify(
      {
        benchmark: 'routing-engine-compare',
        scenario,
        base: rev,
        rounds,
        base_median: baseMedian,
        tree_median: treeMedian,
        tree_to_base: Math.round((treeMedian / baseMedian) * 1000) / 1000,
        tree_to_base_per_chase:
          perChase.base.length && perChase.tree.length
            ? Math.round((median(perChase.tree) / median(perChase.base)) * 1000) / 1000
            : null,
        base_runs: runs.base,
        tree_runs: runs.tree,
        pair_ratios: pairRatios,
      },
      null,
      2,
    ),
  );
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => rmSync(work, { recursive: true, force: true }));
