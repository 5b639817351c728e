import { api } from '@tandem/contract';
import { Card, Col, Descriptions, Progress, Row, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../api/queries';

const gb = (b: number) => `${(b / 1024 ** 3).toFixed(1)} GB`;
const since = (iso: string) => {
  const s = Math.floor((Date.now() - Date.parse(iso)) / 1000);
  return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
};

/** This Tandem server: version, uptime, disk of the data directory, switches. */
export default function ServerAdminPage() {
  const { t } = useTranslation();
  const version = useApi(api.config.getVersions);
  const disk = useApi(api.config.watchdogStatus, { params: { server: 'local' } });
  const switches = useApi(api.sw.listSwitches, {
    query: { page: 0, per_page: 9999, order_by: 'switch_id', order_dir: 'asc' },
  });
  const v = version.data?.items[0];
  const d = disk.data?.disk[0];
  return (
    <div>
      <div className="page-head">
        <h1>{t('system.serverTitle')}</h1>
      </div>
      <Row gutter={12}>
        <Col xs={24} md={12}>
          <Card size="small" title={t('frame.programName')}>
            {v && (
              <Descriptions column={1} size="small" data-testid="server-version">
                <Descriptions.Item label={t('frame.version', { version: '' }).trim()}>
                  {v.major_ver}
                </Descriptions.Item>
                <Descriptions.Item label={t('frame.buildDate')}>
                  {v.build_date.replace('T', ' ').slice(0, 19)}
                </Descriptions.Item>
                <Descriptions.Item label={t('frame.startTime')}>
                  {v.start_time.replace('T', ' ').slice(0, 19)}
                </Descriptions.Item>
                <Descriptions.Item label={t('frame.uptime')}>{since(v.start_time)}</Descriptions.Item>
              </Descriptions>
            )}
          </Card>
        </Col>
        <Col xs={24} md={12}>
          <Card size="small" title={t('system.disk')}>
            {d && (
              <div data-testid="server-disk">
                <Progress percent={d.used_percent} status={d.percent < 10 ? 'exception' : 'normal'} />
                <div>
                  {gb(d.used_bytes)} {t('system.used')} / {gb(d.total_bytes)} · {d.percent}%{' '}
                  {t('system.free')}
                </div>
                <div style={{ color: '#888', fontSize: 12 }}>{d.mount}</div>
              </div>
            )}
          </Card>
        </Col>
      </Row>
      <Card size="small" title={t('system.switches')} style={{ marginTop: 12 }}>
        <Table
          size="small"
          rowKey="switch_id"
          pagination={false}
          dataSource={switches.data?.items ?? []}
          columns={[
            { title: 'ID', dataIndex: 'switch_id', width: 70 },
            { title: t('users.name'), dataIndex: 'name' },
            { title: t('system.lanIp'), dataIndex: 'lan_ip' },
            { title: t('system.activeCallIp'), dataIndex: 'active_call_ip' },
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
    </div>
  );
}
