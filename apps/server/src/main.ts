import { buildApp } from './app';
import { loadConfig } from './config';

const config = loadConfig();
const built = await buildApp(config);
await built.app.listen({ port: config.port, host: config.host });
const where = config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`;
console.log(
  `\n  Tandem is running on ${where}.\n  Open http://localhost:${config.port}/ (API docs: http://localhost:${config.port}/api/docs)\n`,
);
if (built.setupCode)
  console.log(
    `  No user exists yet. Create the first admin at ${config.publicUrl}/#/setup\n  with this one-time setup code: ${built.setupCode}\n`,
  );

const stop = async () => {
  await built.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
