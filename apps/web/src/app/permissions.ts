import { allows, moduleOfUrl, type AccessLevel, type RoleDetail } from '@tandem/contract';
import { useSignedIn } from './session';

/**
 * Whether a role grants `func` at `level`, read as the server reads it (contract `allows`): no
 * role (or user id 1) is unrestricted, a role's main-menu group must be readable, then the item's
 * flags. The server enforces it; the screens only hide what would be refused.
 */
export function roleAllows(
  user: { user_id: number; role_id: number | null },
  role: RoleDetail | null,
  func: string,
  level: AccessLevel,
): boolean {
  if (user.user_id === 1 || !user.role_id || !role) return true;
  const privileges = role.role_privilegies;
  const groups = role.group_privilegies;
  return allows(
    {
      unrestricted: false,
      groups: groups.length || privileges.length ? groups : [{ id: -1, name: '', readable: false }],
      privileges,
      groupOfFunc: (f) => moduleOfUrl(f)?.id,
    },
    func,
    level,
  );
}

/** Whether the signed-in admin may use `func` at `level` (portal users: false). */
export function useAllowed(func: string, level: AccessLevel): boolean {
  const { user, role } = useSignedIn();
  return user.user_type === 'admin' && roleAllows(user, role, func, level);
}
