import { statfsSync } from 'node:fs';
import { MENU_MODULES } from '@tandem/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  auditRows,
  denied,
  expectSessionRequired,
  expireToken,
  fails,
  invalid,
  makeCarrierUser,
  makeRestrictedAdmin,
  makeSessionStates,
  notVisible,
  ok,
  startHarness,
  tinyPng,
  upload,
  type Harness,
  type SessionStates,
} from './harness';

type Submenu = {
  id: number;
  main_menu_id: number;
  group_name: string;
  display_name: string;
  web_url: string;
  ordering: number;
  is_readable: boolean;
  is_editable: boolean;
  sub: string | null;
};
type Paged<T> = { items: T[]; total: number };
type System = {
  inactivity_timeout: number;
  timezone: string;
  hide_version: boolean;
  user_registration_enabled: boolean;
  base_url: string;
};
type Branding = {
  logo_image_id: number | null;
  favicon_id: number | null;
  background_image_id: number | null;
  image_url: string | null;
  title: string;
  content: string;
  user_registration_enabled: boolean;
};

const MENU_QUERY = '/api/config/sys_submenu/list?page=0&per_page=9999&order_by=display_name&order_dir=asc';
const CATALOGUE = MENU_MODULES.flatMap((m) => m.items);

let h: Harness;
let admin: string;
let states: SessionStates;
let client: string;
let restricted: { userId: number; token: string; roleId: number };
let brander: { userId: number; token: string; roleId: number };

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  states = await makeSessionStates(h);
  client = (await makeCarrierUser(h, admin, 'Acme')).token;
  restricted = await makeRestrictedAdmin(h, admin, 'stats_only', {
    '/statistics/dashboard': 'r',
    '/statistics/summary_report': 'rw',
  });
  brander = await makeRestrictedAdmin(h, admin, 'brander', { '/configuration/login_content': 'rw' });
});
afterAll(() => h.close());

describe('GET /config/sys_submenu/list', () => {
  it('answers the whole catalogue (lawful intercept hidden), readable and editable for an unrestricted admin', async () => {
    const p = ok(await h.call<Paged<Submenu>>('GET', MENU_QUERY, { token: admin }));
    expect(p.total).toBe(CATALOGUE.length - 1);
    expect(p.items).toHaveLength(CATALOGUE.length - 1);
    expect(p.items.map((i) => i.web_url)).not.toContain('/tools/lawful_intercept');
    expect(p.items.every((i) => i.is_readable && i.is_editable)).toBe(true);
    // Modules stay in menu order; within each module the items are sorted by display name.
    expect([...new Set(p.items.map((i) => i.group_name))]).toEqual(MENU_MODULES.map((m) => m.group_name));
    for (const m of MENU_MODULES) {
      const names = p.items.filter((i) => i.main_menu_id === m.id).map((i) => i.display_name);
      expect(names).toEqual([...names].sort());
    }
    const roles = p.items.find((i) => i.web_url === '/configuration/roles');
    expect(roles).toMatchObject({
      display_name: 'Roles',
      group_name: 'Configuration',
      main_menu_id: 1,
      sub: null,
    });
    const stats = p.items.filter((i) => i.group_name === 'Statistics');
    expect(stats.length).toBeGreaterThan(0);
    expect(stats.filter((i) => i.sub === 'termination').length).toBeGreaterThan(0);
    expect(stats.filter((i) => i.sub === 'origination').length).toBeGreaterThan(0);
  });

  it('pages and sorts as asked', async () => {
    const all = ok(await h.call<Paged<Submenu>>('GET', MENU_QUERY, { token: admin }));
    const page = ok(
      await h.call<Paged<Submenu>>(
        'GET',
        '/api/config/sys_submenu/list?page=1&per_page=10&order_by=display_name&order_dir=asc',
        { token: admin },
      ),
    );
    expect(page.total).toBe(all.total);
    expect(page.items.map((i) => i.id)).toEqual(all.items.slice(10, 20).map((i) => i.id));
    const desc = ok(
      await h.call<Paged<Submenu>>(
        'GET',
        '/api/config/sys_submenu/list?per_page=9999&order_by=display_name&order_dir=desc',
        { token: admin },
      ),
    );
    const config = (items: Submenu[]) =>
      items.filter((i) => i.group_name === 'Configuration').map((i) => i.display_name);
    expect(desc.items[0]!.group_name).toBe('Configuration');
    expect(config(desc.items)).toEqual(config(all.items).reverse());
    // Without order_by: the catalogue order of each module.
    const plain = ok(
      await h.call<Paged<Submenu>>('GET', '/api/config/sys_submenu/list?per_page=3', { token: admin }),
    );
    expect(plain.items.map((i) => i.web_url)).toEqual(
      MENU_MODULES[0]!.items.slice(0, 3).map((i) => i.web_url),
    );
  });

  it("flags only the restricted admin's granted items", async () => {
    const p = ok(await h.call<Paged<Submenu>>('GET', MENU_QUERY, { token: restricted.token }));
    expect(
      p.items
        .filter((i) => i.is_readable)
        .map((i) => i.web_url)
        .sort(),
    ).toEqual(['/statistics/dashboard', '/statistics/summary_report']);
    expect(p.items.filter((i) => i.is_editable).map((i) => i.web_url)).toEqual([
      '/statistics/summary_report',
    ]);
  });

  it('flags nothing for a portal user', async () => {
    const p = ok(await h.call<Paged<Submenu>>('GET', MENU_QUERY, { token: client }));
    expect(p.items.some((i) => i.is_readable || i.is_editable)).toBe(false);
  });

  it('names malformed query fields and refuses unusable sessions', async () => {
    invalid(
      await h.call('GET', '/api/config/sys_submenu/list?per_page=100001', { token: admin }),
      'per_page',
    );
    invalid(await h.call('GET', '/api/config/sys_submenu/list?page=x', { token: admin }), 'page');
    await expectSessionRequired(h, states, 'GET', MENU_QUERY);
  });
});

