import type { SystemConfig, SystemSettings } from '@tandem/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  auditRows,
  denied,
  expectSessionRequired,
  invalid,
  makeAgent,
  makeCarrierUser,
  makeRestrictedAdmin,
  makeSessionStates,
  ok,
  startHarness,
  type Harness,
  type SessionStates,
} from './harness';
import {
  lcrOverVendors,
  rateTable,
  settled,
  switchKey,
  termination,
  customerCall,
  rebuildAfter,
  switchRoute,
} from './routing-fixtures';

/**
 * Configuration > System Setting: GET /config/system (the frame subset, any signed-in user),
 * GET /config/system/all (admins with read on the page), PATCH /config/system (write), and the
 * default US IJ rule the routing engine prices indeterminate-jurisdiction calls with.
 */

const FRAME_KEYS = [
  'base_url',
  'help_link',
  'hide_help_link',
  'hide_license',
  'hide_support_link',
  'hide_version',
  'inactivity_timeout',
  'operating_company',
  'support_link',
  'timezone',
  'user_registration_enabled',
];

let h: Harness;
let admin: string;
let states: SessionStates;
let client: string;
let vendor: string;
let agent: string;
let reader: { token: string };
let outsider: { token: string };

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  states = await makeSessionStates(h);
  client = (await makeCarrierUser(h, admin, 'Acme')).token;
  vendor = (await makeCarrierUser(h, admin, 'Voxa', { client_type: 'vendor' })).token;
  agent = (await makeAgent(h, admin, 'Sally')).token;
  reader = await makeRestrictedAdmin(h, admin, 'settings_reader', { '/configuration/system_setting': 'r' });
  outsider = await makeRestrictedAdmin(h, admin, 'no_settings', { '/configuration/users': 'rw' });
});
afterAll(() => h.close());

const all = (token = admin) => h.call<SystemSettings>('GET', '/api/config/system/all', { token });
const patch = (body: Record<string, unknown>, token = admin) =>
  h.call('PATCH', '/api/config/system', { token, body });

describe('GET /config/system/all', () => {
  it('answers every setting with its default to an admin', async () => {
    expect(ok(await all())).toEqual({
      base_url: '',
      timezone: '+0000',
      inactivity_timeout: 30,
      operating_company: 'Tandem',
      user_registration_enabled: false,
      default_ring_timeout_s: 60,
      max_call_duration_s: 7200,
      default_us_ij_rule: 'inter',
      hide_version: false,
      hide_support_link: false,
      hide_help_link: false,
      hide_license: false,
      support_link: 'mailto:support@example.com',
      help_link: '/api/docs',
      notify_admin_emails: [],
      notify_finance_emails: [],
      notify_noc_emails: [],
      notify_ftp_failure_emails: [],
      billing_decimals: 6,
      report_decimals: 4,
      cdr_include_unauthorized_ip: false,
      short_call_seconds: 6,
      cdr_retention_days: 180,
      log_retention_days: 180,
      export_retention_days: 30,
      lrn_master_ip: '',
      lrn_master_port: 5060,
      lrn_slave_ip: '',
      lrn_slave_port: 5060,
      lrn_timeout_s: 3,
      lrn_retry_attempts: 1,
    });
    ok(await all(reader.token));
  });

  it('is refused to clients, vendors, agents and admins without read on the page', async () => {
    for (const token of [client, vendor, agent, outsider.token]) denied(await all(token));
    await expectSessionRequired(h, states, 'GET', '/api/config/system/all');
  });

  it('GET /config/system gives every signed-in user the frame subset only', async () => {
    ok(
      await patch({
        notify_noc_emails: ['noc@example.com'],
        lrn_master_ip: '192.0.2.53',
      }),
    );
    for (const token of [client, vendor, agent, outsider.token, admin]) {
      const frame = ok(await h.call<SystemConfig>('GET', '/api/config/system', { token }));
      expect(Object.keys(frame).sort()).toEqual(FRAME_KEYS);
      expect(JSON.stringify(frame)).not.toContain('noc@example.com');
      expect(JSON.stringify(frame)).not.toContain('192.0.2.53');
    }
    ok(await patch({ notify_noc_emails: [], lrn_master_ip: '' }));
  });
});

