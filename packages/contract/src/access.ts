import { ROLE_FREE_PATHS } from './menu';

/** Effective user types. A user row is admin, client or agent; a client user is a vendor when its carrier is one. */
export const USER_TYPES = ['admin', 'client', 'vendor', 'agent'] as const;
export type UserType = (typeof USER_TYPES)[number];
export const PORTAL_TYPES = ['client', 'vendor', 'agent'] as const satisfies readonly UserType[];

export type AccessLevel = 'read' | 'write' | 'execute';

/**
 * Who may call an endpoint. Every endpoint declares one; the server enforces it before the handler
 * runs, and the handler applies tenancy for portal users.
 * - public: anyone (sign-in, branding, setup, sign-up).
 * - session: any signed-in user, optionally only some types.
 * - admin: an admin whose role grants `func` at `level`; `portal` lists portal types also admitted
 *   (their data is then scoped to their own carrier or agent by the handler).
 * - switch: the switch API key (route API for a SIP proxy).
 */
export type Access =
  | { kind: 'public' }
  | { kind: 'session'; types?: readonly UserType[] }
  | { kind: 'admin'; func: string; level: AccessLevel; portal?: readonly UserType[] }
  | { kind: 'switch' };

export const PUBLIC: Access = { kind: 'public' };
export const SIGNED_IN: Access = { kind: 'session' };
export const adminOnly = (func: string, level: AccessLevel, portal?: readonly UserType[]): Access =>
  portal ? { kind: 'admin', func, level, portal } : { kind: 'admin', func, level };

/** The role payload of spec 01 section 3. */
export interface RolePrivilege {
  func_name: string;
  readable: boolean;
  writable: boolean;
  executable: boolean;
}
export interface GroupPrivilege {
  id: number;
  name: string;
  readable: boolean;
}
export interface RoleUiPrivilege {
  submenu_id: number;
  web_url: string;
  readable: boolean;
  writable: boolean;
}

export interface Grants {
  /** true for user id 1 and admins without a role (role_id 0 or null): everything is allowed. */
  unrestricted: boolean;
  groups: readonly GroupPrivilege[];
  privileges: readonly RolePrivilege[];
  /** main-menu group id of each func, from the menu catalogue. */
  groupOfFunc: (func: string) => number | undefined;
}

/**
 * Whether the grants allow `func` at `level` (spec 01 section 6): main-menu groups need readable;
 * items need readable or writable to be read, writable to be written, executable to be executed.
 * With no privileges stored at all, full access is assumed.
 */
export function allows(g: Grants, func: string, level: AccessLevel): boolean {
  if (g.unrestricted) return true;
  if (g.privileges.length === 0 && g.groups.length === 0) return true;
  const groupId = g.groupOfFunc(func);
  if (groupId !== undefined) {
    const group = g.groups.find((x) => x.id === groupId);
    if (group && !group.readable) return false;
  }
  const p = g.privileges.find((x) => x.func_name === func);
  if (!p) return false;
  switch (level) {
    case 'read':
      return p.readable || p.writable;
    case 'write':
      return p.writable;
    case 'execute':
      return p.executable;
  }
}

/** Paths a restricted admin may open whatever the landing pages say. */
export const isRoleFreePath = (path: string): boolean =>
  ROLE_FREE_PATHS.some((p) => path === p || path.startsWith(p + '/'));
