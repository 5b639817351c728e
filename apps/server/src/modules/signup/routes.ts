import { randomBytes } from 'node:crypto';
import { allows, api, ErrorCode } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { AppError, duplicate, invalidField, notFound } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { countUsers, lockUserCreation, nameTaken } from '../users/repository';

const CARRIERS_FUNC = '/termination/client';
export const newReferralKey = () => randomBytes(18).toString('base64url');

export function registerSignup(app: FastifyInstance, s: Services): void {
  implement(app, s, api.signup.getAgent, async (ctx) => {
    const a = await s.db
      .selectFrom('agents')
      .selectAll()
      .where('agent_id', '=', ctx.params.id)
      .executeTakeFirst();
    if (!a) throw notFound();
    const actor = ctx.actor;
    const full =
      actor &&
      ((actor.type === 'admin' && allows(actor.grants, api.signup.AGENTS_FUNC, 'read')) ||
        actor.agentId === a.agent_id);
    if (full) {
      const {
        agent_id,
        agent_name,
        status,
        email,
        commission_method,
        commission_percent,
        frequency,
        referral_key,
      } = a;
      return {
        agent_id,
        agent_name,
        status,
        email,
        commission_method,
        commission_percent,
        frequency,
        referral_key,
      };
    }
    // Public sign-up pages only learn the agent's name, and only with the right referral key.
    if (a.status !== 'active' || !ctx.query.ref_key || ctx.query.ref_key !== a.referral_key) throw notFound();
    return { agent_id: a.agent_id, agent_name: a.agent_name };
  });

  implement(app, s, api.signup.createAgent, async (ctx) => {
    const b = ctx.body;
    const hash = await s.auth.hash(b.passwd);
    const id = await s.db.transaction().execute(async (trx) => {
      if (
        await trx
          .selectFrom('agents')
          .select('agent_id')
          .where(sql<string>`lower(agent_name)`, '=', b.agent_name.toLowerCase())
          .executeTakeFirst()
      )
        throw duplicate('agent_name', 'Agent', b.agent_name);
      if (await nameTaken(trx, b.name)) throw duplicate('name', 'User', b.name);
      const agent = await trx
        .insertInto('agents')
        .values({
          agent_name: b.agent_name,
          email: b.email,
          commission_method: b.commission_method,
          commission_percent: b.commission_percent,
          frequency: b.frequency,
          referral_key: newReferralKey(),
          updated_at: new Date(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('users')
        .values({
          name: b.name,
          password_hash: hash,
          email: b.email,
          user_type: 'agent',
          agent_id: agent.agent_id,
          updated_at: new Date(),
        })
        .execute();
      await s.audit.record(trx, ctx.actor, 'agent', agent.agent_id, 'create', null, agent);
      return agent.agent_id;
    });
    return { object_id: id };
  });

  implement(app, s, api.signup.createCarrierBasic, async (ctx) => {
    const b = ctx.body;
    const actor = ctx.actor;
    const byAdmin = Boolean(actor && actor.type === 'admin' && allows(actor.grants, CARRIERS_FUNC, 'write'));
    if (!byAdmin && !(await s.settings.system()).user_registration_enabled)
      throw new AppError(ErrorCode.rule, 'registrationDisabled', [], 403);
    const hash = await s.auth.hash(b.passwd);
    return s.db.transaction().execute(async (trx) => {
      // Self sign-up waits for the first admin: the first user must be the one set up at /setup.
      if (!byAdmin) {
        await lockUserCreation(trx);
        if ((await countUsers(trx)) === 0)
          throw new AppError(ErrorCode.rule, 'registrationDisabled', [], 403);
      }
      let agentId: number | null = null;
      if (b.ref_key || b.agent_id) {
        let q = trx.selectFrom('agents').select(['agent_id', 'referral_key']).where('status', '=', 'active');
        q = b.ref_key ? q.where('referral_key', '=', b.ref_key) : q.where('agent_id', '=', b.agent_id ?? -1);
        const agent = await q.executeTakeFirst();
        if (!agent || (!byAdmin && b.agent_id && agent.referral_key !== b.ref_key))
          throw invalidField('ref_key', 'referralInvalid');
        agentId = agent.agent_id;
      }
      if (
        await trx
          .selectFrom('carriers')
          .select('client_id')
          .where(sql<string>`lower(name)`, '=', b.name.toLowerCase())
          .executeTakeFirst()
      )
        throw duplicate('name', 'Carrier', b.name);
      if (await nameTaken(trx, b.login_name)) throw duplicate('login_name', 'User', b.login_name);
      const status = byAdmin ? 'approved' : 'pending';
      const carrier = await trx
        .insertInto('carriers')
        .values({
          name: b.name,
          company: b.company,
          client_type: b.client_type,
          company_type: b.company_type,
          main_email: b.email,
          agent_id: agentId,
          registration_status: status,
          is_active: byAdmin,
          updated_at: new Date(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('users')
        .values({
          name: b.login_name,
          password_hash: hash,
          email: b.email,
          first_name: b.first_name,
          last_name: b.last_name,
          user_type: 'client',
          client_id: carrier.client_id,
          updated_at: new Date(),
        })
        .execute();
      await s.audit.record(
        trx,
        actor,
        'carrier',
        carrier.client_id,
        byAdmin ? 'create' : 'sign-up',
        null,
        carrier,
      );
      return { object_id: carrier.client_id, status };
    });
  });
}
