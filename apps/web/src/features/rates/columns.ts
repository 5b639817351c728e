import type { api } from '@tandem/contract';
import './i18n';

/** Translation keys of the rate (money) columns: the rates page, the mass edit and its log. */
export const RATE_COLUMN_LABEL: Readonly<Record<api.rates.RateColumn, string>> = {
  rate: 'rates.rate',
  intra_rate: 'rates.intraRate',
  inter_rate: 'rates.interRate',
  ij_rate: 'rates.ijRate',
  local_rate: 'rates.localRate',
};
