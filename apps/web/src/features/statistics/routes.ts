import { api, type ReportName } from '@tandem/contract';
import { createElement, lazy } from 'react';
import type { RouteDef } from '../../app/routes';

const summary = lazy(() => import('./SummaryReportPage'));
/** The generic report page for one declared report (contract api.reports.REPORTS). */
const reportPage = (name: ReportName) =>
  lazy(() => import('./ReportPage').then((m) => ({ default: () => createElement(m.ReportPage, { name }) })));

/**
 * Statistics (docs/statistics.md); the dashboard is the admin home, declared with the homes in
 * app/routes.tsx. Every declared report is served at its own path by the one report page; the
 * portals' summary report and the agent's traffic report are the summary report.
 */
export const statisticsRoutes: RouteDef[] = [
  { path: '/statistics/summary_report', title: 'stats.summaryReport', page: summary },
  { path: '/clients/reports/summary_report', title: 'stats.summaryReport', page: summary },
  { path: '/agents/statistics/traffic_report', title: 'stats.summaryReport', page: summary },
  ...api.reports.REPORT_NAMES.filter((n) => n !== 'summary_report').map((n) => ({
    path: api.reports.REPORTS[n].func,
    title: api.reports.REPORTS[n].title,
    page: reportPage(n),
  })),
  {
    path: api.reports.CHANNEL_FUNC,
    title: 'reports.titles.daily_channel_usage_report',
    page: lazy(() => import('./DailyChannelUsagePage')),
  },
  {
    path: '/statistics/dashboard/:tab',
    title: 'home.adminTitle',
    page: lazy(() => import('./DashboardPage')),
  },
  {
    path: api.stats.FUNC.activeCalls,
    title: 'dash.active.title',
    page: lazy(() => import('./ActiveCallsPage')),
  },
  {
    path: '/log/scheduled_report_log',
    title: 'reports.logTitle',
    page: lazy(() => import('./ScheduledReportLogPage')),
  },
];
