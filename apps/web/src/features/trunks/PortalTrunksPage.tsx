import { api } from '@tandem/contract';
import { Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApi } from '../../api/queries';
import { useSignedIn } from '../../app/session';
import './i18n';

type TrunkRow = api.trunks.TrunkRow;
type TrunkHost = api.trunks.TrunkHost;

/** A host as the carrier configures its equipment: IP or name, port when set, mask when not /32. */
const hostText = (h: TrunkHost) =>
  `${h.host}${h.port ? `:${h.port}` : ''}${h.netmask != null && h.netmask < 32 ? `/${h.netmask}` : ''}`;

/**
 * The client and vendor portal's Trunks (termination) or My IP Address (origination),
 * `/clients/termination/my_ip_address` (spec 01): the carrier's own trunks with us, read only: which
 * way the calls go, how they are authorised (the IP addresses we accept its calls from or send ours
 * to, or SIP registration), tech prefix, limits, codecs. The server lists only the caller's own
 * carrier's trunks whatever it asks (the trunk list's portal scope); changes go through the operator.
 */
export default function PortalTrunksPage() {
  const { t } = useTranslation();
  const { user } = useSignedIn();
  const termination = user.client?.company_type !== 'origination';
  const list = useApi(api.trunks.trunk.list, { query: { page: 0, per_page: 100 } as never });
  const rows = list.data?.items ?? [];
  const mixed = new Set(rows.map((r) => r.trunk_type2)).size > 1;
  return (
    <div>
      <div className="page-head">
        <h1>{t(termination ? 'menu.trunks' : 'menu.myIpAddress')}</h1>
      </div>
      <p className="muted">{t('trunks.portalHint')}</p>
      <Table<TrunkRow>
        rowKey="trunk_id"
        size="small"
        scroll={{ x: 'max-content' }}
        loading={list.isLoading}
        dataSource={rows}
        data-testid="portal-trunks"
        pagination={false}
        onRow={(r) => ({ 'data-testid': `portal-trunk-${r.name}` }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { key: 'name', title: t('trunks.name'), dataIndex: 'name' },
          {
            key: 'direction',
            title: t('trunks.portalDirection'),
            render: (_, r) => t(`trunks.portalDirections.${r.direction}`),
          },
          ...(mixed
            ? [
                {
                  key: 'type',
                  title: t('trunks.trunkType2'),
                  render: (_: unknown, r: TrunkRow) => t(`trunks.trafficTypes.${r.trunk_type2}`),
                },
              ]
            : []),
          {
            key: 'auth',
            title: t('trunks.authType'),
            render: (_, r) => t(`trunks.authTypes.${r.auth_type}`),
          },
          {
            key: 'hosts',
            title: t('trunks.portalHosts'),
            render: (_, r) =>
              r.auth_type === 'host' ? (
                <span data-testid="portal-trunk-hosts">
                  {r.hosts.length ? r.hosts.map(hostText).join(', ') : t('trunks.portalNoHosts')}
                </span>
              ) : (
                '–'
              ),
          },
          { key: 'prefix', title: t('trunks.techPrefix'), render: (_, r) => r.tech_prefix || '–' },
          { key: 'call_limit', title: t('trunks.callLimit'), render: (_, r) => r.call_limit ?? '–' },
          { key: 'cps_limit', title: t('trunks.cpsLimit'), render: (_, r) => r.cps_limit ?? '–' },
          { key: 'codecs', title: t('trunks.codecs'), render: (_, r) => r.codecs.join(', ') },
          { key: 'protocol', title: t('trunks.protocol'), render: (_, r) => r.protocol.toUpperCase() },
          {
            key: 'active',
            title: t('common.status'),
            render: (_, r) => (
              <Tag color={r.is_active ? 'green' : undefined}>
                {t(r.is_active ? 'common.active' : 'common.inactive')}
              </Tag>
            ),
          },
        ]}
      />
    </div>
  );
}
