import { describe, expect, it } from 'vitest';
import { changesOf, MASK, maskSecrets } from './modification-diff';

describe('modification log diff', () => {
  it('lists only the fields that changed, with before and after', () => {
    expect(
      changesOf(
        { name: 'Acme', credit_limit: '500.000000', is_active: true, updated_at: '2026-01-01' },
        { name: 'Acme', credit_limit: '750.000000', is_active: false, updated_at: '2026-01-02' },
      ),
    ).toEqual([
      { field: 'credit_limit', before: '500.000000', after: '750.000000' },
      { field: 'is_active', before: 'true', after: 'false' },
    ]);
  });
  it('lists every field of a creation and of a deletion', () => {
    expect(changesOf(null, { name: 'Ops', hosts: ['a'] })).toEqual([
      { field: 'name', before: '', after: 'Ops' },
      { field: 'hosts', before: '', after: '["a"]' },
    ]);
    expect(changesOf({ name: 'Ops' }, null)).toEqual([{ field: 'name', before: 'Ops', after: '' }]);
  });
  it('masks secrets, also in the raw record', () => {
    const c = changesOf({ name: 'a', password_hash: 'x1' }, { name: 'b', password_hash: 'x2' });
    expect(c).toEqual([{ field: 'name', before: 'a', after: 'b' }]);
    expect(changesOf(null, { smtp_pass: 'secret' })).toEqual([
      { field: 'smtp_pass', before: '', after: MASK },
    ]);
    expect(maskSecrets({ nested: { api_key: 'k' }, token: null })).toEqual({
      nested: { api_key: MASK },
      token: null,
    });
  });
});
