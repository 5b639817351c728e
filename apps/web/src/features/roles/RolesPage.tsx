import { api } from '@tandem/contract';
import type { z } from 'zod';
import { Tag } from 'antd';
import { Link } from 'react-router-dom';
import { ResourceList } from '../../components/resource/ResourceList';
import type { ListResource } from '../../components/resource/types';

type RoleRow = z.infer<typeof api.role.roleRow>;

const rolesResource: ListResource<RoleRow> = {
  key: 'roles',
  title: 'roles.title',
  list: api.role.listRoles,
  rowKey: 'role_id',
  csvName: 'roles',
  defaultSort: { by: 'role_name', dir: 'asc' },
  newPath: '/configuration/roles/new',
  editPath: (r) => `/configuration/roles/edit/${r.role_id}`,
  columns: [
    {
      key: 'role_name',
      title: 'roles.name',
      sortable: true,
      render: (r) => <span data-testid={`role-${r.role_name}`}>{r.role_name}</span>,
    },
    {
      key: 'require_2fa',
      title: 'roles.twoFactor',
      sortable: true,
      render: (r, t) =>
        r.require_2fa ? (
          <Tag color="blue" data-testid={`role-2fa-${r.role_name}`}>
            {t('roles.required')}
          </Tag>
        ) : null,
      csv: (r) => (r.require_2fa ? 'required' : ''),
    },
    {
      key: 'usage_count',
      title: 'roles.usage',
      sortable: true,
      render: (r) => <Link to={`/configuration/user_management/role_id/${r.role_id}`}>{r.usage_count}</Link>,
    },
    {
      key: 'updated_at',
      title: 'roles.updated',
      sortable: true,
      render: (r) => r.updated_at.replace('T', ' ').slice(0, 19),
    },
  ],
  filters: [{ name: 'role_name', title: 'common.search', kind: 'text' }],
  remove: {
    endpoint: api.role.deleteRole,
    name: (r) => r.role_name,
    counts: () => 1,
    disabled: (r) => r.usage_count > 0,
  },
};

export default function RolesPage() {
  return <ResourceList resource={rolesResource} />;
}
