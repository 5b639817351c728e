import { describe, expect, it } from 'vitest';
import { latestSlot } from '../../src/jobs/schedule';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('latestSlot (UTC)', () => {
  it('daily: today at HH:MM once it has passed, else yesterday', () => {
    expect(iso(latestSlot({ daily: '01:00' }, at('2026-11-25T00:59:59Z')))).toBe('2026-11-24T01:00:00.000Z');
    expect(iso(latestSlot({ daily: '01:00' }, at('2026-11-25T01:00:00Z')))).toBe('2026-11-25T01:00:00.000Z');
    expect(iso(latestSlot({ daily: '01:00' }, at('2026-11-25T23:00:00Z')))).toBe('2026-11-25T01:00:00.000Z');
    expect(iso(latestSlot({ daily: '23:30' }, at('2027-01-01T00:10:00Z')))).toBe('2026-12-31T23:30:00.000Z');
  });
  it('hourly and every n minutes', () => {
    expect(iso(latestSlot({ hourly: 15 }, at('2026-11-25T10:14:00Z')))).toBe('2026-11-25T09:15:00.000Z');
    expect(iso(latestSlot({ hourly: 15 }, at('2026-11-25T10:15:00Z')))).toBe('2026-11-25T10:15:00.000Z');
    expect(iso(latestSlot({ everyMinutes: 15 }, at('2026-11-25T10:44:59Z')))).toBe(
      '2026-11-25T10:30:00.000Z',
    );
  });
  it('refuses malformed schedules', () => {
    expect(() => latestSlot({ daily: '24:00' }, 0)).toThrow(/HH:MM/);
    expect(() => latestSlot({ daily: '1:00' }, 0)).toThrow(/HH:MM/);
    expect(() => latestSlot({ hourly: 60 }, 0)).toThrow(/minute/);
    expect(() => latestSlot({ everyMinutes: 0 }, 0)).toThrow(/whole number/);
  });
});
