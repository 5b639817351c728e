import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';

let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
});
afterAll(() => h.close());

const create = (body: unknown, token = admin) =>
  h.call<{ object_id: number }>('POST', '/api/config/payment_term/create', { token, body });

describe('generic CRUD: payment terms', () => {
  it('creates, lists with filters and sorting, reads and updates', async () => {
    const a = await create({ name: 'Net 30', invoicing_cycle: 'monthly', grace_days: 5, notify_days: 3 });
    expect(a.body.success).toBe(true);
    await create({ name: 'Weekly 7', invoicing_cycle: 'weekly', grace_days: 2 });
    const list = await h.call<{
      items: { name: string; grace_days: number; usage_count: number }[];
      total: number;
    }>('GET', '/api/config/payment_term/list?order_by=name&order_dir=desc&per_page=1', { token: admin });
    expect(list.body.payload.total).toBe(2);
    expect(list.body.payload.items.map((i) => i.name)).toEqual(['Weekly 7']);
    const filtered = await h.call<{ items: { name: string }[] }>(
      'GET',
      '/api/config/payment_term/list?name=net',
      { token: admin },
    );
    expect(filtered.body.payload.items.map((i) => i.name)).toEqual(['Net 30']);
    const patch = await h.call('PATCH', `/api/config/payment_term/${a.body.payload.object_id}`, {
      token: admin,
      body: { grace_days: 10 },
    });
    expect(patch.body.success).toBe(true);
    const one = await h.call<{ grace_days: number; notify_days: number }>(
      'GET',
      `/api/config/payment_term/${a.body.payload.object_id}`,
      { token: admin },
    );
    expect(one.body.payload).toMatchObject({ grace_days: 10, notify_days: 3 });
  });

  it('refuses duplicates (case-insensitive) and bad input, naming the field, and changes nothing', async () => {
    const dup = await create({ name: 'net 30' });
    expect(dup.status).toBe(409);
    expect(dup.body.error?.message).toBe('Payment Term [net 30] already exists');
    expect(dup.body.errors?.name).toBeDefined();
    const bad = await create({ name: '  ', grace_days: -1 });
    expect(bad.body.error?.code).toBe(110);
    expect(Object.keys(bad.body.errors ?? {})).toEqual(expect.arrayContaining(['name', 'grace_days']));
    const extra = await create({ name: 'X', color: 'red' });
    expect(extra.body.error?.code).toBe(110);
    const list = await h.call<{ total: number }>('GET', '/api/config/payment_term/list', { token: admin });
    expect(list.body.payload.total).toBe(2);
  });

  it('refuses delete while a carrier uses the term, with counts, and deletes once free', async () => {
    const t = await create({ name: 'Used term' });
    const id = t.body.payload.object_id;
    const carrier = await h.built.services.db
      .insertInto('carriers')
      .values({ name: 'Acme', payment_term_id: id, updated_at: new Date() })
      .returning('client_id')
      .executeTakeFirstOrThrow();
    const usage = await h.call<{ items: { what: string; count: number }[]; total: number }>(
      'GET',
      `/api/config/payment_term/${id}/usage`,
      { token: admin },
    );
    expect(usage.body.payload.total).toBe(1);
    const del = await h.call('DELETE', `/api/config/payment_term/${id}`, { token: admin });
    expect(del.body.error?.code).toBe(170);
    expect(del.body.error?.message).toContain('1 carrier(s)');
    await h.built.services.db
      .updateTable('carriers')
      .set({ payment_term_id: null })
      .where('client_id', '=', carrier.client_id)
      .execute();
    expect((await h.call('DELETE', `/api/config/payment_term/${id}`, { token: admin })).body.success).toBe(
      true,
    );
    expect((await h.call('GET', `/api/config/payment_term/${id}`, { token: admin })).status).toBe(404);
  });

  it('logs every write with before and after', async () => {
    const log = await h.call<{ items: { action: string; before: unknown; after: unknown }[] }>(
      'GET',
      '/api/log/modification_log?entity=payment_term&per_page=50',
      { token: admin },
    );
    const actions = log.body.payload.items.map((i) => i.action);
    expect(actions).toEqual(expect.arrayContaining(['create', 'update', 'delete']));
    const upd = log.body.payload.items.find((i) => i.action === 'update');
    expect(upd?.before).toEqual({ grace_days: 5 });
    expect(upd?.after).toEqual({ grace_days: 10 });
  });

  it('enforces the permission: a role without payment terms gets 140, with read only it cannot write', async () => {
    const role = await h.call<{ object_id: number }>('POST', '/api/config/role/create', {
      token: admin,
      body: {
        role_name: 'Readers',
        group_privilegies: [{ id: 1, readable: true }],
        role_privilegies: [
          { func_name: '/configuration/payment_term', readable: true, writable: false, executable: false },
        ],
      },
    });
    await h.call('POST', '/api/user/create', {
      token: admin,
      body: {
        name: 'reader',
        email: 'r@example.com',
        passwd: 'Reader#2026',
        role_id: role.body.payload.object_id,
      },
    });
    const reader = await h.signIn('reader', 'Reader#2026');
    expect((await h.call('GET', '/api/config/payment_term/list', { token: reader })).body.success).toBe(true);
    const w = await create({ name: 'Nope' }, reader);
    expect(w.body.error?.code).toBe(140);
    const tp = await h.call('GET', '/api/config/time_profile/list', { token: reader });
    expect(tp.body.error?.code).toBe(140);
  });
});

describe('time profiles', () => {
  const tp = (body: unknown) =>
    h.call<{ object_id: number }>('POST', '/api/config/time_profile/create', { token: admin, body });
  it('accepts all-time, daily and weekly profiles', async () => {
    expect((await tp({ name: 'Always', type: 'all_time' })).body.success).toBe(true);
    expect(
      (await tp({ name: 'Office', type: 'daily', start_time: '08:00', end_time: '18:00' })).body.success,
    ).toBe(true);
    expect(
      (
        await tp({
          name: 'Weekend',
          type: 'weekly',
          start_week_day: 5,
          end_week_day: 6,
          start_time: '18:00',
          end_time: '23:59',
        })
      ).body.success,
    ).toBe(true);
  });
  it('applies the spec rules with their messages', async () => {
    expect(
      (await tp({ name: 'A', type: 'daily', start_time: '18:00', end_time: '08:00' })).body.errors?.end_time,
    ).toBe('End time must be greater than start time');
    expect((await tp({ name: 'B', type: 'daily' })).body.errors?.start_time).toBe(
      'Start time and end time cannot be null',
    );
    expect(
      (
        await tp({
          name: 'C',
          type: 'weekly',
          start_week_day: 4,
          end_week_day: 2,
          start_time: '08:00',
          end_time: '09:00',
        })
      ).body.errors?.end_week_day,
    ).toBe('End day of week must be greater than or equal to start day of week');
    expect(
      (await tp({ name: 'D', type: 'daily', start_time: '25:00', end_time: '26:00' })).body.error?.code,
    ).toBe(110);
  });
  it('checks the rules against the stored row on update', async () => {
    const list = await h.call<{ items: { time_profile_id: number; name: string }[] }>(
      'GET',
      '/api/config/time_profile/list?name=Office',
      { token: admin },
    );
    const id = list.body.payload.items[0]!.time_profile_id;
    const r = await h.call('PATCH', `/api/config/time_profile/${id}`, {
      token: admin,
      body: { end_time: '07:00' },
    });
    expect(r.body.errors?.end_time).toBe('End time must be greater than start time');
  });
});
