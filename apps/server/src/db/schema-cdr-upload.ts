import type { ColumnType, Generated } from 'kysely';

/** Row types of the CDR upload log (migration 0026_cdr_upload). */
export interface CdrUploadsTable {
  id: Generated<number>;
  file_name: string;
  size: ColumnType<string, number | string, number | string>;
  kind: 'csv' | 'jsonl';
  path: Generated<string>;
  cdrs: Generated<number>;
  refused: Generated<boolean>;
  problems: ColumnType<unknown, string | undefined, string>;
  job_id: number | null;
  user_id: number | null;
  user_name: Generated<string>;
  created_at: Generated<Date>;
}

export interface CdrUploadTables {
  cdr_uploads: CdrUploadsTable;
}
