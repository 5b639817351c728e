import type { Endpoint, PayloadOf } from '@tandem/contract';
import { useMutation, useQuery, useQueryClient, type UseQueryOptions } from '@tanstack/react-query';
import { call, type CallInput, type CallOptions } from './client';

/** Query keys: the endpoint path plus its input, so invalidating a path refreshes every page of it. */
export const keyOf = <E extends Endpoint>(e: E, input: CallInput<E> = {}) =>
  [e.method, e.path, input] as const;

export function useApi<E extends Endpoint>(
  e: E,
  input: CallInput<E> = {},
  options: Omit<UseQueryOptions<PayloadOf<E>>, 'queryKey' | 'queryFn'> & { callOptions?: CallOptions } = {},
) {
  const { callOptions, ...rest } = options;
  return useQuery<PayloadOf<E>>({
    queryKey: keyOf(e, input),
    queryFn: () => call(e, input, callOptions),
    ...rest,
  });
}

/** A write: errors toast inline (forms keep their values); on success the listed paths refetch. */
export function useApiMutation<E extends Endpoint>(e: E, invalidates: Endpoint[] = []) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: CallInput<E>) => call(e, input, { errorMode: 'inline' }),
    onSuccess: async () => {
      await Promise.all(invalidates.map((x) => qc.invalidateQueries({ queryKey: [x.method, x.path] })));
    },
  });
}
