/**
 * GET /api/user throughput (token check, role grants, carrier and agent look-ups) against the same
 * server's GET /api/health (no database) measured in the same run: the ratio shows what the session
 * path costs on this machine, whatever else the machine is doing. Runs on PGlite, and on PostgreSQL
 * when DATABASE_URL is set. The load comes from a second process.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import { storedSetupCode } from '../../apps/server/src/modules/users/setup-code';

const here = import.meta.dirname;
const COUNT = Number(process.env.BENCH_COUNT ?? 20000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);

async function run(label: string, databaseUrl: string | null) {
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: databaseUrl ?? '',
    DATA_DIR: path.join(os.tmpdir(), `tandem-bench-${randomBytes(4).toString('hex')}`),
    PASSWORD_COST: '10',
    LOG_LEVEL: 'error',
    WEB_DIST: '/nonexistent',
  });
  const built = await buildApp(config, { logger: false });
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (built.app.server.address() as { port: number }).port;
  const base = `http://127.0.0.1:${port}/api`;
  const post = (p: string, body: unknown) =>
    fetch(base + p, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((r) => r.json() as Promise<{ payload: { token: string } }>);
  await post('/user/create', {
    name: 'bench',
    email: 'bench@example.com',
    passwd: 'Bench#2026',
    setup_code: (await storedSetupCode(built.services.db)) ?? '',
  });
  const { payload } = await post('/auth', { email_or_name: 'bench', password: 'Bench#2026' });
  // The generator runs in a child process; the server keeps its own event loop free.
  const load = async (url: string, token?: string) => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        path.join(here, 'load.ts'),
        url,
        String(COUNT),
        String(SECONDS),
        String(CONNECTIONS),
        ...(token ? [token] : []),
      ],
      { encoding: 'utf8' },
    );
    return JSON.parse(stdout) as {
      requests: number;
      rps: number;
      p50_ms: number;
      p99_ms: number;
      failed: number;
    };
  };
  await load(`${base}/health`); // warm-up
  const baseline = await load(`${base}/health`);
  const user = await load(`${base}/user`, payload.token);
  await built.close();
  return { database: label, baseline_health: baseline, get_user: user, ratio: user.rps / baseline.rps };
}

const results = [await run('pglite', null)];
if (process.env.DATABASE_URL) {
  const name = `tandem_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const u = new URL(process.env.DATABASE_URL);
  u.pathname = '/' + name;
  try {
    results.push(await run('postgresql', u.toString()));
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}
console.log(
  JSON.stringify(
    {
      machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, node: process.version },
      connections: CONNECTIONS,
      results,
    },
    null,
    2,
  ),
);
