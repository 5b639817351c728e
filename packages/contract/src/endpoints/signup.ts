import { int4, coercedInt4 } from '../input-rules';
import { z } from 'zod';
import { PUBLIC, adminOnly } from '../access';
import { objectId, personName, portalPassword, singleEmail } from '../common';
import { endpoint } from '../endpoint';
import { userNameField } from './user';

export const AGENTS_FUNC = '/agent/agent_management';

export const agentPublic = z.object({ agent_id: z.number(), agent_name: z.string() });
export const agentDetail = agentPublic.extend({
  status: z.enum(['active', 'inactive']),
  email: z.string(),
  commission_method: z.enum(['profit', 'revenue']),
  commission_percent: z.string(),
  frequency: z.enum(['daily', 'weekly', 'monthly']),
  referral_key: z.string(),
});

export const getAgent = endpoint({
  method: 'GET',
  path: '/agent/:id',
  summary: 'An agent: full for admins and the agent itself; name only with a matching ref_key (sign-up)',
  tag: 'agent',
  access: PUBLIC,
  params: z.object({ id: coercedInt4().positive() }),
  query: z.object({ ref_key: z.string().max(100).optional() }),
  payload: z.union([agentDetail, agentPublic]),
});

export const agentCreate = z
  .object({
    agent_name: z.string().trim().min(1, { message: 'required' }).max(100),
    email: singleEmail,
    commission_method: z.enum(['profit', 'revenue']).default('profit'),
    commission_percent: z
      .string()
      .regex(/^\d{1,3}(\.\d{1,4})?$/, { message: 'invalidValue' })
      .default('0'),
    frequency: z.enum(['daily', 'weekly', 'monthly']).default('monthly'),
    name: userNameField,
    passwd: portalPassword,
  })
  .strict();
export const createAgent = endpoint({
  method: 'POST',
  path: '/agent/create',
  summary: 'Create an agent with its portal user',
  tag: 'agent',
  access: adminOnly(AGENTS_FUNC, 'write'),
  body: agentCreate,
  payload: objectId,
});

export const carrierBasicCreate = z
  .object({
    name: z.string().trim().min(1, { message: 'required' }).max(100),
    company: z.string().trim().min(1, { message: 'required' }).max(200),
    client_type: z.enum(['client', 'vendor']).default('client'),
    company_type: z.enum(['termination', 'origination']).default('termination'),
    email: singleEmail,
    first_name: personName.default(''),
    last_name: personName.default(''),
    login_name: userNameField,
    passwd: portalPassword,
    ref_key: z.string().max(100).optional(),
    agent_id: int4().positive().optional(),
  })
  .strict();
export const createCarrierBasic = endpoint({
  method: 'POST',
  path: '/carrier/basic/create',
  summary: 'Self sign-up (public, pending approval) or admin creation of a carrier with its portal user',
  tag: 'carrier',
  access: PUBLIC,
  body: carrierBasicCreate,
  payload: z.object({ object_id: z.number(), status: z.enum(['pending', 'approved']) }),
});
