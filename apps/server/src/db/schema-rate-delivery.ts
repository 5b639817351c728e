import type { ColumnType, Generated } from 'kysely';

/** Row types of the tables of sending rate decks (migration 0007_rate_delivery). */
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type TextArray = ColumnType<string[], string[] | undefined, string[]>;

export type DownloadMethod = 'attachment' | 'link';
export type FileFormat = 'csv' | 'xlsx';
export type DeliveryStatus = 'queued' | 'sent_succeed' | 'sent_failed' | 'downloaded' | 'reminder';

export interface RateEmailTemplatesTable {
  id: Generated<number>;
  name: string;
  download_method: Generated<DownloadMethod>;
  from_email: string;
  cc: TextArray;
  subject: string;
  content: string;
  file_format: Generated<FileFormat>;
  updated_at: Generated<Date>;
  updated_by: Generated<string>;
}

export interface RateSendsTable {
  id: Generated<number>;
  rate_table_id: number | null;
  rate_table_name: string;
  template_id: number | null;
  template_name: string;
  download_method: DownloadMethod;
  from_email: string;
  cc: TextArray;
  subject: string;
  content: string;
  file_format: FileFormat;
  file_name: Generated<string>;
  rate_rows: Generated<number>;
  effective_from: Date | null;
  /** Language of the sender (the few words the server adds to a mail). */
  language: Generated<string>;
  download_deadline: Date;
  status: Generated<'running' | 'finished' | 'failed'>;
  total: Generated<number>;
  succeeded: Generated<number>;
  failed: Generated<number>;
  message: Generated<string>;
  user_id: number | null;
  user_name: Generated<string>;
  created_at: Generated<Date>;
  finished_at: NullableTimestamp;
}

export interface RateSendFilesTable {
  send_id: number;
  mime: string;
  size_bytes: number;
  data: Uint8Array;
}

export interface RateDeliveriesTable {
  id: Generated<number>;
  send_id: number;
  client_id: number | null;
  carrier_name: Generated<string>;
  company: Generated<string>;
  email: string;
  status: Generated<DeliveryStatus>;
  error: Generated<string>;
  sent_at: NullableTimestamp;
  downloaded_at: NullableTimestamp;
  download_ip: Generated<string>;
  download_count: Generated<number>;
  reminder_count: Generated<number>;
  reminded_at: NullableTimestamp;
  created_at: Generated<Date>;
}

export interface RateDeliveryTokensTable {
  token_hash: string;
  delivery_id: number;
  created_at: Generated<Date>;
}

export interface RateDeliveryTables {
  rate_email_templates: RateEmailTemplatesTable;
  rate_sends: RateSendsTable;
  rate_send_files: RateSendFilesTable;
  rate_deliveries: RateDeliveriesTable;
  rate_delivery_tokens: RateDeliveryTokensTable;
}
