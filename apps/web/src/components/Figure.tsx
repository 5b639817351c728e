// The one place the web app uses antd's Statistic (eslint.config.js): its own grouping always writes
// "37,730", whatever the language.
// eslint-disable-next-line no-restricted-imports
import { Statistic, type StatisticProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatNumberText } from '../lib/money';

export interface FigureProps extends Omit<StatisticProps, 'value' | 'formatter' | 'precision'> {
  /** A number is written by the app's number formatter; a text (money already formatted, a word) as it is. */
  value: number | string | null | undefined;
  /** Decimals of a number value; default none (a count). */
  decimals?: number;
}

/**
 * A headline figure (dashboards): antd's Statistic with the value written by the app's one number
 * formatter (lib/money.ts) in the user's language, de "37.730" and "63.735,50".
 */
export function Figure({ value, decimals, ...rest }: FigureProps) {
  const lang = useTranslation().i18n.language;
  const shown = typeof value === 'number' ? formatNumberText(value, { decimals, lang }) : (value ?? '–');
  return <Statistic {...rest} value={shown} formatter={() => shown} />;
}
