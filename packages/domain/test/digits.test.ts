import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  applyDigitManipulation,
  applyDigitReplacement,
  compileNumberRules,
  rewriteNumber,
  stripTechPrefix,
} from '../src/digits';
import type { DigitManipulationRule, DigitReplacementRule } from '../src/digits';
import { BlockList } from '../src/block-list';

describe('tech prefix', () => {
  it('strips the tech prefix from the DNIS', () => {
    expect(stripTechPrefix('1234#447911123456', '1234#')).toBe('447911123456');
    expect(stripTechPrefix('447911123456', '')).toBe('447911123456');
    expect(stripTechPrefix('999447911123456', '1234#')).toBeNull();
  });
});

describe('digit replacement', () => {
  const rules: DigitReplacementRule[] = [
    { field: 'dnis', prefix: '011', replacement: '' },
    { field: 'dnis', prefix: '0', min_length: 10, max_length: 11, replacement: '44' },
    { field: 'dnis', prefix: '0117', replacement: '7' },
  ];

  it.each([
    ['01144207', '44207'], // strip 011
    ['0117495', '7495'], // longest prefix wins
    ['02071234567', '442071234567'], // national to international, length 11 in bounds
    ['0207123', '0207123'], // length 7 below min_length: untouched
    ['020712345678', '020712345678'], // length 12 above max_length: untouched
    ['442071234567', '442071234567'],
  ])('%s -> %s', (number, expected) => {
    expect(applyDigitReplacement(number, rules)).toBe(expected);
  });

  it('takes the first listed rule on equal prefixes', () => {
    expect(
      applyDigitReplacement('12345', [
        { field: 'dnis', prefix: '1', replacement: 'A' },
        { field: 'dnis', prefix: '1', replacement: 'B' },
      ]),
    ).toBe('A2345');
  });
});

describe('digit manipulation', () => {
  it('adds a prefix when the length condition holds', () => {
    const add1: DigitManipulationRule = {
      field: 'dnis',
      action: 'add_prefix',
      length_condition: 'equal',
      number_length: 10,
      digits: '1',
    };
    expect(applyDigitManipulation('2125551234', [add1])).toBe('12125551234');
    expect(applyDigitManipulation('12125551234', [add1])).toBe('12125551234');
  });

  it('removes a prefix by its length or by a count', () => {
    expect(
      applyDigitManipulation('+14155550000', [{ field: 'ani', action: 'remove_prefix', prefix: '+' }]),
    ).toBe('14155550000');
    expect(
      applyDigitManipulation('99912345', [
        {
          field: 'dnis',
          action: 'remove_prefix',
          length_condition: 'more',
          number_length: 6,
          remove_count: 3,
        },
      ]),
    ).toBe('12345');
    expect(
      applyDigitManipulation('99912', [
        {
          field: 'dnis',
          action: 'remove_prefix',
          length_condition: 'more',
          number_length: 6,
          remove_count: 3,
        },
      ]),
    ).toBe('99912');
  });

  it('replaces a prefix, and applies rules in order', () => {
    const rules: DigitManipulationRule[] = [
      { field: 'dnis', action: 'replace_prefix', prefix: '00', digits: '' },
      {
        field: 'dnis',
        action: 'replace_prefix',
        prefix: '44',
        remove_count: 2,
        digits: '0044',
        length_condition: 'less',
        number_length: 20,
      },
    ];
    // 00447911 -> 447911 (rule 1) -> 0044 + 7911 (rule 2)
    expect(applyDigitManipulation('00447911', rules)).toBe('00447911');
    expect(applyDigitManipulation('447911', rules)).toBe('00447911');
    expect(applyDigitManipulation('00337911', rules)).toBe('337911');
    expect(applyDigitManipulation('33', rules)).toBe('33');
  });

  it('compiles rules per number and leaves numbers without rules alone', () => {
    const compiled = compileNumberRules(
      [{ field: 'dnis', prefix: '011', replacement: '' }],
      [{ field: 'ani', action: 'add_prefix', length_condition: 'equal', number_length: 10, digits: '1' }],
    );
    expect(rewriteNumber('0114420', compiled.dnis)).toBe('4420');
    expect(rewriteNumber('2125551234', compiled.ani)).toBe('12125551234');
    expect(compileNumberRules().ani).toBeNull();
    expect(rewriteNumber('123', null)).toBe('123');
  });

  it('property: add then remove of the same prefix restores the number', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{0,15}$/), fc.stringMatching(/^\d{1,4}$/), (number, digits) => {
        const rules: DigitManipulationRule[] = [
          { field: 'dnis', action: 'add_prefix', digits },
          { field: 'dnis', action: 'remove_prefix', prefix: digits },
        ];
        return applyDigitManipulation(number, rules) === number;
      }),
    );
  });
});

describe('block lists', () => {
  const list = BlockList.build([
    { block_id: 1, ani_exact: '12125550000' },
    { block_id: 2, dnis_prefix: '1900' },
    { block_id: 3, trunk_id: 10, dnis_exact: '442071234567' },
    { block_id: 4, trunk_id: 10, ani_prefix: '1646' },
    { block_id: 5, ani_prefix: '1310', dnis_prefix: '44' }, // both must hold
    { block_id: 6, dnis_exact: '33100000000', ani_prefix: '1' },
  ]);

  it('blocks globally by exact ANI and DNIS prefix', () => {
    expect(list.findGlobal('12125550000', '447911')?.block_id).toBe(1);
    expect(list.findGlobal('12125550001', '19005551234')?.block_id).toBe(2);
    expect(list.findGlobal('12125550001', '18005551234')).toBeUndefined();
  });

  it('needs every condition of an entry', () => {
    expect(list.findGlobal('13105550000', '447911')?.block_id).toBe(5);
    expect(list.findGlobal('13105550000', '337911')).toBeUndefined();
    expect(list.findGlobal('14155550000', '447911')).toBeUndefined();
    expect(list.findGlobal('14155550000', '33100000000')?.block_id).toBe(6);
    expect(list.findGlobal('4415550000', '33100000000')).toBeUndefined();
  });

  it('keeps trunk entries to their trunk', () => {
    expect(list.findForTrunk(10, '1', '442071234567')?.block_id).toBe(3);
    expect(list.findForTrunk(10, '16465550000', '1')?.block_id).toBe(4);
    expect(list.findForTrunk(11, '16465550000', '1')).toBeUndefined();
    expect(list.findGlobal('16465550000', '442071234567')).toBeUndefined();
  });

  it('refuses an entry without conditions', () => {
    expect(() => BlockList.build([{ block_id: 9, trunk_id: 1 }])).toThrow(/no ANI or DNIS/);
  });

  it('property: a DNIS-prefix entry blocks exactly the numbers it prefixes', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{1,4}$/), fc.stringMatching(/^\d{0,10}$/), (prefix, number) => {
        const one = BlockList.build([{ dnis_prefix: prefix }]);
        return (one.findGlobal('1', number) !== undefined) === number.startsWith(prefix);
      }),
    );
  });
});
