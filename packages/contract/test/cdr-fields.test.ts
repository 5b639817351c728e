import { describe, expect, it } from 'vitest';
import { api } from '../src';

const { CDR_FIELDS, CDR_ADMIN_DEFAULT_FIELDS, cdrSearchQuery, portalFieldsWrite } = api.cdrSearch;

describe('CDR field catalogue', () => {
  it('names each field once, labels it in every language, and never offers a side what it may not see', () => {
    const names = CDR_FIELDS.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    for (const f of CDR_FIELDS) {
      for (const l of ['en', 'ch', 'de'] as const) expect(f.label[l], `${f.name}.${l}`).not.toBe('');
      for (const side of [...f.defaultFor, ...f.requiredFor]) expect(f.portal).toContain(side);
      // the other leg is never offered to a portal side
      if (f.leg === 'egress') expect(f.portal).not.toContain('client');
      if (f.leg === 'ingress') expect(f.portal).not.toContain('vendor');
      if (f.leg === 'operator' || f.name === 'profit') expect(f.portal).toEqual([]);
    }
    for (const n of CDR_ADMIN_DEFAULT_FIELDS) expect(names).toContain(n);
  });

  it('has the spec names of the call-detail fields', () => {
    const names = CDR_FIELDS.map((f) => f.name);
    for (const n of [
      'call_duration',
      'pdd',
      'release_cause',
      'egress_cost',
      'ingress_client_cost',
      'orig_country',
      'term_country',
    ])
      expect(names).toContain(n);
  });
});

describe('CDR search query', () => {
  const base = { start: '2026-11-01T00:00:00Z', end: '2026-11-02T00:00:00Z' };
  it('takes a range of up to 62 days and a keyset position', () => {
    expect(cdrSearchQuery.safeParse({ ...base, after: '2026-11-01T10:00:00.123456Z~42' }).success).toBe(true);
    expect(cdrSearchQuery.safeParse({ ...base, end: '2027-01-02T00:00:00Z' }).success).toBe(true);
    const long = cdrSearchQuery.safeParse({ ...base, end: '2027-01-02T00:00:01Z' });
    expect(long.success).toBe(false);
    expect(long.error?.issues[0]).toMatchObject({ path: ['end'], message: 'cdrRangeTooLong' });
    expect(cdrSearchQuery.safeParse({ end: base.end }).success).toBe(false);
    expect(cdrSearchQuery.safeParse({ ...base, after: '42' }).success).toBe(false);
  });

  it('refuses portal settings that show a field to the wrong side or hide a required one', () => {
    const ok = portalFieldsWrite.safeParse({
      fields: [{ name: 'orig_country', client_viewable: true, vendor_viewable: false }],
    });
    expect(ok.success).toBe(true);
    const bad = portalFieldsWrite.safeParse({
      fields: [
        { name: 'egress_cost', client_viewable: true, vendor_viewable: true },
        { name: 'ani', client_viewable: false, vendor_viewable: false },
      ],
    });
    expect(bad.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['fields.0.client_viewable', 'cdrFieldNotForSide'],
      ['fields.1.client_viewable', 'cdrFieldRequired'],
    ]);
  });
});
