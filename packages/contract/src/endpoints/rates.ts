import { coercedInt4, inInstantRange, int4 } from '../input-rules';
import { z } from 'zod';
import { adminOnly } from '../access';
import { idParams, listQuery, objectId, paged, queryBool } from '../common';
import { amount, crudEndpoints, digits, entityName, patchOf, seconds } from '../crud';
import { endpoint } from '../endpoint';
import type { MessageKey } from '../messages';

/**
 * Rates (issue 3): code decks and their codes, rate tables, rate rows with effective and end dates,
 * rate import (CSV/XLSX, background job), export, mass edit, rate upload templates, auto rate import
 * rules and US jurisdiction (NPA-NXX -> state, LATA).
 */
export const FUNC = {
  codeDeck: '/configuration/code_deck',
  rateTable: '/routing/rate_table',
  usJurisdiction: '/configuration/us_jurisdiction',
  uploadTemplate: '/template/rate_upload_template',
  autoImport: '/tools/auto_rate_import_rules',
  importLog: '/log/rate_import_log',
  massEditLog: '/log/rate_mass_edit_log',
} as const;
const TAG = 'rates';

// ------------------------------------------------------------------------------------------------
// Shared field helpers
// ------------------------------------------------------------------------------------------------

const ISO_LIKE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;
/**
 * An instant as the API takes it: ISO 8601 date or date-time; without a zone it is UTC
 * (rate decks state their dates in UTC). Returns null when the text is not one.
 */
export function parseInstant(text: string): Date | null {
  const v = text.trim();
  if (!ISO_LIKE.test(v)) return null;
  const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/.test(v.slice(10));
  const withTime = v.length === 10 ? `${v}T00:00:00` : v.replace(' ', 'T');
  const d = new Date(hasZone ? withTime : `${withTime}Z`);
  return inInstantRange(d.getTime()) ? d : null;
}
/** An ISO date or date-time (UTC when no zone is given), normalised to an ISO string. */
export const instant = z
  .string({ message: 'invalidDate' })
  .trim()
  .refine((v) => parseInstant(v) !== null, { message: 'invalidDate' })
  .transform((v) => (parseInstant(v) as Date).toISOString());

const text = (max: number) => z.string().trim().max(max);
const codeText = digits(32).min(1, { message: 'required' });
export const decimalPlaces = z
  .number({ message: 'decimalPlacesRange' })
  .int({ message: 'decimalPlacesRange' })
  .min(0, { message: 'decimalPlacesRange' })
  .max(6, { message: 'decimalPlacesRange' });
/** Interval: whole seconds >= 1. */
export const interval = seconds.refine((v) => v >= 1, { message: 'positiveInteger' });

export const RATE_TYPES = ['a_z', 'us_jurisdictional', 'us_non_jurisdictional'] as const;
export const BILLING_METHODS = ['dnis', 'lrn'] as const;
export const DUPLICATE_MODES = ['reject', 'skip', 'overwrite'] as const;
export type DuplicateMode = (typeof DUPLICATE_MODES)[number];
export const END_DATE_OPTIONS = ['keep', 'end_previous', 'end_previous_and_absent'] as const;
/** Date formats of rate files; each also takes an optional time (HH:mm[:ss[.fraction]]) after the date. */
export const DATE_FORMATS = [
  'YYYY-MM-DD',
  'YYYY/MM/DD',
  'MM/DD/YYYY',
  'DD/MM/YYYY',
  'DD.MM.YYYY',
  'DD-MM-YYYY',
] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];
export const RATE_STATES = ['all', 'current', 'future', 'ended'] as const;
export type RateState = (typeof RATE_STATES)[number];
/** The money columns of a rate row (mass edit works on these). */
export const RATE_COLUMNS = ['rate', 'intra_rate', 'inter_rate', 'ij_rate', 'local_rate'] as const;
export type RateColumn = (typeof RATE_COLUMNS)[number];
export const MASS_EDIT_ACTIONS = [
  'no_change',
  'set_to',
  'increase_by',
  'decrease_by',
  'multiply_by',
] as const;

