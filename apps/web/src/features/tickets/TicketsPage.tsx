import { api, type Ticket } from '@tandem/contract';
import { Button, Select, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/client';
import { useSignedIn } from '../../app/session';
import { ResourceList } from '../../components/resource/ResourceList';
import type { ListResource } from '../../components/resource/types';
import { SupportTicketDialog } from './SupportTicketDialog';

const COLOR: Record<string, string> = {
  open: 'blue',
  waiting: 'orange',
  in_progress: 'purple',
  resolved: 'green',
  closed: 'default',
  reopened: 'magenta',
};

/** Tickets: operators see all (only open ones at /only_opened) and set status; carriers see their own. */
export default function TicketsPage() {
  const { t } = useTranslation();
  const { user } = useSignedIn();
  const qc = useQueryClient();
  const onlyOpened = useLocation().pathname.endsWith('only_opened');
  const isAdmin = user.user_type === 'admin';
  const [dialog, setDialog] = useState(false);
  const resource = useMemo<ListResource<Ticket>>(
    () => ({
      key: 'tickets',
      title: 'ticket.list',
      list: api.ticket.listTickets,
      rowKey: 'id',
      csvName: 'tickets',
      defaultSort: { by: 'id', dir: 'desc' },
      fixedQuery: onlyOpened ? { only_opened: 'true' } : {},
      columns: [
        { key: 'id', title: '#', sortable: true, width: 70 },
        {
          key: 'created_on',
          title: 'ticket.created',
          sortable: true,
          render: (r) => r.created_on.replace('T', ' ').slice(0, 16),
        },
        ...(isAdmin
          ? [
              { key: 'company', title: 'ticket.company' },
              { key: 'username', title: 'ticket.user' },
            ]
          : []),
        {
          key: 'subject',
          title: 'ticket.subject',
          sortable: true,
          render: (r) => <span data-testid={`ticket-${r.id}`}>{r.subject}</span>,
        },
        {
          key: 'ticket_status',
          title: 'ticket.status',
          sortable: true,
          render: (r, tt) =>
            isAdmin ? (
              <Select
                size="small"
                value={r.ticket_status}
                style={{ width: 140 }}
                data-testid={`ticket-status-${r.id}`}
                options={api.ticket.TICKET_STATUSES.map((s) => ({
                  value: s,
                  label: tt(`ticket.statuses.${s}`),
                }))}
                onChange={async (v) => {
                  await call(
                    api.ticket.setTicketStatus,
                    { params: { id: r.id }, body: { ticket_status: v } },
                    { errorMode: 'inline' },
                  );
                  await qc.invalidateQueries({ queryKey: ['GET', api.ticket.listTickets.path] });
                }}
              />
            ) : (
              <Tag color={COLOR[r.ticket_status]}>{tt(`ticket.statuses.${r.ticket_status}`)}</Tag>
            ),
        },
      ],
      filters: onlyOpened
        ? []
        : [
            {
              name: 'ticket_status',
              title: 'ticket.status',
              kind: 'select',
              options: api.ticket.TICKET_STATUSES.map((s) => ({
                value: s,
                label: t(`ticket.statuses.${s}`),
              })),
            },
          ],
    }),
    [onlyOpened, isAdmin, qc, t],
  );
  return (
    <>
      <ResourceList
        resource={resource}
        toolbar={
          !isAdmin && (
            <Button onClick={() => setDialog(true)} data-testid="new-ticket">
              {t('ticket.title')}
            </Button>
          )
        }
      />
      <SupportTicketDialog
        open={dialog}
        onClose={() => {
          setDialog(false);
          void qc.invalidateQueries({ queryKey: ['GET', api.ticket.listTickets.path] });
        }}
      />
    </>
  );
}
