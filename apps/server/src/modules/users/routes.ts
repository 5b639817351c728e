import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { likeContains, pageOf } from '../../db/paging';
import { actorOf } from '../../http/context';
import { forbidden, notFound } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { countUsers, toUserRow, userRowQuery } from './repository';
import { canTouchUser, createUser, deleteUser, patchUser, sessionUserOf, setUserActive } from './service';

const SORTABLE = {
  user_id: 'u.user_id',
  name: 'u.name',
  email: 'u.email',
  user_type: 'u.user_type',
  role_name: 'r.role_name',
  last_login: 'u.last_login_at',
  created_at: 'u.created_at',
  active: 'u.active',
};

export function registerUsers(app: FastifyInstance, s: Services): void {
  implement(app, s, api.user.hasUser, async () => ({ has_user: (await countUsers(s.db)) > 0 }));

  implement(app, s, api.user.getSessionUser, async (ctx) => {
    const actor = actorOf(ctx);
    return sessionUserOf(s, actor, await s.auth.cdrTokenOf(ctx.req, actor));
  });

  implement(app, s, api.user.getUser, async (ctx) => {
    if (!canTouchUser(actorOf(ctx), ctx.params.id, 'read')) throw forbidden();
    const u = await s.db
      .selectFrom('users')
      .select([
        'user_id',
        'name',
        'first_name',
        'last_name',
        'email',
        'avatar_id',
        'landing_page',
        'is_show_daily_usage',
        'is_daily_balance_notification',
        'zero_balance_notice',
        'totp_enabled',
      ])
      .where('user_id', '=', ctx.params.id)
      .executeTakeFirst();
    if (!u) throw notFound();
    return u;
  });

  implement(app, s, api.user.patchOwnUser, async (ctx) => {
    const actor = actorOf(ctx);
    await patchUser(s, actor, actor.user.user_id, ctx.body);
    return null;
  });
  implement(app, s, api.user.patchUser, async (ctx) => {
    await patchUser(s, actorOf(ctx), ctx.params.id, ctx.body);
    return null;
  });

  implement(app, s, api.user.listUsers, async (ctx) => {
    const q = ctx.query;
    let qb = userRowQuery(s.db);
    if (q.name)
      qb = qb.where((eb) =>
        eb.or([eb('u.name', 'ilike', likeContains(q.name!)), eb('u.email', 'ilike', likeContains(q.name!))]),
      );
    if (q.user_type) qb = qb.where('u.user_type', '=', q.user_type);
    if (q.role_id !== undefined)
      qb = q.role_id === 0 ? qb.where('u.role_id', 'is', null) : qb.where('u.role_id', '=', q.role_id);
    if (q.active !== undefined) qb = qb.where('u.active', '=', q.active);
    if (q.client_id !== undefined) qb = qb.where('u.client_id', '=', q.client_id);
    const page = await pageOf(qb, q, SORTABLE, 'name', 'u.user_id');
    return { items: page.items.map(toUserRow), total: page.total };
  });

  implement(app, s, api.user.getUserRow, async (ctx) => {
    const r = await userRowQuery(s.db).where('u.user_id', '=', ctx.params.id).executeTakeFirst();
    if (!r) throw notFound();
    return toUserRow(r);
  });

  implement(app, s, api.user.createUser, async (ctx) => ({
    object_id: await createUser(s, ctx.actor, ctx.body),
  }));
  implement(app, s, api.user.deleteUser, async (ctx) => {
    await deleteUser(s, actorOf(ctx), ctx.params.id);
    return null;
  });
  implement(app, s, api.user.activateUser, async (ctx) => {
    await setUserActive(s, actorOf(ctx), ctx.params.id, true);
    return null;
  });
  implement(app, s, api.user.deactivateUser, async (ctx) => {
    await setUserActive(s, actorOf(ctx), ctx.params.id, false);
    return null;
  });
}
