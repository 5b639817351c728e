import { MediaIpEditForm } from '../routing-extras/MediaIpEditPage';
import './i18n';

/** Monitoring > Media IP Blocking > New / Edit. */
export default function MonitoringMediaIpEditPage() {
  return <MediaIpEditForm site="monitoring" />;
}