describe('GET /config/main_menu/list', () => {
  it('answers the module groups in menu order', async () => {
    const p = ok(
      await h.call<Paged<{ id: number; group_name: string }>>('GET', '/api/config/main_menu/list', {
        token: restricted.token,
      }),
    );
    expect(p.items).toEqual(MENU_MODULES.map((m) => ({ id: m.id, group_name: m.group_name })));
    expect(p.total).toBe(MENU_MODULES.length);
    await expectSessionRequired(h, states, 'GET', '/api/config/main_menu/list');
  });
});

describe('GET and PATCH /config/system', () => {
  it('answers the defaults to any signed-in user', async () => {
    const sys = ok(await h.call<System>('GET', '/api/config/system', { token: client }));
    expect(sys).toMatchObject({
      inactivity_timeout: 30,
      timezone: '+0000',
      hide_version: false,
      user_registration_enabled: false,
      base_url: '',
    });
    await expectSessionRequired(h, states, 'GET', '/api/config/system');
  });

  it('changes settings, keeps the others and logs before and after', async () => {
    ok(
      await h.call('PATCH', '/api/config/system', {
        token: admin,
        body: { inactivity_timeout: 15, timezone: '-0500', hide_version: true },
      }),
    );
    const sys = ok(await h.call<System>('GET', '/api/config/system', { token: client }));
    expect(sys).toMatchObject({
      inactivity_timeout: 15,
      timezone: '-0500',
      hide_version: true,
      user_registration_enabled: false,
    });
    const [row] = await auditRows(h, 'system_setting', 'system');
    expect(row).toMatchObject({ action: 'update', user_name: ADMIN.name });
    expect(row!.before).toMatchObject({ inactivity_timeout: 30, timezone: '+0000', hide_version: false });
    expect(row!.after).toMatchObject({ inactivity_timeout: 15, timezone: '-0500', hide_version: true });
  });

  it('names malformed fields and changes nothing', async () => {
    invalid(
      await h.call('PATCH', '/api/config/system', { token: admin, body: { inactivity_timeout: -1 } }),
      'inactivity_timeout',
    );
    invalid(
      await h.call('PATCH', '/api/config/system', { token: admin, body: { inactivity_timeout: 'ten' } }),
      'inactivity_timeout',
    );
    invalid(
      await h.call('PATCH', '/api/config/system', { token: admin, body: { timezone: '+1300' } }),
      'timezone',
      'timezone is not valid',
    );
    invalid(
      await h.call('PATCH', '/api/config/system', { token: admin, body: { timezone: '+0530' } }),
      'timezone',
    );
    invalid(
      await h.call('PATCH', '/api/config/system', { token: admin, body: { support_link: 'x'.repeat(501) } }),
      'support_link',
      'support_link must be at most 500 characters',
    );
    invalid(await h.call('PATCH', '/api/config/system', { token: admin, body: { secret: 'x' } }), '_');
    fails(
      await h.call('PATCH', '/api/config/system', { token: admin, raw: '{inactivity_timeout: 5}' }),
      110,
      'The request body is not valid JSON',
    );
    expect(ok(await h.call<System>('GET', '/api/config/system', { token: admin })).inactivity_timeout).toBe(
      15,
    );
  });

  it('refuses portal users and admins without the system setting permission', async () => {
    denied(await h.call('PATCH', '/api/config/system', { token: client, body: { inactivity_timeout: 1 } }));
    denied(
      await h.call('PATCH', '/api/config/system', {
        token: restricted.token,
        body: { inactivity_timeout: 1 },
      }),
    );
    await expectSessionRequired(h, states, 'PATCH', '/api/config/system', {
      body: { inactivity_timeout: 1 },
    });
    expect(ok(await h.call<System>('GET', '/api/config/system', { token: admin })).inactivity_timeout).toBe(
      15,
    );
  });
});

