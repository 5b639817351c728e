import { api, ErrorCode, type Endpoint } from '@tandem/contract';
import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../../src/db/schema';
import type { Actor } from '../../src/http/context';
import { AppError } from '../../src/http/errors';
import { twoFactorGate } from '../../src/http/register';
import { allEndpoints } from '../../src/modules';

/** The two-factor enrolment a role requires (issue 18), as `implement()` applies it to every endpoint. */
const actor = (twoFactorRequired: boolean, totp_enabled: boolean): Actor =>
  ({
    user: { user_id: 7, role_id: 3, totp_enabled } as UserRecord,
    type: 'admin',
    sessionId: 1,
    cdrExpiresAt: new Date(),
    grants: { unrestricted: true, groups: [], privileges: [], groupOfFunc: () => undefined },
    clientId: null,
    agentId: null,
    twoFactorRequired,
  }) as Actor;

const pending = actor(true, false);
const refusal = (e: Endpoint) => {
  try {
    twoFactorGate(e, pending);
    return null;
  } catch (err) {
    return err;
  }
};

describe('twoFactorGate', () => {
  it('lets only the enrolment, the session reads and sign-out through while enrolment is pending', () => {
    const open = allEndpoints()
      .filter((e) => e.access.kind !== 'public' && e.access.kind !== 'switch' && refusal(e) === null)
      .map((e) => `${e.method} ${e.path}`)
      .sort();
    // A new endpoint is refused unless the contract marks it; this list changes only on purpose.
    expect(open).toEqual(
      [
        'GET /config/role/:id',
        'GET /config/sys_submenu/list',
        'GET /config/system',
        'GET /user',
        'POST /auth/2fa/enable',
        'POST /auth/2fa/setup',
        'POST /auth/logout',
      ].sort(),
    );
  });

  it('refuses everything else with code 210 and the message key of the role rule', () => {
    const err = refusal(api.user.listUsers);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({
      code: ErrorCode.twoFactorEnrolment,
      key: 'twoFactorRequiredByRole',
      status: 403,
    });
    expect(refusal(api.auth.twoFactorDisable)).toBeInstanceOf(AppError);
  });

  it('serves public endpoints to a pending session as to no session at all', () => {
    expect(twoFactorGate(api.user.createUser, pending)).toBeNull();
    expect(twoFactorGate(api.config.getLoginBranding, pending)).toBeNull();
  });

  it('does nothing once enrolled, where the role does not require it, or without a session', () => {
    const enrolled = actor(true, true);
    const free = actor(false, false);
    expect(twoFactorGate(api.user.listUsers, enrolled)).toBe(enrolled);
    expect(twoFactorGate(api.user.listUsers, free)).toBe(free);
    expect(twoFactorGate(api.user.createUser, free)).toBe(free);
    expect(twoFactorGate(api.user.listUsers, null)).toBeNull();
  });
});
