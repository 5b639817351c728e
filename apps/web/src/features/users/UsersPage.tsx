import { api } from '@tandem/contract';
import { Tabs } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { useApi } from '../../api/queries';
import { ResourceList } from '../../components/resource/ResourceList';
import { usersResource, type UserTab } from './resource';

/** /configuration/users and /configuration/user_management/{tab}: system, carrier and agent users. */
export default function UsersPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const tab: UserTab = params.tab === 'carrier' || params.tab === 'agent' ? params.tab : 'system';
  const roles = useApi(
    api.role.listRoles,
    { query: { page: 0, per_page: 9999, order_by: 'role_name', order_dir: 'asc' } },
    { callOptions: { errorMode: 'inline', quiet: true } },
  );
  const roleOptions = useMemo(
    () => [
      { value: '0', label: t('users.noRole') },
      ...(roles.data?.items ?? []).map((r) => ({ value: String(r.role_id), label: r.role_name })),
    ],
    [roles.data, t],
  );
  const resource = useMemo(
    () => usersResource(tab, roleOptions, params.roleId),
    [tab, roleOptions, params.roleId],
  );
  return (
    <>
      <Tabs
        activeKey={tab}
        onChange={(k) => navigate(`/configuration/user_management/${k}`)}
        items={[
          { key: 'system', label: t('users.system') },
          { key: 'carrier', label: t('users.carrierUsers') },
          { key: 'agent', label: t('users.types.agent') },
        ]}
      />
      <ResourceList key={tab} resource={resource} />
    </>
  );
}
