import type { api } from '@tandem/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { fails, invalid, ok, startHarness, type Harness } from './harness';
import {
  lcrOverVendors,
  settled,
  switchKey,
  termination,
  type EngineStatus,
  type Fixture,
  customerCall,
  switchRoute,
} from './routing-fixtures';

let h: Harness;
let admin: string;
let key: string;
let f: Fixture;
let routeId: number;
let version = 0;
let A: number;
let B: number;
type DynamicTrunkRow = z.output<typeof api.routing.dynamicTrunkRow>;

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  key = await switchKey(h, admin);
  f = await termination(h);
  await lcrOverVendors(h, f);
  A = f.vendors[0]!.trunk;
  B = f.vendors[1]!.trunk;
  routeId = (
    await h.built.services.db
      .selectFrom('dynamic_routes')
      .select('dynamic_route_id')
      .executeTakeFirstOrThrow()
  ).dynamic_route_id;
  ok(
    await h.call('PATCH', `/api/routing/dynamic_routing/${routeId}`, {
      token: admin,
      body: { rule: 'largest_asr' },
    }),
  );
  await ready();
});
afterAll(() => h.close());

/** Waits for the snapshot to take the last change. */
async function ready(): Promise<EngineStatus> {
  const st = await settled(h, admin, version);
  version = st.version;
  return st;
}

const report = (body: unknown, k: string | null = key, lang?: string) =>
  h.call('POST', '/api/switch/qos', {
    body,
    headers: { ...(k === null ? {} : { 'x-switch-key': k }), ...(lang ? { 'x-lang': lang } : {}) },
  });
/** The egress order of a UK call (vendor B is the cheaper one). */
const order = async () =>
  ok(await switchRoute(h, customerCall('447700900123'), key)).routes.map((r) => r.trunk_id);
const pool = async (id = routeId) =>
  ok(
    await h.call<{ items: DynamicTrunkRow[] }>('GET', `/api/routing/dynamic_routing/${id}/trunks`, {
      token: admin,
    }),
  ).items;
const stored = async () => {
  const db = h.built.services.db;
  return {
    samples: await db.selectFrom('trunk_qos_samples').selectAll().orderBy('id').execute(),
    figures: await db
      .selectFrom('trunk_qos')
      .selectAll()
      .orderBy('trunk_id')
      .orderBy('cycle_minutes')
      .execute(),
  };
};
/** Moves the samples of a trunk `minutes` into the past. */
const age = (trunk: number, minutes: number) =>
  h.built.services.db
    .updateTable('trunk_qos_samples')
    .set({ received_at: sql`received_at - make_interval(mins => ${minutes})` })
    .where('trunk_id', '=', trunk)
    .execute();

