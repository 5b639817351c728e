import { z } from 'zod';
import { adminOnly } from '../access';
import { amount, crudEndpoints, digits, entityName } from '../crud';
import { idParams, ipOrCidr, isoTime, listQuery, objectId, paged, queryBool } from '../common';
import { endpoint } from '../endpoint';
import { coercedInt4, int4 } from '../input-rules';
import { cdrFieldInfo, cdrRow, cdrSearchQuery, cdrSearchResult } from './cdr-search';

/**
 * DID / origination (issue 14, spec 02 "Origination / DID", docs/did.md): billing rules, products,
 * DID vendors and clients (carriers of company type origination with their DID trunk), the DID
 * repository with states and history, imports by list, CSV file or range, the wizard, recurring
 * charges, and the client portal's buy / my DIDs.
 */
const TAG = 'did';
export const DID_FUNC = {
  billingRule: '/origination/billing_rule',
  product: '/origination/did_product',
  clients: '/origination/clients',
  repository: '/origination/did_repository',
  upload: '/origination/did_repository_upload',
  vendors: '/origination/vendors',
  wizard: '/origination/wizard',
  routing: '/origination/did_routing',
  importLog: '/log/DID_import_log',
  cdrs: '/origination/cdrs_list',
} as const;

export const DID_STATES = ['assigned', 'unassigned', 'reserved', 'released'] as const;
export type DidStateName = (typeof DID_STATES)[number];
/** Numbers typed or pasted in one go (spec: maximum 1000 numbers). */
export const DID_LIST_MAX = 1000;
/** Numbers added by one range (spec: maximum 5000 numbers). */
export const DID_RANGE_MAX = 5000;
/** A DID: digits only, 7 to 15 (E.164 without the +). */
export const DID_NUMBER = /^\d{7,15}$/;

const hostList = z.array(ipOrCidr).max(20).default([]);

// ------------------------------------------------------------------------------------------------
// Billing rules and products (plain resources)
// ------------------------------------------------------------------------------------------------

export const billingRuleRow = z.object({
  id: z.number(),
  name: z.string(),
  type: z.enum(['fixed', 'variable']),
  monthly_price: z.string(),
  per_minute: z.string(),
  per_channel: z.string(),
  setup_fee: z.string(),
  did_count: z.number(),
  updated_at: z.string(),
  updated_by: z.string(),
});
export const billingRule = crudEndpoints({
  base: '/did/billing_rule',
  tag: TAG,
  func: DID_FUNC.billingRule,
  name: 'DID billing rule',
  row: billingRuleRow,
  create: z
    .object({
      name: entityName(),
      type: z.enum(['fixed', 'variable']).default('fixed'),
      monthly_price: amount.default('0'),
      per_minute: amount.default('0'),
      per_channel: amount.default('0'),
      setup_fee: amount.default('0'),
    })
    .strict(),
  filters: { name: z.string().max(100).optional() },
});

export const productRow = z.object({
  id: z.number(),
  name: z.string(),
  billing_rule_id: z.number(),
  billing_rule_name: z.string(),
  description: z.string(),
  client_count: z.number(),
  updated_at: z.string(),
});
export const product = crudEndpoints({
  base: '/did/product',
  tag: TAG,
  func: DID_FUNC.product,
  name: 'DID product',
  row: productRow,
  create: z
    .object({
      name: entityName(),
      billing_rule_id: int4().positive({ message: 'required' }),
      description: z.string().trim().max(500).default(''),
    })
    .strict(),
  filters: { name: z.string().max(100).optional() },
});

// ------------------------------------------------------------------------------------------------
// DID vendors and clients: a carrier (company type origination) with its DID trunk
// ------------------------------------------------------------------------------------------------

