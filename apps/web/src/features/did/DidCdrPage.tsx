import CdrSearchPage from '../cdr/CdrSearchPage';

/** Origination > CDRs List and the portal's Origination > DID CDR: the CDR search over DID calls only. */
export default function DidCdrPage() {
  return <CdrSearchPage did />;
}
