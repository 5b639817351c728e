import { z } from 'zod';
import { adminOnly } from '../access';
import { idParams, listQuery, objectId, paged } from '../common';
import { endpoint } from '../endpoint';

export const TICKETS_FUNC = '/origination/tickets';
export const TICKET_STATUSES = ['open', 'waiting', 'in_progress', 'resolved', 'closed', 'reopened'] as const;
const PORTAL = ['client', 'vendor', 'agent'] as const;

export const ticket = z.object({
  id: z.number(),
  client_id: z.number().nullable(),
  company: z.string().nullable(),
  username: z.string(),
  department: z.string(),
  subject: z.string(),
  content: z.string(),
  url: z.string(),
  type: z.string(),
  ticket_status: z.enum(TICKET_STATUSES),
  created_on: z.string(),
  modified_on: z.string(),
});
export type Ticket = z.infer<typeof ticket>;

export const createTicket = endpoint({
  method: 'POST',
  path: '/ticket/create',
  summary: 'Create a support ticket (draft until sent)',
  tag: 'ticket',
  access: adminOnly(TICKETS_FUNC, 'write', PORTAL),
  body: z
    .object({
      department: z.string().trim().max(64).default('Admin'),
      subject: z.string().trim().min(1, { message: 'ticketSubjectRequired' }).max(200),
      content: z.string().max(20000).default(''),
      url: z.string().max(1000).default(''),
      type: z.string().max(64).default('support'),
    })
    .strict(),
  payload: objectId,
});
export const sendTicket = endpoint({
  method: 'PATCH',
  path: '/ticket/:id/send',
  summary: 'Send a ticket: it becomes waiting for the operator',
  tag: 'ticket',
  access: adminOnly(TICKETS_FUNC, 'write', PORTAL),
  params: idParams,
  payload: z.null(),
});
export const getTicket = endpoint({
  method: 'GET',
  path: '/ticket/:id',
  summary: 'Read a ticket',
  tag: 'ticket',
  access: adminOnly(TICKETS_FUNC, 'read', PORTAL),
  params: idParams,
  payload: ticket,
});
export const setTicketStatus = endpoint({
  method: 'PATCH',
  path: '/ticket/:id/status',
  summary: 'Change a ticket status (operator)',
  tag: 'ticket',
  access: adminOnly(TICKETS_FUNC, 'write'),
  params: idParams,
  body: z.object({ ticket_status: z.enum(TICKET_STATUSES) }).strict(),
  payload: z.null(),
});
export const listTickets = endpoint({
  method: 'GET',
  path: '/ticket/list',
  summary: 'Tickets with status filter',
  tag: 'ticket',
  access: adminOnly(TICKETS_FUNC, 'read', PORTAL),
  query: listQuery.extend({
    ticket_status: z.enum(TICKET_STATUSES).optional(),
    only_opened: z.string().optional(),
  }),
  payload: paged(ticket),
});
