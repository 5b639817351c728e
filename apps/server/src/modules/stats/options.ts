import { allows, api, isLanguage, type Grants, type Language } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/connection';
import { actorOf, type Actor } from '../../http/context';
import { invalidField, notFound } from '../../http/errors';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import type { Viewer } from './report';

/**
 * The statistics options of a user (spec 02 section 6, docs/statistics.md "Options"): the user
 * setting "enable reporting grouping" (users.report_grouping) and the carriers a system user looks
 * after (user_carriers). An admin whose role lacks "View All Carriers" sees only those carriers'
 * traffic (as customer or vendor) in every statistic; none listed, none seen.
 */
interface UserKeys {
  user_id: number;
  type: Actor['type'];
  clientId: number | null;
  agentId: number | null;
}

/** Everything a report needs to know about who runs it, from the user's keys and grants now. */
export async function viewerOfGrants(db: Db, u: UserKeys, grants: Grants): Promise<Viewer> {
  const admin = u.type === 'admin';
  const viewAll = !admin || allows(grants, api.stats.FUNC.viewAllCarriers, 'read');
  const [row, carriers] = await Promise.all([
    db.selectFrom('users').select('report_grouping').where('user_id', '=', u.user_id).executeTakeFirst(),
    viewAll ? Promise.resolve(null) : carriersOf(db, u.user_id),
  ]);
  return {
    type: u.type,
    clientId: u.clientId,
    agentId: u.agentId,
    costVisible: admin && allows(grants, api.stats.FUNC.costAndRate, 'read'),
    carrierIds: carriers,
    grouping: row?.report_grouping ?? true,
  };
}

/** The viewer of a request's user. */
export const viewerFor = (db: Db, actor: Actor): Promise<Viewer> =>
  viewerOfGrants(
    db,
    { user_id: actor.user.user_id, type: actor.type, clientId: actor.clientId, agentId: actor.agentId },
    actor.grants,
  );

/** The viewer a job runs a report as: the owner's permissions and tenancy now (null when the user is gone or inactive). */
export async function viewerOfUser(
  s: Services,
  userId: number,
): Promise<{ viewer: Viewer; lang: Language; grants: Grants } | null> {
  const u = await s.db
    .selectFrom('users as u')
    .leftJoin('carriers as c', 'c.client_id', 'u.client_id')
    .select([
      'u.user_id',
      'u.role_id',
      'u.user_type',
      'u.client_id',
      'u.agent_id',
      'u.active',
      'u.language',
      'c.client_type',
    ])
    .where('u.user_id', '=', userId)
    .executeTakeFirst();
  if (!u || !u.active) return null;
  const type =
    u.user_type === 'client'
      ? u.client_type === 'vendor'
        ? 'vendor'
        : 'client'
      : (u.user_type as 'admin' | 'agent');
  const grants = await s.auth.grants.forUser(s.db, u);
  const viewer = await viewerOfGrants(
    s.db,
    {
      user_id: u.user_id,
      type,
      clientId: type === 'client' || type === 'vendor' ? u.client_id : null,
      agentId: type === 'agent' ? u.agent_id : null,
    },
    grants,
  );
  return { viewer, grants, lang: isLanguage(u.language) ? u.language : 'en' };
}

async function carriersOf(db: Db, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('user_carriers')
    .select('client_id')
    .where('user_id', '=', userId)
    .orderBy('client_id')
    .execute();
  return rows.map((r) => r.client_id);
}

/** A user's options as the API shows them (`view_all_carriers` from its role now). */
async function optionsOf(s: Services, userId: number) {
  const u = await s.db
    .selectFrom('users')
    .select(['user_id', 'role_id', 'user_type', 'report_grouping'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!u) throw notFound();
  const grants = await s.auth.grants.forUser(s.db, u);
  return {
    report_grouping: u.report_grouping,
    carrier_ids: await carriersOf(s.db, u.user_id),
    view_all_carriers: u.user_type !== 'admin' || allows(grants, api.stats.FUNC.viewAllCarriers, 'read'),
  };
}

export function registerOptions(app: FastifyInstance, s: Services): void {
  implement(app, s, api.stats.getMyReportOptions, (ctx) => optionsOf(s, actorOf(ctx).user.user_id));
  implement(app, s, api.stats.getUserReportOptions, (ctx) => optionsOf(s, ctx.params.id));
  implement(app, s, api.stats.setUserReportOptions, async (ctx) => {
    const id = ctx.params.id;
    const b = ctx.body;
    await s.db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('users')
        .select(['user_id', 'report_grouping'])
        .where('user_id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (!before) throw notFound();
      const oldCarriers = await carriersOf(trx, id);
      if (b.report_grouping !== undefined)
        await trx
          .updateTable('users')
          .set({ report_grouping: b.report_grouping })
          .where('user_id', '=', id)
          .execute();
      if (b.carrier_ids !== undefined) {
        const ids = [...new Set(b.carrier_ids)];
        if (ids.length) {
          const found = new Set(
            (
              await trx.selectFrom('carriers').select('client_id').where('client_id', 'in', ids).execute()
            ).map((r) => r.client_id),
          );
          const i = b.carrier_ids.findIndex((x) => !found.has(x));
          if (i >= 0) throw invalidField(`carrier_ids.${i}`, 'invalidValue', [`carrier_ids.${i}`]);
        }
        await trx.deleteFrom('user_carriers').where('user_id', '=', id).execute();
        if (ids.length)
          await trx
            .insertInto('user_carriers')
            .values(ids.map((client_id) => ({ user_id: id, client_id })))
            .execute();
      }
      await s.audit.record(
        trx,
        actorOf(ctx),
        'user_report_options',
        id,
        'update',
        { report_grouping: before.report_grouping, carrier_ids: oldCarriers },
        {
          report_grouping: b.report_grouping ?? before.report_grouping,
          carrier_ids: b.carrier_ids ?? oldCarriers,
        },
      );
    });
    return optionsOf(s, id);
  });
}
