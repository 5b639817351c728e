import type { FastifyRequest } from 'fastify';
import { isLanguage, pickLanguage, type Language } from '@tandem/contract';
import type { AppConfig } from './config';
import type { Db } from './db/connection';
import { AuditLog } from './modules/logs/audit';
import { AuthService } from './modules/auth/service';
import { Mailer } from './mail/mailer';
import { SecretBox } from './mail/secret-box';
import { SettingsService } from './modules/config/settings';
import { Exports } from './jobs/exports';
import { Jobs } from './jobs/queue';
import { DEFAULT_LEASE_MS } from './jobs/runner';
import { SwitchKeyRing } from './modules/routing/switch-keys';
import type { Logger } from 'pino';

/** Everything handlers need, built once per app. */
export interface Services {
  config: AppConfig;
  db: Db;
  dbKind: 'pglite' | 'postgres';
  log: Logger;
  startedAt: Date;
  settings: SettingsService;
  auth: AuthService;
  audit: AuditLog;
  mailer: Mailer;
  /** Secrets given back to third parties (SMTP passwords, payment keys), sealed with the server secret. */
  secrets: SecretBox;
  i18n: { languageOf(req: FastifyRequest): Language };
  /**
   * Routing and rating configuration changed (carriers, trunks, rates, routes...): every write of that
   * configuration calls it after commit; the routing engine rebuilds its snapshot in the background.
   */
  configChanged: ConfigChanged;
  /** Switch API keys the route API accepts (access kind 'switch'). */
  switchKeys: SwitchKeyRing;
  /** Durable background jobs: define, enqueue, every, kill, rerun (docs/jobs.md). */
  jobs: Jobs;
  /** CSV exports written by a job, owned by who started them (docs/jobs.md "Exports"). */
  exports: Exports;
}

/** A tiny signal: writers call notify(), the routing engine subscribes. */
export class ConfigChanged {
  private listeners: (() => void)[] = [];
  notify(): void {
    for (const l of this.listeners) l();
  }
  subscribe(l: () => void): () => void {
    this.listeners.push(l);
    return () => (this.listeners = this.listeners.filter((x) => x !== l));
  }
}

export function buildServices(
  config: AppConfig,
  db: Db,
  dbKind: 'pglite' | 'postgres',
  log: Logger,
): Services {
  const settings = new SettingsService(db);
  const secrets = new SecretBox(() => settings.secret());
  const jobs = new Jobs(db, log, { ...config.jobs, leaseMs: DEFAULT_LEASE_MS });
  const services = {
    config,
    db,
    dbKind,
    log,
    startedAt: new Date(),
    settings,
    audit: new AuditLog(),
    mailer: new Mailer(db, config, log, secrets),
    secrets,
    configChanged: new ConfigChanged(),
    switchKeys: new SwitchKeyRing(db),
    jobs,
    exports: new Exports(db, jobs, config.exportDir),
    i18n: {
      languageOf(req: FastifyRequest): Language {
        const explicit = req.headers['x-lang'];
        if (typeof explicit === 'string' && isLanguage(explicit)) return explicit;
        return pickLanguage(req.headers['accept-language']);
      },
    },
  } as Omit<Services, 'auth'> as Services;
  services.auth = new AuthService(services);
  return services;
}
