/**
 * Option building of the generic dropdown (spec 01 sections 2, 5, 8 and 9), pure and DOM-free.
 */

/** Lists behind dropdowns are read whole: page 0 with this page size. */
export const DROPDOWN_PER_PAGE = 9999;
/** The search box shows when the list has more items than this. */
export const SEARCH_THRESHOLD = 1;
/** The value of the placeholder option ('All', 'None', 'Select One'); the widget reports it as null. */
export const PLACEHOLDER_VALUE = '__placeholder__';
/** The id of the 'Use no template' option of rate upload templates. */
export const NO_TEMPLATE_ID = 0;

export type PlaceholderMode = 'all' | 'none' | 'select';
/** Special rules: carriers drop entries with empty text, codes are deduplicated, DID vendors need an id. */
export type DropdownKind = 'carrier' | 'code' | 'didVendor';
export type OptionValue = string | number;

export interface DropdownOption {
  value: OptionValue;
  label: string;
  /** The added 'All' / 'None' / 'Select One' entry. */
  placeholder?: boolean;
}

export interface BuildOptions {
  valueField: string;
  labelField: string;
  /** Builds the label instead of labelField. */
  labelOf?: (item: Record<string, unknown>) => string;
  placeholder?: PlaceholderMode;
  useNoTemplate?: boolean;
  excludeIds?: readonly OptionValue[];
  kind?: DropdownKind;
  /** Translated texts of the added options. */
  texts: { all: string; none: string; selectOne: string; useNoTemplate: string };
}

const isScalar = (v: unknown): v is string | number => typeof v === 'string' || typeof v === 'number';
const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** The items of a list payload: `{ items }` of a paged list, a plain array, or nothing. */
export function itemsOf(payload: unknown): Record<string, unknown>[] {
  const list = Array.isArray(payload)
    ? payload
    : payload && typeof payload === 'object' && Array.isArray((payload as { items?: unknown }).items)
      ? (payload as { items: unknown[] }).items
      : [];
  return list.filter((x): x is Record<string, unknown> => Boolean(x) && typeof x === 'object');
}

/** The text of an item. */
export function labelText(
  item: Record<string, unknown>,
  opts: Pick<BuildOptions, 'labelField' | 'labelOf'>,
): string {
  if (opts.labelOf) return opts.labelOf(item);
  const v = item[opts.labelField];
  return isScalar(v) ? String(v) : '';
}

/** Sorts ascending by label (case-insensitive, numbers in numeric order); stable. */
export function sortByLabel<T extends { label: string }>(options: readonly T[]): T[] {
  return [...options].sort((a, b) => collator.compare(a.label, b.label));
}

/** The options from the list items: kind rules, exclusions, sort, then the added entries first. */
export function buildOptions(
  items: readonly Record<string, unknown>[],
  opts: BuildOptions,
): DropdownOption[] {
  const excluded = new Set((opts.excludeIds ?? []).map(String));
  const seen = new Set<string>();
  const options: DropdownOption[] = [];
  for (const item of items) {
    const raw = item[opts.valueField];
    const label = labelText(item, opts);
    if (opts.kind === 'didVendor' && (raw === undefined || raw === null || raw === '')) continue;
    if (opts.kind === 'carrier' && label.trim() === '') continue;
    if (!isScalar(raw)) continue;
    if (excluded.has(String(raw))) continue;
    if (opts.kind === 'code') {
      if (seen.has(String(raw))) continue;
      seen.add(String(raw));
    }
    options.push({ value: raw, label });
  }
  const added: DropdownOption[] = [];
  if (opts.placeholder) {
    const label = { all: opts.texts.all, none: opts.texts.none, select: opts.texts.selectOne }[
      opts.placeholder
    ];
    added.push({ value: PLACEHOLDER_VALUE, label, placeholder: true });
  }
  if (
    opts.useNoTemplate &&
    !excluded.has(String(NO_TEMPLATE_ID)) &&
    !options.some((o) => o.value === NO_TEMPLATE_ID)
  ) {
    added.push({ value: NO_TEMPLATE_ID, label: opts.texts.useNoTemplate });
  }
  return [...added, ...sortByLabel(options)];
}

/** The search box shows above the threshold. */
export const showSearch = (itemCount: number) => itemCount > SEARCH_THRESHOLD;

/** Case-insensitive match of the typed text anywhere in the label. */
export function matchesSearch(input: string, label: string): boolean {
  return label.toLocaleLowerCase().includes(input.trim().toLocaleLowerCase());
}

/** A failure without an answer from the server (network down, timeout): status 0. */
export function isNetworkFailure(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'status' in error &&
    (error as { status: unknown }).status === 0
  );
}

/** The query of a dropdown list: page 0, all rows, ascending by the label field, plus the caller's filters. */
export function listInput(labelField: string, query: object | undefined): Record<string, unknown> {
  return { page: 0, per_page: DROPDOWN_PER_PAGE, order_by: labelField, order_dir: 'asc', ...query };
}

/** The Select's value for the widget's value: the placeholder entry stands for null. */
export function toSelectValue(
  value: OptionValue | null | undefined,
  placeholder: PlaceholderMode | undefined,
): OptionValue | undefined {
  if (value === null || value === undefined || value === '')
    return placeholder ? PLACEHOLDER_VALUE : undefined;
  return value;
}

/** The widget's value for the Select's value. */
export function fromSelectValue(value: OptionValue | null | undefined): OptionValue | null {
  return value === undefined || value === null || value === PLACEHOLDER_VALUE ? null : value;
}
