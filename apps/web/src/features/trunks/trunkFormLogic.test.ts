import { api } from '@tandem/contract';
import { describe, expect, it } from 'vitest';
import { cleanValues, issuesToFields, pathOf, tabOf } from './trunkFormLogic';

describe('trunk form logic', () => {
  it('opens the tab that holds a field', () => {
    expect(tabOf(['hosts', 0, 'host'])).toBe('hosts');
    expect(tabOf(['digit_rules', 'manipulations', 0, 'digits'])).toBe('digitManipulation');
    expect(tabOf(['digit_rules', 'replacements', 1, 'prefix'])).toBe('digitReplacement');
    expect(tabOf(['blocking', 'cid_block'])).toBe('cidBlock');
    expect(tabOf(['blocking', 'dnc'])).toBe('autoCallBlock');
    expect(tabOf(['failover_rules', 0, 'sip_code'])).toBe('failover');
    expect(tabOf(['unknown'])).toBe('basic');
  });
  it('turns server field keys into form paths', () => {
    expect(pathOf('hosts.0.host')).toEqual(['hosts', 0, 'host']);
    expect(pathOf('name')).toEqual(['name']);
  });
  it('maps contract issues to field errors with the catalogue arguments', () => {
    const r = api.trunks.trunkTimeouts.safeParse({ min_duration: 9, max_duration: 1 });
    const fields = issuesToFields(
      r.error!.issues,
      (p) => String(p.at(-1)),
      (k, a) => `${k}(${a.join(', ')})`,
    );
    expect(fields).toEqual([
      { name: ['min_duration'], errors: ['cannotBeLarger(min_duration, max_duration)'] },
    ]);
    const host = api.trunks.trunkHost.safeParse({ host: '1.2.3' });
    expect(
      issuesToFields(
        host.error!.issues,
        (p) => String(p.at(-1)),
        (k, a) => `${k}(${a.join(', ')})`,
      ),
    ).toEqual([{ name: ['host'], errors: ['invalidIp(host)'] }]);
  });
  it('drops undefined values and empties a cleared min profitability', () => {
    expect(cleanValues({ a: undefined, min_profitability: '', b: 0 })).toEqual({
      min_profitability: null,
      b: 0,
    });
  });
});
