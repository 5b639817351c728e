import { api } from '@tandem/contract';
import { Card, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../api/queries';

/** VoIP gateway: the SIP hosts carriers send traffic to, per switch. */
export default function VoipGatewayPage() {
  const { t } = useTranslation();
  const hosts = useApi(api.sw.listSipHosts, {
    query: { page: 0, per_page: 9999, order_by: 'switch_id', order_dir: 'asc' },
  });
  return (
    <Card title={<h1 style={{ fontSize: 20, margin: 0 }}>{t('system.gatewayTitle')}</h1>}>
      <Table
        size="small"
        rowKey="id"
        dataSource={hosts.data?.items ?? []}
        data-testid="sip-hosts"
        columns={[
          { title: t('system.host'), dataIndex: 'host_name' },
          { title: 'IP', dataIndex: 'sip_ip' },
          { title: t('system.port'), dataIndex: 'sip_port' },
          { title: t('system.switch'), dataIndex: 'switch_id' },
        ]}
      />
    </Card>
  );
}
