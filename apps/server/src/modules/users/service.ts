import { dropSetupCode, setupCodeMatches } from './setup-code';
import {
  allows,
  api,
  ErrorCode,
  permissionKeyForPath,
  HOME_BY_TYPE,
  type SessionUser,
} from '@tandem/contract';
import type { z } from 'zod';
import type { Db } from '../../db/connection';
import type { UserRecord } from '../../db/schema';
import type { Actor } from '../../http/context';
import { AppError, duplicate, forbidden, invalidField, notFound, ruleBroken } from '../../http/errors';
import type { Services } from '../../services';
import { countUsers, lockUserCreation, nameTaken } from './repository';

type CreateInput = z.output<typeof api.user.userCreate>;
type AdminPatch = z.output<typeof api.user.userAdminPatch>;

const FIRST_ADMIN_ID = 1;

/** The session view of a user (GET /user). */
export async function sessionUserOf(
  s: Services,
  actor: Actor,
  cdr: { token: string; expiration: string },
): Promise<SessionUser> {
  const u = actor.user;
  // One round trip for the carrier, agent and role of the session.
  const x = await s.db
    .selectFrom('users as u')
    .leftJoin('carriers as c', 'c.client_id', 'u.client_id')
    .leftJoin('agents as a', 'a.agent_id', 'u.agent_id')
    .leftJoin('roles as r', 'r.role_id', 'u.role_id')
    .select([
      'c.client_id',
      'c.name as carrier_name',
      'c.client_type',
      'c.company_type',
      'c.is_panel_accountsummary',
      'c.is_panel_paymenthistory',
      'c.is_panel_invoices',
      'c.is_panel_balance',
      'c.is_panel_onlinepayment',
      'c.is_panel_trunks',
      'c.enable_trunk_view',
      'c.is_panel_didrequest',
      'c.is_panel_mydid',
      'c.is_panel_products',
      'c.is_panel_cdrslist',
      'c.is_panel_summaryreport',
      'c.is_panel_block_list',
      'c.ticket_menu',
      'a.agent_id',
      'a.agent_name',
      'a.referral_key',
      'r.role_name',
    ])
    .where('u.user_id', '=', u.user_id)
    .executeTakeFirstOrThrow();
  const carrier =
    x.client_id !== null && x.client_type && x.company_type
      ? {
          ...x,
          client_id: x.client_id,
          name: x.carrier_name ?? '',
          client_type: x.client_type,
          company_type: x.company_type,
        }
      : undefined;
  const agent =
    x.agent_id !== null
      ? { agent_id: x.agent_id, agent_name: x.agent_name ?? '', referral_key: x.referral_key ?? '' }
      : undefined;
  const role = x.role_name !== null ? { role_name: x.role_name } : undefined;
  return {
    user_id: u.user_id,
    name: u.name,
    first_name: u.first_name,
    last_name: u.last_name,
    email: u.email,
    user_type: actor.type,
    company_type: carrier?.company_type ?? null,
    client: carrier
      ? {
          client_id: carrier.client_id,
          name: carrier.name,
          client_type: carrier.client_type,
          company_type: carrier.company_type,
          is_panel_accountsummary: Boolean(carrier.is_panel_accountsummary),
          is_panel_paymenthistory: Boolean(carrier.is_panel_paymenthistory),
          is_panel_invoices: Boolean(carrier.is_panel_invoices),
          is_panel_balance: Boolean(carrier.is_panel_balance),
          is_panel_onlinepayment: Boolean(carrier.is_panel_onlinepayment),
          is_panel_trunks: Boolean(carrier.is_panel_trunks),
          enable_trunk_view: Boolean(carrier.enable_trunk_view),
          is_panel_didrequest: Boolean(carrier.is_panel_didrequest),
          is_panel_mydid: Boolean(carrier.is_panel_mydid),
          is_panel_products: Boolean(carrier.is_panel_products),
          is_panel_cdrslist: Boolean(carrier.is_panel_cdrslist),
          is_panel_summaryreport: Boolean(carrier.is_panel_summaryreport),
          is_panel_block_list: Boolean(carrier.is_panel_block_list),
          ticket_menu: carrier.ticket_menu ?? 'true',
        }
      : null,
    client_id: u.client_id,
    agent: agent ? { agent_id: agent.agent_id, agent_name: agent.agent_name } : null,
    referal_key: agent?.referral_key ?? null,
    landing_page: u.landing_page,
    avatar_id: u.avatar_id,
    role_id: u.role_id ?? 0,
    role_name: role?.role_name ?? null,
    is_server_admin: u.is_server_admin || u.user_id === FIRST_ADMIN_ID,
    language: u.language,
    cdr_api_token: cdr.token,
    cdr_api_token_expiration: cdr.expiration,
    totp_enabled: u.totp_enabled,
    two_factor_required: actor.twoFactorRequired,
  };
}

