export * from './envelope';
export * from './i18n';
export * from './messages';
export * from './menu';
export * from './menu-labels';
export * from './access';
export * from './common';
export * from './endpoint';
export * from './constants';
export * as api from './endpoints';
export type { SessionUser, ClientPanel, UserRow } from './endpoints/user';
export type { RoleDetail } from './endpoints/role';
export type { SystemConfig, SystemSettings, Submenu } from './endpoints/config';
export type { Ticket } from './endpoints/ticket';
export * from './crud';
export * from './csv';
export type { CdrIn, ReleaseSide } from './endpoints/cdr';
export type { CdrPartition, CleansingLog, CleansingSettings, CleansingState } from './endpoints/cleansing';
export * from './input-rules';
export type { CdrUploadRow, CdrUploadStatus } from './endpoints/cdr-upload';
export type { CdrFieldDef, CdrFilter, CdrRow, CdrSearchQuery, PortalFieldRow } from './endpoints/cdr-search';
export type {
  RerateCarrier,
  RerateFigures,
  RerateFilter,
  RerateRun,
  RerateSample,
  RerateState,
} from './endpoints/rerate';
export type { BalanceCheckRow, LedgerRow, ResetRow, ResetState } from './endpoints/finance';
export type { GroupBy } from './endpoints/stats';
export type { NoteRow, PaymentRow } from './endpoints/billing';
export type {
  ExtraChargeRow,
  VendorComparison,
  VendorInvoiceDetail,
  VendorInvoiceRow,
} from './endpoints/finance-extras';
export type { AutoInvoiceRow, InvoiceDetail, InvoiceRow, InvoiceSettingRow } from './endpoints/billing';
export type { MailedReportName, ReportColumn, ReportDef, ReportName } from './endpoints/reports';
export type { DidStateName } from './endpoints/did';
export type { DidDashboard, PortRequestRow, PortStatus, PortalTrunkRow } from './endpoints/did-extras';
export type { PortalBlockRow } from './endpoints/routing';
