import { api } from '@tandem/contract';
import { Card, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../api/queries';

/** Switch capacity: the switches the platform knows and whether they are connected. */
export default function CapacityPage() {
  const { t } = useTranslation();
  const switches = useApi(api.sw.listSwitches, {
    query: { page: 0, per_page: 100000, order_by: 'switch_id', order_dir: 'asc' },
  });
  return (
    <Card title={<h1 style={{ fontSize: 20, margin: 0 }}>{t('system.capacityTitle')}</h1>}>
      <Table
        size="small"
        rowKey="switch_id"
        dataSource={switches.data?.items ?? []}
        data-testid="capacity"
        columns={[
          { title: 'ID', dataIndex: 'switch_id', width: 70 },
          { title: t('users.name'), dataIndex: 'name' },
          { title: t('system.lanIp'), dataIndex: 'lan_ip' },
          {
            title: t('common.status'),
            render: (_, r) => (
              <Tag color={r.connected ? 'green' : 'red'}>
                {r.connected ? t('system.connected') : t('system.disconnected')}
              </Tag>
            ),
          },
        ]}
      />
    </Card>
  );
}
