import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('smoke', () => {
  it('has no user, sets up the first admin and signs in', async () => {
    expect((await h.call('GET', '/api/public/has_user')).body.payload).toEqual({ has_user: false });
    const token = await h.setupAdmin();
    const me = await h.call<{ name: string; user_type: string }>('GET', '/api/user', { token });
    expect(me.body.payload.name).toBe('admin');
    expect(me.body.payload.user_type).toBe('admin');
  });
});