export const vendorRow = z.object({
  carrier_id: z.number(),
  name: z.string(),
  is_active: z.boolean(),
  trunk_id: z.number().nullable(),
  call_limit: z.number().nullable(),
  tech_prefix: z.string(),
  decimal_places: z.number(),
  billing_rule_id: z.number().nullable(),
  billing_rule_name: z.string().nullable(),
  media_type: z.enum(['bypass', 'proxy', 'transcoding']),
  auth_type: z.enum(['ip', 'host']),
  hosts: z.array(z.string()),
  did_count: z.number(),
  balance: z.string(),
});
export const vendorBody = z
  .object({
    name: entityName(),
    call_limit: int4().min(0).nullable().default(null),
    tech_prefix: digits(16).default(''),
    decimal_places: int4().min(0, { message: 'invalidValue' }).max(6, { message: 'invalidValue' }).default(4),
    billing_rule_id: int4().positive().nullable().default(null),
    media_type: z.enum(['bypass', 'proxy', 'transcoding']).default('proxy'),
    auth_type: z.enum(['ip', 'host']).default('ip'),
    hosts: hostList,
  })
  .strict();
const vendorPatch = vendorBody.partial().strict();
const vendorFilters = listQuery.extend({ name: z.string().max(100).optional() });

export const listVendors = endpoint({
  method: 'GET',
  path: '/did/vendor/list',
  summary: 'DID vendors with their DID count',
  tag: TAG,
  access: adminOnly(DID_FUNC.vendors, 'read'),
  query: vendorFilters,
  payload: paged(vendorRow),
});
export const getVendor = endpoint({
  method: 'GET',
  path: '/did/vendor/:id',
  summary: 'One DID vendor',
  tag: TAG,
  access: adminOnly(DID_FUNC.vendors, 'read'),
  params: idParams,
  payload: vendorRow,
});
export const createVendor = endpoint({
  method: 'POST',
  path: '/did/vendor/create',
  summary: 'Create a DID vendor: the carrier and its DID trunk (hosts the vendor sends calls from)',
  tag: TAG,
  access: adminOnly(DID_FUNC.vendors, 'write'),
  body: vendorBody,
  payload: objectId,
});
export const updateVendor = endpoint({
  method: 'PATCH',
  path: '/did/vendor/:id',
  summary: 'Change a DID vendor',
  tag: TAG,
  access: adminOnly(DID_FUNC.vendors, 'write'),
  params: idParams,
  body: vendorPatch,
  payload: z.null(),
});

export const clientRow = z.object({
  carrier_id: z.number(),
  name: z.string(),
  company: z.string(),
  is_active: z.boolean(),
  main_email: z.string(),
  address: z.string(),
  mode: z.enum(['prepaid', 'postpaid']),
  balance: z.string(),
  credit_limit: z.string(),
  test_credit: z.string(),
  trunk_id: z.number().nullable(),
  media_type: z.enum(['bypass', 'proxy', 'transcoding']),
  t38: z.boolean(),
  auth_type: z.enum(['host', 'registration']),
  hosts: z.array(z.string()),
  round_up: z.boolean(),
  channels: z.number(),
  grace_days: z.number(),
  billing_rule_id: z.number().nullable(),
  billing_rule_name: z.string().nullable(),
  did_product_id: z.number().nullable(),
  did_product_name: z.string().nullable(),
  buy_needs_approval: z.boolean(),
  signin_notification: z.boolean(),
  username: z.string().nullable(),
  did_count: z.number(),
});
export const clientBody = z
  .object({
    name: entityName(),
    company: z.string().trim().max(100).default(''),
    main_email: z.union([z.literal(''), z.email({ message: 'invalidEmail' })]).default(''),
    address: z.string().trim().max(500).default(''),
    mode: z.enum(['prepaid', 'postpaid']).default('prepaid'),
    credit_limit: amount.default('0'),
    test_credit: amount.default('0'),
    media_type: z.enum(['bypass', 'proxy', 'transcoding']).default('proxy'),
    t38: z.boolean().default(false),
    auth_type: z.enum(['host', 'registration']).default('host'),
    hosts: hostList,
    round_up: z.boolean().default(false),
    channels: int4().min(0).default(0),
    grace_days: int4().min(0).max(365).default(7),
    billing_rule_id: int4().positive().nullable().default(null),
    did_product_id: int4().positive().nullable().default(null),
    buy_needs_approval: z.boolean().default(false),
    signin_notification: z.boolean().default(false),
    /** Portal credentials: both or neither. */
    username: z.string().trim().max(64).default(''),
    password: z.string().max(64).default(''),
  })
  .strict();
