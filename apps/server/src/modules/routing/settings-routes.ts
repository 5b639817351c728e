import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../http/context';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import {
  ERROR_RESPONSE_KEY,
  FAILOVER_KEY,
  readDefaultFailover,
  readErrorResponses,
} from './routing-settings';

/** Configuration > Default Failover Rule and Global Route Error: settings the engine reads. */
export function registerRoutingSettings(app: FastifyInstance, s: Services): void {
  implement(app, s, api.routing.getDefaultFailover, async () => ({
    rules: (await readDefaultFailover(s.settings)).map((r) => ({
      sip_code: r.sip_code,
      action: r.action,
      return_code: r.return_code ?? null,
      return_clause: r.return_clause ?? null,
    })),
  }));

  implement(app, s, api.routing.setDefaultFailover, async (ctx) => {
    const rules = [...ctx.body.rules].sort((a, b) => a.sip_code - b.sip_code);
    await s.db.transaction().execute(async (trx) => {
      const before = await readDefaultFailover(s.settings, trx);
      await s.settings.set(FAILOVER_KEY, { rules }, trx);
      await s.audit.record(trx, actorOf(ctx), 'default_failover_rule', 'system', 'update', before, rules);
    });
    s.configChanged.notify();
    return null;
  });

  implement(app, s, api.routing.getDefaultError, async () => {
    const set = new Map((await readErrorResponses(s.settings)).map((r) => [r.reason, r]));
    return {
      responses: api.routing.REJECT_REASON_KEYS.map((reason) => {
        const own = set.get(reason);
        const defaultCode = api.routing.REJECT_REASONS[reason];
        return {
          reason,
          code: own?.code ?? defaultCode,
          clause: own?.clause ?? '',
          default_code: defaultCode,
        };
      }),
    };
  });

  implement(app, s, api.routing.setDefaultError, async (ctx) => {
    // Only what differs from the default is kept.
    const responses = ctx.body.responses.filter(
      (r) => r.code !== api.routing.REJECT_REASONS[r.reason] || r.clause !== '',
    );
    await s.db.transaction().execute(async (trx) => {
      const before = await readErrorResponses(s.settings, trx);
      await s.settings.set(ERROR_RESPONSE_KEY, { responses }, trx);
      await s.audit.record(
        trx,
        actorOf(ctx),
        'default_error_response',
        'system',
        'update',
        before,
        responses,
      );
    });
    s.configChanged.notify();
    return null;
  });
}
