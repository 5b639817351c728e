import { api, toCsv } from '@tandem/contract';
import type { z } from 'zod';
import { actorOf, type Ctx } from '../../http/context';
import { invalidField } from '../../http/errors';
import type { Services } from '../../services';
import { carrierRowOf, carrierSelect, carrierTable } from './carrier-table';

type Query = z.output<NonNullable<typeof api.carriers.exportCarriers.query>>;
type Column = (typeof api.carriers.EXPORT_COLUMNS)[number];

/** Termination > Clients Export: the matching carriers as a CSV file, logged in the export log. */
export async function exportCarriers(s: Services, ctx: Ctx<unknown, Query, unknown>): Promise<void> {
  const q = ctx.query;
  const all = api.carriers.EXPORT_COLUMNS as readonly string[];
  const columns = (
    q.columns
      ? q.columns
          .split(',')
          .map((c) => c.trim())
          .filter(Boolean)
      : [...all]
  ) as Column[];
  const bad = columns.find((c) => !all.includes(c));
  if (bad) throw invalidField('columns', 'mustBeOneOf', ['columns', all.join(', ')]);
  const t = carrierTable(s);
  const qb = t.filter!(carrierSelect(s.db), { ...q, page: 0, per_page: 1, order_dir: 'asc' } as never);
  const rows = (await qb.orderBy('c.name').orderBy('c.client_id').execute()).map((r) =>
    carrierRowOf(r as Record<string, unknown>),
  );
  const fileName = `${q.client_type === 'vendor' ? 'vendors' : q.client_type === 'client' ? 'clients' : 'carriers'}-${new Date().toISOString().slice(0, 10)}.csv`;
  const actor = actorOf(ctx);
  await s.db
    .insertInto('export_log')
    .values({
      user_id: actor.user.user_id,
      user_name: actor.user.name,
      client_id: null,
      entity: 'carrier',
      file_name: fileName,
    })
    .execute();
  ctx.reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .send(
      '\uFEFF' +
        toCsv(
          columns,
          rows.map((r) => columns.map((c) => r[c])),
        ),
    );
}
