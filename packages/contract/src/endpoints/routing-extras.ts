import { coercedInt4, int4, INT4_MAX } from '../input-rules';
import { z } from 'zod';
import { adminOnly } from '../access';
import { IPV4, idParams, instantFilter, listQuery, objectId, paged } from '../common';
import { crudEndpoints, digits, entityName } from '../crud';
import { endpoint } from '../endpoint';

/**
 * Routing extras: digital maps (named, ordered digit-mapping items assigned to ingress and egress
 * trunks), inbound media IP blocking (addresses and CIDR ranges whose calls are refused, with a
 * list the media relay can poll) and the STIOCN block list (STIR/SHAKEN originating carriers by
 * OCN or origid). All three feed the routing engine's snapshot.
 */
const tag = 'routing';
export const DIGITAL_MAP_FUNC = '/routing/digital_maps';
export const MEDIA_IP_FUNC = '/routing/inbound_media_ip_blocking';
export const OCN_BLOCK_FUNC = '/routing/STIOCN_Block_List';

const id = int4().positive();
const queryId = coercedInt4().positive().optional();
const note = z.string().trim().max(200).default('');

// ---------------------------------------------------------------------------------------------
// Digital maps

export const DIGIT_MAP_FIELDS = ['ani', 'dnis'] as const;
export const DIGIT_MAP_MATCHES = ['prefix', 'exact'] as const;
export const DIGIT_MAP_ACTIONS = ['strip', 'prepend', 'replace_prefix', 'replace_all'] as const;

export const digitalMapTrunk = z.object({
  trunk_id: z.number(),
  trunk_name: z.string(),
  carrier_name: z.string(),
  direction: z.enum(['ingress', 'egress']),
});
export const digitalMapRow = z.object({
  digital_map_id: z.number(),
  name: z.string(),
  note: z.string(),
  item_count: z.number(),
  trunks: z.array(digitalMapTrunk),
  updated_at: z.string(),
  updated_by: z.string(),
});
export type DigitalMapRow = z.output<typeof digitalMapRow>;
export const digitalMap = crudEndpoints({
  base: '/routing/digital_maps',
  tag,
  func: DIGITAL_MAP_FUNC,
  name: 'digital map',
  row: digitalMapRow,
  create: z
    .object({
      name: entityName(),
      note,
      /** Ingress and egress trunks using this map (a trunk uses at most one map). */
      trunk_ids: z.array(id).max(1000).default([]),
    })
    .strict(),
  filters: { name: z.string().max(100).optional(), trunk_id: queryId },
});

/** One digit-mapping item (domain digit-map.ts); the whole item is sent on change. */
export const digitMapItemBody = z
  .object({
    field: z.enum(DIGIT_MAP_FIELDS),
    match: z.enum(DIGIT_MAP_MATCHES).default('prefix'),
    /** '' with match 'prefix' = any number. */
    pattern: digits(32).default(''),
    action: z.enum(DIGIT_MAP_ACTIONS),
    strip_count: z
      .number({ message: 'positiveInteger' })
      .int({ message: 'positiveInteger' })
      .min(1, { message: 'positiveInteger' })
      .max(32, { message: 'invalidValue' })
      .nullable()
      .default(null),
    digits: digits(32).default(''),
    /** 1-based place in the map; null = at the end. Items at and after it move down. */
    position: z
      .number({ message: 'positiveInteger' })
      .int({ message: 'positiveInteger' })
      .min(1, { message: 'positiveInteger' })
      .max(INT4_MAX, { message: 'positiveInteger' })
      .nullable()
      .default(null),
    note,
  })
  .strict()
  .superRefine((b, ctx) => {
    if (b.match === 'exact' && b.pattern === '')
      ctx.addIssue({ code: 'custom', path: ['pattern'], message: 'required', params: { args: ['pattern'] } });
    if (b.action === 'strip' && b.strip_count === null)
      ctx.addIssue({
        code: 'custom',
        path: ['strip_count'],
        message: 'required',
        params: { args: ['strip_count'] },
      });
    if ((b.action === 'prepend' || b.action === 'replace_all') && b.digits === '')
      ctx.addIssue({ code: 'custom', path: ['digits'], message: 'required', params: { args: ['digits'] } });
  });
