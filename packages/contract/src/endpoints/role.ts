import { int4 } from '../input-rules';
import { z } from 'zod';
import { SIGNED_IN, adminOnly } from '../access';
import { idParams, listQuery, objectId, paged } from '../common';
import { endpoint } from '../endpoint';

export const ROLES_FUNC = '/configuration/roles';

export const rolePrivilege = z.object({
  func_name: z.string().max(200),
  readable: z.boolean(),
  writable: z.boolean(),
  executable: z.boolean(),
});
export const groupPrivilege = z.object({ id: int4(), name: z.string(), readable: z.boolean() });
export const roleUiPrivilege = z.object({
  submenu_id: z.number(),
  web_url: z.string(),
  readable: z.boolean(),
  writable: z.boolean(),
});

export const roleDetail = z.object({
  role_id: z.number(),
  role_name: z.string(),
  /** Users of the role must turn two-factor sign-in on before anything else (issue 18). */
  require_2fa: z.boolean(),
  usage_count: z.number(),
  group_privilegies: z.array(groupPrivilege),
  role_ui_privilegies: z.array(roleUiPrivilege),
  role_privilegies: z.array(rolePrivilege),
});
export type RoleDetail = z.infer<typeof roleDetail>;

export const roleRow = z.object({
  role_id: z.number(),
  role_name: z.string(),
  require_2fa: z.boolean(),
  usage_count: z.number(),
  updated_at: z.string(),
});

export const roleName = z
  .string()
  .trim()
  .min(1, { message: 'required' })
  .max(64)
  .refine((v) => /[\p{L}\p{N}]/u.test(v), { message: 'nameMustHaveAlnum' });

export const roleWrite = z
  .object({
    role_name: roleName,
    /** Require two-factor sign-in of the role's users (default off). */
    require_2fa: z.boolean().default(false),
    group_privilegies: z.array(z.object({ id: int4(), readable: z.boolean() })).default([]),
    role_privilegies: z.array(rolePrivilege).default([]),
  })
  .strict();

export const getRole = endpoint({
  method: 'GET',
  path: '/config/role/:id',
  summary: 'A role with its privileges (own role, or any with roles read)',
  tag: 'role',
  access: SIGNED_IN,
  // The frame reads the own role to render; while enrolling, the handler answers only the own role.
  duringTwoFactorEnrolment: true,
  params: idParams,
  payload: roleDetail,
});
export const listRoles = endpoint({
  method: 'GET',
  path: '/config/role/list',
  summary: 'Roles, paged',
  tag: 'role',
  access: adminOnly(ROLES_FUNC, 'read'),
  query: listQuery.extend({ role_name: z.string().max(64).optional() }),
  payload: paged(roleRow),
});
export const createRole = endpoint({
  method: 'POST',
  path: '/config/role/create',
  summary: 'Create a role',
  tag: 'role',
  access: adminOnly(ROLES_FUNC, 'write'),
  body: roleWrite,
  payload: objectId,
});
export const updateRole = endpoint({
  method: 'PATCH',
  path: '/config/role/:id',
  summary: 'Replace a role name, its two-factor requirement and privileges',
  tag: 'role',
  access: adminOnly(ROLES_FUNC, 'write'),
  params: idParams,
  body: roleWrite,
  payload: z.null(),
});
export const deleteRole = endpoint({
  method: 'DELETE',
  path: '/config/role/:id',
  summary: 'Delete a role not assigned to any user',
  tag: 'role',
  access: adminOnly(ROLES_FUNC, 'write'),
  params: idParams,
  payload: z.null(),
});
