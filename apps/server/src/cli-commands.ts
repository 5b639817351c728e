import { clearTwoFactor } from './modules/auth/two-factor';
import fs from 'node:fs';
import { api, message, MESSAGE_KEYS, portalPassword, singleEmail, type MessageKey } from '@tandem/contract';
import { sql } from 'kysely';
import pino from 'pino';
import type { z } from 'zod';
import type { AppConfig } from './config';
import { openDatabase, type DatabaseHandle, type Db } from './db/connection';
import { seedDemoData, type DemoCredential } from './db/demo-seed';
import { seedDemoMonitoring } from './modules/monitoring/demo';
import { migrateToLatest } from './db/migrate';
import { seedReferenceData } from './db/seed';
import { buildServices, type Services } from './services';
import { nameTaken } from './modules/users/repository';
import { cdrFileBatches, cdrFileKind, checkCdrFile, CdrFileError } from './modules/cdr/cdr-file';
import type { BulkTotals } from './modules/cdr/ingest';
import { openStandaloneIngest } from './modules/cdr/standalone';
import { seedDemoTraffic } from './modules/cdr/demo-traffic';
import { seedDemoCommission } from './modules/agents/commission';
import { DEMO } from './db/demo';
import { seedDemoBilling } from './modules/billing/demo';
import { seedDemoDids } from './modules/did/demo';
import { formatMoney } from '@tandem/domain';

/**
 * The operator commands of `npm run tandem -- <command>`. Each works on the same services as the API
 * (same password hashing, same modification log); `cli.ts` only parses arguments and calls these.
 */

/** A failure with a message meant for the operator (no stack trace); exit code 1. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** Where commands print; the CLI passes console.log, tests collect lines. */
export type Out = (line: string) => void;

export interface Tandem {
  services: Services;
  database: DatabaseHandle;
  /** Migrations applied while opening (empty when the database was up to date). */
  applied: string[];
  close(): Promise<void>;
}

/** Where the configuration points: PostgreSQL (without the password) or PGlite's folder. */
export function describeDatabase(config: Pick<AppConfig, 'databaseUrl' | 'dataDir'>): string {
  if (!config.databaseUrl) return `PGlite in ${config.dataDir}`;
  try {
    const u = new URL(config.databaseUrl);
    return `PostgreSQL ${u.hostname}${u.port ? ':' + u.port : ''}${u.pathname}`;
  } catch {
    return 'PostgreSQL (DATABASE_URL)';
  }
}

/**
 * Opens the database as the server does: migrations applied, reference data seeded, services built.
 * `memory` opens an empty in-memory PGlite (tests).
 */
export async function openTandem(config: AppConfig, opts: { memory?: boolean } = {}): Promise<Tandem> {
  const database = await openDatabaseOrExplain(config, opts);
  try {
    const applied = await migrate(database.db);
    const log = pino({ level: config.logLevel === 'info' ? 'warn' : config.logLevel }, pino.destination(2));
    const services = buildServices(config, database.db, database.kind, log);
    return { services, database, applied, close: () => database.close() };
  } catch (e) {
    await database.close().catch(() => undefined);
    throw e;
  }
}

export async function openDatabaseOrExplain(
  config: AppConfig,
  opts: { memory?: boolean } = {},
): Promise<DatabaseHandle> {
  try {
    const database = await openDatabase(config, opts);
    // PostgreSQL connects lazily: make a failure to connect show up here, with a clear message.
    await sql`select 1`.execute(database.db);
    return database;
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new CliError(`Cannot open the database (${describeDatabase(config)}): ${why}`);
  }
}

/** Applies pending migrations and the reference data (menu catalogue); returns the applied names. */
export async function migrate(db: Db): Promise<string[]> {
  const applied = await migrateToLatest(db);
  await seedReferenceData(db);
  return applied;
}

/** `tandem migrate`: prints each migration it applied, or that the database is up to date. */
export async function migrateCommand(db: Db, out: Out): Promise<string[]> {
  const applied = await migrate(db);
  if (applied.length === 0) out('The database is up to date; no migration applied.');
  for (const name of applied) out(`applied ${name}`);
  out('Reference data (menu catalogue) is in place.');
  return applied;
}

export interface CreateAdminArgs {
  name: string;
  email: string;
  password: string;
}

/** `tandem create-admin`: an unrestricted admin (no role). The first user ever is also server admin. */
export function validateCreateAdmin(args: Partial<CreateAdminArgs>): CreateAdminArgs {
  return {
    name: check('--name', api.user.userNameField, args.name, NAME_HINT),
    email: check('--email', singleEmail, args.email),
    password: check('--password', portalPassword, args.password),
  };
}