export type DigitMapItemBody = z.output<typeof digitMapItemBody>;
export const digitMapItemRow = z.object({
  id: z.number(),
  digital_map_id: z.number(),
  position: z.number(),
  field: z.enum(DIGIT_MAP_FIELDS),
  match: z.enum(DIGIT_MAP_MATCHES),
  pattern: z.string(),
  action: z.enum(DIGIT_MAP_ACTIONS),
  strip_count: z.number().nullable(),
  digits: z.string(),
  note: z.string(),
});
export type DigitMapItemRow = z.output<typeof digitMapItemRow>;
const itemParams = z.object({
  id: coercedInt4().positive(),
  item_id: coercedInt4().positive(),
});
export const listDigitMapItems = endpoint({
  method: 'GET',
  path: '/routing/digital_maps/:id/items',
  summary: 'Digit-mapping items of a digital map, in the order they are tried',
  tag,
  access: adminOnly(DIGITAL_MAP_FUNC, 'read'),
  params: idParams,
  query: listQuery.extend({
    field: z.enum(DIGIT_MAP_FIELDS).optional(),
    pattern: z.string().max(32).optional(),
  }),
  payload: paged(digitMapItemRow),
});
export const getDigitMapItem = endpoint({
  method: 'GET',
  path: '/routing/digital_maps/:id/items/:item_id',
  summary: 'One digit-mapping item',
  tag,
  access: adminOnly(DIGITAL_MAP_FUNC, 'read'),
  params: itemParams,
  payload: digitMapItemRow,
});
export const createDigitMapItem = endpoint({
  method: 'POST',
  path: '/routing/digital_maps/:id/items/create',
  summary: 'Add a digit-mapping item to a digital map',
  tag,
  access: adminOnly(DIGITAL_MAP_FUNC, 'write'),
  params: idParams,
  body: digitMapItemBody,
  payload: objectId,
});
export const updateDigitMapItem = endpoint({
  method: 'PATCH',
  path: '/routing/digital_maps/:id/items/:item_id',
  summary: 'Change a digit-mapping item (the whole item is sent)',
  tag,
  access: adminOnly(DIGITAL_MAP_FUNC, 'write'),
  params: itemParams,
  body: digitMapItemBody,
  payload: z.null(),
});
export const deleteDigitMapItem = endpoint({
  method: 'DELETE',
  path: '/routing/digital_maps/:id/items/:item_id',
  summary: 'Delete a digit-mapping item',
  tag,
  access: adminOnly(DIGITAL_MAP_FUNC, 'write'),
  params: itemParams,
  payload: z.null(),
});

// ---------------------------------------------------------------------------------------------
// Inbound media IP blocking

/** An IPv4 address or CIDR range in its canonical form: host bits cleared, '/32' dropped. */
export function canonicalIp(v: string): string | null {
  const [ip, bits, ...rest] = v.trim().split('/');
  if (rest.length || !ip || !IPV4.test(ip)) return null;
  if (bits !== undefined && !(/^\d{1,2}$/.test(bits) && Number(bits) <= 32)) return null;
  const n = bits === undefined ? 32 : Number(bits);
  if (n === 32) return ip;
  const value = ip.split('.').reduce((a, o) => a * 256 + Number(o), 0);
  const mask = n === 0 ? 0 : (0xffffffff << (32 - n)) >>> 0;
  const net = (value & mask) >>> 0;
  return `${[24, 16, 8, 0].map((s) => (net >>> s) & 255).join('.')}/${n}`;
}
export const blockedIp = z
  .string()
  .trim()
  .max(18)
  .refine((v) => canonicalIp(v) !== null, { message: 'invalidIp' })
  .transform((v) => canonicalIp(v) as string);
/** ISO 8601 date or date-time in the future, or null (never expires). */
const expiry = instantFilter.nullable().default(null);