const clientPatch = clientBody.partial().strict();

export const listClients = endpoint({
  method: 'GET',
  path: '/did/client/list',
  summary: 'DID clients (filter by DID product)',
  tag: TAG,
  access: adminOnly(DID_FUNC.clients, 'read'),
  query: listQuery.extend({
    name: z.string().max(100).optional(),
    did_product_id: coercedInt4().positive().optional(),
  }),
  payload: paged(clientRow),
});
export const getClient = endpoint({
  method: 'GET',
  path: '/did/client/:id',
  summary: 'One DID client',
  tag: TAG,
  access: adminOnly(DID_FUNC.clients, 'read'),
  params: idParams,
  payload: clientRow,
});
export const createClient = endpoint({
  method: 'POST',
  path: '/did/client/create',
  summary: 'Create a DID client: the carrier, its DID trunk (where its numbers ring) and portal user',
  tag: TAG,
  access: adminOnly(DID_FUNC.clients, 'write'),
  body: clientBody,
  payload: objectId,
});
export const updateClient = endpoint({
  method: 'PATCH',
  path: '/did/client/:id',
  summary: 'Change a DID client',
  tag: TAG,
  access: adminOnly(DID_FUNC.clients, 'write'),
  params: idParams,
  body: clientPatch,
  payload: z.null(),
});

// ------------------------------------------------------------------------------------------------
// Repository
// ------------------------------------------------------------------------------------------------

export const didRow = z.object({
  did_id: z.number(),
  number: z.string(),
  state: z.enum(DID_STATES),
  vendor_id: z.number(),
  vendor_name: z.string(),
  client_id: z.number().nullable(),
  client_name: z.string().nullable(),
  reserved_for: z.number().nullable(),
  reserved_for_name: z.string().nullable(),
  vendor_billing_rule_id: z.number().nullable(),
  vendor_billing_rule_name: z.string().nullable(),
  client_billing_rule_id: z.number().nullable(),
  client_billing_rule_name: z.string().nullable(),
  /** The client's prices (its billing rule): per DID per month, per minute, per channel, setup fee. */
  monthly_price: z.string().nullable(),
  per_minute: z.string().nullable(),
  per_channel: z.string().nullable(),
  setup_fee: z.string().nullable(),
  assigned_at: isoTime.nullable(),
  released_at: isoTime.nullable(),
  suspended: z.boolean(),
  created_at: isoTime,
});
export const didFilters = listQuery.extend({
  number: digits(15).optional(),
  vendor_id: coercedInt4().positive().optional(),
  client_id: coercedInt4().positive().optional(),
  state: z.enum(DID_STATES).optional(),
});
export const listDids = endpoint({
  method: 'GET',
  path: '/did/repository/list',
  summary: 'DID repository (by number prefix, vendor, client, state)',
  tag: TAG,
  access: adminOnly(DID_FUNC.repository, 'read'),
  query: didFilters,
  payload: paged(didRow),
});
export const historyRow = z.object({
  id: z.number(),
  at: isoTime,
  action: z.string(),
  state: z.enum(DID_STATES),
  client_id: z.number().nullable(),
  client_name: z.string().nullable(),
  note: z.string(),
  user_name: z.string(),
});
export const didHistory = endpoint({
  method: 'GET',
  path: '/did/repository/:id/history',
  summary: 'Every state change of one DID, newest first',
  tag: TAG,
  access: adminOnly(DID_FUNC.repository, 'read'),
  params: idParams,
  payload: z.object({ did: didRow, items: z.array(historyRow) }),
});
const didIds = z.array(int4().positive()).min(1, { message: 'didNothingSelected' }).max(DID_RANGE_MAX);
export const assignDids = endpoint({
  method: 'POST',
  path: '/did/repository/assign',
  summary:
    "Assign DIDs to a DID client with a billing rule (default: the client's): setup fee and the month's prorated price charged at once",
  tag: TAG,
  access: adminOnly(DID_FUNC.repository, 'write'),
  body: z
    .object({
      did_ids: didIds,
      client_id: int4().positive({ message: 'required' }),
      billing_rule_id: int4().positive().nullable().default(null),
    })
    .strict(),
  payload: z.object({ assigned: z.number() }),
});
export const reserveDids = endpoint({
  method: 'POST',
  path: '/did/repository/reserve',
  summary: 'Reserve unassigned or released DIDs for a DID client',
  tag: TAG,
  access: adminOnly(DID_FUNC.repository, 'write'),
  body: z.object({ did_ids: didIds, client_id: int4().positive({ message: 'required' }) }).strict(),
  payload: z.object({ reserved: z.number() }),
});
export const releaseDids = endpoint({
  method: 'POST',
  path: '/did/repository/release',
  summary: "Release assigned DIDs: the client's refund of the month's remaining days",
  tag: TAG,
  access: adminOnly(DID_FUNC.repository, 'write'),
  body: z.object({ did_ids: didIds }).strict(),
  payload: z.object({ released: z.number() }),
});
export const unassignDids = endpoint({
  method: 'POST',
  path: '/did/repository/unassign',
  summary: 'Put reserved or released DIDs back in stock (unassigned)',
  tag: TAG,
  access: adminOnly(DID_FUNC.repository, 'write'),
  body: z.object({ did_ids: didIds }).strict(),
  payload: z.object({ unassigned: z.number() }),
});
export const deleteDids = endpoint({
  method: 'POST',
  path: '/did/repository/delete',
  summary: 'Remove unassigned or released DIDs from the repository (logged in the DID import log)',
  tag: TAG,
  access: adminOnly(DID_FUNC.repository, 'write'),
  body: z.object({ did_ids: didIds }).strict(),
  payload: z.object({ deleted: z.number() }),
});

