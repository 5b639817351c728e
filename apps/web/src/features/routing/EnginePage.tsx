import { KeyOutlined, ReloadOutlined, StopOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Badge,
  Button,
  Card,
  Descriptions,
  Form,
  Input,
  List,
  Modal,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useApi } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { formatNumberText } from '../../lib/money';
import { checked, submitting, when } from './shared';
import './i18n';

/**
 * The routing engine: the snapshot in memory (version, build time, counts, warnings, last error),
 * a rebuild on demand, and the switch API keys the SIP proxy uses for POST /api/switch/route.
 */
export default function EnginePage() {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const status = useApi(api.routing.getEngineStatus, {}, { refetchInterval: 3000 });
  const s = status.data;
  const rebuild = async () => {
    await call(api.routing.rebuildEngine, {}, { errorMode: 'inline' });
    flash(t('routing.rebuildStarted'));
    await status.refetch();
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }} size={16}>
      <Card
        title={<h1 style={{ fontSize: 20, margin: 0 }}>{t('routing.engine')}</h1>}
        extra={
          <Button icon={<ReloadOutlined />} onClick={() => void rebuild()} data-testid="engine-rebuild">
            {t('routing.rebuildNow')}
          </Button>
        }
        data-testid="engine-status"
      >
        {s && (
          <Space direction="vertical" style={{ width: '100%' }}>
            <Descriptions size="small" column={{ xs: 1, md: 3 }}>
              <Descriptions.Item label={t('routing.state')}>
                <Badge
                  status={s.ready ? (s.building ? 'processing' : 'success') : 'warning'}
                  text={
                    s.ready
                      ? s.building
                        ? t('routing.rebuilding')
                        : t('routing.ready')
                      : t('routing.snapshotLoading')
                  }
                />
              </Descriptions.Item>
              <Descriptions.Item label={t('routing.version')}>{s.version}</Descriptions.Item>
              <Descriptions.Item label={t('routing.builtAt')}>{when(s.built_at)}</Descriptions.Item>
              <Descriptions.Item label={t('routing.loadTime')}>
                {s.load_ms === null
                  ? '—'
                  : `${s.load_ms} ms (${t(`routing.loadKinds.${s.load_kind ?? 'full'}`)})`}
              </Descriptions.Item>
              <Descriptions.Item label={t('routing.buildTime')}>
                {s.build_ms === null ? '—' : `${s.build_ms} ms`}
              </Descriptions.Item>
            </Descriptions>
            <Space size={[8, 8]} wrap data-testid="engine-counts">
              {Object.entries(s.counts).map(([k, n]) => (
                <Tag key={k}>
                  {t(`routing.counts.${k}`)}: {formatNumberText(n)}
                </Tag>
              ))}
            </Space>
            {s.last_error && (
              <Alert
                type="error"
                showIcon
                message={t('routing.lastError', { at: when(s.last_error_at) })}
                description={s.last_error}
              />
            )}
            {s.warnings.length > 0 && (
              <List
                size="small"
                header={
                  <Typography.Text strong>
                    {t('routing.warnings', { count: s.warnings.length })}
                  </Typography.Text>
                }
                dataSource={s.warnings}
                renderItem={(w) => (
                  <List.Item>
                    <Typography.Text type="warning">{w}</Typography.Text>
                  </List.Item>
                )}
                data-testid="engine-warnings"
              />
            )}
          </Space>
        )}
      </Card>
      <SwitchKeys />
    </Space>
  );
}

function SwitchKeys() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const { flash, confirm } = useFeedback();
  const keys = useApi(api.routing.listSwitchKeys, {
    query: { page: 0, per_page: 100, order_by: 'created_at', order_dir: 'desc' },
  });
  const [creating, setCreating] = useState(false);
  const [shown, setShown] = useState<string | null>(null);
  const [form] = Form.useForm();
  const refresh = () => qc.invalidateQueries({ queryKey: ['GET', api.routing.listSwitchKeys.path] });
  const create = async () => {
    const parsed = checked(api.routing.createSwitchKey.body!, form.getFieldsValue(), form, () =>
      t('routing.keyName'),
    );
    if (!parsed) return;
    let key: string | null = null;
    await submitting(form, async () => {
      key = (await call(api.routing.createSwitchKey, { body: parsed }, { errorMode: 'inline' })).key;
    });
    if (key) {
      setCreating(false);
      form.resetFields();
      setShown(key);
      await refresh();
    }
  };
  const revoke = async (id: number, name: string) => {
    if (!(await confirm({ title: t('routing.revokeKey', { name }), danger: true }))) return;
    await call(api.routing.revokeSwitchKey, { params: { id } }, { errorMode: 'inline' });
    flash(t('routing.keyRevoked'));
    await refresh();
  };
  return (
    <Card
      title={t('routing.switchKeys')}
      extra={
        <Button type="primary" icon={<KeyOutlined />} onClick={() => setCreating(true)} data-testid="new-key">
          {t('routing.newKey')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('routing.switchKeysHelp')}</Typography.Paragraph>
      <Table
        rowKey="id"
        size="small"
        pagination={false}
        loading={keys.isLoading}
        dataSource={keys.data?.items ?? []}
        data-testid="switch-keys"
        columns={[
          { key: 'name', title: t('routing.keyName'), dataIndex: 'name' },
          { key: 'prefix', title: t('routing.keyStart'), render: (_, k) => <code>{k.key_prefix}…</code> },
          {
            key: 'created',
            title: t('routing.createdAt'),
            render: (_, k) => `${when(k.created_at)} · ${k.created_by}`,
          },
          {
            key: 'state',
            title: t('common.status'),
            render: (_, k) =>
              k.revoked_at ? (
                <Tag>{t('routing.revokedAt', { at: when(k.revoked_at) })}</Tag>
              ) : (
                <Tag color="green">{t('common.active')}</Tag>
              ),
          },
          {
            key: 'actions',
            title: t('common.actions'),
            render: (_, k) =>
              !k.revoked_at && (
                <Button
                  size="small"
                  danger
                  icon={<StopOutlined />}
                  onClick={() => void revoke(k.id, k.name)}
                  data-testid={`revoke-${k.id}`}
                >
                  {t('routing.revoke')}
                </Button>
              ),
          },
        ]}
      />
      <Modal
        open={creating}
        title={t('routing.newKey')}
        onCancel={() => setCreating(false)}
        onOk={() => void create()}
        okText={t('common.create')}
        okButtonProps={{ 'data-testid': 'key-create' } as never}
      >
        <Form form={form} layout="vertical">
          <Form.Item name="name" label={t('routing.keyName')} required>
            <Input placeholder="kamailio-1" data-testid="key-name" />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={shown !== null}
        title={t('routing.keyCreated')}
        onCancel={() => setShown(null)}
        footer={
          <Button type="primary" onClick={() => setShown(null)}>
            {t('common.close')}
          </Button>
        }
      >
        <Alert type="warning" showIcon message={t('routing.keyOnce')} style={{ marginBottom: 12 }} />
        <Typography.Paragraph copyable code data-testid="new-key-value">
          {shown}
        </Typography.Paragraph>
        <Typography.Text type="secondary">{t('routing.keyUsage')}</Typography.Text>
      </Modal>
    </Card>
  );
}
