import { Navigate } from 'react-router-dom';

/** /tools/rate_generation/apply_to_rate_table/what: which run to apply? The finished runs of the history. */
export default function ChooseRunPage() {
  return <Navigate to="/tools/rate_generation/history?status=Finished" replace />;
}
