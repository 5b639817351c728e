/**
 * What an export holds, in the reader's language: a report export (`report.<name>`, its kind) by the
 * report's title, anything else by `jobs.entities`; an entity without a label (or an older row that
 * stored a title) as it is.
 */
export function entityLabel(
  entity: string,
  t: (key: string, opts?: Record<string, unknown>) => string,
): string {
  if (entity.startsWith('report.')) {
    const name = entity.slice('report.'.length);
    return name === 'summary_report'
      ? t('stats.summaryReport')
      : t(`reports.titles.${name}`, { defaultValue: name });
  }
  return t(`jobs.entities.${entity}`, { defaultValue: entity });
}