// ------------------------------------------------------------------------------------------------
// Import: list, range (JSON) or CSV file (multipart)
// ------------------------------------------------------------------------------------------------

export const importResult = z.object({
  task_id: z.number(),
  total: z.number(),
  inserted: z.number(),
  updated: z.number(),
  ignored: z.number(),
});
export const importBody = z
  .object({
    vendor_id: int4().positive({ message: 'required' }),
    method: z.enum(['list', 'range']),
    /** Overwrite: an existing number in stock moves to this vendor and rule; ignore: it is left alone. */
    duplicate: z.enum(['overwrite', 'ignore'], { message: 'didDuplicateHandling' }).default('ignore'),
    /** The vendor billing rule of the numbers (default: the vendor's); mandatory for a range. */
    billing_rule_id: int4().positive().nullable().default(null),
    /** List: one number per line, at most 1000. */
    numbers: z
      .string()
      .max(DID_LIST_MAX * 20)
      .default(''),
    /** Range: the first number and how many (at most 5000). */
    start: z.string().trim().max(15).default(''),
    count: int4().min(0).default(0),
  })
  .strict();
export const importDids = endpoint({
  method: 'POST',
  path: '/did/import',
  summary: 'Add DIDs of a vendor by list (one per line, at most 1000) or range (at most 5000), all or none',
  tag: TAG,
  access: adminOnly(DID_FUNC.upload, 'write'),
  body: importBody,
  payload: importResult,
});
/** Multipart fields before the CSV file (one number per line). */
export const importFileOptions = z.object({
  vendor_id: coercedInt4().positive({ message: 'required' }),
  duplicate: z.enum(['overwrite', 'ignore'], { message: 'didDuplicateHandling' }).default('ignore'),
  billing_rule_id: coercedInt4().positive().optional(),
});
/** A CSV file import, checked whole and queued: the durable job `did.import` writes it (docs/did.md). */
export const importQueued = z.object({ task_id: z.number(), job_id: z.number(), total: z.number() });
export const importDidFile = endpoint({
  method: 'POST',
  path: '/did/import/file',
  summary:
    'Add DIDs of a vendor from a CSV file (multipart: vendor_id, duplicate, billing_rule_id, file): checked whole (a bad line refuses it, nothing stored), then written by a durable job with its progress in the DID import log',
  tag: TAG,
  access: adminOnly(DID_FUNC.upload, 'write'),
  multipart: true,
  payload: importQueued,
});
export const importLogRow = z.object({
  id: z.number(),
  action: z.enum(['upload', 'delete']),
  method: z.enum(['list', 'file', 'range']),
  file_name: z.string(),
  vendor_id: z.number().nullable(),
  vendor_name: z.string().nullable(),
  duplicate: z.enum(['overwrite', 'ignore']),
  /** pending, running, finished or failed (a file import's job); list and range imports are finished. */
  status: z.string(),
  total: z.number(),
  /** Numbers written so far (a file import in progress). */
  done: z.number(),
  job_id: z.number().nullable(),
  inserted: z.number(),
  updated: z.number(),
  ignored: z.number(),
  error: z.string(),
  user_name: z.string(),
  created_at: isoTime,
  finished_at: isoTime.nullable(),
});
export const listImports = endpoint({
  method: 'GET',
  path: '/did/import_log',
  summary: 'DID import log: uploads and deletes',
  tag: TAG,
  access: adminOnly(DID_FUNC.importLog, 'read'),
  query: listQuery.extend({ action: z.enum(['upload', 'delete']).optional() }),
  payload: paged(importLogRow),
});

