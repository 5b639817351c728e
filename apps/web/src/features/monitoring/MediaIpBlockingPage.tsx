import { useLocation } from 'react-router-dom';
import { MediaIpBlockingList } from '../routing-extras/MediaIpBlockingPage';
import './i18n';

/**
 * Monitoring > Media IP Blocking: the routing screen's list under the monitoring permission; at
 * .../upload with the upload dialog open (spec 01 names that address).
 */
export default function MonitoringMediaIpBlockingPage() {
  const upload = useLocation().pathname.endsWith('/upload');
  return <MediaIpBlockingList site="monitoring" upload={upload} />;
}
