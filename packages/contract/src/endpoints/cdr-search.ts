import { z } from 'zod';
import { adminOnly, type UserType } from '../access';
import { instantFilter, queryBool } from '../common';
import { endpoint } from '../endpoint';
import type { Language } from '../i18n';
import { RELEASE_SIDES } from './cdr';

/**
 * CDR search (issue 10 section 4, spec 02 Statistics > CDRs List, the portals' CDR report pages,
 * Configuration > Carrier Portal CDR Fields). docs/cdr.md#search.
 *
 * One declaration of the CDR field catalogue (CDR_FIELDS) is read by the search, the one-call view,
 * the CSV writer, the column chooser and the portal field settings: each field's label in en/ch/de,
 * its type, which leg it belongs to, whether it is a cost or rate (hidden from admins whose role lacks
 * "view cost and rate in reports"), and which portal sides may ever see it.
 */
export const FUNC = {
  cdrsList: '/statistics/cdrs_list',
  portalFields: '/configuration/carrier_portal_cdr_fields',
  /**
   * The Finance permission "view cost and rate in reports" (spec 02 section 6): a backend function,
   * not a page; an admin whose role does not grant it reading sees no cost, rate or profit field.
   */
  viewCostAndRate: 'finance:view_cost_and_rate', // listed in FUNCTION_PERMISSIONS (menu.ts)
} as const;
const TAG = 'cdr search';

/** Widest time range one search may cover. */
export const CDR_SEARCH_MAX_DAYS = 62;
/** Widest time range of the direct CSV download (a bigger one goes through the export queue). */
export const CDR_DOWNLOAD_MAX_DAYS = 7;
/** The total is counted up to this many rows and then shown as "10,000+". */
export const CDR_COUNT_CAP = 10_000;
export const CDR_PAGE_SIZES = [20, 50, 100, 200, 500] as const;

export type CdrFieldType = 'text' | 'int' | 'bool' | 'time' | 'money' | 'seconds' | 'ms';
/** call: the attempt as a whole; ingress: the customer's leg; egress: the vendor's leg; operator: internal. */
export type CdrLeg = 'call' | 'ingress' | 'egress' | 'operator';
export type CdrPortalSide = 'client' | 'vendor';

export interface CdrFieldDef {
  name: string;
  label: Record<Language, string>;
  type: CdrFieldType;
  leg: CdrLeg;
  /** A cost, rate or profit: admins need FUNC.viewCostAndRate to see it. */
  money: boolean;
  /** Which portal sides may ever be shown the field (the settings page can switch it on for them). */
  portal: readonly CdrPortalSide[];
  /** Shown to that side until the settings say otherwise. */
  defaultFor: readonly CdrPortalSide[];
  /** Always shown to that side; the settings cannot hide it. */
  requiredFor: readonly CdrPortalSide[];
}

const L = (en: string, ch: string, de: string): Record<Language, string> => ({ en, ch, de });
const C: readonly CdrPortalSide[] = ['client'];
const V: readonly CdrPortalSide[] = ['vendor'];
const CV: readonly CdrPortalSide[] = ['client', 'vendor'];
const NONE: readonly CdrPortalSide[] = [];
const f = (
  name: string,
  label: Record<Language, string>,
  type: CdrFieldType,
  leg: CdrLeg,
  portal: readonly CdrPortalSide[],
  opts: {
    money?: boolean;
    defaultFor?: readonly CdrPortalSide[];
    requiredFor?: readonly CdrPortalSide[];
  } = {},
): CdrFieldDef => ({
  name,
  label,
  type,
  leg,
  money: opts.money ?? false,
  portal,
  defaultFor: opts.defaultFor ?? opts.requiredFor ?? NONE,
  requiredFor: opts.requiredFor ?? NONE,
});