describe('uploads: POST /config/import and GET /config/export/public/:id', () => {
  it('stores a PNG avatar of any user and serves the same bytes as image/png', async () => {
    const png = tinyPng(3, 2, [10, 200, 30]);
    const r = await upload(
      h,
      '/api/config/import',
      client,
      { entity: 'avatar', format: 'png' },
      { name: 'face.PNG', data: png, type: 'image/png' },
    );
    const id = ok(r).object_id;
    const got = await h.built.app.inject({ method: 'GET', url: `/api/config/export/public/${id}` });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.rawPayload.equals(png)).toBe(true);
    const [audit] = await auditRows(h, 'file', id);
    expect(audit).toMatchObject({
      action: 'upload',
      after: { entity: 'avatar', file_name: 'face.PNG', size_bytes: png.length },
    });
  });

  it('stores a JPEG avatar', async () => {
    const jpeg = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
      Buffer.from('JFIF\0'),
      Buffer.alloc(20),
      Buffer.from([0xff, 0xd9]),
    ]);
    const id = ok(
      await upload(
        h,
        '/api/config/import',
        admin,
        { entity: 'avatar', format: 'jpg' },
        { name: 'me.jpg', data: jpeg },
      ),
    ).object_id;
    const got = await h.built.app.inject({ method: 'GET', url: `/api/config/export/public/${id}` });
    expect(got.headers['content-type']).toBe('image/jpeg');
    expect(got.rawPayload.equals(jpeg)).toBe(true);
  });

  it('refuses a type that is not png, jpg or jpeg, and a renamed file that is not an image', async () => {
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
    invalid(
      await upload(
        h,
        '/api/config/import',
        client,
        { entity: 'avatar', format: 'gif' },
        { name: 'a.gif', data: gif },
      ),
      'file',
      "You can't upload files of this type.",
    );
    invalid(
      await upload(
        h,
        '/api/config/import',
        client,
        { entity: 'avatar' },
        { name: 'notes.txt', data: Buffer.from('hello') },
      ),
      'file',
      "You can't upload files of this type.",
    );
    invalid(
      await upload(
        h,
        '/api/config/import',
        client,
        { entity: 'avatar', format: 'png' },
        { name: 'evil.png', data: Buffer.from('<script>alert(1)</script>') },
      ),
      'file',
      "You can't upload files of this type.",
    );
    invalid(
      await upload(
        h,
        '/api/config/import',
        client,
        { entity: 'avatar', format: 'png' },
        { name: 'gif.png', data: gif },
      ),
      'file',
    );
    // The declared format must agree with the file.
    invalid(
      await upload(
        h,
        '/api/config/import',
        client,
        { entity: 'avatar', format: 'exe' },
        { name: 'ok.png', data: tinyPng() },
      ),
      'file',
    );
    const n = await h.built.services.db
      .selectFrom('files')
      .select('id')
      .where('file_name', 'in', ['a.gif', 'notes.txt', 'evil.png', 'gif.png'])
      .execute();
    expect(n).toHaveLength(0);
  });

  it('refuses an avatar over 5 MB with the size in the message', async () => {
    const big = Buffer.concat([tinyPng(), Buffer.alloc(6 * 1024 * 1024)]);
    const r = await upload(
      h,
      '/api/config/import',
      client,
      { entity: 'avatar', format: 'png' },
      { name: 'big.png', data: big },
    );
    fails(r, 110, 'File is too big (6.0MB). Max file size: 5MB');
    expect(r.status).toBe(413);
  });

  it('names a missing file, an unknown entity, and a body that is not multipart', async () => {
    invalid(await upload(h, '/api/config/import', client, { entity: 'avatar' }), 'file', 'file is required');
    invalid(
      await upload(h, '/api/config/import', client, { entity: 'virus' }, { name: 'a.png', data: tinyPng() }),
      'entity',
      'entity must be one of: avatar, logo, favicon, background',
    );
    const json = await h.call('POST', '/api/config/import', { token: client, body: { entity: 'avatar' } });
    fails(json, 110);
    expect(json.status).toBeLessThan(500);
  });

  it('lets only admins with the login content permission upload branding images', async () => {
    denied(
      await upload(
        h,
        '/api/config/import',
        client,
        { entity: 'logo', format: 'png' },
        { name: 'logo.png', data: tinyPng() },
      ),
    );
    denied(
      await upload(
        h,
        '/api/config/import',
        restricted.token,
        { entity: 'background', format: 'png' },
        { name: 'bg.png', data: tinyPng() },
      ),
    );
    ok(
      await upload(
        h,
        '/api/config/import',
        brander.token,
        { entity: 'logo', format: 'png' },
        { name: 'logo.png', data: tinyPng() },
      ),
    );
    const ico = Buffer.from([0, 0, 1, 0, 1, 0, 16, 16, 0, 0, 1, 0, 32, 0, 0, 0, 0, 0, 22, 0, 0, 0]);
    ok(
      await upload(
        h,
        '/api/config/import',
        brander.token,
        { entity: 'favicon', format: 'ico' },
        { name: 'favicon.ico', data: ico },
      ),
    );
  });

  it('refuses unusable sessions', async () => {
    const file = { name: 'a.png', data: tinyPng() };
    const none = await upload(h, '/api/config/import', null, { entity: 'avatar' }, file);
    fails(none, 130);
    fails(
      await upload(h, '/api/config/import', 'w'.repeat(43), { entity: 'avatar' }, file),
      130,
      'Incorrect token provided',
    );
    fails(
      await upload(h, '/api/config/import', states.revoked, { entity: 'avatar' }, file),
      130,
      'token is disabled',
    );
    fails(await upload(h, '/api/config/import', states.expired, { entity: 'avatar' }, file), 120);
  });

  it('answers 150 for an unknown file and 110 for a malformed id; needs no token', async () => {
    notVisible(await h.call('GET', '/api/config/export/public/99999'));
    invalid(await h.call('GET', '/api/config/export/public/logo', {}), 'id');
    invalid(await h.call('GET', '/api/config/export/public/0', {}), 'id');
  });
});

