import { api } from '@tandem/contract';

/** The rates contract (api.rates), named for this module's files. */
export const { RATE_FILE_COLUMNS, RATE_COLUMNS, IMPORT_STATUS, rateRowIssues, parseInstant } = api.rates;
export type DateFormat = api.rates.DateFormat;
export type DuplicateMode = api.rates.DuplicateMode;
export type RateFileColumn = api.rates.RateFileColumn;
export type RateFilters = api.rates.RateFilters;
export type RateRow = api.rates.RateRow;
export type RateImportOptions = api.rates.RateImportOptions;
export type RateImportTask = api.rates.RateImportTask;
