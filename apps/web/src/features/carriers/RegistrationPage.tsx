import { CheckOutlined, CloseOutlined, EyeOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { call } from '../../api/client';
import { useFeedback } from '../../app/feedback';
import { ResourceList } from '../../components/resource/ResourceList';
import type { ListResource } from '../../components/resource/types';
import './i18n';

type Row = z.output<typeof api.carriers.registrationDetail>;
const COLORS = { pending: 'gold', approved: 'green', rejected: 'red' } as const;

const resourceOf = (t: (k: string) => string): ListResource<Row> => ({
  key: 'registration',
  title: 'carriers.registration',
  list: api.carriers.listRegistrations,
  rowKey: 'client_id',
  csvName: 'registrations',
  defaultSort: { by: 'created_at', dir: 'asc' },
  columns: [
    {
      key: 'name',
      title: 'carriers.name',
      sortable: true,
      render: (r) => (
        <Link
          to={`/termination/registration/user_description/${r.client_id}`}
          data-testid={`registration-${r.name}`}
        >
          {r.name}
        </Link>
      ),
    },
    { key: 'company', title: 'carriers.company', sortable: true },
    {
      key: 'client_type',
      title: 'carriers.clientType',
      render: (r, t) => t(`carriers.types.${r.client_type}`),
    },
    {
      key: 'company_type',
      title: 'carriers.companyType',
      render: (r, t) => t(`carriers.companyTypes.${r.company_type}`),
    },
    { key: 'login_name', title: 'carriers.loginName' },
    { key: 'main_email', title: 'carriers.mainEmail' },
    { key: 'agent_name', title: 'carriers.agent' },
    {
      key: 'registration_status',
      title: 'carriers.status',
      render: (r, t) => (
        <Tag color={COLORS[r.registration_status]}>{t(`carriers.statuses.${r.registration_status}`)}</Tag>
      ),
      csv: (r) => r.registration_status,
    },
    {
      key: 'created_at',
      title: 'carriers.createdAt',
      sortable: true,
      render: (r) => r.created_at.replace('T', ' ').slice(0, 16),
    },
  ],
  filters: [
    {
      name: 'status',
      title: 'carriers.status',
      kind: 'select',
      options: ['pending', 'approved', 'rejected'].map((v) => ({
        value: v,
        label: t(`carriers.statuses.${v}`),
      })),
    },
    {
      name: 'company_type',
      title: 'carriers.companyType',
      kind: 'select',
      options: ['termination', 'origination'].map((v) => ({
        value: v,
        label: t(`carriers.companyTypes.${v}`),
      })),
    },
    {
      name: 'client_type',
      title: 'carriers.clientType',
      kind: 'select',
      options: ['client', 'vendor'].map((v) => ({ value: v, label: t(`carriers.types.${v}`) })),
    },
  ],
});

/** Approve or reject a pending sign-up (shared by the list and the detail page). */
export function useRegistrationDecision(after: () => Promise<unknown> | void) {
  const { t } = useTranslation();
  const { confirm, flash } = useFeedback();
  return async (row: { client_id: number; name: string }, approve: boolean) => {
    if (
      !(await confirm({
        title: t(approve ? 'carriers.approveConfirm' : 'carriers.rejectConfirm', { name: row.name }),
        danger: !approve,
      }))
    )
      return;
    await call(
      approve ? api.carriers.approveRegistration : api.carriers.rejectRegistration,
      { params: { id: row.client_id } },
      { errorMode: 'inline' },
    );
    flash(t(approve ? 'carriers.approvedDone' : 'carriers.rejectedDone'));
    await after();
  };
}

/** Termination > Registration: sign-ups of termination and origination clients and vendors. */
export default function RegistrationPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const decide = useRegistrationDecision(() =>
    qc.invalidateQueries({
      queryKey: [api.carriers.listRegistrations.method, api.carriers.listRegistrations.path],
    }),
  );
  return (
    <ResourceList
      resource={resourceOf(t)}
      extraActions={(r) => (
        <>
          <Tooltip title={t('common.details')}>
            <Button
              size="small"
              type="text"
              icon={<EyeOutlined />}
              aria-label={t('common.details')}
              onClick={() => navigate(`/termination/registration/user_description/${r.client_id}`)}
              data-testid={`details-${r.client_id}`}
            />
          </Tooltip>
          {r.registration_status === 'pending' && (
            <>
              <Tooltip title={t('carriers.approve')}>
                <Button
                  size="small"
                  type="text"
                  icon={<CheckOutlined style={{ color: '#389e0d' }} />}
                  aria-label={t('carriers.approve')}
                  onClick={() => void decide(r, true)}
                  data-testid={`approve-${r.client_id}`}
                />
              </Tooltip>
              <Tooltip title={t('carriers.reject')}>
                <Button
                  size="small"
                  type="text"
                  danger
                  icon={<CloseOutlined />}
                  aria-label={t('carriers.reject')}
                  onClick={() => void decide(r, false)}
                  data-testid={`reject-${r.client_id}`}
                />
              </Tooltip>
            </>
          )}
        </>
      )}
    />
  );
}