describe('login branding: GET /config/login/public and PATCH /config/login', () => {
  it('answers the defaults without a session', async () => {
    const b = ok(await h.call<Branding>('GET', '/api/config/login/public'));
    expect(b).toEqual({
      logo_image_id: null,
      favicon_id: null,
      background_image_id: null,
      image_url: null,
      title: 'Tandem',
      content: '',
      user_registration_enabled: false,
    });
  });

  it('sets logo, favicon and background to uploaded images and logs the change', async () => {
    const logo = ok(
      await upload(
        h,
        '/api/config/import',
        admin,
        { entity: 'logo', format: 'png' },
        { name: 'l.png', data: tinyPng(2, 2) },
      ),
    ).object_id;
    const bg = ok(
      await upload(
        h,
        '/api/config/import',
        admin,
        { entity: 'background', format: 'png' },
        { name: 'b.png', data: tinyPng(4, 4) },
      ),
    ).object_id;
    ok(
      await h.call('PATCH', '/api/config/login', {
        token: brander.token,
        body: {
          logo_image_id: logo,
          favicon_id: logo,
          background_image_id: bg,
          title: 'Carrier X',
          content: 'Welcome',
        },
      }),
    );
    ok(
      await h.call('PATCH', '/api/config/system', {
        token: admin,
        body: { user_registration_enabled: false },
      }),
    );
    const b = ok(await h.call<Branding>('GET', '/api/config/login/public'));
    expect(b).toEqual({
      logo_image_id: logo,
      favicon_id: logo,
      background_image_id: bg,
      image_url: `/api/config/export/public/${bg}`,
      title: 'Carrier X',
      content: 'Welcome',
      user_registration_enabled: false,
    });
    const img = await h.built.app.inject({ method: 'GET', url: b.image_url! });
    expect(img.statusCode).toBe(200);
    const [row] = await auditRows(h, 'login_content', 'login');
    expect(row).toMatchObject({
      action: 'update',
      before: { title: 'Tandem' },
      after: { title: 'Carrier X', logo_image_id: logo },
    });
  });

  it('refuses an image id that does not exist, and other malformed fields', async () => {
    invalid(
      await h.call('PATCH', '/api/config/login', { token: admin, body: { logo_image_id: 424242 } }),
      'logo_image_id',
      'logo_image_id is not valid',
    );
    invalid(
      await h.call('PATCH', '/api/config/login', { token: admin, body: { favicon_id: 'one' } }),
      'favicon_id',
    );
    invalid(
      await h.call('PATCH', '/api/config/login', { token: admin, body: { title: 'x'.repeat(201) } }),
      'title',
    );
    expect(ok(await h.call<Branding>('GET', '/api/config/login/public')).title).toBe('Carrier X');
  });

  it('refuses portal users and admins without the login content permission', async () => {
    denied(await h.call('PATCH', '/api/config/login', { token: client, body: { title: 'Hacked' } }));
    denied(
      await h.call('PATCH', '/api/config/login', { token: restricted.token, body: { title: 'Hacked' } }),
    );
    await expectSessionRequired(h, states, 'PATCH', '/api/config/login', { body: { title: 'Hacked' } });
    expect(ok(await h.call<Branding>('GET', '/api/config/login/public')).title).toBe('Carrier X');
  });

  it('answers branding to a caller whose stale token is irrelevant to a public page', async () => {
    ok(await h.call('GET', '/api/config/login/public', { token: 'n'.repeat(43) }));
  });
});

