import { api } from '@tandem/contract';
import type { FormInstance } from 'antd';
import { useMemo } from 'react';
import type { z } from 'zod';
import { ApiError } from '../../api/client';
import { useApi } from '../../api/queries';
import { serverMessage } from '../../i18n';

/**
 * What the routing pages share: trunk, time profile and route choices for their selects, and the
 * mapping of contract or server field errors onto an antd form.
 */
export type Option = { value: number; label: string };

/** Trunks by direction, labelled "trunk (carrier)", from the trunk lookups. */
export function useTrunkOptions(direction?: 'ingress' | 'egress'): {
  options: Option[];
  nameOf: (id: number) => string;
  loading: boolean;
} {
  const lk = useApi(api.trunks.lookups, {}, { callOptions: { errorMode: 'inline' } });
  return useMemo(() => {
    const carriers = new Map((lk.data?.carriers ?? []).map((c) => [c.id, c.name]));
    const trunks = (lk.data?.trunks ?? []).filter((t) => !direction || t.direction === direction);
    const options = trunks
      .map((t) => ({ value: t.id, label: `${t.name} (${carriers.get(t.carrier_id) ?? '#' + t.carrier_id})` }))
      .sort((a, b) => a.label.localeCompare(b.label));
    const names = new Map((lk.data?.trunks ?? []).map((t) => [t.id, t.name]));
    return { options, nameOf: (id: number) => names.get(id) ?? `#${id}`, loading: lk.isLoading };
  }, [lk.data, lk.isLoading, direction]);
}

const ALL = { page: 0, per_page: 9999, order_by: 'name', order_dir: 'asc' as const };

export function useTimeProfileOptions(): Option[] {
  const r = useApi(
    api.configuration.timeProfile.list,
    { query: ALL },
    { callOptions: { errorMode: 'inline' } },
  );
  return useMemo(
    () => (r.data?.items ?? []).map((p) => ({ value: p.time_profile_id, label: p.name })),
    [r.data],
  );
}

export function useRouteOptions(): { static: Option[]; dynamic: Option[] } {
  const s = useApi(api.routing.staticRoute.list, { query: ALL }, { callOptions: { errorMode: 'inline' } });
  const d = useApi(api.routing.dynamicRoute.list, { query: ALL }, { callOptions: { errorMode: 'inline' } });
  return useMemo(
    () => ({
      static: (s.data?.items ?? []).map((r) => ({ value: r.static_route_id, label: r.name })),
      dynamic: (d.data?.items ?? []).map((r) => ({ value: r.dynamic_route_id, label: r.name })),
    }),
    [s.data, d.data],
  );
}

export function usePlanOptions(): Option[] {
  const r = useApi(api.routing.routingPlan.list, { query: ALL }, { callOptions: { errorMode: 'inline' } });
  return useMemo(
    () => (r.data?.items ?? []).map((p) => ({ value: p.route_plan_id, label: p.name })),
    [r.data],
  );
}

/** Checks `values` with a contract schema; on failure marks the fields and returns null. */
export function checked<S extends z.ZodType>(
  schema: S,
  values: unknown,
  form: FormInstance,
  label: (field: string) => string,
): z.output<S> | null {
  const r = schema.safeParse(values);
  if (r.success) return r.data;
  const fields = new Map<string, string>();
  for (const issue of r.error.issues) {
    const name = issue.path.map(String).join('.') || '_';
    if (!fields.has(name)) {
      const args = (issue as { params?: { args?: (string | number)[] } }).params?.args;
      fields.set(name, serverMessage(issue.message, args ?? [label(name)]));
    }
  }
  setErrors(form, Object.fromEntries(fields));
  return null;
}

/** Puts field errors (from the server or the contract) on the form; errors on nested paths go to their first segment. */
export function setErrors(form: FormInstance, errors: Record<string, string>): void {
  const byField = new Map<string, string[]>();
  for (const [path, message] of Object.entries(errors)) {
    const name = path.split('.')[0] ?? path;
    byField.set(name, [...(byField.get(name) ?? []), message]);
  }
  form.setFields([...byField.entries()].map(([name, errs]) => ({ name, errors: errs })));
}

/** Runs a write; a server validation error lands on the form's fields. Returns whether it worked. */
export async function submitting(form: FormInstance, run: () => Promise<unknown>): Promise<boolean> {
  try {
    await run();
    return true;
  } catch (e) {
    if (e instanceof ApiError && e.errors) setErrors(form, e.errors);
    return false;
  }
}

export const when = (iso: string | null | undefined): string =>
  iso ? iso.replace('T', ' ').slice(0, 19) : '';
