import { int4, coercedInt4 } from '../input-rules';
import { z } from 'zod';
import { PUBLIC, SIGNED_IN, adminOnly, USER_TYPES } from '../access';
import {
  idParams,
  ipOrCidr,
  listQuery,
  objectId,
  paged,
  personName,
  portalPassword,
  queryBool,
  singleEmail,
} from '../common';
import { endpoint } from '../endpoint';

export const USERS_FUNC = '/configuration/users';

export const clientPanel = z.object({
  client_id: z.number(),
  name: z.string(),
  client_type: z.enum(['client', 'vendor']),
  company_type: z.enum(['termination', 'origination']),
  is_panel_accountsummary: z.boolean(),
  is_panel_paymenthistory: z.boolean(),
  is_panel_invoices: z.boolean(),
  is_panel_balance: z.boolean(),
  is_panel_onlinepayment: z.boolean(),
  is_panel_trunks: z.boolean(),
  enable_trunk_view: z.boolean(),
  is_panel_didrequest: z.boolean(),
  is_panel_mydid: z.boolean(),
  is_panel_products: z.boolean(),
  is_panel_cdrslist: z.boolean(),
  is_panel_summaryreport: z.boolean(),
  is_panel_block_list: z.boolean(),
  /** 'false' hides the support ticket menu (the spec compares with the string). */
  ticket_menu: z.string(),
});
export type ClientPanel = z.infer<typeof clientPanel>;

export const sessionUser = z.object({
  user_id: z.number(),
  name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  user_type: z.enum(USER_TYPES),
  company_type: z.enum(['termination', 'origination']).nullable(),
  client: clientPanel.nullable(),
  client_id: z.number().nullable(),
  agent: z.object({ agent_id: z.number(), agent_name: z.string() }).nullable(),
  referal_key: z.string().nullable(),
  landing_page: z.string().nullable(),
  avatar_id: z.number().nullable(),
  role_id: z.number(),
  role_name: z.string().nullable(),
  is_server_admin: z.boolean(),
  language: z.string(),
  cdr_api_token: z.string(),
  cdr_api_token_expiration: z.string(),
  /** Two-factor sign-in is on for this user (issue 18). */
  totp_enabled: z.boolean(),
  /**
   * The user's role requires two-factor sign-in. While it is not on (`totp_enabled` false) the
   * session may only enrol: every other call answers code 210.
   */
  two_factor_required: z.boolean(),
});
export type SessionUser = z.infer<typeof sessionUser>;

export const userRow = z.object({
  user_id: z.number(),
  name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  user_type: z.enum(['admin', 'client', 'agent']),
  role_id: z.number(),
  role_name: z.string().nullable(),
  client_id: z.number().nullable(),
  client_name: z.string().nullable(),
  agent_id: z.number().nullable(),
  active: z.boolean(),
  is_online: z.boolean(),
  landing_page: z.string().nullable(),
  allowed_ips: z.array(z.string()),
  last_login: z.string().nullable(),
  last_seen: z.string().nullable(),
  created_at: z.string(),
});
export type UserRow = z.infer<typeof userRow>;

export const profile = z.object({
  user_id: z.number(),
  name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  avatar_id: z.number().nullable(),
  landing_page: z.string().nullable(),
  is_show_daily_usage: z.boolean(),
  is_daily_balance_notification: z.boolean(),
  zero_balance_notice: z.boolean(),
  /** Two-factor sign-in is on (issue 18). */
  totp_enabled: z.boolean(),
});

/** Fields a user may change on their own profile (and an admin on any user). */
export const profilePatch = z
  .object({
    first_name: personName,
    last_name: personName,
    email: singleEmail,
    avatar_id: int4().positive().nullable(),
    landing_page: z.string().max(200).nullable(),
    is_show_daily_usage: z.boolean(),
    is_daily_balance_notification: z.boolean(),
    zero_balance_notice: z.boolean(),
    passwd: portalPassword,
    language: z.enum(['en', 'ch', 'de']),
  })
  .partial()
  .strict();

export const userNameField = z
  .string()
  .trim()
  .min(1, { message: 'required' })
  .max(64)
  .regex(/^[\w.@-]+$/, { message: 'invalidValue' });

