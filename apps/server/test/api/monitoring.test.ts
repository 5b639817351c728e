import type { api } from '@tandem/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { cdrOf, sendCdrs } from './cdr-fixtures';
import {
  auditRows,
  denied,
  fails,
  invalid,
  makeRestrictedAdmin,
  ok,
  startHarness,
  startSmtp,
  upload,
  type Harness,
} from './harness';
import {
  customerCall,
  lcrOverVendors,
  rebuildAfter,
  switchKey,
  switchRoute,
  termination,
  type Fixture,
} from './routing-fixtures';

/**
 * Monitoring (issue 15): rules through the API, the evaluation job over CDRs sent through the
 * CDR ingest, blocks reaching the route API, fire once per breach, auto-unblock re-arming, manual
 * unblock, e-mails, loop detection in the route API and the call simulation, permissions.
 */
type FraudRow = z.output<typeof api.monitoring.fraudRuleRow>;
type RuleRow = z.output<typeof api.monitoring.monitoringRuleRow>;
type LogRow = z.output<typeof api.monitoring.logRow>;
type BlockRow = z.output<typeof api.monitoring.blockRow>;
type Paged<T> = { items: T[]; total: number };

let h: Harness;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let admin: string;
let key: string;
let f: Fixture;

const post = <T = { object_id: number }>(url: string, body: unknown = {}, token = admin) =>
  h.call<T>('POST', `/api${url}`, { token, body });
const patch = (url: string, body: unknown, token = admin) => h.call('PATCH', `/api${url}`, { token, body });
const get = <T>(url: string, token = admin) => h.call<T>('GET', `/api${url}`, { token });
const route = (dnis = '447700900123', extra: Record<string, unknown> = {}) =>
  switchRoute(h, customerCall(dnis, extra), key);
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
let batch = 0;

/** Sends `n` CDRs of the fixture customer starting `ago` minutes back. */
async function traffic(n: number, ago: number, opts: Parameters<typeof cdrOf>[1] = {}) {
  const cdrs = Array.from({ length: n }, () => cdrOf(f, { start: minutesAgo(ago), ...opts }));
  const r = ok(await sendCdrs(h, key, `mon-${++batch}`, cdrs));
  expect(r).toBeTruthy();
}

