import { int4, coercedInt4 } from '../input-rules';
import { z } from 'zod';
import { PUBLIC, SIGNED_IN, adminOnly } from '../access';
import { emailList, listQuery, objectId, optionalIpv4, paged, portNumber } from '../common';
import { decimalPlaces } from './rates';
import { endpoint } from '../endpoint';

export const SYSTEM_FUNC = '/configuration/system_setting';
export const LOGIN_CONTENT_FUNC = '/configuration/login_content';

export const submenu = z.object({
  id: z.number(),
  main_menu_id: z.number(),
  group_name: z.string(),
  display_name: z.string(),
  web_url: z.string(),
  ordering: z.number(),
  is_readable: z.boolean(),
  is_editable: z.boolean(),
  sub: z.enum(['termination', 'origination']).nullable(),
});
export type Submenu = z.infer<typeof submenu>;

export const listSubmenus = endpoint({
  method: 'GET',
  path: '/config/sys_submenu/list',
  summary: "Menu items of the admin modules (flags for the caller's role)",
  tag: 'config',
  access: SIGNED_IN,
  // The frame needs it to render, also while enrolling.
  duringTwoFactorEnrolment: true,
  query: listQuery,
  payload: paged(submenu),
});
export const listMainMenus = endpoint({
  method: 'GET',
  path: '/config/main_menu/list',
  summary: 'Main menu groups',
  tag: 'config',
  access: SIGNED_IN,
  payload: paged(z.object({ id: z.number(), group_name: z.string() })),
});

/** GMT offsets -12..+12 in whole hours, as "+0000" (spec 01 section 9). */
export const timezoneOffset = z.string().regex(/^[+-](0\d|1[0-2])00$/, { message: 'invalidValue' });

/** What an indeterminate-jurisdiction US call is charged by default (domain DefaultIjRule). */
export const US_IJ_RULES = ['inter', 'intra', 'ij'] as const;