/** Columns of a rate file, in the order the export writes them (the import's expected headers). */
export const RATE_FILE_COLUMNS = [
  'code',
  'code_name',
  'country',
  'rate',
  'intra_rate',
  'inter_rate',
  'ij_rate',
  'local_rate',
  'min_time',
  'interval',
  'setup_fee',
  'grace_time',
  'effective_date',
  'end_date',
] as const;
export type RateFileColumn = (typeof RATE_FILE_COLUMNS)[number];

// ------------------------------------------------------------------------------------------------
// Code decks and codes
// ------------------------------------------------------------------------------------------------

export const codeDeckRow = z.object({
  code_deck_id: z.number(),
  name: z.string(),
  is_default: z.boolean(),
  code_count: z.number(),
  usage_count: z.number(),
  updated_at: z.string(),
  updated_by: z.string(),
});
export const codeDeck = crudEndpoints({
  base: '/rate/code_deck',
  tag: TAG,
  func: FUNC.codeDeck,
  name: 'code deck',
  row: codeDeckRow,
  create: z.object({ name: entityName(), is_default: z.boolean().default(false) }).strict(),
  filters: { name: z.string().max(100).optional() },
});

export const codeRow = z.object({
  code: z.string(),
  code_name: z.string(),
  country: z.string(),
  usage_count: z.number(),
});
export const codeFields = z
  .object({ code: codeText, code_name: text(100).default(''), country: text(100).default('') })
  .strict();
const codeParams = z.object({
  id: coercedInt4().positive(),
  code: z.string().regex(/^\d{1,32}$/, { message: 'digitsOnly' }),
});
const codeFilters = {
  code: z.string().max(32).optional(),
  code_name: z.string().max(100).optional(),
  country: z.string().max(100).optional(),
};

export const listCodes = endpoint({
  method: 'GET',
  path: '/rate/code_deck/:id/codes',
  summary: 'Codes of a code deck (code prefix, name and country filters)',
  tag: TAG,
  access: adminOnly(FUNC.codeDeck, 'read'),
  params: idParams,
  query: listQuery.extend(codeFilters),
  payload: paged(codeRow),
});
export const createCode = endpoint({
  method: 'POST',
  path: '/rate/code_deck/:id/codes',
  summary: 'Add a code to a code deck',
  tag: TAG,
  access: adminOnly(FUNC.codeDeck, 'write'),
  params: idParams,
  body: codeFields,
  payload: z.null(),
});
export const updateCode = endpoint({
  method: 'PATCH',
  path: '/rate/code_deck/:id/codes/:code',
  summary: "Change a code's name or country",
  tag: TAG,
  access: adminOnly(FUNC.codeDeck, 'write'),
  params: codeParams,
  body: patchOf(codeFields.omit({ code: true })),
  payload: z.null(),
});
export const deleteCode = endpoint({
  method: 'DELETE',
  path: '/rate/code_deck/:id/codes/:code',
  summary: 'Remove a code from a code deck',
  tag: TAG,
  access: adminOnly(FUNC.codeDeck, 'write'),
  params: codeParams,
  payload: z.null(),
});
/** Multipart fields of the code deck import (then the file: CSV or XLSX with code, code_name, country). */
export const codeImportOptions = z.object({ mode: z.enum(['merge', 'replace']).default('merge') });
export const importCodes = endpoint({
  method: 'POST',
  path: '/rate/code_deck/:id/import',
  summary: 'Import codes (multipart: mode merge|replace, file CSV/XLSX with code, code_name, country)',
  tag: TAG,
  access: adminOnly(FUNC.codeDeck, 'write'),
  params: idParams,
  multipart: true,
  payload: z.object({
    object_id: z.number(),
    total_rows: z.number(),
    inserted_rows: z.number(),
    updated_rows: z.number(),
    deleted_rows: z.number(),
  }),
});

// ------------------------------------------------------------------------------------------------
// Rate tables
// ------------------------------------------------------------------------------------------------

