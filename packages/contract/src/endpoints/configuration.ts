import { int4 } from '../input-rules';
import { z } from 'zod';
import { crudEndpoints, entityName, seconds } from '../crud';
import type { MessageKey } from '../messages';

/** Configuration > Payment Term. */
export const paymentTermRow = z.object({
  payment_term_id: z.number(),
  name: z.string(),
  invoicing_cycle: z.enum(['daily', 'weekly', 'monthly', 'yearly']),
  grace_days: z.number(),
  notify_days: z.number(),
  usage_count: z.number(),
  updated_at: z.string(),
  updated_by: z.string(),
});
export const paymentTerm = crudEndpoints({
  base: '/config/payment_term',
  tag: 'configuration',
  func: '/configuration/payment_term',
  name: 'payment term',
  row: paymentTermRow,
  create: z
    .object({
      name: entityName(),
      invoicing_cycle: z.enum(['daily', 'weekly', 'monthly', 'yearly']).default('monthly'),
      grace_days: seconds.default(0),
      notify_days: seconds.default(0),
    })
    .strict(),
  filters: { name: z.string().max(100).optional() },
});

/** Configuration > Time Profile: all time, daily (start/end time) or weekly (start/end weekday and time). */
export const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const timeOfDay = z.string().regex(TIME, { message: 'invalidTime' });
export const timeProfileFields = z.object({
  name: entityName(),
  type: z.enum(['all_time', 'daily', 'weekly']).default('all_time'),
  start_week_day: int4().min(0).max(6).nullable().default(null),
  end_week_day: int4().min(0).max(6).nullable().default(null),
  start_time: timeOfDay.nullable().default(null),
  end_time: timeOfDay.nullable().default(null),
});
/** The rules of spec 02 section 5 for time profiles; also checked on updates against the merged row. */
export function timeProfileIssues(v: {
  type?: string;
  start_week_day?: number | null;
  end_week_day?: number | null;
  start_time?: string | null;
  end_time?: string | null;
}): { field: string; key: MessageKey }[] {
  if (v.type === 'all_time' || v.type === undefined) return [];
  if (!v.start_time || !v.end_time) return [{ field: 'start_time', key: 'startEndRequired' }];
  if (v.type === 'daily')
    return v.end_time > v.start_time ? [] : [{ field: 'end_time', key: 'endAfterStart' }];
  if (
    v.start_week_day === null ||
    v.start_week_day === undefined ||
    v.end_week_day === null ||
    v.end_week_day === undefined
  )
    return [{ field: 'start_week_day', key: 'required' }];
  if (v.end_week_day < v.start_week_day) return [{ field: 'end_week_day', key: 'endDayAfterStartDay' }];
  if (v.end_week_day === v.start_week_day && v.end_time <= v.start_time)
    return [{ field: 'end_time', key: 'endAfterStart' }];
  return [];
}
export const timeProfileRow = timeProfileFields.extend({
  time_profile_id: z.number(),
  usage_count: z.number(),
  updated_at: z.string(),
});
export const timeProfile = crudEndpoints({
  base: '/config/time_profile',
  tag: 'configuration',
  func: '/configuration/time_profile',
  name: 'time profile',
  row: timeProfileRow,
  create: timeProfileFields.strict(),
  filters: { name: z.string().max(100).optional(), type: z.enum(['all_time', 'daily', 'weekly']).optional() },
});
