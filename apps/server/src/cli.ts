import { parseArgs, type ParseArgsConfig } from 'node:util';
import {
  CliError,
  createAdminCommand,
  describeDatabase,
  IMPORT_BATCH_DEFAULT,
  importCdrsCommand,
  migrateCommand,
  openDatabaseOrExplain,
  openTandem,
  resetPasswordCommand,
  seedDemoCommand,
  validateSeedDemo,
  validateCreateAdmin,
  validateImportCdrs,
  validateResetPassword,
  type Tandem,
} from './cli-commands';
import { loadConfig } from './config';
import { DEMO_TRAFFIC_CALLS } from './modules/cdr/demo-traffic';

/**
 * Operator CLI: `npm run tandem -- <command> [options]`. Parses arguments and runs one command of
 * cli-commands.ts against the database the environment names (DATABASE_URL, else PGlite in DATA_DIR).
 * Exit codes: 0 done, 1 the command failed, 2 wrong usage.
 */

const USAGE = `Usage: npm run tandem -- <command> [options]

Commands:
  migrate                                          apply pending migrations and the reference data
  create-admin --name N --email E --password P     create an unrestricted admin (password 8-15 characters)
  reset-password --name N --password P [--clear-2fa]
                                                   set a user's password and end all their sessions;
                                                   --clear-2fa also turns two-factor sign-in off
  seed-demo [--calls N]                            create the demo users and data, and a month of demo
                                                   traffic (default ${DEMO_TRAFFIC_CALLS.toLocaleString('en-US')} calls, about 200,000
                                                   attempts; safe to run again)
  import-cdrs FILE [--batch-size N]                bill the CDRs of a CSV or JSON Lines file (back-fill; default
                                                   batches of ${IMPORT_BATCH_DEFAULT}); running it again bills nothing twice
  help                                             show this text

The database is PostgreSQL when DATABASE_URL is set, else PGlite under DATA_DIR (default apps/server/data,
where \`npm start\` keeps it).
With PGlite, stop the server first: one process at a time may open DATA_DIR.`;

type Options = NonNullable<ParseArgsConfig['options']>;
const str = { type: 'string' } as const;
const COMMANDS: Record<string, Options> = {
  migrate: {},
  'create-admin': { name: str, email: str, password: str },
  'reset-password': { name: str, password: str, 'clear-2fa': { type: 'boolean' } },
  'seed-demo': { calls: str },
  'import-cdrs': { 'batch-size': str },
};

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  const options = COMMANDS[command];
  if (!options) throw new CliError(`Unknown command "${command}".\n\n${USAGE}`, 2);

  let values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: rest,
      options,
      strict: true,
      allowPositionals: command === 'import-cdrs',
    }));
    if (positionals.length > 1) throw new Error(`one file at a time (got ${positionals.length})`);
  } catch (e) {
    throw new CliError(`${e instanceof Error ? e.message : String(e)}\n\n${USAGE}`, 2);
  }
  const opt = (k: string) => (typeof values[k] === 'string' ? values[k] : undefined);
  // Check the options before touching the database.
  const createArgs =
    command === 'create-admin'
      ? validateCreateAdmin({ name: opt('name'), email: opt('email'), password: opt('password') })
      : null;
  const importArgs =
    command === 'import-cdrs'
      ? validateImportCdrs({ file: positionals[0], batchSize: opt('batch-size') })
      : null;
  const seedArgs = command === 'seed-demo' ? validateSeedDemo({ calls: opt('calls') }) : null;
  const resetArgs =
    command === 'reset-password'
      ? validateResetPassword({
          name: opt('name'),
          password: opt('password'),
          clear2fa: values['clear-2fa'] === true,
        })
      : null;

  // DATA_DIR defaults to data/ at the repository root, the folder `npm start` uses too.
  const config = loadConfig();
  console.log(`Database: ${describeDatabase(config)}`);

  if (command === 'migrate') {
    const database = await openDatabaseOrExplain(config);
    try {
      await migrateCommand(database.db, console.log);
    } finally {
      await database.close();
    }
    return 0;
  }

  const tandem: Tandem = await openTandem(config);
  try {
    for (const name of tandem.applied) console.log(`applied ${name}`);
    const s = tandem.services;
    if (createArgs) {
      await createAdminCommand(s, createArgs, console.log);
    } else if (resetArgs) {
      await resetPasswordCommand(s, resetArgs, console.log);
    } else if (importArgs) {
      await importCdrsCommand(s, importArgs, console.log);
    } else {
      await seedDemoCommand(s, console.log, seedArgs ?? {});
    }
  } finally {
    await tandem.close();
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    if (e instanceof CliError) {
      console.error(`tandem: ${e.message}`);
      process.exitCode = e.exitCode;
    } else {
      console.error('tandem: failed:', e instanceof Error ? (e.stack ?? e.message) : e);
      process.exitCode = 1;
    }
  },
);
