import { moduleOfUrl, type Grants } from '@tandem/contract';
import type { Db } from '../../db/connection';

const groupOfFunc = (func: string) => moduleOfUrl(func)?.id;
export const UNRESTRICTED: Grants = { unrestricted: true, groups: [], privileges: [], groupOfFunc };

/**
 * Role grants, cached per role and dropped when a role is written. User id 1 and admins without a
 * role (role_id null or 0) are unrestricted (spec 01 section 6).
 */
export class GrantsCache {
  private cache = new Map<number, Promise<Grants>>();

  forUser(db: Db, user: { user_id: number; role_id: number | null }): Promise<Grants> {
    if (user.user_id === 1 || !user.role_id) return Promise.resolve(UNRESTRICTED);
    const roleId = user.role_id;
    let g = this.cache.get(roleId);
    if (!g) {
      g = load(db, roleId);
      this.cache.set(roleId, g);
      g.catch(() => this.cache.delete(roleId));
    }
    return g;
  }

  invalidate(roleId?: number): void {
    if (roleId === undefined) this.cache.clear();
    else this.cache.delete(roleId);
  }
}

async function load(db: Db, roleId: number): Promise<Grants> {
  const [privileges, groups] = await Promise.all([
    db
      .selectFrom('role_privileges')
      .select(['func_name', 'readable', 'writable', 'executable'])
      .where('role_id', '=', roleId)
      .execute(),
    db
      .selectFrom('role_group_privileges as g')
      .innerJoin('main_menu as m', 'm.id', 'g.group_id')
      .select(['g.group_id as id', 'm.group_name as name', 'g.readable'])
      .where('g.role_id', '=', roleId)
      .execute(),
  ]);
  // A role row with nothing granted must still restrict: mark it with an empty, non-matching group.
  return {
    unrestricted: false,
    groups: groups.length || privileges.length ? groups : [{ id: -1, name: '', readable: false }],
    privileges,
    groupOfFunc,
  };
}