export const rateTableFields = z.object({
  name: entityName(),
  code_deck_id: int4().positive().nullable().default(null),
  currency: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, { message: 'invalidValue' })
    .default('USD'),
  billing_method: z.enum(BILLING_METHODS).default('dnis'),
  rate_type: z.enum(RATE_TYPES).default('a_z'),
  require_setup_fee: z.boolean().default(false),
  require_local_rate: z.boolean().default(false),
  jurisdiction_country: text(64).default(''),
  decimal_places: decimalPlaces.default(4),
});
export const rateTableRow = rateTableFields.extend({
  rate_table_id: z.number(),
  code_deck_name: z.string().nullable(),
  rate_count: z.number(),
  usage_count: z.number(),
  updated_at: z.string(),
  updated_by: z.string(),
});
export const rateTable = crudEndpoints({
  base: '/rate/rate_table',
  tag: TAG,
  func: FUNC.rateTable,
  name: 'rate table',
  row: rateTableRow,
  create: rateTableFields.strict(),
  filters: {
    name: z.string().max(100).optional(),
    rate_type: z.enum(RATE_TYPES).optional(),
    code_deck_id: coercedInt4().positive().optional(),
  },
});

// ------------------------------------------------------------------------------------------------
// Rate rows
// ------------------------------------------------------------------------------------------------

export const rateRow = z.object({
  rate_id: z.number(),
  code: z.string(),
  code_name: z.string(),
  country: z.string(),
  rate: z.string(),
  intra_rate: z.string().nullable(),
  inter_rate: z.string().nullable(),
  ij_rate: z.string().nullable(),
  local_rate: z.string().nullable(),
  min_time: z.number(),
  interval: z.number(),
  grace_time: z.number(),
  setup_fee: z.string(),
  effective_date: z.string(),
  end_date: z.string().nullable(),
  state: z.enum(['current', 'future', 'ended']),
});
export type RateRow = z.infer<typeof rateRow>;

const optionalAmount = amount.nullable().default(null);
export const rateFields = z.object({
  code: codeText,
  code_name: text(100).default(''),
  country: text(100).default(''),
  rate: amount,
  intra_rate: optionalAmount,
  inter_rate: optionalAmount,
  ij_rate: optionalAmount,
  local_rate: optionalAmount,
  min_time: seconds.default(1),
  interval: interval.default(1),
  grace_time: seconds.default(0),
  setup_fee: amount.default('0'),
  effective_date: instant,
  end_date: instant.nullable().default(null),
});
export const rateUpdate = patchOf(rateFields.strict());

/** The rules of spec 02 section 5 for one rate row that need two fields (also checked on updates against the merged row). */
export function rateRowIssues(v: {
  effective_date?: string | null;
  end_date?: string | null;
}): { field: string; key: MessageKey }[] {
  if (!v.effective_date || !v.end_date) return [];
  const from = parseInstant(v.effective_date);
  const to = parseInstant(v.end_date);
  if (from && to && to.getTime() <= from.getTime()) return [{ field: 'end_date', key: 'effectiveBeforeEnd' }];
  return [];
}

/** Filters of the rate list, export and mass edit: code prefix, code name / country contains, effective state. */
export const rateFilters = z.object({
  code: z.string().trim().max(32).optional(),
  code_name: z.string().trim().max(100).optional(),
  country: z.string().trim().max(100).optional(),
  state: z.enum(RATE_STATES).optional(),
});
export type RateFilters = z.infer<typeof rateFilters>;
const rateParams = z.object({
  id: coercedInt4().positive(),
  rate_id: coercedInt4().positive(),
});

