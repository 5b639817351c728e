import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../http/context';
import { implement } from '../../http/register';
import type { Services } from '../../services';
import { requestPasswordReset, resetPassword } from './reset';
import { disableTwoFactor, enableTwoFactor, setupTwoFactor } from './two-factor';

export function registerAuth(app: FastifyInstance, s: Services): void {
  implement(app, s, api.auth.signIn, (ctx) =>
    s.auth.signIn(
      ctx.body.email_or_name,
      ctx.body.password,
      ctx.body.code,
      ctx.ip,
      String(ctx.req.headers['user-agent'] ?? ''),
    ),
  );
  implement(app, s, api.auth.checkToken, (ctx) => s.auth.checkToken(ctx.req), { ownToken: true });
  implement(app, s, api.auth.checkPassword, async (ctx) => ({
    valid: await s.auth.checkPassword(actorOf(ctx), ctx.body.password, ctx.ip),
  }));
  implement(app, s, api.auth.twoFactorSetup, (ctx) => setupTwoFactor(s, actorOf(ctx)));
  implement(app, s, api.auth.twoFactorEnable, (ctx) =>
    enableTwoFactor(s, actorOf(ctx), ctx.body.code, ctx.ip),
  );
  implement(app, s, api.auth.twoFactorDisable, async (ctx) => {
    await disableTwoFactor(s, actorOf(ctx), ctx.body.password, ctx.ip);
    return null;
  });
  implement(app, s, api.auth.signOut, async (ctx) => {
    await s.auth.revoke(actorOf(ctx).sessionId, 'signed out');
    return null;
  });
  implement(app, s, api.auth.requestPasswordReset, (ctx) =>
    requestPasswordReset(s, ctx.body.email_or_name, ctx.lang, ctx.ip),
  );
  implement(app, s, api.auth.resetPassword, (ctx) =>
    resetPassword(s, ctx.params.token, ctx.body.password, ctx.ip),
  );
}
