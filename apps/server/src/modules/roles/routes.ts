import { allows, api, FUNCTION_PERMISSIONS, MENU_MODULES } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/connection';
import { likeContains, pageOf } from '../../db/paging';
import { actorOf, enrolmentPending, type Actor } from '../../http/context';
import { duplicate, forbidden, invalidField, notFound, ruleBroken } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';

type RoleWrite = z.output<typeof api.role.roleWrite>;
const KNOWN_FUNCS = new Set([
  ...MENU_MODULES.flatMap((m) => m.items.map((i) => i.web_url)),
  ...FUNCTION_PERMISSIONS.map((f) => f.func_name),
]);
const KNOWN_GROUPS = new Set(MENU_MODULES.map((m) => m.id));

async function roleDetail(db: Db, roleId: number) {
  const role = await db
    .selectFrom('roles')
    .select(['role_id', 'role_name', 'require_2fa'])
    .where('role_id', '=', roleId)
    .executeTakeFirst();
  if (!role) throw notFound();
  const [privs, groups, menus, usage] = await Promise.all([
    db
      .selectFrom('role_privileges')
      .select(['func_name', 'readable', 'writable', 'executable'])
      .where('role_id', '=', roleId)
      .orderBy('func_name')
      .execute(),
    db
      .selectFrom('main_menu as m')
      .leftJoin('role_group_privileges as g', (j) =>
        j.onRef('g.group_id', '=', 'm.id').on('g.role_id', '=', roleId),
      )
      .select(['m.id', 'm.group_name as name', sql<boolean>`coalesce(g.readable, false)`.as('readable')])
      .orderBy('m.ordering')
      .execute(),
    db.selectFrom('sys_submenu').select(['id', 'web_url']).orderBy('id').execute(),
    db
      .selectFrom('users')
      .select(sql<number>`count(*)`.as('n'))
      .where('role_id', '=', roleId)
      .executeTakeFirstOrThrow(),
  ]);
  const byFunc = new Map(privs.map((p) => [p.func_name, p]));
  return {
    role_id: role.role_id,
    role_name: role.role_name,
    require_2fa: role.require_2fa,
    usage_count: Number(usage.n),
    group_privilegies: groups.map((g) => ({ id: g.id, name: g.name, readable: Boolean(g.readable) })),
    role_ui_privilegies: menus.map((m) => ({
      submenu_id: m.id,
      web_url: m.web_url,
      readable: Boolean(byFunc.get(m.web_url)?.readable),
      writable: Boolean(byFunc.get(m.web_url)?.writable),
    })),
    role_privilegies: privs,
  };
}

function validateWrite(input: RoleWrite): void {
  input.role_privilegies.forEach((p, i) => {
    if (!KNOWN_FUNCS.has(p.func_name))
      throw invalidField(`role_privilegies.${i}.func_name`, 'invalidValue', [p.func_name]);
  });
  input.group_privilegies.forEach((g, i) => {
    if (!KNOWN_GROUPS.has(g.id))
      throw invalidField(`group_privilegies.${i}.id`, 'invalidValue', [String(g.id)]);
  });
}

async function writePrivileges(trx: Db, roleId: number, input: RoleWrite) {
  await trx.deleteFrom('role_privileges').where('role_id', '=', roleId).execute();
  await trx.deleteFrom('role_group_privileges').where('role_id', '=', roleId).execute();
  const privs = input.role_privilegies.filter((p) => p.readable || p.writable || p.executable);
  if (privs.length)
    await trx
      .insertInto('role_privileges')
      .values(privs.map((p) => ({ role_id: roleId, ...p })))
      .execute();
  if (input.group_privilegies.length)
    await trx
      .insertInto('role_group_privileges')
      .values(input.group_privilegies.map((g) => ({ role_id: roleId, group_id: g.id, readable: g.readable })))
      .execute();
}

async function nameTaken(db: Db, name: string, exceptId?: number) {
  let q = db
    .selectFrom('roles')
    .select('role_id')
    .where(sql<string>`lower(role_name)`, '=', name.toLowerCase());
  if (exceptId) q = q.where('role_id', '!=', exceptId);
  return Boolean(await q.executeTakeFirst());
}

