import type { api, GroupBy, ReportColumn } from '@tandem/contract';
import type { z } from 'zod';
import { countShown, minutesOf, minutesShown, moneyShown, ratioShown } from './i18n';

type Row = z.output<typeof api.stats.summaryRow>;
type Figures = z.output<typeof api.stats.figures>;

/** How a figure column is titled (i18n key), shown and sorted or charted (a number, null when hidden or undefined). */
export interface FigureColumn {
  title: string;
  show: (f: Figures) => string;
  value: (f: Figures) => number | null;
}

/**
 * Every figure column of the report screens, for one answer (the share is of its totals; a vendor's
 * revenue is what it earned). Build it once per answer, not per row or chart point.
 */
export function figureColumns(totals: Figures, vendor: boolean): Record<ReportColumn, FigureColumn> {
  const share = (f: Figures) => (totals.attempts ? (f.attempts / totals.attempts) * 100 : null);
  const money = (v: string | null) => (v === null ? null : Number(v));
  return {
    attempts: { title: 'stats.attempts', show: (f) => countShown(f.attempts), value: (f) => f.attempts },
    answered: { title: 'stats.answered', show: (f) => countShown(f.answered), value: (f) => f.answered },
    non_zero: { title: 'stats.nonZero', show: (f) => countShown(f.non_zero), value: (f) => f.non_zero },
    short_calls: {
      title: 'stats.shortCalls',
      show: (f) => countShown(f.short_calls),
      value: (f) => f.short_calls,
    },
    share: {
      title: 'reports.share',
      show: (f) => {
        const v = share(f);
        return ratioShown(v === null ? null : Math.round(v * 100) / 100);
      },
      value: share,
    },
    duration: {
      title: 'stats.minutes',
      show: (f) => minutesShown(f.duration),
      value: (f) => Number(minutesOf(f.duration)),
    },
    billed_time: {
      title: 'stats.billedMinutes',
      show: (f) => minutesShown(f.billed_time),
      value: (f) => Number(minutesOf(f.billed_time)),
    },
    cost_billed_time: {
      title: 'stats.costBilledMinutes',
      show: (f) => (f.cost_billed_time === null ? '–' : minutesShown(f.cost_billed_time)),
      value: (f) => (f.cost_billed_time === null ? null : Number(minutesOf(f.cost_billed_time))),
    },
    revenue: {
      title: vendor ? 'stats.earned' : 'stats.revenue',
      show: (f) => moneyShown(f.revenue),
      value: (f) => Number(f.revenue),
    },
    cost: { title: 'stats.cost', show: (f) => moneyShown(f.cost), value: (f) => money(f.cost) },
    profit: { title: 'stats.profit', show: (f) => moneyShown(f.profit), value: (f) => money(f.profit) },
    margin: { title: 'stats.margin', show: (f) => f.margin ?? '–', value: (f) => money(f.margin) },
    asr: { title: 'stats.asr', show: (f) => ratioShown(f.asr), value: (f) => f.asr },
    acd: { title: 'stats.acd', show: (f) => ratioShown(f.acd), value: (f) => f.acd },
    aloc: { title: 'stats.aloc', show: (f) => ratioShown(f.aloc), value: (f) => f.aloc },
    pdd: { title: 'stats.pdd', show: (f) => countShown(f.pdd), value: (f) => f.pdd },
    ner: { title: 'stats.ner', show: (f) => ratioShown(f.ner), value: (f) => f.ner },
  };
}

/** The label of a row's group values ("Customer A / UK"). */
export function groupLabel(r: Row, groups: readonly GroupBy[], none: string): string {
  return groups
    .map((g) => {
      switch (g) {
        case 'customer':
          return r.customer ?? none;
        case 'vendor':
          return r.vendor ?? none;
        case 'ingress_trunk':
          return r.ingress_trunk ?? none;
        case 'egress_trunk':
          return r.egress_trunk ?? none;
        case 'country':
          return r.country || none;
        case 'code':
          return r.code || none;
        case 'release_cause':
          return String(r.release_cause);
        case 'day':
          return r.day ?? '';
        case 'hour':
          return r.hour ?? '';
        case 'ingress_host':
          return r.ingress_host || none;
        case 'egress_host':
          return r.egress_host || none;
      }
    })
    .join(' / ');
}