/** Runs the monitoring job now and waits for it. */
async function runPass(area: 'fraud_detection' | 'rule' = 'fraud_detection') {
  const { job_id } = ok(await post<{ job_id: number }>(`/monitoring/${area}/run`));
  const db = h.built.services.db;
  for (let i = 0; i < 600; i++) {
    const j = await db
      .selectFrom('jobs')
      .select(['status', 'error'])
      .where('id', '=', job_id)
      .executeTakeFirstOrThrow();
    if (j.status === 'finished') return;
    if (j.status === 'failed' || j.status === 'killed')
      throw new Error(`monitoring job ${j.status}: ${j.error}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('monitoring job did not finish');
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const log = async (area: string, q = '') =>
  ok(await get<Paged<LogRow>>(`/monitoring/${area}/log?per_page=100${q}`)).items;

beforeAll(async () => {
  smtp = await startSmtp();
  h = await startHarness({
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp.port),
    SMTP_FROM: 'tandem@carrier.test',
  });
  admin = await h.setupAdmin();
  key = await switchKey(h, admin);
  f = await termination(h);
  await lcrOverVendors(h, f);
  const db = h.built.services.db;
  await db
    .updateTable('carriers')
    .set({ noc_email: 'noc@customer.test' })
    .where('client_id', '=', f.customer)
    .execute();
  ok(await patch('/config/system', { notify_noc_emails: ['noc@carrier.test'] }));
  await rebuildAfter(h, admin);
}, 240_000);
afterAll(async () => {
  await h.close();
  await smtp.close();
});

describe('rules: validation and permissions', () => {
  it('refuses a fraud rule without a threshold, without trunks, or on an egress trunk', async () => {
    const base = { rule_name: 'Bad', trunk_ids: [f.ingress] };
    invalid(await post('/monitoring/fraud_detection/create', base), 'hour_revenue', /at least one threshold/);
    invalid(
      await post('/monitoring/fraud_detection/create', { ...base, trunk_ids: [], hour_revenue: '1' }),
      'trunk_ids',
      /at least one trunk/,
    );
    invalid(
      await post('/monitoring/fraud_detection/create', {
        ...base,
        trunk_ids: [f.vendors[0]!.trunk],
        hour_revenue: '1',
      }),
      'trunk_ids',
      /not an ingress trunk/,
    );
    invalid(
      await post('/monitoring/fraud_detection/create', { ...base, hour_revenue: '-1' }),
      'hour_revenue',
    );
  });

  it('refuses a monitoring rule with an empty trunk list, no unblock time, a route block without codes', async () => {
    const base = {
      rule_name: 'Bad rule',
      side: 'egress',
      trunk_ids: [f.vendors[0]!.trunk],
      asr_below: '10',
      min_attempts: 5,
      sample_minutes: 60,
      every_minutes: 5,
    };
    invalid(
      await post('/monitoring/rule/create', { ...base, trunk_ids: [] }),
      'trunk_ids',
      /Trunk list cannot be empty/,
    );
    invalid(
      await post('/monitoring/rule/create', { ...base, action_block: 'trunk' }),
      'unblock_after_minutes',
      /cannot be empty/,
    );
    invalid(
      await post('/monitoring/rule/create', { ...base, action_block: 'route', unblock_after_minutes: 5 }),
      'action_block',
      /included codes/,
    );
    invalid(await post('/monitoring/rule/create', { ...base, min_attempts: undefined }), 'min_attempts');
    invalid(await post('/monitoring/rule/create', { ...base, asr_below: null }), 'asr_below', /threshold/);
  });

  it('refuses a loop rule without trunks or ranges, or with a bad range', async () => {
    const base = { rule_name: 'Bad loop', max_calls: 3, window_seconds: 10, block_seconds: 60 };
    invalid(
      await post('/monitoring/loop_detection/create', base),
      'trunk_ids',
      /ingress trunks or the number ranges/,
    );
    invalid(
      await post('/monitoring/loop_detection/create', { ...base, number_ranges: ['4420-44'] }),
      'number_ranges',
      /not a number range/,
    );
  });

  it('needs the monitoring permissions', async () => {
    const { token } = await makeRestrictedAdmin(h, admin, 'Watcher', { '/monitoring/fraud_detection': 'r' });
    ok(await get('/monitoring/fraud_detection/list', token));
    denied(await get('/monitoring/rule/list', token));
    denied(
      await post(
        '/monitoring/fraud_detection/create',
        { rule_name: 'x', hour_revenue: '1', trunk_ids: [f.ingress] },
        token,
      ),
    );
    denied(await post('/monitoring/fraud_detection/run', {}, token));
    denied(await get('/statistics/fraud_report', token));
  });
});

describe('fraud detection', () => {
  let ruleId: number;

  it('looks at the last 60 minutes only: revenue older than that does not fire the hourly threshold', async () => {
    ruleId = ok(
      await post('/monitoring/fraud_detection/create', {
        rule_name: 'Expensive burst',
        trunk_ids: [f.ingress],
        hour_revenue: '1',
        block: true,
        unblock_after_minutes: 30,
        email_to: 'both',
        email_subject: 'Fraud on {trunk} ({rule})',
      }),
    ).object_id;
    // 30 UK calls of 60 s at 0.05/min = 1.50, but 70 minutes ago
    await traffic(30, 70);
    await runPass();
    expect(await log('fraud_detection', `&rule_id=${ruleId}&event=triggered`)).toHaveLength(0);
    expect(ok(await route())).toMatchObject({ result: 'route' });
  });

  it('fires once on a burst of expensive calls: blocks the trunk in the route API (403 trunk_blocked) and e-mails both NOCs', async () => {
    await traffic(30, 5);
    await runPass();
    const events = (await log('fraud_detection', `&rule_id=${ruleId}`)).map((e) => e.event);
    expect(events).toEqual(expect.arrayContaining(['triggered', 'blocked', 'email_sent']));
    const trig = (await log('fraud_detection', `&rule_id=${ruleId}&event=triggered`))[0]!;
    expect(trig.detail).toMatch(/revenue 1\.5 > 1 \(60 min\)/);
    expect(trig.figures).toMatchObject({ revenue: 1.5, minutes: 30, attempts: 30 });
    expect(trig).toMatchObject({ trunk_id: f.ingress, trunk_name: 'Customer in', carrier_name: 'Customer' });

    expect(ok(await route())).toMatchObject({
      result: 'reject',
      reject_code: 403,
      reject_reason: 'trunk_blocked',
    });

    const mail = await until('fraud mail', async () =>
      smtp.mails.find((m) => m.subject.startsWith('Fraud on')),
    );
    expect(mail.subject).toBe('Fraud on Customer in (Expensive burst)');
    expect(mail.to.sort()).toEqual(['noc@carrier.test', 'noc@customer.test']);
    expect(mail.text).toMatch(/Expensive burst fired on trunk Customer in/);

    const rule = ok(await get<FraudRow>(`/monitoring/fraud_detection/${ruleId}`));
    expect(rule).toMatchObject({ triggers_1h: 1, triggers_24h: 1, active_blocks: 1, hour_revenue: '1' });
    expect(rule.last_run_at).not.toBeNull();
  });

  it('does not fire again while the breach lasts', async () => {
    await traffic(5, 2);
    await runPass();
    expect(await log('fraud_detection', `&rule_id=${ruleId}&event=triggered`)).toHaveLength(1);
    expect(ok(await get<FraudRow>(`/monitoring/fraud_detection/${ruleId}`)).active_blocks).toBe(1);
  });

  it('logs every run of the rule: what it looked at and what it decided', async () => {
    const runs = await log('fraud_detection', `&rule_id=${ruleId}&event=run`);
    // A row per pass (ours: 70 minutes ago only, the burst, the breach going on), newest first.
    expect(runs.length).toBeGreaterThanOrEqual(3);
    expect(runs[0]!.figures).toMatchObject({
      subjects: 1,
      breach: 1,
      fired: 0,
      window_minutes: 60,
      trunks: 1,
    });
    const fired = runs.filter((r) => r.figures?.fired === 1);
    expect(fired).toHaveLength(1);
    expect(fired[0]!.detail).toBe(
      `1 trunks over 60 min: 1 breaching, 0 within, 0 too few calls; 1 fired, 0 cleared; breaching: trunk ${f.ingress}`,
    );
    expect(runs[runs.length - 1]!.figures).toMatchObject({ subjects: 0, breach: 0, fired: 0 });
    expect(runs[0]!.figures?.ms).toEqual(expect.any(Number));
    // A run is not a trigger: the counters and the fraud report ignore it.
    expect(ok(await get<FraudRow>(`/monitoring/fraud_detection/${ruleId}`)).triggers_24h).toBe(1);
  });

  it('the fraud report lists the trigger with its block', async () => {
    const report = ok(
      await get<{
        items: { rule_name: string; block_active: boolean; blocked_until: string | null }[];
        triggers_1h: number;
      }>('/statistics/fraud_report'),
    );
    expect(report.triggers_1h).toBe(1);
    expect(report.items).toEqual([
      expect.objectContaining({
        rule_name: 'Expensive burst',
        block_active: true,
        blocked_until: expect.any(String) as string,
      }),
    ]);
  });

  it('a block whose time is up lifts, re-arms the rule, and traffic still over the threshold fires again', async () => {
    const db = h.built.services.db;
    await db
      .updateTable('monitoring_blocks')
      .set({ until: new Date(Date.now() - 1000) })
      .where('rule_id', '=', ruleId)
      .execute();
    // the route API checks `until` itself: after the next sync the old block no longer refuses
    await runPass();
    const unblocked = await log('fraud_detection', `&rule_id=${ruleId}&event=unblocked`);
    expect(unblocked).toEqual([expect.objectContaining({ detail: 'time is up' })]);
    expect(await log('fraud_detection', `&rule_id=${ruleId}&event=triggered`)).toHaveLength(2);
    const blocks = ok(
      await get<Paged<BlockRow>>(`/monitoring/fraud_detection/blocks?rule_id=${ruleId}`),
    ).items;
    expect(blocks.map((b) => [b.active, b.lift_reason])).toEqual([
      [true, null],
      [false, 'expired'],
    ]);
  });

  it('lifts a block by hand (execute), logged with who did it; the call routes again; a second lift is refused', async () => {
    const active = ok(
      await get<Paged<BlockRow>>(`/monitoring/fraud_detection/blocks?rule_id=${ruleId}&active=true`),
    ).items;
    expect(active).toHaveLength(1);
    const id = active[0]!.block_id;
    ok(await post(`/monitoring/fraud_detection/blocks/${id}/unblock`));
    expect(ok(await route())).toMatchObject({ result: 'route' });
    fails(await post(`/monitoring/fraud_detection/blocks/${id}/unblock`), 170, /already been lifted/);
    expect(await log('fraud_detection', `&rule_id=${ruleId}&event=unblocked`)).toContainEqual(
      expect.objectContaining({ detail: 'lifted by hand by admin' }),
    );
    const audit = await auditRows(h, 'monitoring_block', id);
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['block', 'unblock']));
    // a manual lift does not re-arm: the same breach does not block again
    await runPass();
    expect(await log('fraud_detection', `&rule_id=${ruleId}&event=triggered`)).toHaveLength(2);
    ok(await patch(`/monitoring/fraud_detection/${ruleId}/deactivate`, {}));
  });

  it('with ANI granularity blocks only the calling ANI (403 ani_monitor_blocked)', async () => {
    const id = ok(
      await post('/monitoring/fraud_detection/create', {
        rule_name: 'Per ANI minutes',
        granularity: 'ani',
        trunk_ids: [f.ingress],
        hour_minutes: '20',
      }),
    ).object_id;
    await runPass();
    const trig = await log('fraud_detection', `&rule_id=${id}&event=triggered`);
    expect(trig).toEqual([expect.objectContaining({ subject: '15550001111' })]);
    expect(ok(await route())).toMatchObject({ result: 'reject', reject_reason: 'ani_monitor_blocked' });
    expect(ok(await route('447700900123', { ani: '15550002222' }))).toMatchObject({ result: 'route' });
    const block = ok(await get<Paged<BlockRow>>(`/monitoring/fraud_detection/blocks?rule_id=${id}`))
      .items[0]!;
    expect(block).toMatchObject({ ani: '15550001111', until: null, active: true });
    ok(await post(`/monitoring/fraud_detection/blocks/${block.block_id}/unblock`));
    ok(await patch(`/monitoring/fraud_detection/${id}/deactivate`, {}));
  });
});

describe('monitoring rules', () => {
  it('blocks an egress trunk whose ASR over the sample is too low; the route API routes around it; it clears when traffic is fine', async () => {
    const vendorA = f.vendors[0]!.trunk;
    const before = ok(await route()).routes.map((r) => r.trunk_id);
    expect(before).toContain(vendorA);
    const id = ok(
      await post('/monitoring/rule/create', {
        rule_name: 'Vendor A ASR',
        side: 'egress',
        trunk_ids: [vendorA],
        code_mode: 'include',
        codes: ['44'],
        asr_below: '50',
        min_attempts: 10,
        sample_minutes: 15,
        every_minutes: 5,
        action_block: 'trunk',
        unblock_after_minutes: 10,
      }),
    ).object_id;
    await traffic(20, 3, { duration: 0, vendor: 0 }); // unanswered: ASR over the sample falls
    await runPass('rule');
    const rule = ok(await get<RuleRow>(`/monitoring/rule/${id}`));
    expect(rule.active_blocks).toBe(1);
    expect(rule.next_run_at).not.toBeNull();
    const trig = (await log('rule', `&rule_id=${id}&event=triggered`))[0]!;
    expect(trig.detail).toMatch(/^asr .* < 50 \(15 min\)/);
    const after = ok(await route()).routes.map((r) => r.trunk_id);
    expect(after).not.toContain(vendorA);
    expect(after.length).toBe(before.length - 1);

    // answered traffic brings the ASR back over 50 %: the rule clears (the block stays its time)
    await traffic(60, 1, { vendor: 0 });
    await runPass('rule');
    expect(await log('rule', `&rule_id=${id}&event=cleared`)).toHaveLength(1);
  });

  it('lists, filters by trunk, and records changes in the modification log', async () => {
    const list = ok(await get<Paged<RuleRow>>(`/monitoring/rule/list?trunk_id=${f.vendors[0]!.trunk}`));
    expect(list.items.map((r) => r.rule_name)).toEqual(['Vendor A ASR']);
    expect(list.items[0]!.trunks).toEqual([expect.objectContaining({ name: 'Vendor A out' })]);
    expect(ok(await get<Paged<RuleRow>>(`/monitoring/rule/list?trunk_id=${f.vendors[1]!.trunk}`)).total).toBe(
      0,
    );
    const id = list.items[0]!.id;
    ok(await patch(`/monitoring/rule/${id}`, { every_minutes: 15 }));
    expect((await auditRows(h, 'monitoring_rule', id)).map((a) => a.action).sort()).toEqual([
      'create',
      'update',
    ]);
    const dup = await post('/monitoring/rule/create', {
      rule_name: 'vendor a asr',
      trunk_ids: [f.vendors[0]!.trunk],
      asr_below: '10',
      min_attempts: 1,
      sample_minutes: 5,
      every_minutes: 5,
    });
    fails(dup, 160, /already exists/);
  });
});

describe('loop detection', () => {
  it('refuses the same ANI and DNIS more than N times in S seconds (482 loop_detected), in the route API and the call simulation', async () => {
    const id = ok(
      await post('/monitoring/loop_detection/create', {
        rule_name: 'Loops',
        trunk_ids: [f.ingress],
        max_calls: 2,
        window_seconds: 30,
        block_seconds: 60,
      }),
    ).object_id;
    await until('loop rule in the route API', async () => {
      await route('447700900555');
      await route('447700900555');
      const third = ok(await route('447700900555'));
      return third.reject_reason === 'loop_detected' ? third : null;
    });
    expect(ok(await route('447700900555'))).toMatchObject({ result: 'reject', reject_code: 482 });
    expect(ok(await route('447700900556'))).toMatchObject({ result: 'route' });
    const sim = ok(
      await post<{
        result: string;
        reject_reason: string;
        trace: { step: string; outcome: string; detail: string }[];
      }>('/tools/call_simulation', { source_ip: '198.51.100.7', ani: '15550001111', dnis: '447700900555' }),
    );
    expect(sim).toMatchObject({ result: 'reject', reject_reason: 'loop_detected' });
    expect(sim.trace).toContainEqual(expect.objectContaining({ step: 'monitoring', outcome: 'fail' }));
    const loops = await until('loop logged', async () => {
      const l = await log('loop_detection', `&rule_id=${id}`);
      return l.length ? l : null;
    });
    expect(loops[0]).toMatchObject({
      event: 'loop',
      subject: '15550001111 -> 447700900555',
      trunk_id: f.ingress,
    });
    expect(ok(await get<{ loops_24h: number }>(`/monitoring/loop_detection/${id}`)).loops_24h).toBe(1);
  });
});

let dnisSeq = 0;
/** A number not called before in this file (loop detection counts each ANI and DNIS pair). */
const freshDnis = () => `4477009${String(++dnisSeq).padStart(5, '0')}`;

describe('the route API follows the blocks written by any process', () => {
  it('a block written elsewhere (another process) refuses calls within the sync interval, and its lift too', async () => {
    const db = h.built.services.db;
    const version = async () =>
      Number(
        (
          await db
            .selectFrom('config_versions')
            .select('version')
            .where('name', '=', 'monitoring')
            .executeTakeFirstOrThrow()
        ).version,
      );
    expect(ok(await route(freshDnis())).result).toBe('route');
    const before = await version();
    const b = await db
      .insertInto('monitoring_blocks')
      .values({
        rule_kind: 'fraud',
        rule_id: null,
        rule_name: 'Elsewhere',
        subject: `trunk:${f.ingress}`,
        side: 'ingress',
        trunk_id: f.ingress,
        until: new Date(Date.now() + 3_600_000),
      })
      .returning('block_id')
      .executeTakeFirstOrThrow();
    expect(await version()).toBeGreaterThan(before);
    await until('the block in the route API', async () => {
      const r = ok(await route(freshDnis()));
      return r.reject_reason === 'trunk_blocked' ? r : null;
    });
    await db
      .updateTable('monitoring_blocks')
      .set({ lifted_at: new Date(), lifted_by: 'elsewhere', lift_reason: 'manual' })
      .where('block_id', '=', b.block_id)
      .execute();
    await until('the lift in the route API', async () => {
      const r = ok(await route(freshDnis()));
      return r.result === 'route' ? r : null;
    });
  });
});

describe('live monitoring', () => {
  it('summary: the latest events without routine runs, blocks in force, triggers and loops, calls up', async () => {
    const live = ok(
      await get<{
        events: { id: number; event: string }[];
        last_id: number;
        active_blocks: number;
        triggers_24h: number;
        loops_1h: number;
        calls: { total: number; trunks: unknown[] };
      }>('/monitoring/live_event'),
    );
    expect(live.events.length).toBeGreaterThan(0);
    expect(live.events.map((e) => e.event)).not.toContain('run');
    expect(live.events.map((e) => e.event)).toEqual(expect.arrayContaining(['triggered', 'loop']));
    expect(live.last_id).toBe(live.events[0]!.id);
    expect(live.triggers_24h).toBeGreaterThanOrEqual(3);
    expect(live.loops_1h).toBeGreaterThanOrEqual(1);
    expect(live.calls).toMatchObject({
      total: expect.any(Number) as number,
      trunks: expect.any(Array) as [],
    });
  });

  it('pushes each new event of any process to the browser as a server-sent event, routine runs left out', async () => {
    const app = h.built.app;
    if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const ac = new AbortController();
    const res = await fetch(`http://127.0.0.1:${port}/api/monitoring/live_event/stream`, {
      headers: { 'x-auth-token': admin },
      signal: ac.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const read = async (what: RegExp) => {
      const deadline = Date.now() + 15_000;
      while (!what.test(text)) {
        if (Date.now() > deadline) throw new Error(`no ${String(what)} in the stream: ${text}`);
        const chunk = await reader.read();
        if (chunk.done) throw new Error(`stream ended: ${text}`);
        text += decoder.decode(chunk.value as Uint8Array);
      }
    };
    await read(/event: calls/);
    const db = h.built.services.db;
    await db
      .insertInto('monitoring_log')
      .values([
        { rule_kind: 'rule', rule_name: 'Routine', event: 'run', detail: 'nothing' },
        { rule_kind: 'fraud', rule_name: 'Pushed', event: 'triggered', detail: 'from another process' },
      ])
      .execute();
    await read(/"rule_name":"Pushed"/);
    expect(text).toMatch(
      /event: log\ndata: \{[^\n]*"event":"triggered"[^\n]*"rule_name":"Pushed"|event: log\ndata: \{[^\n]*"rule_name":"Pushed"/,
    );
    expect(text).not.toContain('Routine');
    ac.abort();
    // A stream sent again from the last id it saw gets what it missed.
    const again = await fetch(`http://127.0.0.1:${port}/api/monitoring/live_event/stream?after_id=0`, {
      headers: { 'x-auth-token': admin },
      signal: AbortSignal.timeout(5_000),
    }).catch(() => null);
    expect(again?.status).toBe(200);
    await again?.body?.cancel();
  });

  it('needs the Live Event permission', async () => {
    const other = await makeRestrictedAdmin(h, admin, 'nolive', { '/monitoring/fraud_detection': 'r' });
    denied(await get('/monitoring/live_event', other.token));
    denied(await get('/monitoring/live_event/stream', other.token));
    const reader = await makeRestrictedAdmin(h, admin, 'liveonly', { '/monitoring/live_event': 'r' });
    ok(await get('/monitoring/live_event', reader.token));
  });
});

describe('media IP blocking (monitoring)', () => {
  it("blocks a source address in the routing screen's list: the route API refuses it until it is removed", async () => {
    const id = ok(
      await post('/monitoring/media_ip_blocking/create', { ip: '198.51.100.7', note: 'fraud source' }),
    ).object_id;
    const listed = ok(
      await get<Paged<{ id: number; ip: string; note: string }>>('/routing/inbound_media_ip_blocking/list'),
    ).items;
    expect(listed).toContainEqual(expect.objectContaining({ id, ip: '198.51.100.7', note: 'fraud source' }));
    await rebuildAfter(h, admin);
    expect(ok(await route(freshDnis()))).toMatchObject({
      result: 'reject',
      reject_code: 403,
      reject_reason: 'source_ip_blocked',
    });
    ok(await h.call('DELETE', `/api/monitoring/media_ip_blocking/${id}`, { token: admin }));
    await rebuildAfter(h, admin);
    expect(ok(await route(freshDnis())).result).toBe('route');
    expect((await auditRows(h, 'inbound_media_ip_block', id)).map((a) => a.action).sort()).toEqual([
      'create',
      'delete',
    ]);
  });

  it('uploads a list; each screen needs its own permission', async () => {
    const file = {
      name: 'ips.csv',
      data: Buffer.from('ip,note\n192.0.2.10,flood\n192.0.2.0/30,range\n'),
      type: 'text/csv',
    };
    const r = ok(await upload(h, '/api/monitoring/media_ip_blocking/upload', admin, {}, file));
    expect(r).toMatchObject({ inserted_rows: 2 });
    const ips = ok(await get<Paged<{ ip: string }>>('/monitoring/media_ip_blocking/list?per_page=100')).items;
    expect(ips.map((x) => x.ip)).toEqual(expect.arrayContaining(['192.0.2.10', '192.0.2.0/30']));
    const reader = await makeRestrictedAdmin(h, admin, 'ipwatcher', { '/monitoring/media_ip_blocking': 'r' });
    ok(await get('/monitoring/media_ip_blocking/list', reader.token));
    denied(await post('/monitoring/media_ip_blocking/create', { ip: '192.0.2.20' }, reader.token));
    const router = await makeRestrictedAdmin(h, admin, 'iprouter', {
      '/routing/inbound_media_ip_blocking': 'rw',
    });
    denied(await get('/monitoring/media_ip_blocking/list', router.token));
    ok(await get('/routing/inbound_media_ip_blocking/list', router.token));
  });
});
