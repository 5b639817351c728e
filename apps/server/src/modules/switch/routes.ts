import { api } from '@tandem/contract';
import type { FastifyInstance } from 'fastify';
import { pageOf } from '../../db/paging';
import { implement } from '../../http/register';
import type { Services } from '../../services';

export function registerSwitch(app: FastifyInstance, s: Services): void {
  implement(app, s, api.sw.listSwitches, async (ctx) =>
    pageOf(
      s.db.selectFrom('switches').select(['switch_id', 'name', 'connected', 'active_call_ip', 'lan_ip']),
      ctx.query,
      { switch_id: 'switch_id', name: 'name' },
      'switch_id',
      'switch_id',
    ),
  );
  implement(app, s, api.sw.listSipHosts, async (ctx) =>
    pageOf(
      s.db.selectFrom('sip_hosts').select(['id', 'host_name', 'sip_ip', 'sip_port', 'switch_id']),
      ctx.query,
      { switch_id: 'switch_id', host_name: 'host_name', id: 'id' },
      'switch_id',
      'id',
    ),
  );
}
