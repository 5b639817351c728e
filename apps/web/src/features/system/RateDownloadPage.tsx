import { Result } from 'antd';
import { useParams } from 'react-router-dom';

/** /download/rate/{token}: rate decks are sent with the rate e-mail feature; until a deck exists for the token, say so. */
export default function RateDownloadPage() {
  const { token } = useParams();
  return (
    <Result
      status="404"
      title="Rate download"
      subTitle={`No rate file is available for this link (${token?.slice(0, 8) ?? ''}…).`}
      style={{ background: '#fff', borderRadius: 8 }}
    />
  );
}
