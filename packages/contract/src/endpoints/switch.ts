import { z } from 'zod';
import { SIGNED_IN } from '../access';
import { listQuery, paged } from '../common';
import { endpoint } from '../endpoint';

export const switchRow = z.object({
  switch_id: z.number(),
  name: z.string(),
  connected: z.boolean(),
  active_call_ip: z.string(),
  lan_ip: z.string(),
});
export const sipHost = z.object({
  id: z.number(),
  host_name: z.string(),
  sip_ip: z.string(),
  sip_port: z.number(),
  switch_id: z.number(),
});

/** Switch internals (LAN and call addresses) are for operator staff only: any admin (capacity, server admin pages). */
export const listSwitches = endpoint({
  method: 'GET',
  path: '/switch/full/list',
  summary: 'Switches with connection state (admins)',
  tag: 'switch',
  access: { kind: 'session', types: ['admin'] },
  query: listQuery,
  payload: paged(switchRow),
});
export const listSipHosts = endpoint({
  method: 'GET',
  path: '/switch/sip_host/list',
  summary: 'SIP hosts carriers send traffic to',
  tag: 'switch',
  access: SIGNED_IN,
  query: listQuery,
  payload: paged(sipHost),
});