const wholeNumber = (min: number, max: number) => int4().min(min).max(max);
/** '' or an absolute http(s) URL (the portal address used in links sent by e-mail). */
const baseUrl = z
  .string()
  .trim()
  .max(500)
  .refine((v) => v === '' || /^https?:\/\/[^\s/?#]+[^\s]*$/i.test(v), { message: 'invalidValue' });

/**
 * Configuration > System Setting (spec 02 "System settings"), stored under the settings key
 * 'system'. Groups: general, notification e-mails, decimals and CDR options, LRN. The logos are the
 * login page branding (Configuration > Login Pages Content), not part of this object.
 */
export const systemSettings = z.object({
  // General
  base_url: baseUrl,
  timezone: timezoneOffset,
  /** Minutes without activity before the frame signs the user out (below 1 counts as 1). */
  inactivity_timeout: wholeNumber(0, 1440),
  operating_company: z.string().trim().max(200),
  user_registration_enabled: z.boolean(),
  /** Seconds a call may ring when the trunk sets no ring timer. */
  default_ring_timeout_s: wholeNumber(1, 600),
  /** Longest call in seconds when the trunk sets no maximum duration. */
  max_call_duration_s: wholeNumber(1, 86400),
  default_us_ij_rule: z.enum(US_IJ_RULES),
  hide_version: z.boolean(),
  hide_support_link: z.boolean(),
  hide_help_link: z.boolean(),
  hide_license: z.boolean(),
  support_link: z.string().max(500),
  help_link: z.string().max(500),
  // Notification e-mails
  notify_admin_emails: emailList(20),
  notify_finance_emails: emailList(20),
  notify_noc_emails: emailList(20),
  notify_ftp_failure_emails: emailList(20),
  // Decimals and CDR options
  billing_decimals: decimalPlaces,
  report_decimals: decimalPlaces,
  cdr_include_unauthorized_ip: z.boolean(),
  /** Answered calls shorter than this (seconds) carry the customer's short call charge; 0 = none. */
  short_call_seconds: wholeNumber(0, 60),
  /**
   * Days of CDRs kept; older days are removed by the daily DB cleansing job. 0 keeps everything.
   * This and the two below are set on Configuration > DB Cleansing (endpoints/cleansing.ts).
   */
  cdr_retention_days: wholeNumber(0, 3650),
  /** Days of operational logs kept (sign-in, e-mail, scheduler, monitoring, report runs). 0 keeps everything. */
  log_retention_days: wholeNumber(0, 3650),
  /** Days an export file (and its export log row) is kept for download. 0 keeps everything. */
  export_retention_days: wholeNumber(0, 3650),
  // LRN
  lrn_master_ip: optionalIpv4,
  lrn_master_port: portNumber,
  lrn_slave_ip: optionalIpv4,
  lrn_slave_port: portNumber,
  lrn_timeout_s: wholeNumber(1, 60),
  lrn_retry_attempts: wholeNumber(0, 10),
});
export type SystemSettings = z.infer<typeof systemSettings>;

/**
 * The part of the system settings every signed-in user's frame reads (time zone, inactivity
 * timeout, links and what to hide). Notification e-mails, LRN and the call limits stay admin-only.
 */
export const systemConfig = systemSettings.pick({
  inactivity_timeout: true,
  timezone: true,
  hide_version: true,
  hide_support_link: true,
  hide_help_link: true,
  hide_license: true,
  support_link: true,
  help_link: true,
  user_registration_enabled: true,
  base_url: true,
  operating_company: true,
});
export type SystemConfig = z.infer<typeof systemConfig>;

export const getSystemConfig = endpoint({
  method: 'GET',
  path: '/config/system',
  summary: 'System settings the frame needs (inactivity timeout, time zone, links)',
  tag: 'config',
  access: SIGNED_IN,
  // The frame needs it to render, also while enrolling.
  duringTwoFactorEnrolment: true,
  payload: systemConfig,
});
export const getSystemSettings = endpoint({
  method: 'GET',
  path: '/config/system/all',
  summary: 'All system settings (Configuration > System Setting)',
  tag: 'config',
  access: adminOnly(SYSTEM_FUNC, 'read'),
  payload: systemSettings,
});
export const patchSystemConfig = endpoint({
  method: 'PATCH',
  path: '/config/system',
  summary: 'Change system settings (any subset of the fields of GET /config/system/all)',
  tag: 'config',
  access: adminOnly(SYSTEM_FUNC, 'write'),
  body: systemSettings.partial().strict(),
  payload: z.null(),
});

export const loginBranding = z.object({
  logo_image_id: z.number().nullable(),
  favicon_id: z.number().nullable(),
  background_image_id: z.number().nullable(),
  image_url: z.string().nullable(),
  title: z.string(),
  content: z.string(),
  user_registration_enabled: z.boolean(),
});
export const getLoginBranding = endpoint({
  method: 'GET',
  path: '/config/login/public',
  summary: 'Login page branding (logo, favicon, background)',
  tag: 'config',
  access: PUBLIC,
  payload: loginBranding,
});
export const patchLoginBranding = endpoint({
  method: 'PATCH',
  path: '/config/login',
  summary: 'Change login page branding',
  tag: 'config',
  access: adminOnly(LOGIN_CONTENT_FUNC, 'write'),
  body: z
    .object({
      logo_image_id: int4().positive().nullable(),
      favicon_id: int4().positive().nullable(),
      background_image_id: int4().positive().nullable(),
      title: z.string().max(200),
      content: z.string().max(5000),
    })
    .partial()
    .strict(),
  payload: z.null(),
});

export const UPLOAD_ENTITIES = ['avatar', 'logo', 'favicon', 'background'] as const;
export const importFile = endpoint({
  method: 'POST',
  path: '/config/import',
  summary:
    'Upload a file (multipart fields: entity, format, file); avatars by any user, branding images by admins',
  tag: 'config',
  access: SIGNED_IN,
  multipart: true,
  payload: objectId,
});
export const exportPublicFile = endpoint({
  method: 'GET',
  path: '/config/export/public/:id',
  summary: 'Fetch an uploaded image (avatar, logo, favicon, background)',
  tag: 'config',
  access: PUBLIC,
  params: z.object({ id: coercedInt4().positive() }),
  raw: true,
  payload: z.unknown(),
});

export const versionRow = z.object({
  program_name: z.string(),
  major_ver: z.string(),
  build_date: z.string(),
  start_time: z.string(),
});
export const getVersions = endpoint({
  method: 'GET',
  path: '/log/versions',
  summary: 'Program name, version, build date and start time of this process',
  tag: 'log',
  access: SIGNED_IN,
  payload: paged(versionRow),
});

export const watchdogStatus = endpoint({
  method: 'GET',
  path: '/watchdog/server/:server/status',
  summary: "Disk usage of the data directory's file system",
  tag: 'switch',
  access: SIGNED_IN,
  params: z.object({ server: z.string().max(100) }),
  payload: z.object({
    server:
      z.string() /** percent: free space of the data directory's file system in percent (the frame warns below 10). */,
    disk: z.array(
      z.object({
        mount: z.string(),
        percent: z.number(),
        used_percent: z.number(),
        total_bytes: z.number(),
        used_bytes: z.number(),
      }),
    ),
  }),
});

export const health = endpoint({
  method: 'GET',
  path: '/health',
  summary: 'Liveness of the process (no database access): for load balancers and as a benchmark baseline',
  tag: 'config',
  access: PUBLIC,
  payload: z.object({ status: z.literal('ok'), uptime_s: z.number() }),
});

export const listQueryOnly = listQuery;
