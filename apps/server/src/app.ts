import fs from 'node:fs';
import path from 'node:path';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ErrorCode, errorEnvelope, message, UPLOAD_MAX_FILES, UPLOAD_MAX_MB } from '@tandem/contract';
import Fastify, { type FastifyInstance, type FastifyReply, LogController } from 'fastify';
import type { Logger } from 'pino';
import type { AppConfig } from './config';
import { tuneCollector } from './gc-helpers';
import { openDatabase, type DatabaseHandle } from './db/connection';
import { migrateToLatest } from './db/migrate';
import { seedReferenceData } from './db/seed';
import { installErrorHandling } from './http/register';
import { registerModules } from './modules';
import { ensureSetupCode } from './modules/users/setup-code';
import { buildOpenApi } from './openapi';
import { buildServices, type Services } from './services';

export interface BuiltApp {
  app: FastifyInstance;
  services: Services;
  database: DatabaseHandle;
  /** The one-time setup code while no user exists (printed at start), else null. */
  setupCode: string | null;
  close(): Promise<void>;
}

/**
 * Builds the whole server (not listening): database opened and migrated, reference data seeded,
 * every module's routes registered, OpenAPI at /api/docs, the web app served when built.
 * Tests call this in-process.
 */
export async function buildApp(
  config: AppConfig,
  opts: {
    memoryDb?: boolean;
    logger?: boolean;
    pgliteDataDir?: Blob;
    /** Where log lines go (default standard output). */
    logStream?: { write(line: string): void };
  } = {},
): Promise<BuiltApp> {
  tuneCollector(config.gcHelpers);
  const database = await openDatabase(config, { memory: opts.memoryDb, loadDataDir: opts.pgliteDataDir });
  await migrateToLatest(database.db);
  await seedReferenceData(database.db);

  const app = Fastify({
    logger:
      opts.logger === false
        ? false
        : { level: config.logLevel, ...(opts.logStream ? { stream: opts.logStream } : {}) },
    // Fastify's two lines per request (12,000 lines in 35 minutes of one person browsing) are off:
    // ACCESS_LOG=true gives one compact line per request instead (onResponse hook below); warnings
    // and errors are logged whatever the setting (docs/operations.md "Logs").
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 10 * 1024 * 1024,
    // Only behind a reverse proxy may X-Forwarded-For name the client (sign-in throttling and allowed IPs use it).
    trustProxy: config.trustProxy,
    ajv: { customOptions: { coerceTypes: false } },
    // A malformed or overlong URL component is answered with the envelope like any bad input.
    frameworkErrors: (_err, req, reply) => {
      void (reply as FastifyReply)
        .status(400)
        .send(
          errorEnvelope(
            ErrorCode.validation,
            message('invalidValue', services.i18n.languageOf(req), ['URL']),
          ),
        );
    },
  });
  const services = buildServices(config, database.db, database.kind, app.log as unknown as Logger);
  installErrorHandling(app, services);
  await app.register(multipart, {
    limits: { fileSize: UPLOAD_MAX_MB * 1024 * 1024, files: UPLOAD_MAX_FILES },
  });

  if (config.accessLog)
    app.addHook('onResponse', async (req, reply) => {
      req.log.info(
        { method: req.method, url: req.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
        'request',
      );
    });
  registerModules(app, services);
  // Every kind is defined by now; the runner starts with the server and stops before the database closes.
  app.addHook('onReady', async () => services.jobs.start());
  app.addHook('onClose', async () => services.jobs.stop());

  // An unclaimed instance: the first admin needs the one-time code printed here (docs/security.md).
  const setupCode = await ensureSetupCode(database.db, config.setupCode);
  if (setupCode)
    app.log.warn(
      `No user exists yet. Create the first admin at /#/setup with this one-time setup code: ${setupCode}`,
    );

  await app.register(swagger, { mode: 'static', specification: { document: buildOpenApi() as never } });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  if (fs.existsSync(path.join(config.webDist, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      prefix: '/',
      wildcard: false,
      preCompressed: true,
    });
  }

  return {
    app,
    services,
    setupCode,
    database,
    async close() {
      await app.close();
      await database.close();
    },
  };
}
