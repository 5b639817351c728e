import { describe, expect, it } from 'vitest';
import { formatClock, offsetMinutes } from './clock';

describe('header clock', () => {
  const t = new Date('2026-11-21T23:30:05Z');
  it('shows UTC with offset 0:0 by default', () => {
    expect(formatClock(t, null)).toBe('2026-11-21 23:30:05 GMT+0:0');
    expect(formatClock(t, '+0000')).toBe('2026-11-21 23:30:05 GMT+0:0');
  });
  it('moves to the configured zone, across midnight', () => {
    expect(formatClock(t, '+0200')).toBe('2026-11-22 01:30:05 GMT+2:0');
    expect(formatClock(t, '-1200')).toBe('2026-11-21 11:30:05 GMT-12:0');
  });
  it('parses offsets', () => {
    expect(offsetMinutes('+1200')).toBe(720);
    expect(offsetMinutes('-0500')).toBe(-300);
    expect(offsetMinutes('bad')).toBe(0);
  });
});
