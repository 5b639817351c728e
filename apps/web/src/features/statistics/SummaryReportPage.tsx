import { ReportPage } from './ReportPage';

/** Statistics > Summary Report (and the portals' summary and traffic reports): the generic report page. */
export default function SummaryReportPage() {
  return <ReportPage name="summary_report" />;
}
