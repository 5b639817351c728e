import type { FastifyInstance } from 'fastify';
import type { Services } from '../../services';
import { registerRateDownload } from './download';
import { registerDeliveryLog } from './log';
import { registerRateSend } from './send';
import { registerRateEmailTemplates } from './templates';

/**
 * Sending rate decks: rate e-mail templates, send rate (background job, one delivery per recipient),
 * reminders, the rate delivery log and the public download link.
 */
export function registerRateDelivery(app: FastifyInstance, s: Services): void {
  registerRateEmailTemplates(app, s);
  registerRateSend(app, s);
  registerDeliveryLog(app, s);
  registerRateDownload(app, s);
}
