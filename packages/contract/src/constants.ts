/** Business constants and limits of the frame (spec 01 section 9). */
export const PROGRAM_NAME = 'Tandem';
export const VERSION = '11.0.0';
export const FLASH_MS = 5000;
export const LOGOUT_DELAY_MS = 3000;
export const IDLE_RECHECK_MS = 2000;
export const LANDING_DIALOG_DELAY_MS = 2000;
export const SERVER_STATUS_POLL_MS = 3_600_000;
export const DISK_WARNING_PERCENT = 10;
export const MIN_INACTIVITY_SECONDS = 60;
export const ROWS_PER_PAGE = [10, 20, 30, 50, 100] as const;
export const DATE_FORMAT = 'YYYY-MM-DD HH:mm:ss';
export const FETCH_TIMEOUT_MS = 50_000;
export const DROPDOWN_TIMEOUT_MS = 250_000;
export const UPLOAD_MAX_MB = 1000;
export const UPLOAD_MAX_FILES = 5;
export const AVATAR_TYPES = ['png', 'jpg', 'jpeg'] as const;
export const COLOR_ERROR = '#BB3322';
export const COLOR_INFO = '#03c0fc';
export const HOME_BY_TYPE = {
  admin: '/statistics/dashboard',
  agent: '/agents/management/agent_dashboard',
  client: '/clients/management/analytics_dashboard',
  vendor: '/clients/management/analytics_dashboard',
} as const;

/** Inactivity limit in seconds from the server's inactivity_timeout minutes; 60 s minimum when 1 or less. */
export function inactivityLimitSeconds(minutes: number): number {
  return minutes <= 1 ? 60 : Math.round(minutes * 60);
}