describe('GET /log/versions', () => {
  it('answers program name Tandem, version 11.0.0, build date and start time', async () => {
    const p = ok(
      await h.call<
        Paged<{ program_name: string; major_ver: string; build_date: string; start_time: string }>
      >('GET', '/api/log/versions', { token: client }),
    );
    expect(p.total).toBe(1);
    const v = p.items[0]!;
    expect(v).toMatchObject({ program_name: 'Tandem', major_ver: '11.0.0' });
    const started = Date.parse(v.start_time);
    expect(started).toBeLessThanOrEqual(Date.now());
    expect(started).toBeGreaterThan(Date.now() - 10 * 60_000);
    expect(Number.isNaN(Date.parse(v.build_date))).toBe(false);
    expect(Date.parse(v.build_date)).toBeLessThanOrEqual(started + 1000);
    await expectSessionRequired(h, states, 'GET', '/api/log/versions');
  });
});

describe('GET /watchdog/server/:server/status', () => {
  it("answers the real disk figures of the data directory's file system", async () => {
    const p = ok(
      await h.call<{
        server: string;
        disk: {
          mount: string;
          percent: number;
          used_percent: number;
          total_bytes: number;
          used_bytes: number;
        }[];
      }>('GET', '/api/watchdog/server/local/status', { token: admin }),
    );
    expect(p.server).toBe('local');
    expect(p.disk).toHaveLength(1);
    const d = p.disk[0]!;
    const st = statfsSync(d.mount);
    const total = st.blocks * st.bsize;
    const free = st.bavail * st.bsize;
    expect(d.total_bytes).toBe(total);
    expect(Math.abs(d.used_bytes - (total - free))).toBeLessThan(total * 0.01);
    expect(Math.abs(d.percent - (free / total) * 100)).toBeLessThan(1);
    expect(d.percent + d.used_percent).toBeCloseTo(100, 0);
    expect(d.total_bytes).toBeGreaterThan(0);
  });

  it('refuses unusable sessions and names a malformed server', async () => {
    await expectSessionRequired(h, states, 'GET', '/api/watchdog/server/local/status');
    // Over-long path components are refused by the router, still with the envelope.
    const long = await h.call('GET', `/api/watchdog/server/${'s'.repeat(101)}/status`, { token: admin });
    fails(long, 110, 'URL is not valid');
    expect(long.status).toBe(400);
  });

  it('answers 120 once the access window is over', async () => {
    const t = await h.signIn(ADMIN.name, ADMIN.passwd);
    await expireToken(h, t);
    fails(await h.call('GET', '/api/watchdog/server/local/status', { token: t }), 120);
  });
});