describe('PATCH /config/system', () => {
  it('changes every group, keeps the other settings and logs before and after', async () => {
    ok(
      await patch({
        default_ring_timeout_s: 45,
        max_call_duration_s: 3600,
        operating_company: 'Voice Co',
        base_url: 'https://portal.example.net',
        notify_admin_emails: ['Ops@Example.com', 'ops@example.com', 'boss@example.com'],
        notify_finance_emails: ['billing@example.com'],
        notify_ftp_failure_emails: ['ftp@example.com'],
        billing_decimals: 4,
        report_decimals: 2,
        cdr_include_unauthorized_ip: true,
        lrn_master_ip: '198.51.100.5',
        lrn_master_port: 5061,
        lrn_slave_ip: '198.51.100.6',
        lrn_timeout_s: 2,
        lrn_retry_attempts: 3,
      }),
    );
    const s = ok(await all());
    expect(s).toMatchObject({
      default_ring_timeout_s: 45,
      max_call_duration_s: 3600,
      operating_company: 'Voice Co',
      base_url: 'https://portal.example.net',
      // Addresses are compared without case; the same address twice is kept once.
      notify_admin_emails: ['ops@example.com', 'boss@example.com'],
      notify_finance_emails: ['billing@example.com'],
      notify_noc_emails: [],
      notify_ftp_failure_emails: ['ftp@example.com'],
      billing_decimals: 4,
      report_decimals: 2,
      cdr_include_unauthorized_ip: true,
      lrn_master_ip: '198.51.100.5',
      lrn_master_port: 5061,
      lrn_slave_ip: '198.51.100.6',
      lrn_slave_port: 5060,
      lrn_timeout_s: 2,
      lrn_retry_attempts: 3,
      // untouched
      inactivity_timeout: 30,
      timezone: '+0000',
      default_us_ij_rule: 'inter',
    });
    const [row] = await auditRows(h, 'system_setting', 'system');
    expect(row).toMatchObject({ action: 'update', user_name: ADMIN.name });
    expect(row!.before).toMatchObject({ default_ring_timeout_s: 60, lrn_master_ip: '' });
    expect(row!.after).toMatchObject({ default_ring_timeout_s: 45, lrn_master_ip: '198.51.100.5' });
  });

  it('names the malformed field, says what is wrong and changes nothing', async () => {
    const before = ok(await all());
    const logged = (await auditRows(h, 'system_setting', 'system')).length;
    const cases: [Record<string, unknown>, string, string | RegExp][] = [
      [
        { notify_noc_emails: ['noc@example.com', 'not-an-email'] },
        'notify_noc_emails.1',
        'The notify_noc_emails.1 field must be a valid email',
      ],
      [{ notify_finance_emails: 'billing@example.com' }, 'notify_finance_emails', /not valid/],
      [
        { notify_admin_emails: Array.from({ length: 21 }, (_, i) => `a${i}@example.com`) },
        'notify_admin_emails',
        'notify_admin_emails may have at most 20 entries',
      ],
      [{ lrn_master_ip: '300.1.2.3' }, 'lrn_master_ip', 'IP format invalid'],
      [{ lrn_slave_ip: 'lrn.example.com' }, 'lrn_slave_ip', 'IP format invalid'],
      [{ lrn_master_port: 0 }, 'lrn_master_port', 'lrn_master_port is not valid'],
      [{ lrn_slave_port: 65536 }, 'lrn_slave_port', 'lrn_slave_port is not valid'],
      [{ lrn_timeout_s: 0 }, 'lrn_timeout_s', 'lrn_timeout_s must be at least 1'],
      [{ lrn_retry_attempts: 11 }, 'lrn_retry_attempts', 'lrn_retry_attempts must be at most 10'],
      [{ billing_decimals: 7 }, 'billing_decimals', 'billing_decimals must be between 0 and 6'],
      [{ report_decimals: 1.5 }, 'report_decimals', 'report_decimals must be between 0 and 6'],
      [{ default_ring_timeout_s: 0 }, 'default_ring_timeout_s', 'default_ring_timeout_s must be at least 1'],
      [{ max_call_duration_s: 86401 }, 'max_call_duration_s', 'max_call_duration_s must be at most 86400'],
      [
        { default_us_ij_rule: 'local' },
        'default_us_ij_rule',
        'default_us_ij_rule must be one of: inter, intra, ij',
      ],
      [{ cdr_include_unauthorized_ip: 'yes' }, 'cdr_include_unauthorized_ip', /not valid/],
      [{ base_url: 'javascript:alert(1)' }, 'base_url', 'base_url is not valid'],
      [{ inactivity_timeout: 1441 }, 'inactivity_timeout', 'inactivity_timeout must be at most 1440'],
      [{ logo_image_id: 3 }, '_', /logo_image_id/],
    ];
    for (const [body, field, message] of cases) invalid(await patch(body), field, message);
    // One bad field refuses the whole change.
    invalid(await patch({ default_ring_timeout_s: 30, lrn_master_ip: '1.2.3' }), 'lrn_master_ip');
    // Messages follow the caller's language.
    const de = await h.call('PATCH', '/api/config/system', {
      token: admin,
      body: { lrn_timeout_s: 99 },
      headers: { 'x-lang': 'de' },
    });
    invalid(de, 'lrn_timeout_s', 'lrn_timeout_s darf höchstens 60 sein');
    expect(ok(await all())).toEqual(before);
    expect(await auditRows(h, 'system_setting', 'system')).toHaveLength(logged);
  });

  it('is refused to a role that may read but not write, to portal users and without a session', async () => {
    const before = ok(await all());
    denied(await patch({ default_ring_timeout_s: 10 }, reader.token));
    denied(await patch({ default_ring_timeout_s: 10 }, outsider.token));
    denied(await patch({ default_ring_timeout_s: 10 }, client));
    denied(await patch({ default_ring_timeout_s: 10 }, agent));
    await expectSessionRequired(h, states, 'PATCH', '/api/config/system', {
      body: { default_ring_timeout_s: 10 },
    });
    expect(ok(await all())).toEqual(before);
  });
});

