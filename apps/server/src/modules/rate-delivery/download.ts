import { api, ErrorCode } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { AppError } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { hashToken } from '../auth/tokens';
import { shownInstant } from '../rates/rate-query';

/**
 * The delivery behind a download token: unknown tokens are refused (150 'not valid'), tokens past
 * the send's deadline too (170 'expired on ...'). Only the token's SHA-256 hash is stored.
 */
async function deliveryOf(s: Services, token: string) {
  const row = await s.db
    .selectFrom('rate_delivery_tokens as k')
    .innerJoin('rate_deliveries as d', 'd.id', 'k.delivery_id')
    .innerJoin('rate_sends as x', 'x.id', 'd.send_id')
    .innerJoin('rate_send_files as f', 'f.send_id', 'x.id')
    .select([
      'd.id',
      'd.carrier_name',
      'd.email',
      'd.downloaded_at',
      'x.rate_table_name',
      'x.file_name',
      'x.file_format',
      'x.download_deadline',
      'f.size_bytes',
      'f.mime',
    ])
    .where('k.token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row) throw new AppError(ErrorCode.notFound, 'rateLinkInvalid', [], 404);
  if (row.download_deadline.getTime() <= Date.now())
    throw new AppError(ErrorCode.rule, 'rateLinkExpired', [shownInstant(row.download_deadline)], 410);
  return row;
}

/** The public /download/rate/{token} link: what it offers, and the file (each download is recorded). */
export function registerRateDownload(app: FastifyInstance, s: Services): void {
  implement(app, s, api.rateDelivery.downloadInfo, async (ctx) => {
    const d = await deliveryOf(s, ctx.params.token);
    return {
      rate_table_name: d.rate_table_name,
      carrier_name: d.carrier_name || d.email,
      file_name: d.file_name,
      file_format: d.file_format,
      size_bytes: d.size_bytes,
      download_deadline: d.download_deadline.toISOString(),
      downloaded_at: d.downloaded_at ? d.downloaded_at.toISOString() : null,
      operating_company: (await s.settings.system()).operating_company,
    };
  });

  implement(app, s, api.rateDelivery.downloadFile, async (ctx) => {
    const d = await deliveryOf(s, ctx.params.token);
    const file = await s.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('rate_deliveries')
        .set({
          status: 'downloaded',
          downloaded_at: sql<Date>`coalesce(downloaded_at, now())`,
          download_ip: ctx.ip,
          download_count: sql<number>`download_count + 1`,
        })
        .where('id', '=', Number(d.id))
        .execute();
      return trx
        .selectFrom('rate_send_files as f')
        .innerJoin('rate_deliveries as d', 'd.send_id', 'f.send_id')
        .select(['f.data', 'f.mime'])
        .where('d.id', '=', Number(d.id))
        .executeTakeFirstOrThrow();
    });
    ctx.reply
      .header('content-type', file.mime)
      .header('content-disposition', `attachment; filename="${d.file_name}"`)
      .header('cache-control', 'no-store')
      .send(Buffer.from(file.data));
    return null;
  });
}
