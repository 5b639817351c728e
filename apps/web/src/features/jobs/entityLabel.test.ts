import { describe, expect, it } from 'vitest';
import { entityLabel } from './entityLabel';

describe('entityLabel (Export Log, what an export holds)', () => {
  const labels: Record<string, string> = {
    'jobs.entities.user_signin_history': 'Anmeldeverlauf',
    'stats.summaryReport': 'Zusammenfassungsbericht',
    'reports.titles.usage_report': 'Nutzungsbericht',
  };
  const t = (k: string, o?: Record<string, unknown>) =>
    labels[k] ?? (typeof o?.defaultValue === 'string' ? o.defaultValue : k);

  it('labels a known entity and a report export by its title, leaves anything else as it is', () => {
    expect(entityLabel('user_signin_history', t)).toBe('Anmeldeverlauf');
    expect(entityLabel('report.summary_report', t)).toBe('Zusammenfassungsbericht');
    expect(entityLabel('report.usage_report', t)).toBe('Nutzungsbericht');
    expect(entityLabel('report.unknown_report', t)).toBe('unknown_report');
    // an older row stored the report's English title: shown as it is
    expect(entityLabel('Usage Report', t)).toBe('Usage Report');
  });
});