export const mediaIpBlockRow = z.object({
  id: z.number(),
  ip: z.string(),
  note: z.string(),
  expires_at: z.string().nullable(),
  /** The expiry has passed: the entry no longer blocks. */
  expired: z.boolean(),
  created_by: z.string(),
  created_at: z.string(),
});
export const mediaIpBlockCreate = z.object({ ip: blockedIp, note, expires_at: expiry }).strict();
export const mediaIpBlockFilters = {
  ip: z.string().max(18).optional(),
  status: z.enum(['active', 'expired']).optional(),
};
export const mediaIpBlock = crudEndpoints({
  base: '/routing/inbound_media_ip_blocking',
  tag,
  func: MEDIA_IP_FUNC,
  name: 'inbound media IP block',
  row: mediaIpBlockRow,
  create: mediaIpBlockCreate,
  filters: mediaIpBlockFilters,
});

/** Multipart fields of a block-list upload (then a CSV or XLSX file). */
export const blockUploadOptions = z.object({
  /** refuse: a value already listed (or twice in the file) refuses the whole file; skip: it is left out. */
  on_duplicate: z.enum(['refuse', 'skip']).default('refuse'),
});
export const blockUploadResult = z.object({
  object_id: z.number(),
  total_rows: z.number(),
  inserted_rows: z.number(),
  skipped_rows: z.number(),
});
export const uploadMediaIpBlocks = endpoint({
  method: 'POST',
  path: '/routing/inbound_media_ip_blocking/upload',
  summary:
    'Upload many entries (multipart: on_duplicate refuse|skip, then a CSV/XLSX file with ip, note, expires_at); all or nothing',
  tag,
  access: adminOnly(MEDIA_IP_FUNC, 'write'),
  multipart: true,
  payload: blockUploadResult,
});
export const switchMediaIpBlocks = endpoint({
  method: 'GET',
  path: '/switch/media_ip_blocks',
  summary:
    'Inbound media IP blocks in force now (SIP proxy or media relay, X-Switch-Key): refuse signalling and media from these networks',
  tag: 'switch',
  access: { kind: 'switch' },
  payload: z.object({
    items: z.array(z.object({ ip: z.string(), netmask: z.number(), expires_at: z.string().nullable() })),
  }),
});

// ---------------------------------------------------------------------------------------------
// STIOCN block list

export const OCN_KINDS = ['ocn', 'origid'] as const;
export const OCN_PATTERN = /^[0-9A-Za-z]{4}$/;
export const ORIGID_PATTERN = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;
export const ocnBlockRow = z.object({
  id: z.number(),
  kind: z.enum(OCN_KINDS),
  value: z.string(),
  note: z.string(),
  created_by: z.string(),
  created_at: z.string(),
});
export const ocnBlock = crudEndpoints({
  base: '/routing/STIOCN_Block_List',
  tag,
  func: OCN_BLOCK_FUNC,
  name: 'STIOCN block',
  row: ocnBlockRow,
  create: z
    .object({
      kind: z.enum(OCN_KINDS).default('ocn'),
      /** An OCN (4 letters or digits) or an origid (UUID); the server checks it fits the kind. */
      value: z
        .string()
        .trim()
        .min(1, { message: 'required' })
        .max(36)
        .refine((v) => OCN_PATTERN.test(v) || ORIGID_PATTERN.test(v), { message: 'invalidOcn' }),
      note,
    })
    .strict(),
  filters: { kind: z.enum(OCN_KINDS).optional(), value: z.string().max(36).optional() },
});
export const uploadOcnBlocks = endpoint({
  method: 'POST',
  path: '/routing/STIOCN_Block_List/upload',
  summary:
    'Upload many entries (multipart: on_duplicate refuse|skip, then a CSV/XLSX file with value (or ocn), kind, note); all or nothing',
  tag,
  access: adminOnly(OCN_BLOCK_FUNC, 'write'),
  multipart: true,
  payload: blockUploadResult,
});