/** The CDR field catalogue, in the default column order. */
export const CDR_FIELDS: readonly CdrFieldDef[] = [
  // the attempt
  f('start_time', L('Start Time', '开始时间', 'Startzeit'), 'time', 'call', CV, { requiredFor: CV }),
  f('answer_time', L('Answer Time', '接通时间', 'Annahmezeit'), 'time', 'call', CV, { defaultFor: CV }),
  f('end_time', L('End Time', '结束时间', 'Endzeit'), 'time', 'call', CV, { defaultFor: CV }),
  f('call_duration', L('Call Duration', '通话时长', 'Gesprächsdauer'), 'seconds', 'call', CV, {
    requiredFor: CV,
  }),
  f('pdd', L('PDD (ms)', '拨号后延迟（毫秒）', 'PDD (ms)'), 'ms', 'call', CV, { defaultFor: CV }),
  f('ring_time', L('Ring Time (ms)', '振铃时长（毫秒）', 'Klingeldauer (ms)'), 'ms', 'call', CV),
  f('release_cause', L('Release Cause', '释放原因', 'Auslösegrund'), 'int', 'call', CV, { defaultFor: CV }),
  f('q850_cause', L('Q.850 Cause', 'Q.850 原因', 'Q.850-Grund'), 'int', 'call', CV),
  f('release_side', L('Release Side', '释放方', 'Auslösende Seite'), 'text', 'call', CV, { defaultFor: C }),
  f('call_id', L('Call ID', '呼叫 ID', 'Anruf-ID'), 'text', 'call', CV, { defaultFor: CV }),
  f('attempt', L('Attempt', '尝试次数', 'Versuch'), 'int', 'call', NONE),
  f('is_final_attempt', L('Final Attempt', '最终尝试', 'Letzter Versuch'), 'bool', 'call', NONE),
  f('codec', L('Codec', '编解码器', 'Codec'), 'text', 'call', CV),
  f('lrn', L('LRN', 'LRN', 'LRN'), 'text', 'call', CV),
  f('routing_dnis', L('Rated Number', '计费号码', 'Bepreiste Nummer'), 'text', 'call', CV),
  // the customer's leg
  f(
    'ingress_client_id',
    L('Ingress Carrier ID', '入向运营商 ID', 'Eingangs-Carrier-ID'),
    'int',
    'ingress',
    NONE,
  ),
  f('ingress_client_name', L('Ingress Carrier', '入向运营商', 'Eingangs-Carrier'), 'text', 'ingress', NONE),
  f('ingress_trunk_id', L('Ingress Trunk ID', '入向中继 ID', 'Eingangs-Trunk-ID'), 'int', 'ingress', NONE),
  f('ingress_trunk_name', L('Ingress Trunk', '入向中继', 'Eingangs-Trunk'), 'text', 'ingress', C, {
    defaultFor: C,
  }),
  f('source_ip', L('Source IP', '来源 IP', 'Quell-IP'), 'text', 'ingress', C, { defaultFor: C }),
  f('ani', L('ANI', '主叫号码', 'A-Nummer'), 'text', 'ingress', C, { requiredFor: C }),
  f('dnis', L('DNIS', '被叫号码', 'B-Nummer'), 'text', 'ingress', C, { requiredFor: C }),
  f(
    'ingress_rate_table_id',
    L('Ingress Rate Table ID', '入向费率表 ID', 'Eingangs-Tariftabellen-ID'),
    'int',
    'ingress',
    NONE,
  ),
  f(
    'ingress_rate_table_name',
    L('Ingress Rate Table', '入向费率表', 'Eingangs-Tariftabelle'),
    'text',
    'ingress',
    C,
  ),
  f('ingress_code', L('Ingress Code', '入向号码前缀', 'Eingangs-Code'), 'text', 'ingress', C, {
    defaultFor: C,
  }),
  f('ingress_code_name', L('Ingress Code Name', '入向前缀名称', 'Eingangs-Codename'), 'text', 'ingress', C, {
    defaultFor: C,
  }),
  f('orig_country', L('Orig Country', '始发国家', 'Ursprungsland'), 'text', 'ingress', C),
  f('ingress_rate', L('Ingress Rate', '入向费率', 'Eingangstarif'), 'money', 'ingress', C, {
    money: true,
    defaultFor: C,
  }),
  f(
    'ingress_setup_fee',
    L('Ingress Setup Fee', '入向接续费', 'Eingangs-Verbindungsgebühr'),
    'money',
    'ingress',
    C,
    {
      money: true,
    },
  ),
  f(
    'ingress_rate_column',
    L('Ingress Rate Column', '入向费率列', 'Eingangs-Tarifspalte'),
    'text',
    'ingress',
    C,
  ),
  f(
    'ingress_jurisdiction',
    L('Ingress Jurisdiction', '入向管辖区', 'Eingangs-Zuständigkeit'),
    'text',
    'ingress',
    C,
  ),
  f(
    'ingress_billed_time',
    L('Ingress Billed Time', '入向计费时长', 'Abgerechnete Eingangszeit'),
    'seconds',
    'ingress',
    C,
    {
      defaultFor: C,
    },
  ),
  f(
    'ingress_client_cost',
    L('Ingress Client Cost', '入向客户费用', 'Eingangskosten Kunde'),
    'money',
    'ingress',
    C,
    {
      money: true,
      requiredFor: C,
    },
  ),
  f('short_call_charge', L('Short Call Charge', '短呼叫费', 'Kurzanrufgebühr'), 'money', 'ingress', C, {
    money: true,
  }),
  // the vendor's leg
  f(
    'egress_client_id',
    L('Egress Carrier ID', '出向运营商 ID', 'Ausgangs-Carrier-ID'),
    'int',
    'egress',
    NONE,
  ),
  f('egress_client_name', L('Egress Carrier', '出向运营商', 'Ausgangs-Carrier'), 'text', 'egress', NONE),
  f('egress_trunk_id', L('Egress Trunk ID', '出向中继 ID', 'Ausgangs-Trunk-ID'), 'int', 'egress', NONE),
  f('egress_trunk_name', L('Egress Trunk', '出向中继', 'Ausgangs-Trunk'), 'text', 'egress', V, {
    defaultFor: V,
  }),
  f('egress_host', L('Egress Host', '出向主机', 'Ausgangs-Host'), 'text', 'egress', V, { defaultFor: V }),
  f('egress_dnis', L('Egress DNIS', '出向被叫号码', 'Ausgangs-B-Nummer'), 'text', 'egress', V, {
    requiredFor: V,
  }),
  f(
    'egress_rate_table_id',
    L('Egress Rate Table ID', '出向费率表 ID', 'Ausgangs-Tariftabellen-ID'),
    'int',
    'egress',
    NONE,
  ),
  f(
    'egress_rate_table_name',
    L('Egress Rate Table', '出向费率表', 'Ausgangs-Tariftabelle'),
    'text',
    'egress',
    V,
  ),
  f('egress_code', L('Egress Code', '出向号码前缀', 'Ausgangs-Code'), 'text', 'egress', V, { defaultFor: V }),
  f('egress_code_name', L('Egress Code Name', '出向前缀名称', 'Ausgangs-Codename'), 'text', 'egress', V, {
    defaultFor: V,
  }),
  f('term_country', L('Term Country', '终止国家', 'Zielland'), 'text', 'egress', V),
  f('egress_rate', L('Egress Rate', '出向费率', 'Ausgangstarif'), 'money', 'egress', V, {
    money: true,
    defaultFor: V,
  }),
  f(
    'egress_setup_fee',
    L('Egress Setup Fee', '出向接续费', 'Ausgangs-Verbindungsgebühr'),
    'money',
    'egress',
    V,
    {
      money: true,
    },
  ),
  f('egress_rate_column', L('Egress Rate Column', '出向费率列', 'Ausgangs-Tarifspalte'), 'text', 'egress', V),
  f(
    'egress_jurisdiction',
    L('Egress Jurisdiction', '出向管辖区', 'Ausgangs-Zuständigkeit'),
    'text',
    'egress',
    V,
  ),
  f(
    'egress_billed_time',
    L('Egress Billed Time', '出向计费时长', 'Abgerechnete Ausgangszeit'),
    'seconds',
    'egress',
    V,
    {
      defaultFor: V,
    },
  ),
  f('egress_cost', L('Egress Cost', '出向费用', 'Ausgangskosten'), 'money', 'egress', V, {
    money: true,
    requiredFor: V,
  }),
  // the operator's own
  f('profit', L('Profit', '利润', 'Gewinn'), 'money', 'operator', NONE, { money: true }),
  f('unpriced_reason', L('Unpriced Reason', '未计价原因', 'Grund ohne Preis'), 'text', 'operator', NONE),
  f('batch_id', L('Batch ID', '批次 ID', 'Batch-ID'), 'text', 'operator', NONE),
  f('rated_at', L('Rated At', '计价时间', 'Bepreist am'), 'time', 'operator', NONE),
  f('rerated', L('Rerated', '重新计价次数', 'Neu bepreist'), 'int', 'operator', NONE),
  f('cdr_id', L('CDR ID', 'CDR ID', 'CDR-ID'), 'int', 'operator', NONE),
];

