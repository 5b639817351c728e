import type { FastifyRequest } from 'fastify';
import { isLanguage, pickLanguage, type Language } from '@tandem/contract';
import type { AppConfig } from './config';
import type { Db } from './db/connection';
import { AuditLog } from './modules/logs/audit';
import { AuthService } from './modules/auth/service';
import { Mailer } from './mail/mailer';
import { SettingsService } from './modules/config/settings';
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
  i18n: { languageOf(req: FastifyRequest): Language };
}

export function buildServices(config: AppConfig, db: Db, dbKind: 'pglite' | 'postgres', log: Logger): Services {
  const settings = new SettingsService(db);
  const services = {
    config,
    db,
    dbKind,
    log,
    startedAt: new Date(),
    settings,
    audit: new AuditLog(),
    mailer: new Mailer(db, config, log),
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
