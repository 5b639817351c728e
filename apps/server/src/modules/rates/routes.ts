import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services';
import { registerCodeDecks } from './code-decks';
import { registerRateImport } from './import-routes';
import { registerJurisdiction } from './jurisdiction';
import { registerRateRows } from './rate-rows';
import { registerRateTables } from './rate-tables';
import { registerRateTools } from './rate-tools';
import { registerRateTemplates } from './templates';

/**
 * rates (issue 3): code decks, rate tables, rate rows, rate import (background job, one transaction),
 * export, mass edit, rate upload templates, auto rate import rules, US jurisdiction.
 */
export function registerRates(app: FastifyInstance, s: Services): void {
  registerCodeDecks(app, s);
  registerRateTables(app, s);
  registerRateRows(app, s);
  registerRateImport(app, s);
  registerRateTools(app, s);
  registerRateTemplates(app, s);
  registerJurisdiction(app, s);
}