export async function createAdminCommand(s: Services, args: CreateAdminArgs, out: Out): Promise<number> {
  const { name, email, password } = validateCreateAdmin(args);
  const hash = await s.auth.hash(password);
  const userId = await s.db.transaction().execute(async (trx) => {
    if (await nameTaken(trx, name))
      throw new CliError(`A user named "${name}" already exists (names are case-insensitive).`);
    const first = !(await trx.selectFrom('users').select('user_id').limit(1).executeTakeFirst());
    const row = await trx
      .insertInto('users')
      .values({
        name,
        password_hash: hash,
        email,
        user_type: 'admin',
        role_id: null,
        client_id: null,
        agent_id: null,
        is_server_admin: first,
        landing_page: null,
        updated_at: new Date(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await s.audit.record(trx, null, 'user', row.user_id, 'create admin (cli)', null, row);
    return row.user_id;
  });
  out(`Created admin "${name}" (user id ${userId}) with unrestricted access.`);
  return userId;
}

export interface ResetPasswordArgs {
  name: string;
  password: string;
  /** Also turn the user's two-factor sign-in off (lost authenticator). */
  clear2fa?: boolean;
}

/** `tandem reset-password`: sets a new password and revokes every session of the user. */
export function validateResetPassword(args: Partial<ResetPasswordArgs>): ResetPasswordArgs {
  return {
    name: check('--name', api.user.userNameField, args.name, NAME_HINT),
    password: check('--password', portalPassword, args.password),
    clear2fa: args.clear2fa === true,
  };
}

export async function resetPasswordCommand(s: Services, args: ResetPasswordArgs, out: Out): Promise<number> {
  const { name, password, clear2fa } = validateResetPassword(args);
  const hash = await s.auth.hash(password);
  const { userId, revoked, roleRequires } = await s.db.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom('users as u')
      .leftJoin('roles as r', 'r.role_id', 'u.role_id')
      .select(['u.user_id', 'u.name', 'r.require_2fa'])
      .where(sql<string>`lower(u.name)`, '=', name.toLowerCase())
      .executeTakeFirst();
    if (!user) throw new CliError(`No user named "${name}".`);
    await trx
      .updateTable('users')
      .set({ password_hash: hash, updated_at: new Date() })
      .where('user_id', '=', user.user_id)
      .execute();
    if (clear2fa) await clearTwoFactor(trx, user.user_id);
    const r = await trx
      .updateTable('sessions')
      .set({ revoked_at: new Date(), revoked_reason: 'password reset by operator' })
      .where('user_id', '=', user.user_id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    await s.audit.record(
      trx,
      null,
      'user',
      user.user_id,
      'reset password (cli)',
      { passwd: '***' },
      { passwd: '***' },
    );
    return {
      userId: user.user_id,
      revoked: Number(r.numUpdatedRows),
      roleRequires: Boolean(user.require_2fa),
    };
  });
  // A role that requires two-factor sign-in sends the user to set it up again at the next sign-in.
  const cleared = !clear2fa
    ? ''
    : roleRequires
      ? ", two-factor sign-in turned off (the user's role requires it: set it up again after signing in)"
      : ', two-factor sign-in turned off';
  out(`Password of "${name}" changed${cleared}; ${revoked} open session(s) revoked.`);
  return userId;
}

export interface SeedDemoArgs {
  /** Calls of demo traffic (default DEMO_TRAFFIC_CALLS). */
  calls?: number;
}

/** `tandem seed-demo --calls N`: checks the option before the database is opened. */
export function validateSeedDemo(args: { calls?: string }): SeedDemoArgs {
  if (args.calls === undefined) return {};
  const n = Number(args.calls);
  if (!/^\d+$/.test(args.calls) || n < 1 || n > 2_000_000)
    throw new CliError('--calls: a whole number from 1 to 2000000', 2);
  return { calls: n };
}

/** `tandem seed-demo`: the demo data (idempotent), then a table of every demo credential. */
export async function seedDemoCommand(
  s: Services,
  out: Out,
  args: SeedDemoArgs = {},
): Promise<DemoCredential[]> {
  const report = await seedDemoData(s);
  // A month of calls between the demo carriers, through the real ingest (after the data committed).
  const traffic = await seedDemoTraffic(s, {
    calls: args.calls,
    onBatch: (done, planned) => out(`  demo traffic: batch ${done}/${planned}`),
  });
  if (traffic.stored > 0) report.created.cdr = traffic.stored;
  const monitoringRules = await seedDemoMonitoring(s);
  if (monitoringRules > 0) report.created.monitoring_rule = monitoringRules;
  // The demo agent's closed commission periods of that month, as the hourly commission job computes them.
  const commission = await seedDemoCommission(s.db, DEMO.agent.agent_name, new Date());
  if (commission > 0) report.created.commission_period = commission;
  // The DID business: vendor, numbers, client and a month of inbound calls (modules/did/demo.ts).
  const dids = await seedDemoDids(s);
  Object.assign(report.created, dids.created);
  if (dids.credential)
    report.credentials.push({ role: 'DID client', email: 'did-client@example.com', ...dids.credential });
  // Finance (issue 12): invoices of the demo month's ended weeks, some paid, through the real paths
  // (after the DID traffic, so the DID carriers' weeks are invoiced on the first run, not the second).
  const billing = await seedDemoBilling(s);
  if (billing.invoices > 0) report.created.invoice = (report.created.invoice ?? 0) + billing.invoices;
  if (billing.payments > 0) report.created.payment = billing.payments;
  if (billing.extra_charges > 0) report.created.extra_charge = billing.extra_charges;
  const created = Object.entries(report.created);
  out(
    created.length
      ? `Demo data created: ${created.map(([entity, n]) => `${entity} ${n}`).join(', ')}.`
      : 'Demo data already complete; nothing created.',
  );
  out('');
  for (const line of credentialTable(report.credentials)) out(line);
  out('');
  out(`Sign in at ${s.config.publicUrl}/`);
  if (report.credentials.some((c) => c.status === 'exists, password changed')) {
    out('Some demo users have another password now; use `tandem reset-password` to restore it.');
  }
  return report.credentials;
}

export interface ImportCdrsArgs {
  file: string;
  batchSize: number;
}

export const IMPORT_BATCH_DEFAULT = 5_000;

/** `tandem import-cdrs`: checks the arguments before the database is opened. */
export function validateImportCdrs(args: { file?: string; batchSize?: string }): ImportCdrsArgs {
  if (!args.file) throw new CliError('a CSV or JSON Lines file is required', 2);
  if (cdrFileKind(args.file) === null)
    throw new CliError(`${args.file}: the file must end in .csv, .jsonl or .ndjson`, 2);
  let batchSize = IMPORT_BATCH_DEFAULT;
  if (args.batchSize !== undefined) {
    batchSize = Number(args.batchSize);
    if (!/^\d+$/.test(args.batchSize) || batchSize < 1 || batchSize > api.cdr.CDR_BATCH_MAX)
      throw new CliError(`--batch-size must be a whole number from 1 to ${api.cdr.CDR_BATCH_MAX}`, 2);
  }
  return { file: args.file, batchSize };
}

/**
 * `tandem import-cdrs FILE`: a back-fill of CDRs from a CSV or JSON Lines file through the same
 * ingest as POST /api/switch/cdr (ingestMany), in batches. The whole file is checked first (a bad
 * CDR stops the import before anything is stored, naming its line and field); then each batch is
 * stored and billed in its own transaction, with a progress line per batch and a summary. Batch
 * ids derive from the file's content, so running it again (after a stop, or by mistake) bills
 * nothing twice and resumes where it stopped.
 */
export async function importCdrsCommand(s: Services, args: ImportCdrsArgs, out: Out): Promise<BulkTotals> {
  const { file, batchSize } = validateImportCdrs({ file: args.file, batchSize: String(args.batchSize) });
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new CliError(`${file}: no such file`);
  const kind = cdrFileKind(file)!;
  let total: number;
  try {
    total = await checkCdrFile(file, kind);
  } catch (e) {
    if (e instanceof CdrFileError)
      throw new CliError(`${file} was not imported (nothing stored):\n  ${e.problems.join('\n  ')}`);
    throw e;
  }
  out(`${file}: ${total} CDRs, batches of ${batchSize}.`);
  const standalone = await openStandaloneIngest(s);
  const started = performance.now();
  try {
    const t = await standalone.ingest.ingestMany(cdrFileBatches(file, kind, batchSize), 'file', (r, t) => {
      const pct = ((t.received / total) * 100).toFixed(1);
      out(
        `  ${String(t.received).padStart(String(total).length)}/${total} (${pct}%) batch ${r.batch_id}: ` +
          (r.duplicate
            ? 'imported before, skipped'
            : `stored ${r.stored}, duplicates ${r.duplicates}, unpriced ${r.unpriced}`),
      );
    });
    const seconds = (performance.now() - started) / 1000;
    out(
      `Done in ${seconds.toFixed(1)} s: ${t.received} CDRs in ${batches(t.batches)}; stored ${t.stored}, ` +
        `duplicates ${t.duplicates}${t.skipped_batches ? ` (${batches(t.skipped_batches)} imported before)` : ''}, ` +
        `unpriced ${t.unpriced}; revenue ${formatMoney(t.revenue, 6)}, cost ${formatMoney(t.cost, 6)}.`,
    );
    return t;
  } finally {
    await standalone.close();
  }
}

const batches = (n: number) => `${n} batch${n === 1 ? '' : 'es'}`;

export function credentialTable(rows: DemoCredential[]): string[] {
  const header = ['Role', 'User name', 'Password', 'E-mail', 'Status'];
  const cells = rows.map((r) => [r.role, r.name, r.password, r.email, r.status]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (c: string[]) =>
    c
      .map((v, i) => v.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)];
}

const NAME_HINT = 'letters, digits and . _ @ - only, at most 64 characters';

/** Validates one option with the contract's field schema; the message comes from the catalogue. */
function check<T extends z.ZodType>(
  option: string,
  schema: T,
  value: string | undefined,
  hint?: string,
): z.output<T> {
  if (value === undefined || value === '') throw new CliError(`${option} is required`, 2);
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const key = r.error.issues[0]?.message ?? 'invalidValue';
  let text = (MESSAGE_KEYS as string[]).includes(key) ? message(key as MessageKey, 'en', [option]) : key;
  if (!text.includes(option)) text = `${option}: ${text}`;
  throw new CliError(hint ? `${text} (${hint})` : text);
}