// ------------------------------------------------------------------------------------------------
// Wizard, routing view, charges
// ------------------------------------------------------------------------------------------------

export const wizardBody = z
  .object({
    vendor_id: int4().positive().nullable().default(null),
    vendor: vendorBody.nullable().default(null),
    billing_rule_id: int4().positive({ message: 'required' }),
    numbers: z
      .string()
      .max(DID_LIST_MAX * 20)
      .default(''),
    start: z.string().trim().max(15).default(''),
    count: int4().min(0).default(0),
    client_id: int4().positive().nullable().default(null),
    client: clientBody.nullable().default(null),
  })
  .strict();
export const wizard = endpoint({
  method: 'POST',
  path: '/did/wizard',
  summary: 'Vendor, numbers, client and trunk in one transaction: the numbers are imported and assigned',
  tag: TAG,
  access: adminOnly(DID_FUNC.wizard, 'write'),
  body: wizardBody,
  payload: z.object({ vendor_id: z.number(), client_id: z.number(), assigned: z.number() }),
});

export const routingRow = z.object({
  did_id: z.number(),
  number: z.string(),
  vendor_name: z.string(),
  vendor_hosts: z.array(z.string()),
  client_id: z.number(),
  client_name: z.string(),
  trunk_id: z.number().nullable(),
  trunk_name: z.string().nullable(),
  client_hosts: z.array(z.string()),
  suspended: z.boolean(),
});
export const listRouting = endpoint({
  method: 'GET',
  path: '/did/routing/list',
  summary: 'Where each assigned DID rings: the vendor it comes from, the client trunk it goes to',
  tag: TAG,
  access: adminOnly(DID_FUNC.routing, 'read'),
  query: listQuery.extend({ number: digits(15).optional() }),
  payload: paged(routingRow),
});

export const chargeRow = z.object({
  id: z.number(),
  carrier_id: z.number(),
  carrier_name: z.string(),
  side: z.enum(['customer', 'vendor']),
  kind: z.enum(['setup', 'monthly', 'refund', 'channels']),
  number: z.string(),
  period: z.string(),
  amount: z.string(),
  created_at: isoTime,
});
export const listCharges = endpoint({
  method: 'GET',
  path: '/did/charge/list',
  summary: 'DID charges (setup, monthly, channels, refunds), newest first',
  tag: TAG,
  access: adminOnly(DID_FUNC.repository, 'read', ['client']),
  query: listQuery.extend({
    carrier_id: coercedInt4().positive().optional(),
    period: z
      .string()
      .regex(/^\d{4}-\d{2}$/, { message: 'invalidValue' })
      .optional(),
  }),
  payload: paged(chargeRow),
});
export const runCharges = endpoint({
  method: 'POST',
  path: '/did/charge/run',
  summary: 'Run the DID charge job now (it also runs every hour): each period is charged once',
  tag: TAG,
  access: adminOnly(DID_FUNC.repository, 'execute'),
  payload: z.object({ job_id: z.number() }),
});

