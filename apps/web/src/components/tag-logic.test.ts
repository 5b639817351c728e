import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addTags, checkTag, isDigits, isEmail, removeTag, splitTags } from './tag-logic';

describe('splitTags', () => {
  it('splits on commas, semicolons, spaces and line breaks', () => {
    expect(splitTags('a@x.com, b@x.com;c@x.com d@x.com\ne@x.com\r\n\tf@x.com;;')).toEqual([
      'a@x.com',
      'b@x.com',
      'c@x.com',
      'd@x.com',
      'e@x.com',
      'f@x.com',
    ]);
    expect(splitTags('  ')).toEqual([]);
  });
});

describe('email mode', () => {
  it('checks the format', () => {
    for (const ok of ['a@b.co', 'first.last+tag@sub.example.org', "o'neil@x.ie"])
      expect(isEmail(ok)).toBe(true);
    for (const bad of [
      'a',
      'a@',
      '@b.com',
      'a@b',
      'a b@c.com',
      'a@@b.com',
      'a@b.c',
      'a..b@c.com',
      '.a@b.com',
      'a@-b.com',
    ])
      expect(isEmail(bad)).toBe(false);
    expect(checkTag('nope', 'email', [])).toBe('invalidEmail');
  });
  it('rejects duplicates ignoring case', () => {
    expect(checkTag('A@B.com', 'email', ['a@b.COM'])).toBe('duplicate');
    expect(addTags(['a@b.com'], 'A@b.com, c@d.com, C@D.com, bad', 'email')).toEqual({
      value: ['a@b.com', 'c@d.com'],
      errors: [
        { value: 'A@b.com', reason: 'duplicate' },
        { value: 'C@D.com', reason: 'duplicate' },
        { value: 'bad', reason: 'invalidEmail' },
      ],
    });
  });
});

describe('number mode', () => {
  it('allows digits only', () => {
    expect(isDigits('0123')).toBe(true);
    expect(isDigits('12a')).toBe(false);
    expect(isDigits('-1')).toBe(false);
    expect(isDigits('1.5')).toBe(false);
    expect(checkTag('+44', 'number', [])).toBe('digitsOnly');
  });
  it('rejects duplicates and adds each pasted value', () => {
    expect(addTags(['1'], '1;2 3\n3,4x', 'number')).toEqual({
      value: ['1', '2', '3'],
      errors: [
        { value: '1', reason: 'duplicate' },
        { value: '3', reason: 'duplicate' },
        { value: '4x', reason: 'digitsOnly' },
      ],
    });
  });
});

describe('invariants', () => {
  it('property: the list never holds two equal values (email case-insensitive)', () => {
    const piece = fc.constantFrom('a@b.com', 'A@B.COM', 'c@d.org', 'x', '12', ' ', ',', ';', '\n');
    fc.assert(
      fc.property(fc.array(fc.array(piece).map((p) => p.join(''))), (inputs) => {
        let value: string[] = [];
        for (const text of inputs) value = addTags(value, text, 'email').value;
        expect(new Set(value.map((v) => v.toLowerCase())).size).toBe(value.length);
        expect(value.every(isEmail)).toBe(true);
      }),
    );
  });
  it('property: number mode keeps only unique digit strings', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: fc.constantFrom('1', '2', 'a', ',', ' ', ';') })), (inputs) => {
        let value: string[] = [];
        for (const text of inputs) value = addTags(value, text, 'number').value;
        expect(new Set(value).size).toBe(value.length);
        expect(value.every(isDigits)).toBe(true);
      }),
    );
  });
  it('removes a tag by index', () => {
    expect(removeTag(['a', 'b', 'c'], 1)).toEqual(['a', 'c']);
  });
});
