import { ReloadOutlined } from '@ant-design/icons';
import {
  DROPDOWN_TIMEOUT_MS,
  type Endpoint,
  type ParamsOf,
  type PayloadOf,
  type QueryOf,
} from '@tandem/contract';
import { Button, Select, Space } from 'antd';
import { useEffect, useEffectEvent, useMemo, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import type { CallInput } from '../api/client';
import { useApi } from '../api/queries';
import {
  buildOptions,
  fromSelectValue,
  isNetworkFailure,
  itemsOf,
  listInput,
  matchesSearch,
  PLACEHOLDER_VALUE,
  showSearch,
  toSelectValue,
  type DropdownKind,
  type DropdownOption,
  type OptionValue,
  type PlaceholderMode,
} from './dropdown-logic';

/** The item type of a list endpoint: the element of `payload.items`, or of a plain array payload. */
export type ItemOf<E> =
  PayloadOf<E> extends { items: (infer T)[] }
    ? T
    : PayloadOf<E> extends (infer T)[]
      ? T
      : Record<string, unknown>;
type FieldOf<E> = Extract<keyof ItemOf<E>, string>;

interface BaseProps<E extends Endpoint> {
  /** A contract list endpoint (paged `{ items, total }` or a plain array). */
  endpoint: E;
  params?: ParamsOf<E>;
  /** Extra filters; page 0, per_page 9999 and ascending order by the label field are added. */
  query?: Partial<QueryOf<E>>;
  valueField: FieldOf<E>;
  labelField: FieldOf<E>;
  /** Builds the label instead of labelField (sorting and search use it). */
  labelOf?: (item: ItemOf<E>) => string;
  /** Adds 'All', 'None' or 'Select One' as the first entry; it stands for null. */
  placeholder?: PlaceholderMode;
  /** Adds 'Use no template' with id 0 (rate upload templates). */
  useNoTemplate?: boolean;
  excludeIds?: readonly OptionValue[];
  /** carrier: entries with empty text dropped; code: duplicates removed; didVendor: entries without id removed. */
  kind?: DropdownKind;
  /** The list came back empty. */
  onEmptyData?: () => void;
  /** Text shown when nothing is chosen and there is no placeholder entry. */
  hint?: string;
  id?: string;
  'aria-label'?: string;
  'aria-labelledby'?: string;
  disabled?: boolean;
  allowClear?: boolean;
  status?: 'error' | 'warning';
  style?: CSSProperties;
  /** data-testid of the select (default 'dropdown'); the refresh button gets `${testId}-refresh`. */
  testId?: string;
}
interface SingleProps<E extends Endpoint> {
  multiple?: false;
  value?: OptionValue | null;
  onChange?: (value: OptionValue | null, item: ItemOf<E> | null) => void;
}
interface MultipleProps<E extends Endpoint> {
  multiple: true;
  value?: OptionValue[];
  onChange?: (value: OptionValue[], items: ItemOf<E>[]) => void;
}
export type DropdownProps<E extends Endpoint> = BaseProps<E> & (SingleProps<E> | MultipleProps<E>);

/**
 * The generic dropdown over a contract list endpoint (spec 01 sections 2, 5, 8 and 9). The whole
 * list is read once per distinct query (TanStack Query shares it), with the dropdown timeout.
 * A network failure (status 0) shows the placeholder 'error', an empty list and a refresh button;
 * other failures are toasted by the API client.
 */
export function Dropdown<E extends Endpoint>(props: DropdownProps<E>) {
  const {
    endpoint,
    params,
    query,
    valueField,
    labelField,
    labelOf,
    placeholder,
    useNoTemplate,
    excludeIds,
    kind,
  } = props;
  const { t } = useTranslation();
  const input = useMemo(
    () => ({ params, query: listInput(labelField, query) }) as unknown as CallInput<E>,
    [params, query, labelField],
  );
  const list = useApi(endpoint, input, {
    callOptions: { errorMode: 'inline', timeoutMs: DROPDOWN_TIMEOUT_MS },
  });
  const networkError = list.isError && isNetworkFailure(list.error);
  const items = useMemo(() => (list.isSuccess ? itemsOf(list.data) : []), [list.isSuccess, list.data]);

  const options = useMemo<DropdownOption[]>(() => {
    if (!list.isSuccess) return [];
    return buildOptions(items, {
      valueField,
      labelField,
      labelOf: labelOf as ((item: Record<string, unknown>) => string) | undefined,
      placeholder: props.multiple ? undefined : placeholder,
      useNoTemplate,
      excludeIds,
      kind,
      texts: {
        all: t('common.all'),
        none: t('common.none'),
        selectOne: t('common.selectOne'),
        useNoTemplate: t('common.useNoTemplate'),
      },
    });
  }, [
    list.isSuccess,
    items,
    valueField,
    labelField,
    labelOf,
    placeholder,
    props.multiple,
    useNoTemplate,
    excludeIds,
    kind,
    t,
  ]);

  // An empty result is reported once per answer.
  const emitEmpty = useEffectEvent(() => props.onEmptyData?.());
  useEffect(() => {
    if (list.isSuccess && items.length === 0) emitEmpty();
  }, [list.isSuccess, list.dataUpdatedAt, items.length]);

  const itemByValue = useMemo(() => {
    const m = new Map<string, ItemOf<E>>();
    for (const item of items) {
      const v = item[valueField];
      if (typeof v === 'string' || typeof v === 'number') m.set(String(v), item as ItemOf<E>);
    }
    return m;
  }, [items, valueField]);

  const selectProps = {
    id: props.id,
    'aria-label': props['aria-labelledby'] ? undefined : props['aria-label'],
    'aria-labelledby': props['aria-labelledby'],
    'data-testid': props.testId ?? 'dropdown',
    disabled: props.disabled,
    allowClear: props.allowClear,
    loading: list.isFetching,
    status: networkError ? ('error' as const) : props.status,
    placeholder: networkError ? t('common.error') : list.isPending ? t('common.loading') : props.hint,
    // Only value and label reach the Select: other keys would be written to the DOM.
    options: options.map(({ value, label }) => ({ value, label })),
    notFoundContent: list.isPending ? t('common.loading') : t('common.noData'),
    showSearch: showSearch(options.length)
      ? { filterOption: (text: string, option?: DropdownOption) => matchesSearch(text, option?.label ?? '') }
      : false,
    style: { minWidth: 160, ...props.style },
  };

  let select;
  if (props.multiple) {
    const { onChange } = props;
    select = (
      <Select<OptionValue[], DropdownOption>
        {...selectProps}
        mode="multiple"
        value={networkError ? [] : (props.value ?? [])}
        onChange={(v) =>
          onChange?.(
            v,
            v.flatMap((x) => itemByValue.get(String(x)) ?? []),
          )
        }
      />
    );
  } else {
    const { onChange } = props;
    const current = toSelectValue(props.value, placeholder);
    select = (
      <Select<OptionValue, DropdownOption>
        {...selectProps}
        value={networkError || (current === PLACEHOLDER_VALUE && !list.isSuccess) ? undefined : current}
        onChange={(v) => {
          const value = fromSelectValue(v);
          onChange?.(value, value === null ? null : (itemByValue.get(String(value)) ?? null));
        }}
      />
    );
  }

  if (!networkError) return select;
  return (
    <Space.Compact>
      {select}
      <Button
        icon={<ReloadOutlined aria-hidden />}
        aria-label={t('common.refresh')}
        title={t('common.refresh')}
        data-testid={`${props.testId ?? 'dropdown'}-refresh`}
        onClick={() => void list.refetch()}
      />
    </Space.Compact>
  );
}