export const listRates = endpoint({
  method: 'GET',
  path: '/rate/rate_table/:id/rates',
  summary: 'Rates of a rate table (server paging, filters by code, code name, country, effective state)',
  tag: TAG,
  access: adminOnly(FUNC.rateTable, 'read'),
  params: idParams,
  query: listQuery.extend(rateFilters.shape),
  payload: paged(rateRow).extend({ decimal_places: z.number() }),
});
export const createRate = endpoint({
  method: 'POST',
  path: '/rate/rate_table/:id/rates',
  summary: 'Add a rate row',
  tag: TAG,
  access: adminOnly(FUNC.rateTable, 'write'),
  params: idParams,
  body: rateFields.strict(),
  payload: objectId,
});
export const updateRate = endpoint({
  method: 'PATCH',
  path: '/rate/rate_table/:id/rates/:rate_id',
  summary: 'Change a rate row',
  tag: TAG,
  access: adminOnly(FUNC.rateTable, 'write'),
  params: rateParams,
  body: rateUpdate,
  payload: z.null(),
});
export const deleteRate = endpoint({
  method: 'DELETE',
  path: '/rate/rate_table/:id/rates/:rate_id',
  summary: 'Delete a rate row',
  tag: TAG,
  access: adminOnly(FUNC.rateTable, 'write'),
  params: rateParams,
  payload: z.null(),
});
export const endRates = endpoint({
  method: 'POST',
  path: '/rate/rate_table/:id/rates/end',
  summary: 'Set the end date of rate rows',
  tag: TAG,
  access: adminOnly(FUNC.rateTable, 'write'),
  params: idParams,
  body: z
    .object({
      rate_ids: z.array(int4().positive()).min(1, { message: 'required' }).max(10000),
      end_date: instant,
    })
    .strict(),
  payload: z.object({ affected: z.number() }),
});

// ------------------------------------------------------------------------------------------------
// Import, export, mass edit
// ------------------------------------------------------------------------------------------------

/**
 * Multipart fields of a rate import (sent before the file). Options left out come from the upload
 * template (template_id; 0 = 'Use no template'), else the defaults: reject duplicates, effective
 * date from the file or now, end previous rates of the imported codes.
 * mapping: JSON object, file header -> rate file column (RATE_FILE_COLUMNS); other headers are ignored.
 */
export const rateImportOptions = z.object({
  template_id: coercedInt4().min(0).optional(),
  duplicate_mode: z.enum(DUPLICATE_MODES).optional(),
  default_effective_date: instant.optional(),
  effective_date_format: z.enum(DATE_FORMATS).optional(),
  end_previous: queryBool.optional(),
  end_absent: queryBool.optional(),
  delete_existing: queryBool.optional(),
  has_code_deck: queryBool.optional(),
  mapping: z
    .string()
    .optional()
    .refine(
      (v) => {
        if (v === undefined || v === '') return true;
        try {
          const m = JSON.parse(v) as unknown;
          return (
            typeof m === 'object' &&
            m !== null &&
            !Array.isArray(m) &&
            Object.values(m).every(
              (c) =>
                typeof c === 'string' && ((RATE_FILE_COLUMNS as readonly string[]).includes(c) || c === ''),
            )
          );
        } catch {
          return false;
        }
      },
      { message: 'invalidValue' },
    ),
});
export type RateImportOptions = z.infer<typeof rateImportOptions>;

export const importRates = endpoint({
  method: 'POST',
  path: '/rate/rate_table/:id/import',
  summary:
    'Start a rate import (multipart: options of rateImportOptions, then the CSV or XLSX file); answers the task id',
  tag: TAG,
  access: adminOnly(FUNC.rateTable, 'write'),
  params: idParams,
  multipart: true,
  payload: objectId,
});

export const IMPORT_STATUS = { running: 'Insert new rate', finished: 'Finished', failed: 'Failed' } as const;
/**
 * Where a running import is, in rows: read and checked from the file (parsed), written to the staging
 * table (staged), written to the rate table (applied, of rows_to_apply). Null when the import is not
 * running in the process that answers (ended, or run by another server process: `progress` moves).
 */