/** Whether `actor` may read or write user `id`: itself always, others with the users permission. */
export function canTouchUser(actor: Actor, id: number, level: 'read' | 'write'): boolean {
  if (actor.user.user_id === id) return true;
  return actor.type === 'admin' && allows(actor.grants, api.user.USERS_FUNC, level);
}

/** The landing page must be a page the user's role may read (spec 01 section 6). */
async function checkLandingPage(
  s: Services,
  db: Db,
  landing: string | null | undefined,
  roleId: number | null | undefined,
  userType: string,
): Promise<void> {
  if (!landing) return;
  if (!landing.startsWith('/')) throw invalidField('landing_page', 'invalidValue', ['landing_page']);
  if (userType !== 'admin') return;
  const func = permissionKeyForPath(landing);
  if (!func && landing !== HOME_BY_TYPE.admin)
    throw invalidField('landing_page', 'invalidValue', ['landing_page']);
  if (!func) return;
  const grants = await s.auth.grants.forUser(db, { user_id: 0, role_id: roleId ?? null });
  if (!allows(grants, func, 'read')) throw invalidField('landing_page', 'landingNotPermitted');
}

export async function createUser(s: Services, actor: Actor | null, input: CreateInput): Promise<number> {
  const hash = await s.auth.hash(input.passwd);
  return s.db.transaction().execute(async (trx) => {
    await lockUserCreation(trx);
    const firstUser = (await countUsers(trx)) === 0;
    if (!firstUser) {
      if (!actor) throw new AppError(ErrorCode.forbidden, 'setupDone', [], 403);
      if (!canTouchUser(actor, -1, 'write')) throw forbidden();
    } else {
      if (!input.setup_code) throw invalidField('setup_code', 'required', ['setup_code']);
      if (!(await setupCodeMatches(trx, input.setup_code)))
        throw invalidField('setup_code', 'setupCodeInvalid');
      await dropSetupCode(trx);
    }
    const userType = firstUser ? 'admin' : input.user_type;
    if (await nameTaken(trx, input.name)) throw duplicate('name', 'User', input.name);
    if (userType === 'client') {
      if (!input.client_id) throw invalidField('client_id', 'required', ['client_id']);
      const c = await trx
        .selectFrom('carriers')
        .select('client_id')
        .where('client_id', '=', input.client_id)
        .executeTakeFirst();
      if (!c) throw invalidField('client_id', 'invalidValue', ['client_id']);
    }
    if (userType === 'agent') {
      if (!input.agent_id) throw invalidField('agent_id', 'required', ['agent_id']);
      const a = await trx
        .selectFrom('agents')
        .select('agent_id')
        .where('agent_id', '=', input.agent_id)
        .executeTakeFirst();
      if (!a) throw invalidField('agent_id', 'invalidValue', ['agent_id']);
    }
    const roleId = userType === 'admin' && !firstUser && input.role_id ? input.role_id : null;
    if (roleId) {
      const r = await trx
        .selectFrom('roles')
        .select('role_id')
        .where('role_id', '=', roleId)
        .executeTakeFirst();
      if (!r) throw invalidField('role_id', 'invalidValue', ['role_id']);
    }
    await checkLandingPage(s, trx, input.landing_page, roleId, userType);
    const row = await trx
      .insertInto('users')
      .values({
        name: input.name,
        password_hash: hash,
        first_name: input.first_name,
        last_name: input.last_name,
        email: input.email,
        user_type: userType,
        role_id: roleId,
        client_id: userType === 'client' ? input.client_id : null,
        agent_id: userType === 'agent' ? input.agent_id : null,
        active: firstUser ? true : input.active,
        is_server_admin: firstUser,
        landing_page: input.landing_page,
        allowed_ips: input.allowed_ips,
        updated_at: new Date(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await s.audit.record(
      trx,
      actor,
      'user',
      row.user_id,
      firstUser ? 'setup first admin' : 'create',
      null,
      row,
    );
    return row.user_id;
  });
}

/** Changes a user; `self` patches may not touch role, IPs or active flag. */
export async function patchUser(s: Services, actor: Actor, id: number, patch: AdminPatch): Promise<void> {
  const self = actor.user.user_id === id;
  if (!canTouchUser(actor, id, 'write')) throw forbidden();
  const adminFields =
    patch.role_id !== undefined || patch.allowed_ips !== undefined || patch.active !== undefined;
  if (adminFields && (actor.type !== 'admin' || !allows(actor.grants, api.user.USERS_FUNC, 'write')))
    throw forbidden();
  const hash = patch.passwd ? await s.auth.hash(patch.passwd) : undefined;
  await s.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('users')
      .selectAll()
      .where('user_id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!before) throw notFound();
    if (
      id === FIRST_ADMIN_ID &&
      ((patch.role_id !== undefined && patch.role_id !== 0) || patch.active === false)
    )
      throw ruleBroken('cannotChangeFirstAdmin');
    if (self && patch.active === false) throw ruleBroken('cannotDeleteSelf');
    if (patch.role_id && before.user_type === 'admin') {
      const r = await trx
        .selectFrom('roles')
        .select('role_id')
        .where('role_id', '=', patch.role_id)
        .executeTakeFirst();
      if (!r) throw invalidField('role_id', 'invalidValue', ['role_id']);
    }
    if (patch.avatar_id) {
      const file = await trx
        .selectFrom('files')
        .select('id')
        .where('id', '=', patch.avatar_id)
        .where('entity', '=', 'avatar')
        .executeTakeFirst();
      if (!file) throw invalidField('avatar_id', 'invalidValue', ['avatar_id']);
    }
    const roleId = patch.role_id !== undefined ? patch.role_id || null : before.role_id;
    await checkLandingPage(s, trx, patch.landing_page, roleId, before.user_type);
    const { passwd: _p, role_id: _r, ...rest } = patch;
    const after = await trx
      .updateTable('users')
      .set({
        ...rest,
        ...(patch.role_id !== undefined && before.user_type === 'admin' ? { role_id: roleId } : {}),
        ...(hash ? { password_hash: hash } : {}),
        updated_at: new Date(),
      })
      .where('user_id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (hash)
      await trx
        .updateTable('sessions')
        .set({ revoked_at: new Date(), revoked_reason: 'password changed' })
        .where('user_id', '=', id)
        .where('revoked_at', 'is', null)
        .where('id', '!=', self ? actor.sessionId : -1)
        .execute();
    if (patch.active === false)
      await trx
        .updateTable('sessions')
        .set({ revoked_at: new Date(), revoked_reason: 'user deactivated' })
        .where('user_id', '=', id)
        .where('revoked_at', 'is', null)
        .execute();
    await s.audit.record(
      trx,
      actor,
      'user',
      id,
      hash && Object.keys(rest).length === 0 ? 'change password' : 'update',
      pick(before, patch),
      pick(after, patch),
    );
  });
}

export async function setUserActive(s: Services, actor: Actor, id: number, active: boolean): Promise<void> {
  if (!active && actor.user.user_id === id) throw ruleBroken('cannotDeleteSelf');
  await patchUser(s, actor, id, { active });
}

export async function deleteUser(s: Services, actor: Actor, id: number): Promise<void> {
  if (actor.user.user_id === id) throw ruleBroken('cannotDeleteSelf');
  if (id === FIRST_ADMIN_ID) throw ruleBroken('cannotChangeFirstAdmin');
  await s.db.transaction().execute(async (trx) => {
    const before = await trx.selectFrom('users').selectAll().where('user_id', '=', id).executeTakeFirst();
    if (!before) throw notFound();
    await trx.deleteFrom('users').where('user_id', '=', id).execute();
    await s.audit.record(trx, actor, 'user', id, 'delete', before, null);
  });
}

function pick(row: UserRecord, patch: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(patch))
    out[k] = k === 'passwd' ? '***' : (row as unknown as Record<string, unknown>)[k];
  return out;
}
