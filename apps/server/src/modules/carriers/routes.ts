import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { likeContains, pageOf } from '../../db/paging';
import { actorOf } from '../../http/context';
import { implementCrud } from '../../http/crud';
import { notFound, ruleBroken } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { carrierTable } from './carrier-table';
import { exportCarriers } from './export';
import { productTable } from './products';
import { carrierTemplateTable } from './templates';
import { checkWizardStep, runWizard } from './wizard';

/** Carriers (issue 3): clients and vendors, credit, registration approvals, export, products, carrier templates, the termination wizard. */
export function registerCarriers(app: FastifyInstance, s: Services): void {
  implementCrud(app, s, api.carriers.carrier, carrierTable(s));
  implementCrud(app, s, api.carriers.product, productTable(s));
  implementCrud(app, s, api.carriers.carrierTemplate, carrierTemplateTable);

  implement(app, s, api.carriers.exportCarriers, (ctx) => exportCarriers(s, ctx));

  implement(app, s, api.carriers.creditList, async (ctx) => {
    const q = ctx.query;
    let qb = s.db
      .selectFrom('carriers as c')
      .select([
        'c.client_id',
        'c.name',
        'c.client_type',
        'c.is_active',
        'c.mode',
        'c.currency',
        'c.balance',
        'c.credit_limit',
        'c.allowed_credit',
        'c.test_credit',
        'c.unlimited_credit',
      ])
      // The admission rule of @tandem/domain (creditAllows), shown as the amount still available.
      .select(
        sql<string>`(c.balance + case when c.mode = 'prepaid' then c.allowed_credit + c.test_credit else c.credit_limit end)::text`.as(
          'available',
        ),
      );
    if (q.name) qb = qb.where('c.name', 'ilike', likeContains(q.name));
    if (q.client_type) qb = qb.where('c.client_type', '=', q.client_type);
    if (q.mode) qb = qb.where('c.mode', '=', q.mode);
    return pageOf(
      qb,
      q,
      {
        name: 'c.name',
        balance: 'c.balance',
        credit_limit: 'c.credit_limit',
        available: 'available',
        client_type: 'c.client_type',
      },
      'name',
      'c.client_id',
    );
  });

  implement(app, s, api.carriers.updateCredit, async (ctx) => {
    await s.db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('carriers')
        .select(['credit_limit', 'allowed_credit', 'test_credit', 'unlimited_credit'])
        .where('client_id', '=', ctx.params.id)
        .forUpdate()
        .executeTakeFirst();
      if (!before) throw notFound();
      if (Object.keys(ctx.body).length)
        await trx
          .updateTable('carriers')
          .set({ ...ctx.body, updated_at: new Date() })
          .where('client_id', '=', ctx.params.id)
          .execute();
      const changed = Object.fromEntries(
        Object.keys(ctx.body).map((k) => [k, before[k as keyof typeof before]]),
      );
      await s.audit.record(trx, actorOf(ctx), 'carrier', ctx.params.id, 'credit', changed, ctx.body);
    });
    s.configChanged.notify();
    return null;
  });

  const registrations = () =>
    s.db
      .selectFrom('carriers as c')
      .leftJoin('agents as a', 'a.agent_id', 'c.agent_id')
      .leftJoin('users as u', (j) =>
        j
          .onRef('u.client_id', '=', 'c.client_id')
          .on('u.user_type', '=', 'client')
          .on(sql<boolean>`u.user_id = (select min(x.user_id) from users x where x.client_id = c.client_id)`),
      )
      .select([
        'c.client_id',
        'c.name',
        'c.company',
        'c.client_type',
        'c.company_type',
        'c.main_email',
        'c.registration_status',
        'c.created_at',
        'a.agent_name',
        'u.name as login_name',
      ])
      .select([
        sql<string>`coalesce(u.first_name, '')`.as('first_name'),
        sql<string>`coalesce(u.last_name, '')`.as('last_name'),
        sql<string>`coalesce(u.email, '')`.as('user_email'),
      ]);
  const detailOf = (r: Record<string, unknown>) =>
    ({ ...r, created_at: (r.created_at as Date).toISOString() }) as never;

  implement(app, s, api.carriers.listRegistrations, async (ctx) => {
    const q = ctx.query;
    let qb = registrations().where('c.registration_status', '=', q.status);
    if (q.company_type) qb = qb.where('c.company_type', '=', q.company_type);
    if (q.client_type) qb = qb.where('c.client_type', '=', q.client_type);
    const page = await pageOf(
      qb,
      q,
      { created_at: 'c.created_at', name: 'c.name', company: 'c.company' },
      'created_at',
      'c.client_id',
    );
    return { items: page.items.map(detailOf), total: page.total };
  });
  implement(app, s, api.carriers.getRegistration, async (ctx) => {
    const r = await registrations().where('c.client_id', '=', ctx.params.id).executeTakeFirst();
    if (!r) throw notFound();
    return detailOf(r);
  });

  const decide =
    (approve: boolean) => async (ctx: { params: { id: number } } & Parameters<typeof actorOf>[0]) => {
      await s.db.transaction().execute(async (trx) => {
        const c = await trx
          .selectFrom('carriers')
          .select(['registration_status', 'is_active'])
          .where('client_id', '=', ctx.params.id)
          .forUpdate()
          .executeTakeFirst();
        if (!c) throw notFound();
        if (c.registration_status !== 'pending') throw ruleBroken('registrationNotPending');
        const status = approve ? 'approved' : 'rejected';
        await trx
          .updateTable('carriers')
          .set({ registration_status: status, is_active: approve, updated_at: new Date() })
          .where('client_id', '=', ctx.params.id)
          .execute();
        await trx
          .updateTable('users')
          .set({ active: approve, updated_at: new Date() })
          .where('client_id', '=', ctx.params.id)
          .execute();
        await s.audit.record(trx, actorOf(ctx), 'carrier', ctx.params.id, approve ? 'approve' : 'reject', c, {
          registration_status: status,
          is_active: approve,
        });
      });
      s.configChanged.notify();
      return null;
    };
  implement(app, s, api.carriers.approveRegistration, decide(true));
  implement(app, s, api.carriers.rejectRegistration, decide(false));

  implement(app, s, api.carriers.runWizard, (ctx) => runWizard(s, ctx));
  implement(app, s, api.carriers.checkWizardStep, async (ctx) => {
    await checkWizardStep(s, ctx as never);
    return null;
  });
}
