import { api } from '@tandem/contract';
import { useTranslation } from 'react-i18next';
import { useMenuLabels } from '../../app/pageNames';
import { useMemo } from 'react';
import { useParams } from 'react-router-dom';
import { call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useSignedIn } from '../../app/session';
import { ResourceForm, type FormResource } from '../../components/resource/ResourceForm';
import { ReportOptionsCard } from '../statistics/ReportOptionsCard';

interface UserValues extends Record<string, unknown> {
  name: string;
  first_name: string;
  last_name: string;
  email: string;
  passwd?: string;
  role_id: number;
  allowed_ips: string[];
  landing_page: string | null;
  active: boolean;
}

/** New and edit user: basic data and access (role, allowed IPs, landing page, active). */
export default function UserEditPage() {
  const { id } = useParams();
  const userId = id ? Number(id) : null;
  const { submenus } = useSignedIn();
  const labels = useMenuLabels();
  const { t } = useTranslation();
  const roles = useApi(api.role.listRoles, {
    query: { page: 0, per_page: 9999, order_by: 'role_name', order_dir: 'asc' },
  });
  const resource = useMemo<FormResource<UserValues>>(
    () => ({
      key: 'user',
      titleNew: 'users.newUser',
      titleEdit: 'users.editUser',
      listPath: '/configuration/users',
      initial: {
        name: '',
        first_name: '',
        last_name: '',
        email: '',
        passwd: '',
        role_id: 0,
        allowed_ips: [],
        landing_page: null,
        active: true,
      },
      createSchema: api.user.userCreate,
      updateSchema: api.user.userAdminPatch,
      tabs: [
        {
          key: 'basic',
          title: 'users.basic',
          fields: [
            { name: 'name', label: 'users.name', kind: 'text', required: true, createOnly: true },
            { name: 'first_name', label: 'auth.firstName', kind: 'text' },
            { name: 'last_name', label: 'auth.lastName', kind: 'text' },
            { name: 'email', label: 'users.email', kind: 'email', required: true },
            { name: 'passwd', label: 'users.password', kind: 'password', required: true, createOnly: true },
          ],
        },
        {
          key: 'access',
          title: 'users.access',
          fields: [
            {
              name: 'role_id',
              label: 'users.role',
              kind: 'select',
              options: [
                { value: 0, label: t('users.fullAccess') },
                ...(roles.data?.items ?? []).map((r) => ({ value: r.role_id, label: r.role_name })),
              ],
            },
            {
              name: 'landing_page',
              label: 'users.landingPage',
              kind: 'select',
              options: submenus.map((m) => ({
                value: m.web_url,
                label: labels.path(m),
              })),
            },
            { name: 'allowed_ips', label: 'users.allowedIps', kind: 'tags', help: 'users.allowedIpsHelp' },
            { name: 'active', label: 'common.active', kind: 'switch' },
          ],
        },
      ],
      load: async (uid) => {
        const u = await call(api.user.getUserRow, { params: { id: uid } });
        return {
          name: u.name,
          first_name: u.first_name,
          last_name: u.last_name,
          email: u.email,
          role_id: u.role_id,
          allowed_ips: u.allowed_ips,
          landing_page: u.landing_page,
          active: u.active,
        };
      },
      create: (v) =>
        call(
          api.user.createUser,
          { body: { ...v, passwd: v.passwd ?? '', user_type: 'admin' } },
          { errorMode: 'inline' },
        ),
      update: (uid, v) => {
        const { name: _n, passwd: _p, ...rest } = v;
        return call(api.user.patchUser, { params: { id: uid }, body: rest }, { errorMode: 'inline' });
      },
    }),
    [roles.data, submenus, labels, t],
  );
  return (
    <>
      <ResourceForm resource={resource} id={userId} />
      {userId !== null && <ReportOptionsCard userId={userId} />}
    </>
  );
}