/** The own role always (the frame reads it); any role with roles read, once two-factor enrolment is done. */
function canReadRole(actor: Actor, roleId: number): boolean {
  return (
    actor.user.role_id === roleId ||
    (actor.type === 'admin' && !enrolmentPending(actor) && allows(actor.grants, api.role.ROLES_FUNC, 'read'))
  );
}

export function registerRoles(app: FastifyInstance, s: Services): void {
  implement(app, s, api.role.getRole, async (ctx) => {
    if (!canReadRole(actorOf(ctx), ctx.params.id)) throw forbidden();
    return roleDetail(s.db, ctx.params.id);
  });

  implement(app, s, api.role.listRoles, async (ctx) => {
    let qb = s.db
      .selectFrom('roles as r')
      .select([
        'r.role_id',
        'r.role_name',
        'r.require_2fa',
        'r.updated_at',
        sql<number>`(select count(*) from users u where u.role_id = r.role_id)`.as('usage_count'),
      ]);
    if (ctx.query.role_name) qb = qb.where('r.role_name', 'ilike', likeContains(ctx.query.role_name));
    const page = await pageOf(
      qb,
      ctx.query,
      {
        role_name: 'r.role_name',
        role_id: 'r.role_id',
        require_2fa: 'r.require_2fa',
        updated_at: 'r.updated_at',
        usage_count: 'usage_count',
      },
      'role_name',
      'r.role_id',
    );
    return {
      items: page.items.map((r) => ({
        ...r,
        usage_count: Number(r.usage_count),
        updated_at: r.updated_at.toISOString(),
      })),
      total: page.total,
    };
  });

  implement(app, s, api.role.createRole, async (ctx) => {
    validateWrite(ctx.body);
    const id = await s.db.transaction().execute(async (trx) => {
      if (await nameTaken(trx, ctx.body.role_name)) throw duplicate('role_name', 'Role', ctx.body.role_name);
      const r = await trx
        .insertInto('roles')
        .values({
          role_name: ctx.body.role_name,
          require_2fa: ctx.body.require_2fa,
          updated_at: new Date(),
        })
        .returning('role_id')
        .executeTakeFirstOrThrow();
      await writePrivileges(trx, r.role_id, ctx.body);
      await s.audit.record(trx, actorOf(ctx), 'role', r.role_id, 'create', null, ctx.body);
      return r.role_id;
    });
    return { object_id: id };
  });

  implement(app, s, api.role.updateRole, async (ctx) => {
    validateWrite(ctx.body);
    await s.db.transaction().execute(async (trx) => {
      const before = await roleDetail(trx, ctx.params.id);
      if (await nameTaken(trx, ctx.body.role_name, ctx.params.id))
        throw duplicate('role_name', 'Role', ctx.body.role_name);
      await trx
        .updateTable('roles')
        .set({ role_name: ctx.body.role_name, require_2fa: ctx.body.require_2fa, updated_at: new Date() })
        .where('role_id', '=', ctx.params.id)
        .execute();
      await writePrivileges(trx, ctx.params.id, ctx.body);
      await s.audit.record(
        trx,
        actorOf(ctx),
        'role',
        ctx.params.id,
        'update',
        {
          role_name: before.role_name,
          require_2fa: before.require_2fa,
          group_privilegies: before.group_privilegies,
          role_privilegies: before.role_privilegies,
        },
        ctx.body,
      );
    });
    s.auth.grants.invalidate(ctx.params.id);
    return null;
  });

  implement(app, s, api.role.deleteRole, async (ctx) => {
    await s.db.transaction().execute(async (trx) => {
      const before = await roleDetail(trx, ctx.params.id);
      if (before.usage_count > 0) throw ruleBroken('roleInUse', [before.usage_count]);
      await trx.deleteFrom('roles').where('role_id', '=', ctx.params.id).execute();
      await s.audit.record(trx, actorOf(ctx), 'role', ctx.params.id, 'delete', before, null);
    });
    s.auth.grants.invalidate(ctx.params.id);
    return null;
  });
}
