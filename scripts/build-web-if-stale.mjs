// Builds the web app only when its sources changed since the last build (`npm start` on a restart
// reuses apps/web/dist instead of spending ~20 s rebuilding it). The fingerprint covers the web app's
// sources and config, the workspace packages it bundles (contract, domain) and the lock file; it is
// written to apps/web/dist/.sources-hash after a successful build. FORCE_WEB_BUILD=1 always builds.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const INPUTS = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'apps/web/tsconfig.json',
  'packages/contract/src',
  'packages/domain/src',
  'package-lock.json',
  'scripts/compress-dist.mjs',
];
const stamp = path.join(root, 'apps/web/dist/.sources-hash');

function files(p) {
  const abs = path.join(root, p);
  if (!fs.existsSync(abs)) return [];
  if (fs.statSync(abs).isFile()) return [p];
  return fs
    .readdirSync(abs, { withFileTypes: true })
    .flatMap((e) => files(path.join(p, e.name)))
    .sort();
}

export function sourcesHash() {
  const h = createHash('sha256');
  for (const f of INPUTS.flatMap(files)) {
    h.update(f);
    h.update('\0');
    h.update(fs.readFileSync(path.join(root, f)));
    h.update('\0');
  }
  return h.digest('hex');
}

const hash = sourcesHash();
const built = fs.existsSync(stamp) ? fs.readFileSync(stamp, 'utf8').trim() : '';
if (
  built === hash &&
  process.env.FORCE_WEB_BUILD !== '1' &&
  fs.existsSync(path.join(root, 'apps/web/dist/index.html'))
) {
  console.log('web: the build in apps/web/dist matches the sources; reusing it');
} else {
  const r = spawnSync('npm', ['run', 'build', '-w', '@tandem/web'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
  fs.writeFileSync(stamp, hash + '\n');
}
