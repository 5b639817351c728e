import type { Endpoint } from '@tandem/contract';
import type { ReactNode } from 'react';

type T = (key: string, opts?: Record<string, unknown>) => string;

/** One column of a resource list. */
export interface ColumnSpec<Row> {
  key: string;
  /** i18n key */
  title: string;
  sortable?: boolean;
  render?: (row: Row, t: T) => ReactNode;
  /** Value for the CSV export (defaults to row[key]). */
  csv?: (row: Row) => unknown;
  width?: number;
}

/** One filter of the list page; its value is kept in the URL under `name`. */
export interface FilterSpec {
  name: string;
  title: string;
  kind: 'text' | 'select' | 'boolean';
  options?: { value: string; label: string }[];
}

/** A resource declared once: the generic list page serves it. */
export interface ListResource<Row> {
  key: string;
  title: string;
  list: Endpoint;
  rowKey: keyof Row & string;
  columns: ColumnSpec<Row>[];
  filters?: FilterSpec[];
  defaultSort?: { by: string; dir: 'asc' | 'desc' };
  /** Query fixed by the page (e.g. a tab). */
  fixedQuery?: Record<string, unknown>;
  newPath?: string;
  editPath?: (row: Row) => string;
  /** Delete; with `usage`, the confirmation lists what uses the row (and refuses while in use). */
  remove?: {
    endpoint: Endpoint;
    name: (row: Row) => string;
    counts?: (row: Row) => number;
    disabled?: (row: Row) => boolean;
    usage?: Endpoint;
  };
  activation?: {
    activate: Endpoint;
    deactivate: Endpoint;
    isActive: (row: Row) => boolean;
    name: (row: Row) => string;
  };
  /** Endpoints whose cached data changes when this resource changes. */
  invalidates?: Endpoint[];
  /** File name of the CSV export. */
  csvName: string;
  /** Re-reads the list this often while the page is open (logs of running jobs). */
  refetchMs?: number;
}