export const CDR_FIELD_NAMES: readonly string[] = CDR_FIELDS.map((x) => x.name);
const FIELD_BY_NAME = new Map(CDR_FIELDS.map((x) => [x.name, x]));
export const cdrField = (name: string): CdrFieldDef | undefined => FIELD_BY_NAME.get(name);

/** Columns an admin sees before choosing (the portals see their configured fields). */
export const CDR_ADMIN_DEFAULT_FIELDS: readonly string[] = [
  'start_time',
  'call_duration',
  'ingress_client_name',
  'ingress_trunk_name',
  'ani',
  'dnis',
  'egress_client_name',
  'egress_trunk_name',
  'release_cause',
  'release_side',
  'ingress_code_name',
  'ingress_client_cost',
  'egress_cost',
  'profit',
  'unpriced_reason',
];

/** The portal side whose field settings apply to a user type (agents see their customers' calls). */
export const portalSideOf = (type: UserType): CdrPortalSide | null =>
  type === 'vendor' ? 'vendor' : type === 'client' || type === 'agent' ? 'client' : null;

// ------------------------------------------------------------------------------------------------
// Search
// ------------------------------------------------------------------------------------------------

const optionalId = z.coerce.number().int().positive().max(2_147_483_647).optional();
const digits = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .regex(/^\+?[0-9*#]*$/, { message: 'digitsOnly' })
    .optional();
/** A keyset position: the start time (microseconds, UTC) and CDR id of a row. */
export const cdrCursor = z
  .string()
  .max(80)
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z~\d{1,19}$/, { message: 'cdrBadCursor' });

export const CDR_DURATION_FILTERS = ['all', 'non_zero', 'zero'] as const;
/**
 * Which traffic: calls from DID vendors to DIDs (their ingress trunk is a DID vendor's, trunk type
 * 'did': docs/did.md), or every other call (termination). Unset: both.
 */
export const CDR_TRAFFIC = ['termination', 'did'] as const;
export type CdrTraffic = (typeof CDR_TRAFFIC)[number];

const cdrFilterShape = {
  /** Start of the range (inclusive), ISO; without a zone it is UTC. */
  start: instantFilter,
  /** End of the range (exclusive). At most CDR_SEARCH_MAX_DAYS after start. */
  end: instantFilter,
  ingress_client_id: optionalId,
  egress_client_id: optionalId,
  ingress_trunk_id: optionalId,
  egress_trunk_id: optionalId,
  /** ANI starting with these digits. */
  ani: digits(64),
  /** DNIS (as received; as sent for a vendor) starting with these digits. */
  dnis: digits(64),
  /** Matched code starting with these digits (the customer's leg; a vendor's own leg). */
  code: digits(32),
  /** Country of the matched code (orig_country; term_country for a vendor), exact, case-insensitive. */
  country: z.string().trim().max(100).optional(),
  duration: z.enum(CDR_DURATION_FILTERS).default('all'),
  answered: queryBool.optional(),
  release_cause: z.coerce.number().int().min(100).max(699).optional(),
  release_side: z.enum(RELEASE_SIDES).optional(),
  call_id: z.string().trim().max(128).optional(),
  /** Only CDRs that could not be priced (true) or only priced ones (false). */
  unpriced: queryBool.optional(),
  traffic: z.enum(CDR_TRAFFIC).optional(),
};

/** Message args for a refinement (the server names the field and fills {0}). */
const withArgs = (args: (string | number)[]) => ({ params: { args } });

function checkRange(
  v: { start: string; end: string },
  ctx: z.RefinementCtx,
  maxDays: number,
  key: string,
): void {
  const s = Date.parse(v.start);
  const e = Date.parse(v.end);
  if (e <= s) {
    ctx.addIssue({ code: 'custom', path: ['end'], message: 'cdrRangeEmpty', ...withArgs(['end']) });
    return;
  }
  if (e - s > maxDays * 86_400_000)
    ctx.addIssue({ code: 'custom', path: ['end'], message: key, ...withArgs([maxDays]) });
}

/** A comma-separated list of catalogue field names. */
export const cdrFieldList = z
  .string()
  .max(4000)
  .transform((v) => [
    ...new Set(
      v
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    ),
  ])
  .refine((l) => l.every((n) => FIELD_BY_NAME.has(n)), { message: 'cdrUnknownField' });

export const cdrSearchQuery = z
  .object({
    ...cdrFilterShape,
    /** Columns to return (default: every field the caller may see). */
    fields: cdrFieldList.optional(),
    per_page: z.coerce.number().int().min(1).max(1000).default(100),
    /** Newest first (desc, default) or oldest first. */
    order_dir: z.enum(['asc', 'desc']).default('desc'),
    /** The page after this row (from `next` of a page). */
    after: cdrCursor.optional(),
    /** The page before this row (from `prev` of a page). */
    before: cdrCursor.optional(),
  })
  .superRefine((v, ctx) => checkRange(v, ctx, CDR_SEARCH_MAX_DAYS, 'cdrRangeTooLong'));
export type CdrSearchQuery = z.output<typeof cdrSearchQuery>;
/** The filter part of a search (what an export keeps). */
export type CdrFilter = Pick<CdrSearchQuery, keyof typeof cdrFilterShape>;

export const cdrDownloadQuery = z
  .object({
    ...cdrFilterShape,
    fields: cdrFieldList.optional(),
    order_dir: z.enum(['asc', 'desc']).default('desc'),
  })
  .superRefine((v, ctx) => checkRange(v, ctx, CDR_DOWNLOAD_MAX_DAYS, 'cdrDownloadTooLong'));

/** The filter of a background CSV export of a search (export kind `cdr`): the search's range limit. */
export const cdrExportFilter = z
  .object({
    ...cdrFilterShape,
    fields: cdrFieldList.optional(),
    order_dir: z.enum(['asc', 'desc']).default('desc'),
  })
  .superRefine((v, ctx) => checkRange(v, ctx, CDR_SEARCH_MAX_DAYS, 'cdrRangeTooLong'));

/** A CDR as the caller may see it: catalogue field name -> value (money and NUMERIC as exact strings). */
export const cdrValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export const cdrRow = z.record(z.string(), cdrValue);
export type CdrRow = z.output<typeof cdrRow>;

export const cdrSearchResult = z.object({
  /** Each row also carries `call_id` and `cdr_id` (to open the call), whatever fields were asked. */
  items: z.array(cdrRow),
  /** The fields of the rows, in order. */
  fields: z.array(z.string()),
  /** Cursor of the next page (null: this is the last), of the previous page (null: the first). */
  next: z.string().nullable(),
  prev: z.string().nullable(),
  /** Rows matching the filters, counted up to CDR_COUNT_CAP; `total_capped`: there are more. */
  total: z.number().int(),
  total_capped: z.boolean(),
});
export type CdrSearchResult = z.output<typeof cdrSearchResult>;

const PORTAL = ['client', 'vendor', 'agent'] as const;

export const searchCdrs = endpoint({
  method: 'GET',
  path: '/cdr/list',
  summary:
    "CDR search over a time range (at most 62 days), keyset paged by (start time, CDR id); clients see their own calls, vendors their own egress legs, agents their carriers' calls",
  tag: TAG,
  access: adminOnly(FUNC.cdrsList, 'read', PORTAL),
  query: cdrSearchQuery,
  payload: cdrSearchResult,
});

export const downloadCdrs = endpoint({
  method: 'GET',
  path: '/cdr/list/csv',
  summary: 'The CDRs of a search as CSV, streamed (at most 7 days; wider searches go through the export log)',
  tag: TAG,
  access: adminOnly(FUNC.cdrsList, 'read', PORTAL),
  query: cdrDownloadQuery,
  raw: true,
  payload: z.unknown(),
});

export const callDetail = endpoint({
  method: 'GET',
  path: '/cdr/call/:call_id',
  summary: 'Every attempt of one call with both legs as rated (each caller sees only its own legs)',
  tag: TAG,
  access: adminOnly(FUNC.cdrsList, 'read', PORTAL),
  params: z.object({ call_id: z.string().min(1).max(128) }),
  payload: z.object({ call_id: z.string(), fields: z.array(z.string()), attempts: z.array(cdrRow) }),
});

// ------------------------------------------------------------------------------------------------
// Field catalogue and carrier portal CDR fields
// ------------------------------------------------------------------------------------------------

export const cdrFieldInfo = z.object({
  name: z.string(),
  label: z.object({ en: z.string(), ch: z.string(), de: z.string() }),
  type: z.enum(['text', 'int', 'bool', 'time', 'money', 'seconds', 'ms']),
  leg: z.enum(['call', 'ingress', 'egress', 'operator']),
  money: z.boolean(),
  /** Whether the caller may see the field at all (role, cost permission, portal settings). */
  visible: z.boolean(),
});

export const cdrFields = endpoint({
  method: 'GET',
  path: '/cdr/fields',
  summary: 'The CDR field catalogue with labels in en/ch/de, and which fields the caller may see',
  tag: TAG,
  access: adminOnly(FUNC.cdrsList, 'read', PORTAL),
  payload: z.object({ items: z.array(cdrFieldInfo), default_fields: z.array(z.string()) }),
});

export const portalFieldRow = z.object({
  name: z.string(),
  label: z.object({ en: z.string(), ch: z.string(), de: z.string() }),
  leg: z.enum(['call', 'ingress', 'egress', 'operator']),
  /** Which sides may be shown it at all. */
  client_allowed: z.boolean(),
  vendor_allowed: z.boolean(),
  client_viewable: z.boolean(),
  vendor_viewable: z.boolean(),
  requiredForClient: z.boolean(),
  requiredForVendor: z.boolean(),
});
export type PortalFieldRow = z.output<typeof portalFieldRow>;

export const getPortalFields = endpoint({
  method: 'GET',
  path: '/config/carrier_portal_cdr_fields',
  summary: 'Which CDR fields the client and vendor portals show',
  tag: TAG,
  access: adminOnly(FUNC.portalFields, 'read'),
  payload: z.object({ items: z.array(portalFieldRow) }),
});

export const portalFieldsWrite = z
  .object({
    fields: z
      .array(
        z
          .object({ name: z.string().max(64), client_viewable: z.boolean(), vendor_viewable: z.boolean() })
          .strict(),
      )
      .max(200),
  })
  .strict()
  .superRefine((v, ctx) => {
    v.fields.forEach((x, i) => {
      const def = FIELD_BY_NAME.get(x.name);
      if (!def) {
        ctx.addIssue({
          code: 'custom',
          path: ['fields', i, 'name'],
          message: 'cdrUnknownField',
          ...withArgs([x.name]),
        });
        return;
      }
      for (const side of ['client', 'vendor'] as const) {
        const on = side === 'client' ? x.client_viewable : x.vendor_viewable;
        const path = ['fields', i, `${side}_viewable`];
        if (on && !def.portal.includes(side))
          ctx.addIssue({ code: 'custom', path, message: 'cdrFieldNotForSide', ...withArgs([x.name]) });
        if (!on && def.requiredFor.includes(side))
          ctx.addIssue({ code: 'custom', path, message: 'cdrFieldRequired', ...withArgs([x.name]) });
      }
    });
  });

export const putPortalFields = endpoint({
  method: 'PUT',
  path: '/config/carrier_portal_cdr_fields',
  summary: 'Choose which CDR fields the client and vendor portals show (fields not sent keep their setting)',
  tag: TAG,
  access: adminOnly(FUNC.portalFields, 'write'),
  body: portalFieldsWrite,
  payload: z.object({ items: z.array(portalFieldRow) }),
});
