import { api, type ListQuery } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../http/context';
import { notFound } from '../../http/errors';
import { implement } from '../../http/register';
import { iso, pageOf } from '../../db/paging';
import type { Services } from '../../services';
import { SwitchKeyRing } from './switch-keys';
import type { SnapshotService } from './snapshot-service';

/** Engine status and rebuild; switch API keys (create shows the key once, list, revoke). */
export function registerEngineRoutes(app: FastifyInstance, s: Services, engine: SnapshotService): void {
  implement(app, s, api.routing.getEngineStatus, async () => engine.status());

  implement(app, s, api.routing.rebuildEngine, async () => {
    engine.schedule(0);
    return null;
  });

  implement(app, s, api.routing.listSwitchKeys, async (ctx) => {
    const qb = s.db
      .selectFrom('switch_api_keys')
      .select(['id', 'name', 'key_prefix', 'created_at', 'created_by', 'revoked_at']);
    const page = await pageOf(
      qb,
      ctx.query as ListQuery,
      { name: 'name', created_at: 'created_at', id: 'id' },
      'created_at',
      'id',
    );
    return {
      items: page.items.map((k) => ({
        ...k,
        created_at: k.created_at.toISOString(),
        revoked_at: iso(k.revoked_at),
      })),
      total: page.total,
    };
  });

  implement(app, s, api.routing.createSwitchKey, async (ctx) => {
    const actor = actorOf(ctx);
    const { key, hash, prefix } = SwitchKeyRing.newKey();
    const id = await s.db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('switch_api_keys')
        .values({ name: ctx.body.name, key_hash: hash, key_prefix: prefix, created_by: actor.user.name })
        .returning('id')
        .executeTakeFirstOrThrow();
      await s.audit.record(trx, actor, 'switch_api_key', row.id, 'create', null, {
        name: ctx.body.name,
        key_prefix: prefix,
      });
      return row.id;
    });
    await s.switchKeys.reload();
    return { object_id: id, key };
  });

  implement(app, s, api.routing.revokeSwitchKey, async (ctx) => {
    await s.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('switch_api_keys')
        .set({ revoked_at: new Date() })
        .where('id', '=', ctx.params.id)
        .where('revoked_at', 'is', null)
        .returning(['id', 'name'])
        .executeTakeFirst();
      if (!row) throw notFound();
      await s.audit.record(
        trx,
        actorOf(ctx),
        'switch_api_key',
        row.id,
        'revoke',
        { revoked_at: null },
        { revoked_at: 'now' },
      );
    });
    await s.switchKeys.reload();
    return null;
  });
}
