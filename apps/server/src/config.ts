import path from 'node:path';
import type { GcHelpers } from './gc-helpers';

const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

/** Process configuration from the environment (README "Configuration"). */
export interface AppConfig {
  port: number;
  host: string;
  /** Where PGlite keeps its files and uploads live when DATABASE_URL is unset. */
  dataDir: string;
  databaseUrl: string | null;
  /** Public base URL for links in e-mails; defaults to http://localhost:PORT. */
  publicUrl: string;
  smtp: { host: string; port: number; secure: boolean; user: string; pass: string; from: string } | null;
  logLevel: string;
  /** ACCESS_LOG=true: one compact line per request (method, URL, status, time); off by default. */
  accessLog: boolean;
  /** scrypt cost (log2 N); lower only in tests. */
  passwordCost: number;
  /** Trust X-Forwarded-For (TRUST_PROXY=true only behind a reverse proxy that sets it). */
  trustProxy: boolean;
  /** Serve the built web app from this folder when it exists. */
  webDist: string;
  /** Background jobs of this process (docs/jobs.md). */
  jobs: { pollMs: number; concurrency: number };
  /** Where export files are written (EXPORT_DIR, default DATA_DIR/exports). */
  exportDir: string;
  /** The one-time setup code for the first admin (SETUP_CODE); null: a random one is made and printed. */
  setupCode: string | null;
  /** GC_HELPERS: helper threads in the collector's pauses (auto: off on two cores or fewer; gc-helpers.ts). */
  gcHelpers: GcHelpers;
  /** SUMMARY_FOLD_MS: how soon after a CDR batch the traffic summaries fold it (0: never in the background). */
  summaryFoldMs: number;
}

/** A whole number from the environment, or the default when unset; a bad value stops the start. */
function intEnv(env: NodeJS.ProcessEnv, name: string, def: number, min: number): number {
  const raw = env[name]?.trim();
  if (!raw) return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`${name} must be a whole number >= ${min}, got ${raw}`);
  return n;
}

function gcHelpersEnv(raw: string | undefined): GcHelpers {
  const v = raw?.trim() || 'auto';
  if (v !== 'auto' && v !== 'on' && v !== 'off')
    throw new Error(`GC_HELPERS must be auto, on or off, got ${v}`);
  return v;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const port = Number(env.PORT ?? 8080);
  const dataDir = path.resolve(REPO_ROOT, env.DATA_DIR ?? 'data');
  const smtpHost = env.SMTP_HOST?.trim();
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    // Relative to the repository root, whichever folder the process was started from.
    dataDir,
    databaseUrl: env.DATABASE_URL?.trim() || null,
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${port}`,
    smtp: smtpHost
      ? {
          host: smtpHost,
          port: Number(env.SMTP_PORT ?? 587),
          secure: env.SMTP_SECURE === 'true',
          user: env.SMTP_USER ?? '',
          pass: env.SMTP_PASS ?? '',
          from: env.SMTP_FROM ?? 'tandem@localhost',
        }
      : null,
    logLevel: env.LOG_LEVEL ?? 'info',
    accessLog: env.ACCESS_LOG === 'true',
    trustProxy: env.TRUST_PROXY === 'true',
    passwordCost: Number(env.PASSWORD_COST ?? 15),
    setupCode: env.SETUP_CODE?.trim() || null,
    webDist: path.resolve(env.WEB_DIST ?? path.join(import.meta.dirname, '../../web/dist')),
    jobs: {
      pollMs: intEnv(env, 'JOBS_POLL_MS', 1000, 10),
      concurrency: intEnv(env, 'JOBS_CONCURRENCY', 2, 0),
    },
    gcHelpers: gcHelpersEnv(env.GC_HELPERS),
    summaryFoldMs: intEnv(env, 'SUMMARY_FOLD_MS', 100, 0),
    exportDir: env.EXPORT_DIR?.trim()
      ? path.resolve(REPO_ROOT, env.EXPORT_DIR.trim())
      : path.join(dataDir, 'exports'),
  };
}