// ------------------------------------------------------------------------------------------------
// Client portal: buy DIDs, my DIDs
// ------------------------------------------------------------------------------------------------

export const portalDidRow = z.object({
  did_id: z.number(),
  number: z.string(),
  state: z.enum(DID_STATES),
  monthly_price: z.string(),
  per_minute: z.string(),
  setup_fee: z.string(),
  assigned_at: isoTime.nullable(),
  suspended: z.boolean(),
});
export const portalAvailable = endpoint({
  method: 'GET',
  path: '/did/portal/available',
  summary: "Numbers a DID client may buy, at its billing rule's prices",
  tag: TAG,
  access: { kind: 'session', types: ['client'] },
  query: listQuery.extend({ number: digits(15).optional() }),
  payload: paged(portalDidRow),
});
export const portalMine = endpoint({
  method: 'GET',
  path: '/did/portal/my',
  summary: "The client's own DIDs (assigned, and reserved requests), newest assignment first",
  tag: TAG,
  access: { kind: 'session', types: ['client'] },
  query: listQuery.extend({ end_date_isnull: queryBool.optional() }),
  payload: paged(portalDidRow),
});
export const portalBuy = endpoint({
  method: 'POST',
  path: '/did/portal/buy',
  summary: 'Buy numbers: assigned at once, or reserved as a request the operator approves',
  tag: TAG,
  access: { kind: 'session', types: ['client'] },
  body: z.object({ did_ids: didIds }).strict(),
  payload: z.object({ assigned: z.number(), requested: z.number() }),
});
export const portalRelease = endpoint({
  method: 'POST',
  path: '/did/portal/release',
  summary: 'Release own DIDs',
  tag: TAG,
  access: { kind: 'session', types: ['client'] },
  body: z.object({ did_ids: didIds }).strict(),
  payload: z.object({ released: z.number() }),
});

// ------------------------------------------------------------------------------------------------
// DID CDRs: the CDR search (docs/cdr.md#search) over the calls from DID vendors to DIDs only, with
// the DID CDR list's own permission; portal users see their own calls (a DID client the calls to
// its numbers, a DID vendor those it sent), as in the CDR search.
// ------------------------------------------------------------------------------------------------

const CDR_PORTAL = ['client', 'vendor'] as const;

export const cdrList = endpoint({
  method: 'GET',
  path: '/did/cdr/list',
  summary:
    'CDRs of inbound DID calls (Origination > CDRs List, the portal origination CDR page): the CDR search restricted to DID traffic',
  tag: TAG,
  access: adminOnly(DID_FUNC.cdrs, 'read', CDR_PORTAL),
  query: cdrSearchQuery,
  payload: cdrSearchResult,
});

export const cdrCall = endpoint({
  method: 'GET',
  path: '/did/cdr/call/:call_id',
  summary: 'Every attempt of one inbound DID call (each caller sees only its own legs)',
  tag: TAG,
  access: adminOnly(DID_FUNC.cdrs, 'read', CDR_PORTAL),
  params: z.object({ call_id: z.string().min(1).max(128) }),
  payload: z.object({ call_id: z.string(), fields: z.array(z.string()), attempts: z.array(cdrRow) }),
});

export const cdrFieldsOf = endpoint({
  method: 'GET',
  path: '/did/cdr/fields',
  summary: 'The CDR field catalogue as the DID CDR list shows it to the caller',
  tag: TAG,
  access: adminOnly(DID_FUNC.cdrs, 'read', CDR_PORTAL),
  payload: z.object({ items: z.array(cdrFieldInfo), default_fields: z.array(z.string()) }),
});
