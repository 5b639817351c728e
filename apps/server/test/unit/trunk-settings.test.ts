import {
  applyDigitManipulation,
  applyDigitReplacement,
  type DigitManipulationRule,
  type DigitReplacementRule,
  type FailoverRuleConfig,
} from '@tandem/domain';
import { describe, expect, it } from 'vitest';
import { api } from '@tandem/contract';

const { trunkSettings, digitRules, failoverRules, hostKey, trunkHosts, carrierFromTemplate } = {
  ...api.trunks,
  ...api.carriers,
};

describe('trunk settings: the stored shapes are the domain shapes', () => {
  it('digit rules parse into rules the domain applies unchanged', () => {
    const parsed = digitRules.parse({
      replacements: [{ field: 'dnis', prefix: '011', replacement: '' }],
      manipulations: [
        { field: 'dnis', action: 'add_prefix', digits: '1', length_condition: 'equal', number_length: 10 },
      ],
    });
    const rep: DigitReplacementRule[] = parsed.replacements;
    const man: DigitManipulationRule[] = parsed.manipulations;
    expect(applyDigitReplacement('01144201234567', rep)).toBe('44201234567');
    expect(applyDigitManipulation('2125551234', man)).toBe('12125551234');
    expect(applyDigitManipulation('212555123', man)).toBe('212555123');
  });

  it('failover rules are FailoverRuleConfig and one rule per SIP code', () => {
    const rules: FailoverRuleConfig[] = failoverRules.parse([{ sip_code: 503, action: 'next' }]);
    expect(rules).toEqual([{ sip_code: 503, action: 'next', return_code: null, return_clause: null }]);
    const dup = failoverRules.safeParse([
      { sip_code: 503, action: 'next' },
      { sip_code: 503, action: 'return' },
    ]);
    expect(dup.success).toBe(false);
    expect(dup.error?.issues[0]).toMatchObject({
      path: [1, 'sip_code'],
      message: 'alreadyExists',
      params: { args: ['SIP code', 503] },
    });
  });

  it('fresh settings: SIP sessions 10 with CPS 1, default codecs, empty tabs', () => {
    const d = trunkSettings.parse({});
    expect(d).toMatchObject({
      sip_sessions: 10,
      sip_cps_limit: 1,
      codecs: ['G711U', 'G711A', 'G729'],
      failover_rules: [],
      allowed_send_to_ips: [],
    });
  });
});

describe('hosts', () => {
  it('a host is its text and port; the same IP on another port is another host', () => {
    expect(hostKey({ host: 'SBC.Example.com', port: null })).toBe('sbc.example.com');
    expect(hostKey({ host: '192.0.2.1', port: 5060 })).toBe('192.0.2.1:5060');
    expect(
      trunkHosts.safeParse([
        { host: '192.0.2.1', port: 5060 },
        { host: '192.0.2.1', port: 5080 },
      ]).success,
    ).toBe(true);
    const twice = trunkHosts.safeParse([{ host: '192.0.2.1' }, { host: '192.0.2.1' }]);
    expect(twice.error?.issues[0]).toMatchObject({ path: [1, 'host'], message: 'ipEnteredTwice' });
  });
  it('checks IP, netmask and host name by type', () => {
    const issues = (v: unknown) =>
      trunkHosts.safeParse([v]).error?.issues.map((i) => `${i.path.join('.')}:${i.message}`) ?? [];
    expect(issues({ host: '256.1.1.1' })).toEqual(['0.host:invalidIp']);
    expect(issues({ host: '192.0.2.1', netmask: null })).toEqual(['0.netmask:netmaskRequired']);
    expect(issues({ host_type: 'hostname', host: '192.0.2.1' })).toEqual(['0.host:invalidHost']);
    expect(issues({ host_type: 'hostname', host: 'sip.example.com' })).toEqual([]);
  });
});

describe('templates', () => {
  it('a carrier template presets only what it stores', () => {
    expect(
      carrierFromTemplate({
        name: 'T',
        template_id: 1,
        updated_at: '',
        mode: 'postpaid',
        call_limit: null,
        cps_limit: 20,
      }),
    ).toEqual({ mode: 'postpaid', cps_limit: 20 });
  });
});