export const userCreate = z
  .object({
    name: userNameField,
    passwd: portalPassword,
    first_name: personName.default(''),
    last_name: personName.default(''),
    email: singleEmail,
    user_type: z.enum(['admin', 'client', 'agent']).default('admin'),
    role_id: int4().min(0).default(0),
    client_id: int4().positive().nullable().default(null),
    agent_id: int4().positive().nullable().default(null),
    active: z.boolean().default(true),
    landing_page: z.string().max(200).nullable().default(null),
    allowed_ips: z.array(ipOrCidr).default([]),
    /** The one-time code the server printed at start; needed only for the first admin. */
    setup_code: z.string().trim().max(64).optional(),
  })
  .strict();

export const userAdminPatch = profilePatch
  .extend({
    role_id: int4().min(0),
    allowed_ips: z.array(ipOrCidr),
    active: z.boolean(),
  })
  .partial()
  .strict();

export const userListQuery = listQuery.extend({
  name: z.string().max(64).optional(),
  user_type: z.enum(['admin', 'client', 'agent']).optional(),
  role_id: coercedInt4().optional(),
  active: queryBool.optional(),
  client_id: coercedInt4().optional(),
});

export const getSessionUser = endpoint({
  method: 'GET',
  path: '/user',
  summary: 'The signed-in user with session fields and panel flags',
  tag: 'user',
  access: SIGNED_IN,
  // The frame reads the session to render, also while enrolling (two_factor_required).
  duringTwoFactorEnrolment: true,
  payload: sessionUser,
});
export const getUser = endpoint({
  method: 'GET',
  path: '/user/:id',
  summary: "A user's profile (own, or any with users read)",
  tag: 'user',
  access: SIGNED_IN,
  params: idParams,
  payload: profile,
});
export const patchOwnUser = endpoint({
  method: 'PATCH',
  path: '/user',
  summary: 'Change own profile, password, landing page or language',
  tag: 'user',
  access: SIGNED_IN,
  body: profilePatch,
  payload: z.null(),
});
export const patchUser = endpoint({
  method: 'PATCH',
  path: '/user/:id',
  summary: 'Change a user (own, or any with users write)',
  tag: 'user',
  access: SIGNED_IN,
  params: idParams,
  body: userAdminPatch,
  payload: z.null(),
});
export const listUsers = endpoint({
  method: 'GET',
  path: '/user/list',
  summary: 'Users, paged and filtered',
  tag: 'user',
  access: adminOnly(USERS_FUNC, 'read'),
  query: userListQuery,
  payload: paged(userRow),
});
export const getUserRow = endpoint({
  method: 'GET',
  path: '/user/:id/details',
  summary: 'One user for the edit page',
  tag: 'user',
  access: adminOnly(USERS_FUNC, 'read'),
  params: idParams,
  payload: userRow,
});
export const createUser = endpoint({
  method: 'POST',
  path: '/user/create',
  summary: 'Create a user; public only while no user exists (first-admin setup)',
  tag: 'user',
  access: PUBLIC,
  body: userCreate,
  payload: objectId,
});
export const deleteUser = endpoint({
  method: 'DELETE',
  path: '/user/:id',
  summary: 'Delete a user',
  tag: 'user',
  access: adminOnly(USERS_FUNC, 'write'),
  params: idParams,
  payload: z.null(),
});
export const activateUser = endpoint({
  method: 'PATCH',
  path: '/user/:id/activate',
  summary: 'Activate a user',
  tag: 'user',
  access: adminOnly(USERS_FUNC, 'write'),
  params: idParams,
  payload: z.null(),
});
export const deactivateUser = endpoint({
  method: 'PATCH',
  path: '/user/:id/deactivate',
  summary: 'Deactivate a user and end their sessions',
  tag: 'user',
  access: adminOnly(USERS_FUNC, 'write'),
  params: idParams,
  payload: z.null(),
});
export const hasUser = endpoint({
  method: 'GET',
  path: '/public/has_user',
  summary: 'Whether any user exists (else the login page goes to /setup)',
  tag: 'public',
  access: PUBLIC,
  payload: z.object({ has_user: z.boolean() }),
});
