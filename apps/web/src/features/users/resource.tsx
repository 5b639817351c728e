import { api, type UserRow } from '@tandem/contract';
import { Tag } from 'antd';
import { ActiveTag } from '../../components/resource/ResourceList';
import type { ListResource } from '../../components/resource/types';

export type UserTab = 'system' | 'carrier' | 'agent';
const TAB_TYPE: Record<UserTab, 'admin' | 'client' | 'agent'> = {
  system: 'admin',
  carrier: 'client',
  agent: 'agent',
};

export const editPathOf = (u: Pick<UserRow, 'user_id' | 'user_type'>) =>
  u.user_type === 'admin'
    ? `/configuration/system_user_management/edit/${u.user_id}`
    : `/configuration/carrier_user_management/edit/${u.user_id}?type=${u.user_type}`;

/** Users, declared once for the generic list page. */
export function usersResource(
  tab: UserTab,
  roleOptions: { value: string; label: string }[],
  roleId?: string,
): ListResource<UserRow> {
  return {
    key: 'users',
    title: 'users.title',
    list: api.user.listUsers,
    rowKey: 'user_id',
    csvName: `users-${tab}`,
    defaultSort: { by: 'name', dir: 'asc' },
    fixedQuery: { user_type: TAB_TYPE[tab], ...(roleId ? { role_id: roleId } : {}) },
    newPath: tab === 'system' ? '/configuration/user_management/system/new' : undefined,
    editPath: editPathOf,
    columns: [
      {
        key: 'name',
        title: 'users.name',
        sortable: true,
        render: (u) => <span data-testid={`user-${u.name}`}>{u.name}</span>,
      },
      {
        key: 'first_name',
        title: 'auth.firstName',
        csv: (u) => `${u.first_name} ${u.last_name}`.trim(),
        render: (u) => `${u.first_name} ${u.last_name}`.trim(),
      },
      { key: 'email', title: 'users.email', sortable: true },
      ...(tab === 'system'
        ? [
            {
              key: 'role_name',
              title: 'users.role',
              sortable: true,
              render: (u: UserRow, t: (k: string) => string) => u.role_name ?? <Tag>{t('users.noRole')}</Tag>,
              csv: (u: UserRow) => u.role_name ?? '',
            },
          ]
        : tab === 'carrier'
          ? [{ key: 'client_name', title: 'users.carrier' }]
          : []),
      {
        key: 'active',
        title: 'common.status',
        sortable: true,
        render: (u, t) => <ActiveTag active={u.active} t={t} />,
        csv: (u) => (u.active ? 'active' : 'inactive'),
      },
      {
        key: 'is_online',
        title: 'users.online',
        render: (u, t) => (u.is_online ? <Tag color="blue">{t('common.online')}</Tag> : t('common.offline')),
      },
      {
        key: 'last_login',
        title: 'users.lastLogin',
        sortable: true,
        render: (u, t) => (u.last_login ? u.last_login.replace('T', ' ').slice(0, 19) : t('common.never')),
      },
    ],
    filters: [
      { name: 'name', title: 'common.search', kind: 'text' },
      { name: 'active', title: 'common.status', kind: 'boolean' },
      ...(tab === 'system'
        ? [{ name: 'role_id', title: 'users.role', kind: 'select' as const, options: roleOptions }]
        : []),
    ],
    remove: {
      endpoint: api.user.deleteUser,
      name: (u) => u.name,
      counts: () => 1,
      disabled: (u) => u.user_id === 1,
    },
    activation: {
      activate: api.user.activateUser,
      deactivate: api.user.deactivateUser,
      isActive: (u) => u.active,
      name: (u) => u.name,
    },
  };
}
