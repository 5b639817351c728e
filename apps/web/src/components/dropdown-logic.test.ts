import { describe, expect, it } from 'vitest';
import {
  buildOptions,
  DROPDOWN_PER_PAGE,
  fromSelectValue,
  isNetworkFailure,
  itemsOf,
  listInput,
  matchesSearch,
  NO_TEMPLATE_ID,
  PLACEHOLDER_VALUE,
  showSearch,
  toSelectValue,
  type BuildOptions,
} from './dropdown-logic';

const texts = { all: 'All', none: 'None', selectOne: 'Select One', useNoTemplate: 'Use no template' };
const base: BuildOptions = { valueField: 'id', labelField: 'name', texts };
const items = [
  { id: 3, name: 'charlie' },
  { id: 1, name: 'Alpha' },
  { id: 2, name: 'bravo' },
  { id: 10, name: 'item 10' },
  { id: 9, name: 'item 9' },
];

describe('buildOptions', () => {
  it('sorts ascending by label, ignoring case and with numbers in order', () => {
    expect(buildOptions(items, base).map((o) => o.label)).toEqual([
      'Alpha',
      'bravo',
      'charlie',
      'item 9',
      'item 10',
    ]);
  });
  it('adds the placeholder entry first for each mode', () => {
    expect(buildOptions(items, { ...base, placeholder: 'all' })[0]).toEqual({
      value: PLACEHOLDER_VALUE,
      label: 'All',
      placeholder: true,
    });
    expect(buildOptions(items, { ...base, placeholder: 'none' })[0]?.label).toBe('None');
    expect(buildOptions(items, { ...base, placeholder: 'select' })[0]?.label).toBe('Select One');
    expect(buildOptions(items, base).some((o) => o.placeholder)).toBe(false);
  });
  it("adds 'Use no template' with id 0 after the placeholder", () => {
    const o = buildOptions(items, { ...base, placeholder: 'select', useNoTemplate: true });
    expect(o.slice(0, 3).map((x) => [x.value, x.label])).toEqual([
      [PLACEHOLDER_VALUE, 'Select One'],
      [NO_TEMPLATE_ID, 'Use no template'],
      [1, 'Alpha'],
    ]);
  });
  it('removes excluded ids, comparing as text', () => {
    expect(buildOptions(items, { ...base, excludeIds: ['1', 3] }).map((o) => o.value)).toEqual([2, 9, 10]);
  });
  it('carriers drop entries with empty text', () => {
    const list = [
      { id: 1, name: '' },
      { id: 2, name: '  ' },
      { id: 3, name: 'Acme' },
      { id: 4, name: null },
    ];
    expect(buildOptions(list, { ...base, kind: 'carrier' }).map((o) => o.value)).toEqual([3]);
  });
  it('codes are deduplicated', () => {
    const list = [
      { code: '44', name: 'UK' },
      { code: '1', name: 'US' },
      { code: '44', name: 'UK mobile' },
    ];
    expect(
      buildOptions(list, { ...base, valueField: 'code', kind: 'code' }).map((o) => [o.value, o.label]),
    ).toEqual([
      ['44', 'UK'],
      ['1', 'US'],
    ]);
  });
  it('DID vendors without id are dropped', () => {
    const list = [
      { id: null, name: 'ghost' },
      { name: 'nothing' },
      { id: '', name: 'blank' },
      { id: 7, name: 'real' },
    ];
    expect(buildOptions(list, { ...base, kind: 'didVendor' }).map((o) => o.value)).toEqual([7]);
  });
  it('uses labelOf when given', () => {
    const o = buildOptions([{ id: 1, first: 'A', last: 'B' }], {
      ...base,
      labelOf: (i) => `${String(i.first)} ${String(i.last)}`,
    });
    expect(o[0]?.label).toBe('A B');
  });
});

describe('list payloads and queries', () => {
  it('reads paged lists, plain arrays and nothing', () => {
    expect(itemsOf({ items: [{ id: 1 }], total: 1 })).toEqual([{ id: 1 }]);
    expect(itemsOf([{ id: 1 }, null, 3])).toEqual([{ id: 1 }]);
    expect(itemsOf(null)).toEqual([]);
  });
  it('asks for page 0 with 9999 rows sorted ascending by the label, plus filters', () => {
    expect(listInput('name', { type: 'x' })).toEqual({
      page: 0,
      per_page: DROPDOWN_PER_PAGE,
      order_by: 'name',
      order_dir: 'asc',
      type: 'x',
    });
    expect(DROPDOWN_PER_PAGE).toBe(9999);
  });
});

describe('search, errors and values', () => {
  it('shows the search box above one item', () => {
    expect(showSearch(0)).toBe(false);
    expect(showSearch(1)).toBe(false);
    expect(showSearch(2)).toBe(true);
  });
  it('matches typed text anywhere, ignoring case', () => {
    expect(matchesSearch('ACM', 'The Acme Co')).toBe(true);
    expect(matchesSearch('zz', 'Acme')).toBe(false);
  });
  it('detects network failures by status 0', () => {
    expect(isNetworkFailure({ status: 0 })).toBe(true);
    expect(isNetworkFailure({ status: 500 })).toBe(false);
    expect(isNetworkFailure(new Error('x'))).toBe(false);
    expect(isNetworkFailure(null)).toBe(false);
  });
  it('maps null to the placeholder entry and back', () => {
    expect(toSelectValue(null, 'all')).toBe(PLACEHOLDER_VALUE);
    expect(toSelectValue(undefined, undefined)).toBeUndefined();
    expect(toSelectValue(0, 'select')).toBe(0);
    expect(fromSelectValue(PLACEHOLDER_VALUE)).toBeNull();
    expect(fromSelectValue(0)).toBe(0);
    expect(fromSelectValue(undefined)).toBeNull();
  });
});
