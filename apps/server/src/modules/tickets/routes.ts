import { api, type Ticket } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/connection';
import { pageOf } from '../../db/paging';
import { actorOf, type Actor } from '../../http/context';
import { notFound, ruleBroken } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';

const OPEN_STATUSES = ['open', 'waiting', 'in_progress', 'reopened'] as const;

function ticketQuery(db: Db, actor: Actor) {
  let qb = db
    .selectFrom('tickets as t')
    .leftJoin('carriers as c', 'c.client_id', 't.client_id')
    .select([
      't.id',
      't.client_id',
      'c.company',
      't.username',
      't.department',
      't.subject',
      't.content',
      't.url',
      't.type',
      't.ticket_status',
      't.created_on',
      't.modified_on',
    ]);
  // Tenancy: a carrier sees its own tickets, an agent its own.
  if (actor.type === 'client' || actor.type === 'vendor')
    qb = qb.where('t.client_id', '=', actor.clientId ?? -1);
  if (actor.type === 'agent') qb = qb.where('t.agent_id', '=', actor.agentId ?? -1);
  return qb;
}
type Row = Awaited<ReturnType<ReturnType<typeof ticketQuery>['execute']>>[number];
const toTicket = (r: Row): Ticket => ({
  ...r,
  company: r.company ?? null,
  created_on: r.created_on.toISOString(),
  modified_on: r.modified_on.toISOString(),
});

async function visibleTicket(s: Services, actor: Actor, id: number): Promise<Row> {
  const r = await ticketQuery(s.db, actor).where('t.id', '=', id).executeTakeFirst();
  if (!r) throw notFound();
  return r;
}

export function registerTickets(app: FastifyInstance, s: Services): void {
  implement(app, s, api.ticket.createTicket, async (ctx) => {
    const actor = actorOf(ctx);
    const row = await s.db.transaction().execute(async (trx) => {
      const r = await trx
        .insertInto('tickets')
        .values({
          ...ctx.body,
          client_id: actor.clientId,
          agent_id: actor.agentId,
          user_id: actor.user.user_id,
          username: actor.user.name,
          modified_on: new Date(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await s.audit.record(trx, actor, 'ticket', r.id, 'create', null, r);
      return r;
    });
    return { object_id: row.id };
  });

  implement(app, s, api.ticket.sendTicket, async (ctx) => {
    const actor = actorOf(ctx);
    const t = await visibleTicket(s, actor, ctx.params.id);
    if (t.ticket_status !== 'open' && t.ticket_status !== 'reopened')
      throw ruleBroken('invalidValue', ['ticket_status']);
    await s.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('tickets')
        .set({ ticket_status: 'waiting', modified_on: new Date() })
        .where('id', '=', t.id)
        .execute();
      await s.audit.record(
        trx,
        actor,
        'ticket',
        t.id,
        'send',
        { ticket_status: t.ticket_status },
        { ticket_status: 'waiting' },
      );
    });
    return null;
  });

  implement(app, s, api.ticket.getTicket, async (ctx) =>
    toTicket(await visibleTicket(s, actorOf(ctx), ctx.params.id)),
  );

  implement(app, s, api.ticket.setTicketStatus, async (ctx) => {
    const actor = actorOf(ctx);
    const t = await visibleTicket(s, actor, ctx.params.id);
    await s.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('tickets')
        .set({ ticket_status: ctx.body.ticket_status, modified_on: new Date() })
        .where('id', '=', t.id)
        .execute();
      await s.audit.record(
        trx,
        actor,
        'ticket',
        t.id,
        'status',
        { ticket_status: t.ticket_status },
        ctx.body,
      );
    });
    return null;
  });

  implement(app, s, api.ticket.listTickets, async (ctx) => {
    let qb = ticketQuery(s.db, actorOf(ctx));
    if (ctx.query.ticket_status) qb = qb.where('t.ticket_status', '=', ctx.query.ticket_status);
    if (ctx.query.only_opened === 'true') qb = qb.where('t.ticket_status', 'in', OPEN_STATUSES);
    const page = await pageOf(
      qb,
      ctx.query,
      {
        id: 't.id',
        created_on: 't.created_on',
        modified_on: 't.modified_on',
        subject: 't.subject',
        ticket_status: 't.ticket_status',
      },
      'id',
      't.id',
    );
    return { items: page.items.map(toTicket), total: page.total };
  });
}
