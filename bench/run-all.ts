/**
 * `npm run bench`: every benchmark of the hot paths, one after another (they must not compete for the
 * two cores). Each prints JSON with its own same-run baseline; docs/performance.md records them.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const here = import.meta.dirname;
const benches = fs
  .readdirSync(here, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.bench.ts'))
  .sort();
let failed = 0;
for (const b of benches) {
  console.log(`\n=== ${b}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, b)], {
    stdio: 'inherit',
    env: process.env,
  });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