export const rateImportLive = z.object({
  phase: z.enum(['reading', 'applying', 'finishing']),
  rows_parsed: z.number(),
  rows_staged: z.number(),
  rows_applied: z.number(),
  rows_to_apply: z.number(),
});
export const rateImportTaskRow = z.object({
  id: z.number(),
  rate_table_id: z.number().nullable(),
  rate_table_name: z.string().nullable(),
  file_name: z.string(),
  status: z.string(),
  progress: z.number(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  user_name: z.string(),
  source: z.string(),
  duplicate_mode: z.string(),
  total_rows: z.number(),
  inserted_rows: z.number(),
  updated_rows: z.number(),
  skipped_rows: z.number(),
  ended_rows: z.number(),
  deleted_rows: z.number(),
  error_rows: z.number(),
  message: z.string(),
  live: rateImportLive.nullable(),
});
export type RateImportTask = z.infer<typeof rateImportTaskRow>;
export const getImportTask = endpoint({
  method: 'GET',
  path: '/rate/import/:id',
  summary: 'One rate import: status, progress and counts',
  tag: TAG,
  access: adminOnly(FUNC.rateTable, 'read'),
  params: idParams,
  payload: rateImportTaskRow,
});
export const listImportLog = endpoint({
  method: 'GET',
  path: '/rate/import_log',
  summary: 'Rate import log',
  tag: TAG,
  access: adminOnly(FUNC.importLog, 'read'),
  query: listQuery.extend({
    rate_table_id: coercedInt4().positive().optional(),
    status: z.string().max(32).optional(),
    created_from: z.string().optional(),
    created_to: z.string().optional(),
  }),
  payload: paged(rateImportTaskRow),
});
export const importErrorRow = z.object({
  id: z.number(),
  line: z.number(),
  code: z.string(),
  field: z.string(),
  message: z.string(),
});
export const listImportErrors = endpoint({
  method: 'GET',
  path: '/rate/import/:id/errors',
  summary: 'Per-row errors of a rate import',
  tag: TAG,
  access: adminOnly(FUNC.importLog, 'read'),
  params: idParams,
  query: listQuery,
  payload: paged(importErrorRow),
});

export const exportRates = endpoint({
  method: 'GET',
  path: '/rate/rate_table/:id/export',
  summary: 'Download the rates (CSV or XLSX) matching the filters',
  tag: TAG,
  access: adminOnly(FUNC.rateTable, 'read'),
  params: idParams,
  query: rateFilters.extend({ format: z.enum(['csv', 'xlsx']).default('csv') }),
  raw: true,
  payload: z.null(),
});

export const massEditChange = z
  .object({ action: z.enum(MASS_EDIT_ACTIONS).default('no_change'), value: amount.optional() })
  .refine((c) => c.action === 'no_change' || c.value !== undefined, { message: 'required', path: ['value'] });
export const massEditBody = z
  .object({
    filter: rateFilters.default({}),
    rate_ids: z.array(int4().positive()).max(10000).optional(),
    changes: z
      .object(
        Object.fromEntries(RATE_COLUMNS.map((c) => [c, massEditChange.optional()])) as Record<
          RateColumn,
          z.ZodOptional<typeof massEditChange>
        >,
      )
      .strict(),
  })
  .strict();
export const massEdit = endpoint({
  method: 'POST',
  path: '/rate/rate_table/:id/mass_edit',
  summary: 'Change the rates of the filtered rows (set to, increase by, decrease by, multiply by)',
  tag: TAG,
  access: adminOnly(FUNC.rateTable, 'write'),
  params: idParams,
  body: massEditBody,
  payload: z.object({ affected: z.number() }),
});
export const massEditLogRow = z.object({
  id: z.number(),
  rate_table_id: z.number().nullable(),
  rate_table_name: z.string(),
  user_name: z.string(),
  filter: z.record(z.string(), z.unknown()),
  actions: z.record(z.string(), z.unknown()),
  affected_rows: z.number(),
  created_at: z.string(),
});
export const listMassEditLog = endpoint({
  method: 'GET',
  path: '/rate/mass_edit_log',
  summary: 'Rate mass edit log',
  tag: TAG,
  access: adminOnly(FUNC.massEditLog, 'read'),
  query: listQuery.extend({ rate_table_id: coercedInt4().positive().optional() }),
  payload: paged(massEditLogRow),
});

// ------------------------------------------------------------------------------------------------
// Rate upload templates and auto rate import rules
// ------------------------------------------------------------------------------------------------

export const uploadTemplateFields = z.object({
  name: entityName(),
  delete_existing: z.boolean().default(false),
  end_date_option: z.enum(END_DATE_OPTIONS).default('end_previous'),
  effective_date_format: z.enum(DATE_FORMATS).default('YYYY-MM-DD'),
  has_code_deck: z.boolean().default(true),
  /** Rows without an effective date start this many days after the upload (0 = at once). */
  default_effective_days: seconds.refine((v) => v <= 365, { message: 'positiveInteger' }).default(0),
  duplicate_mode: z.enum(DUPLICATE_MODES).default('reject'),
});
export const uploadTemplateRow = uploadTemplateFields.extend({
  id: z.number(),
  usage_count: z.number(),
  updated_at: z.string(),
  updated_by: z.string(),
});
export const uploadTemplate = crudEndpoints({
  base: '/rate/upload_template',
  tag: TAG,
  func: FUNC.uploadTemplate,
  name: 'rate upload template',
  row: uploadTemplateRow,
  create: uploadTemplateFields.strict(),
  filters: { name: z.string().max(100).optional() },
});

export const autoImportRuleFields = z.object({
  name: entityName(),
  rate_table_id: int4({ message: 'required' }).positive(),
  /** 0 = 'Use no template' (stored as none). */
  template_id: int4().min(0).nullable().default(null),
  email_subject: text(200).default(''),
  is_active: z.boolean().default(true),
});
export const autoImportRuleRow = autoImportRuleFields.extend({
  id: z.number(),
  rate_table_name: z.string(),
  template_name: z.string().nullable(),
  last_import_at: z.string().nullable(),
  updated_at: z.string(),
});
export const autoImportRule = crudEndpoints({
  base: '/rate/auto_import_rule',
  tag: TAG,
  func: FUNC.autoImport,
  name: 'auto rate import rule',
  row: autoImportRuleRow,
  create: autoImportRuleFields.strict(),
  filters: {
    name: z.string().max(100).optional(),
    rate_table_id: coercedInt4().positive().optional(),
  },
  activation: true,
});
export const uploadByRule = endpoint({
  method: 'POST',
  path: '/rate/auto_import_rule/:id/upload',
  summary: "Import a rate file with a rule's rate table and template (multipart: file); answers the task id",
  tag: TAG,
  access: adminOnly(FUNC.autoImport, 'write'),
  params: idParams,
  multipart: true,
  payload: objectId,
});

// ------------------------------------------------------------------------------------------------
// US jurisdiction
// ------------------------------------------------------------------------------------------------

export const jurisdictionRow = z.object({
  npanxx: z.string(),
  npa: z.string(),
  nxx: z.string(),
  state: z.string(),
  lata: z.string(),
});
export const listJurisdiction = endpoint({
  method: 'GET',
  path: '/rate/us_jurisdiction/list',
  summary: 'NPA-NXX jurisdiction data (NPA-NXX prefix, state, LATA filters)',
  tag: TAG,
  access: adminOnly(FUNC.usJurisdiction, 'read'),
  query: listQuery.extend({
    npanxx: z.string().max(6).optional(),
    state: z.string().max(32).optional(),
    lata: z.string().max(16).optional(),
  }),
  payload: paged(jurisdictionRow),
});
export const uploadJurisdiction = endpoint({
  method: 'POST',
  path: '/rate/us_jurisdiction/upload',
  summary: 'Upload NPA-NXX data (multipart: mode merge|replace, file CSV npanxx,state,lata)',
  tag: TAG,
  access: adminOnly(FUNC.usJurisdiction, 'write'),
  multipart: true,
  payload: z.object({
    object_id: z.number(),
    total_rows: z.number(),
    inserted_rows: z.number(),
    updated_rows: z.number(),
    deleted_rows: z.number(),
  }),
});
export const jurisdictionImportOptions = codeImportOptions;