describe('POST /api/switch/qos', () => {
  it('stores the counters, computes ASR and ACD over the QoS cycle and reorders a largest-ASR route', async () => {
    // no figures yet: ASR 0 and ACD 0 for both, so the cheaper vendor first
    expect(await order()).toEqual([B, A]);
    expect((await pool()).map((t) => [t.trunk_id, t.asr, t.acd, t.qos_attempts])).toEqual(
      expect.arrayContaining([
        [A, null, null, null],
        [B, null, null, null],
      ]),
    );

    expect(
      ok(
        await report({
          samples: [
            { trunk_id: A, attempts: 10, answered: 8, billed_seconds: 960 },
            { trunk_id: B, attempts: 10, answered: 2, billed_seconds: 100 },
          ],
        }),
      ),
    ).toBeNull();
    // figures only moved: patched into the snapshot in service, no full build
    expect((await ready()).load_kind).toBe('patch');
    expect(await order()).toEqual([A, B]);
    const rows = await pool();
    expect(rows.find((t) => t.trunk_id === A)).toMatchObject({
      asr: '80.00',
      acd: '120.00',
      qos_attempts: 10,
    });
    expect(rows.find((t) => t.trunk_id === B)).toMatchObject({
      asr: '20.00',
      acd: '50.00',
      qos_attempts: 10,
    });
    expect(rows.every((t) => t.qos_updated_at !== null)).toBe(true);

    // a later interval adds up within the cycle: B 91 of 100 answered beats A's 80 %
    ok(await report({ samples: [{ trunk_id: B, attempts: 90, answered: 89, billed_seconds: 8900 }] }));
    await ready();
    expect(await order()).toEqual([B, A]);
    expect((await pool()).find((t) => t.trunk_id === B)).toMatchObject({
      asr: '91.00',
      acd: '98.90',
      qos_attempts: 100,
    });
  });

  it('counts only the samples within each route’s own QoS cycle, and prunes older ones', async () => {
    const cycle = (minutes: number) =>
      h.call('PATCH', `/api/routing/dynamic_routing/${routeId}`, {
        token: admin,
        body: { qos_cycle_minutes: minutes },
      });
    // B's reports were two hours ago: outside the 60-minute cycle (recomputed when the route is saved)
    await age(B, 120);
    ok(await cycle(60));
    await ready();
    expect(await order()).toEqual([A, B]);
    expect((await pool()).find((t) => t.trunk_id === B)).toMatchObject({ asr: null, qos_attempts: null });

    // a second route with a 15-minute cycle over A, whose samples are 30 minutes old
    const other = ok(
      await h.call<{ object_id: number }>('POST', '/api/routing/dynamic_routing/create', {
        token: admin,
        body: { name: 'ASR 15 min', rule: 'largest_asr', qos_cycle_minutes: 15, trunks: [{ trunk_id: A }] },
      }),
    ).object_id;
    await age(A, 30);
    // a 3-hour cycle on the first route reaches back to B's samples
    ok(await cycle(180));
    await ready();
    expect((await pool()).find((t) => t.trunk_id === B)).toMatchObject({ asr: '91.00', qos_attempts: 100 });
    expect((await pool()).find((t) => t.trunk_id === A)).toMatchObject({ asr: '80.00', qos_attempts: 10 });
    expect((await pool(other)).find((t) => t.trunk_id === A)).toMatchObject({
      asr: null,
      qos_attempts: null,
    });
    expect(await order()).toEqual([B, A]);
    expect((await stored()).figures.map((q) => [q.trunk_id, q.cycle_minutes])).toEqual([
      [A, 180],
      [B, 180],
    ]);

    // back to 60 minutes: B's samples fall out of every cycle and the next report deletes them
    ok(await cycle(60));
    ok(await report({ samples: [] }));
    await ready();
    const { samples } = await stored();
    expect(samples.some((x) => x.trunk_id === B)).toBe(false);
    expect(samples.filter((x) => x.trunk_id === A)).toHaveLength(1);
    expect(await order()).toEqual([A, B]);
    ok(await h.call('DELETE', `/api/routing/dynamic_routing/${other}`, { token: admin }));
  });

  it('refuses bad input naming the field and the sample, and changes nothing', async () => {
    const before = await stored();
    const good = { trunk_id: A, attempts: 5, answered: 5, billed_seconds: 50 };
    invalid(
      await report({ samples: [good, { trunk_id: B, attempts: 3, answered: 4, billed_seconds: 0 }] }),
      'samples.1.answered',
      'answered cannot be larger than attempts',
    );
    invalid(
      await report({ samples: [good, { trunk_id: 999999, attempts: 1, answered: 0, billed_seconds: 0 }] }),
      'samples.1.trunk_id',
      'samples.1.trunk_id: trunk [999999] does not exist',
    );
    invalid(
      await report(
        { samples: [good, { trunk_id: 999999, attempts: 1, answered: 0, billed_seconds: 0 }] },
        key,
        'de',
      ),
      'samples.1.trunk_id',
      'samples.1.trunk_id: Trunk [999999] existiert nicht',
    );
    invalid(await report({ samples: [{ ...good, attempts: -1 }] }), 'samples.0.attempts');
    invalid(await report({ samples: [{ ...good, billed_seconds: 1.5 }] }), 'samples.0.billed_seconds');
    invalid(
      await report({ samples: [{ trunk_id: A, attempts: 1, answered: 0 }] }),
      'samples.0.billed_seconds',
    );
    invalid(
      await report({ samples: [good, good] }),
      'samples.1.trunk_id',
      'Trunk [' + A + '] already exists',
    );
    invalid(await report({ samples: [{ ...good, asr: 50 }] }), 'samples.0');
    invalid(await report({}), 'samples');
    expect(await stored()).toEqual(before);
  });

  it('needs a valid switch key', async () => {
    const before = await stored();
    const body = { samples: [{ trunk_id: A, attempts: 1, answered: 1, billed_seconds: 1 }] };
    for (const k of [null, 'tsk_wrong']) {
      const r = await report(body, k);
      fails(r, 140, 'The switch API key is missing or not valid');
      expect(r.status).toBe(401);
    }
    fails(await h.call('POST', '/api/switch/qos', { token: admin, body }), 140);
    expect(await stored()).toEqual(before);
  });
});
