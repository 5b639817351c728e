import { describe, expect, it } from 'vitest';
import { formatBytes, formatMoneyText, formatNumberText, formatPercentText } from './money';

describe('formatMoneyText', () => {
  it('groups thousands, shows the declared decimals and places the currency per language', () => {
    expect(formatMoneyText('1250.5', { currency: 'USD', lang: 'en' })).toBe('USD 1,250.50');
    expect(formatMoneyText('1250.500000', { currency: 'USD', lang: 'de' })).toBe('1.250,50 USD');
    expect(formatMoneyText('1250.5', { currency: 'USD', lang: 'ch' })).toBe('USD 1,250.50');
    expect(formatMoneyText('500', { lang: 'en' })).toBe('500.00');
    expect(formatMoneyText('1234567.891', { decimals: 4, lang: 'en' })).toBe('1,234,567.8910');
  });
  it('rounds half up exactly, never through a float', () => {
    expect(formatMoneyText('0.005', { lang: 'en' })).toBe('0.01');
    expect(formatMoneyText('1.005', { lang: 'en' })).toBe('1.01'); // 1.005 is 1.00499... as a double
    expect(formatMoneyText('-310.255', { lang: 'en' })).toBe('-310.26');
    expect(formatMoneyText('-0.001', { lang: 'en' })).toBe('0.00');
    expect(formatMoneyText('99999999999999.999999', { lang: 'en' })).toBe('100,000,000,000,000.00');
  });
  it('marks differences and missing amounts', () => {
    expect(formatMoneyText('12.5', { lang: 'en', signed: true })).toBe('+12.50');
    expect(formatMoneyText(null)).toBe('–');
  });
});

describe('formatNumberText', () => {
  it('writes counts and decimals as the language does', () => {
    expect(formatNumberText(37730, { lang: 'en' })).toBe('37,730');
    expect(formatNumberText(37730, { lang: 'de' })).toBe('37.730');
    expect(formatNumberText(37730, { lang: 'ch' })).toBe('37,730');
    expect(formatNumberText('63735.5', { decimals: 2, lang: 'de' })).toBe('63.735,50');
    expect(formatNumberText('63735.5', { decimals: 2, lang: 'en' })).toBe('63,735.50');
    expect(formatNumberText(0, { lang: 'de' })).toBe('0');
    expect(formatNumberText(undefined)).toBe('–');
  });
  it('shows percents without trailing zeros', () => {
    expect(formatPercentText('12.5000', 'de')).toBe('12,5');
    expect(formatPercentText('12.5000', 'en')).toBe('12.5');
    expect(formatPercentText('10', 'de')).toBe('10');
    expect(formatPercentText('1000.25', 'de')).toBe('1.000,25');
    expect(formatPercentText('0.0001', 'en')).toBe('0.0001');
  });
});

describe('formatBytes', () => {
  it('writes bytes whole and larger sizes with one decimal in the unit that fits, in the language', () => {
    expect(formatBytes(0, 'en')).toBe('0 B');
    expect(formatBytes(1023, 'en')).toBe('1,023 B');
    expect(formatBytes(1536, 'en')).toBe('1.5 KB');
    expect(formatBytes(5 * 1048576 + 104858, 'de')).toBe('5,1 MB');
    expect(formatBytes(3 * 1024 ** 3, 'en')).toBe('3.0 GB');
    expect(formatBytes(2 * 1024 ** 5, 'en')).toBe('2,048.0 TB');
    expect(formatBytes(null)).toBe('');
  });
});