describe('the default US IJ rule in the routing engine', () => {
  it('prices an indeterminate-jurisdiction call at the inter rate by default, then by the rule set', async () => {
    const db = h.built.services.db;
    const key = await switchKey(h, admin);
    const f = await termination(h);
    // The customer buys US calls on a jurisdictional table: intra 0.0200, inter 0.0300, IJ 0.0250.
    const us = await rateTable(db, 'US jurisdictional sell', [], {
      rate_type: 'us_jurisdictional',
      jurisdiction_country: 'US',
    });
    await db
      .insertInto('rates')
      .values({
        rate_table_id: us,
        code: '1',
        code_name: 'USA',
        country: 'US',
        rate: '0.0400',
        intra_rate: '0.0200',
        inter_rate: '0.0300',
        ij_rate: '0.0250',
        effective_date: new Date('2020-01-01T00:00:00Z'),
      })
      .execute();
    await db.updateTable('trunks').set({ rate_table_id: us }).where('trunk_id', '=', f.ingress).execute();
    await lcrOverVendors(h, f);
    let version = await rebuildAfter(h, admin);

    // The ANI's exchange (000) is no valid NANP NXX: the call's jurisdiction cannot be told.
    const price = async () => {
      const a = ok(await switchRoute(h, customerCall('12125550100'), key));
      expect(a.result).toBe('route');
      expect(a.ingress).toMatchObject({ rate_table_id: us, code: '1', jurisdiction: 'indeterminate' });
      return a.ingress!.rate;
    };
    expect(await price()).toBe('0.0300');

    for (const [rule, rate] of [
      ['intra', '0.0200'],
      ['ij', '0.0250'],
      ['inter', '0.0300'],
    ] as const) {
      ok(await patch({ default_us_ij_rule: rule }));
      // The change schedules a snapshot rebuild; wait for a newer snapshot.
      version = (await settled(h, admin, version)).version;
      expect(await price()).toBe(rate);
    }

    // The time zone is in the snapshot too: changing it rebuilds.
    ok(await patch({ timezone: '-0500' }));
    version = (await settled(h, admin, version)).version;
    ok(await patch({ timezone: '+0000' }));
    await settled(h, admin, version);
  });
});
