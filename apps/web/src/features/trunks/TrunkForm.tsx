import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { Button, Checkbox, Empty, Form, Input, InputNumber, Select, Space, Switch, Table, Tabs } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useApi } from '../../api/queries';
import type { Lookups } from '../carriers/carrierForm';
import './i18n';

type Path = (string | number)[];
type T = (k: string) => string;
const tid = (name: Path) => `field-${name.join('-')}`;
const options = (t: T, prefix: string, values: readonly (string | number)[]) =>
  values.map((v) => ({ value: v, label: t(`${prefix}.${v}`) }));
const items = (list: { id: number; name: string }[] | undefined) =>
  (list ?? []).map((i) => ({ value: i.id, label: i.name }));

function Num({ name, label, width }: { name: Path; label: string; width?: number }) {
  return (
    <Form.Item name={name} label={label}>
      <InputNumber style={{ width: width ?? 200 }} data-testid={tid(name)} />
    </Form.Item>
  );
}
function Text({ name, label, password }: { name: Path; label: string; password?: boolean }) {
  return (
    <Form.Item name={name} label={label}>
      {password ? (
        <Input.Password autoComplete="new-password" data-testid={tid(name)} />
      ) : (
        <Input data-testid={tid(name)} />
      )}
    </Form.Item>
  );
}
function Sel({
  name,
  label,
  opts,
  allowClear,
}: {
  name: Path;
  label: string;
  opts: { value: string | number; label: string }[];
  allowClear?: boolean;
}) {
  return (
    // A cleared select is null (the contract's "none"), not undefined (which the save would leave out).
    <Form.Item name={name} label={label} normalize={allowClear ? (v: unknown) => v ?? null : undefined}>
      <Select
        options={opts}
        allowClear={allowClear}
        showSearch
        optionFilterProp="label"
        style={{ maxWidth: 420 }}
        data-testid={tid(name)}
      />
    </Form.Item>
  );
}
function Sw({ name, label }: { name: Path; label: string }) {
  return (
    <Form.Item name={name} label={label} valuePropName="checked">
      <Switch data-testid={tid(name)} />
    </Form.Item>
  );
}
function Tags({
  name,
  label,
  help,
  suggestions,
}: {
  name: Path;
  label: string;
  help?: string;
  suggestions?: string[];
}) {
  const { t } = useTranslation();
  return (
    <Form.Item name={name} label={label} extra={help}>
      <Select
        mode="tags"
        tokenSeparators={[',', ' ', ';']}
        options={(suggestions ?? []).map((s) => ({ value: s, label: s }))}
        placeholder={t('tags.placeholder')}
        data-testid={tid(name)}
      />
    </Form.Item>
  );
}

/** A list of rows of inline fields (hosts, digit rules, failover rules...), each removable. */
function Rows({
  name,
  add,
  initial,
  render,
  testId,
}: {
  name: Path;
  add: string;
  initial: Record<string, unknown>;
  render: (row: number) => ReactNode;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Form.List name={name}>
      {(fields, ops) => (
        <div data-testid={`list-${testId}`}>
          {fields.map((f) => (
            <Space
              key={f.key}
              align="start"
              wrap
              style={{ display: 'flex', marginBottom: 4 }}
              data-testid={`row-${testId}-${f.name}`}
            >
              {render(f.name)}
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('trunks.remove')}
                onClick={() => ops.remove(f.name)}
                style={{ marginTop: 30 }}
                data-testid={`remove-${testId}-${f.name}`}
              />
            </Space>
          ))}
          <Button icon={<PlusOutlined />} onClick={() => ops.add(initial)} data-testid={`add-${testId}`}>
            {t(add)}
          </Button>
        </div>
      )}
    </Form.List>
  );
}

/** The digital map the trunk uses (none or one), with a link to the map's items. */
function DigitalMapField({ maps }: { maps: { id: number; name: string }[] | undefined }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const mapId = Form.useWatch('digital_map_id', form) as number | null | undefined;
  return (
    <Space align="start" wrap>
      <Form.Item
        name={['digital_map_id']}
        label={t('trunks.digitalMap')}
        extra={t('trunks.digitalMapHelp')}
        normalize={(v: unknown) => v ?? null}
        style={{ maxWidth: 520 }}
      >
        <Select
          allowClear
          showSearch
          optionFilterProp="label"
          placeholder={t('common.none')}
          options={items(maps)}
          style={{ maxWidth: 420 }}
          data-testid="field-digital_map_id"
        />
      </Form.Item>
      {mapId ? (
        <Link
          to={`/routing/digital_maps/digit_mapping_detail/${mapId}`}
          style={{ display: 'inline-block', marginTop: 36 }}
          data-testid="digital-map-link"
        >
          {t('trunks.openDigitalMap')}
        </Link>
      ) : null}
    </Space>
  );
}

/** The static and dynamic routes an egress trunk is part of (read from the routes themselves). */
function RoutesOfTrunk({ trunkId, kind }: { trunkId: number | null; kind: 'static' | 'dynamic' }) {
  const { t } = useTranslation();
  const q = useApi(
    api.trunks.trunkRoutes,
    { params: { id: trunkId ?? 0 } },
    { enabled: trunkId !== null, callOptions: { errorMode: 'inline' } },
  );
  if (!trunkId) return <Empty description={t('trunks.noRoutes')} />;
  if (kind === 'static')
    return (
      <Table
        size="small"
        rowKey="static_route_id"
        pagination={false}
        loading={q.isLoading}
        data-testid="trunk-static-routes"
        dataSource={q.data?.static_routes ?? []}
        locale={{ emptyText: t('trunks.noRoutes') }}
        columns={[
          { key: 'name', dataIndex: 'name', title: t('trunks.staticRoutes') },
          {
            key: 'codes',
            title: t('trunks.codesCol'),
            render: (_: unknown, r: { codes: string[] }) => r.codes.join(', '),
          },
        ]}
      />
    );
  return (
    <Table
      size="small"
      rowKey="dynamic_route_id"
      pagination={false}
      loading={q.isLoading}
      data-testid="trunk-dynamic-routes"
      dataSource={q.data?.dynamic_routes ?? []}
      locale={{ emptyText: t('trunks.noRoutes') }}
      columns={[
        { key: 'name', dataIndex: 'name', title: t('trunks.dynamicRoutes') },
        { key: 'rule', dataIndex: 'rule', title: t('trunks.rule') },
      ]}
    />
  );
}

/**
 * Every tab of spec 02 "Trunk edit" as fields of the surrounding antd Form (names are the contract's
 * field paths). `template`: the settings a trunk template stores (no owner, hosts, routing rows).
 */
export function TrunkTabs({
  direction,
  lookups,
  template,
  trunkId,
  tab,
  onTab,
  authType,
}: {
  direction: 'ingress' | 'egress';
  lookups: Lookups | undefined;
  template?: boolean;
  trunkId: number | null;
  tab: string;
  onTab: (k: string) => void;
  authType: string;
}) {
  const { t } = useTranslation();
  const ingress = direction === 'ingress';
  const carriers = (lookups?.carriers ?? [])
    .filter((c) => c.client_type === (ingress ? 'client' : 'vendor'))
    .map((c) => ({ value: c.id, label: c.is_active ? c.name : `${c.name} (${t('common.inactive')})` }));
  const tabs: { key: string; children: ReactNode; hidden?: boolean }[] = [
    {
      key: 'basic',
      children: (
        <>
          {template ? (
            <Text name={['name']} label={t('trunks.templateName')} />
          ) : (
            <Sel name={['carrier_id']} label={t('trunks.carrier')} opts={carriers} />
          )}
          {!template && <Text name={['name']} label={t('trunks.name')} />}
          <Sel
            name={['trunk_type2']}
            label={t('trunks.trunkType2')}
            opts={options(t, 'trunks.trafficTypes', ['termination', 'did'])}
          />
          <Sel
            name={['auth_type']}
            label={t('trunks.authType')}
            opts={options(t, 'trunks.authTypes', ['host', 'registration', 'register_gateway'])}
          />
          {!template && authType !== 'host' && (
            <Space wrap>
              <Text name={['registration', 'username']} label={t('trunks.username')} />
              <Form.Item
                name={['registration', 'password']}
                label={t('trunks.password')}
                extra={trunkId ? t('trunks.passwordKeep') : undefined}
              >
                <Input.Password autoComplete="new-password" data-testid="field-registration-password" />
              </Form.Item>
              <Text name={['registration', 'realm']} label={t('trunks.realm')} />
              {authType === 'register_gateway' && (
                <Text name={['registration', 'gateway_host']} label={t('trunks.gatewayHost')} />
              )}
              {authType === 'register_gateway' && (
                <Num name={['registration', 'gateway_port']} label={t('trunks.gatewayPort')} />
              )}
              <Num name={['registration', 'expires']} label={t('trunks.expires')} />
            </Space>
          )}
        </>
      ),
    },
    {
      key: 'hosts',
      hidden: template,
      children: (
        <>
          <Sel
            name={['host_strategy']}
            label={t('trunks.hostStrategy')}
            opts={options(t, 'trunks.strategies', ['top_down', 'round_robin'])}
          />
          <Rows
            name={['hosts']}
            add="trunks.addHost"
            testId="hosts"
            initial={{ host_type: 'ip', host: '', port: null, netmask: 32 }}
            render={(i) => (
              <>
                <Form.Item name={[i, 'host_type']} label={t('trunks.hostType')}>
                  <Select
                    style={{ width: 120 }}
                    options={options(t, 'trunks.hostTypes', ['ip', 'hostname'])}
                    data-testid={`field-hosts-${i}-host_type`}
                  />
                </Form.Item>
                <Form.Item name={[i, 'host']} label={t('trunks.host')}>
                  <Input style={{ width: 220 }} data-testid={`field-hosts-${i}-host`} />
                </Form.Item>
                <Form.Item name={[i, 'port']} label={t('trunks.port')}>
                  <InputNumber style={{ width: 110 }} data-testid={`field-hosts-${i}-port`} />
                </Form.Item>
                <Form.Item name={[i, 'netmask']} label={t('trunks.netmask')}>
                  <InputNumber
                    style={{ width: 90 }}
                    min={0}
                    max={32}
                    data-testid={`field-hosts-${i}-netmask`}
                  />
                </Form.Item>
              </>
            )}
          />
        </>
      ),
    },
    {
      key: 'timeouts',
      children: (
        <Space wrap>
          {(
            [
              'pdd_timeout_ms:pddTimeout',
              'ring_timer:ringTimer',
              'call_timeout:callTimeout',
              'reinvite_interval:reinviteInterval',
              'min_duration:minDuration',
              'max_duration:maxDuration',
            ] as const
          ).map((p) => {
            const [f, l] = p.split(':') as [string, string];
            return <Num key={f} name={['timeouts', f]} label={t(`trunks.${l}`)} />;
          })}
        </Space>
      ),
    },
    {
      key: 'codecs',
      children: (
        <>
          <Form.Item name={['codecs']} label={t('trunks.codecs')}>
            <Checkbox.Group
              options={api.trunks.CODECS.map((c) => ({ value: c, label: c }))}
              data-testid="field-codecs"
            />
          </Form.Item>
          <Sel
            name={['media_type']}
            label={t('trunks.mediaType')}
            opts={options(t, 'trunks.mediaTypes', ['bypass', 'proxy', 'transcoding'])}
          />
          <Sel
            name={['protocol']}
            label={t('trunks.protocol')}
            opts={['udp', 'tcp', 'tls'].map((p) => ({ value: p, label: p.toUpperCase() }))}
          />
          <Sw name={['t38']} label={t('trunks.t38')} />
          {ingress && <Sw name={['ignore_early_media']} label={t('trunks.ignoreEarlyMedia')} />}
          {ingress && <Sw name={['ignore_early_no_sdp']} label={t('trunks.ignoreEarlyNoSdp')} />}
        </>
      ),
    },
    { key: 'cidBlock', children: <Sw name={['blocking', 'cid_block']} label={t('trunks.cidBlock')} /> },
    {
      key: 'autoCallBlock',
      children: (
        <>
          {(['dnc', 'wireless', 'non_us'] as const).map((k) => (
            <Sw key={k} name={['blocking', k]} label={t(`trunks.${k === 'non_us' ? 'nonUs' : k}`)} />
          ))}
        </>
      ),
    },
    {
      key: 'limit',
      children: (
        <Space wrap>
          <Num name={['call_limit']} label={t('trunks.callLimit')} />
          <Num name={['cps_limit']} label={t('trunks.cpsLimit')} />
          <Num name={['sip_sessions']} label={t('trunks.sipSessions')} />
          <Num name={['sip_cps_limit']} label={t('trunks.sipCps')} />
        </Space>
      ),
    },
    {
      key: 'digitReplacement',
      children: (
        <Rows
          name={['digit_rules', 'replacements']}
          add="trunks.addRule"
          testId="replacements"
          initial={{ field: 'dnis', prefix: '', min_length: null, max_length: null, replacement: '' }}
          render={(i) => (
            <>
              <Form.Item name={[i, 'field']} label={t('trunks.field')}>
                <Select
                  style={{ width: 100 }}
                  options={options(t, 'trunks.fields', ['ani', 'dnis'])}
                  data-testid={`field-replacements-${i}-field`}
                />
              </Form.Item>
              <Form.Item name={[i, 'prefix']} label={t('trunks.prefix')}>
                <Input style={{ width: 120 }} data-testid={`field-replacements-${i}-prefix`} />
              </Form.Item>
              <Form.Item name={[i, 'min_length']} label={t('trunks.minLength')}>
                <InputNumber style={{ width: 100 }} data-testid={`field-replacements-${i}-min_length`} />
              </Form.Item>
              <Form.Item name={[i, 'max_length']} label={t('trunks.maxLength')}>
                <InputNumber style={{ width: 100 }} data-testid={`field-replacements-${i}-max_length`} />
              </Form.Item>
              <Form.Item name={[i, 'replacement']} label={t('trunks.replacement')}>
                <Input style={{ width: 120 }} data-testid={`field-replacements-${i}-replacement`} />
              </Form.Item>
            </>
          )}
        />
      ),
    },
    {
      key: 'digitManipulation',
      children: (
        <>
          {!template && <DigitalMapField maps={lookups?.digital_maps} />}
          <Rows
            name={['digit_rules', 'manipulations']}
            add="trunks.addRule"
            testId="manipulations"
            initial={{
              field: 'dnis',
              action: 'add_prefix',
              prefix: '',
              length_condition: null,
              number_length: null,
              remove_count: null,
              digits: '',
            }}
            render={(i) => (
              <>
                <Form.Item name={[i, 'field']} label={t('trunks.field')}>
                  <Select
                    style={{ width: 90 }}
                    options={options(t, 'trunks.fields', ['ani', 'dnis'])}
                    data-testid={`field-manipulations-${i}-field`}
                  />
                </Form.Item>
                <Form.Item name={[i, 'action']} label={t('trunks.action')}>
                  <Select
                    style={{ width: 150 }}
                    options={options(t, 'trunks.actions', ['add_prefix', 'remove_prefix', 'replace_prefix'])}
                    data-testid={`field-manipulations-${i}-action`}
                  />
                </Form.Item>
                <Form.Item name={[i, 'prefix']} label={t('trunks.prefix')}>
                  <Input style={{ width: 100 }} data-testid={`field-manipulations-${i}-prefix`} />
                </Form.Item>
                <Form.Item name={[i, 'length_condition']} label={t('trunks.lengthCondition')}>
                  <Select
                    allowClear
                    style={{ width: 120 }}
                    options={options(t, 'trunks.conditions', ['more', 'less', 'equal'])}
                    data-testid={`field-manipulations-${i}-length_condition`}
                  />
                </Form.Item>
                <Form.Item name={[i, 'number_length']} label={t('trunks.numberLength')}>
                  <InputNumber
                    style={{ width: 100 }}
                    data-testid={`field-manipulations-${i}-number_length`}
                  />
                </Form.Item>
                <Form.Item name={[i, 'remove_count']} label={t('trunks.removeCount')}>
                  <InputNumber style={{ width: 100 }} data-testid={`field-manipulations-${i}-remove_count`} />
                </Form.Item>
                <Form.Item name={[i, 'digits']} label={t('trunks.digits')}>
                  <Input style={{ width: 100 }} data-testid={`field-manipulations-${i}-digits`} />
                </Form.Item>
              </>
            )}
          />
        </>
      ),
    },
    {
      key: 'passThrough',
      children: (
        <>
          {(['rpid', 'paid', 'oli', 'priv', 'div', 'pci'] as const).map((k) => (
            <Sw key={k} name={['identity_options', k]} label={t(`trunks.pass.${k}`)} />
          ))}
        </>
      ),
    },
    {
      key: 'billing',
      children: (
        <>
          <Text name={['tech_prefix']} label={t('trunks.techPrefix')} />
          <Sel
            name={['rate_table_id']}
            label={t('trunks.rateTable')}
            opts={items(lookups?.rate_tables)}
            allowClear
          />
          <Sel
            name={['rounding']}
            label={t('trunks.rounding')}
            opts={api.trunks.ROUNDINGS.map((r) => ({ value: r, label: `${r}` }))}
            allowClear
          />
          <Sel
            name={['billing_mode']}
            label={t('trunks.billingMode')}
            opts={options(t, 'trunks.billingModes', ['minutes', 'port'])}
          />
          <Sel
            name={['bill_by']}
            label={t('trunks.billBy')}
            opts={options(t, 'trunks.billBys', ['dnis', 'lrn'])}
          />
          <Text name={['min_profitability']} label={t('trunks.minProfitability')} />
          <Num name={['random_ani_group_id']} label={t('trunks.randomAniGroup')} />
        </>
      ),
    },
    {
      key: 'sipProfile',
      children: (
        <Tags
          name={['sip_profiles']}
          label={t('trunks.sipProfiles')}
          suggestions={(lookups?.sip_hosts ?? []).map((h) => h.name)}
        />
      ),
    },
    {
      key: 'routing',
      hidden: !ingress,
      children: (
        <>
          <Sel
            name={['routing_plan_id']}
            label={t('trunks.routingPlan')}
            opts={items(lookups?.routing_plans)}
            allowClear
          />
          {!template && (
            <Form.Item label={t('trunks.routingRows')}>
              <Rows
                name={['routing_rows']}
                add="trunks.addRow"
                testId="routing_rows"
                initial={{ product_id: null, tech_prefix: '', rate_table_id: null, routing_plan_id: null }}
                render={(i) => (
                  <>
                    <Form.Item name={[i, 'product_id']} label={t('trunks.product')}>
                      <Select
                        allowClear
                        style={{ width: 180 }}
                        options={items(lookups?.products)}
                        data-testid={`field-routing_rows-${i}-product_id`}
                      />
                    </Form.Item>
                    <Form.Item name={[i, 'tech_prefix']} label={t('trunks.techPrefix')}>
                      <Input style={{ width: 110 }} data-testid={`field-routing_rows-${i}-tech_prefix`} />
                    </Form.Item>
                    <Form.Item name={[i, 'rate_table_id']} label={t('trunks.rateTable')}>
                      <Select
                        allowClear
                        style={{ width: 180 }}
                        options={items(lookups?.rate_tables)}
                        data-testid={`field-routing_rows-${i}-rate_table_id`}
                      />
                    </Form.Item>
                    <Form.Item name={[i, 'routing_plan_id']} label={t('trunks.routingPlan')}>
                      <Select
                        allowClear
                        style={{ width: 180 }}
                        options={items(lookups?.routing_plans)}
                        data-testid={`field-routing_rows-${i}-routing_plan_id`}
                      />
                    </Form.Item>
                  </>
                )}
              />
            </Form.Item>
          )}
        </>
      ),
    },
    {
      key: 'staticRouting',
      hidden: ingress || template,
      children: <RoutesOfTrunk trunkId={trunkId} kind="static" />,
    },
    {
      key: 'dynamicRouting',
      hidden: ingress || template,
      children: <RoutesOfTrunk trunkId={trunkId} kind="dynamic" />,
    },
    {
      key: 'capacity',
      hidden: !ingress,
      children: (
        <Space wrap>
          <Num name={['capacity', 'max_cps']} label={t('trunks.maxCps')} />
          <Num name={['capacity', 'max_cap']} label={t('trunks.maxCap')} />
        </Space>
      ),
    },
    {
      key: 'failover',
      children: (
        <Rows
          name={['failover_rules']}
          add="trunks.addRule"
          testId="failover_rules"
          initial={{ sip_code: 503, action: 'next', return_code: null, return_clause: null }}
          render={(i) => (
            <>
              <Form.Item name={[i, 'sip_code']} label={t('trunks.sipCode')}>
                <InputNumber style={{ width: 100 }} data-testid={`field-failover_rules-${i}-sip_code`} />
              </Form.Item>
              <Form.Item name={[i, 'action']} label={t('trunks.action')}>
                <Select
                  style={{ width: 190 }}
                  options={options(t, 'trunks.failoverActions', ['next', 'return'])}
                  data-testid={`field-failover_rules-${i}-action`}
                />
              </Form.Item>
              <Form.Item name={[i, 'return_code']} label={t('trunks.returnCode')}>
                <InputNumber style={{ width: 100 }} data-testid={`field-failover_rules-${i}-return_code`} />
              </Form.Item>
              <Form.Item name={[i, 'return_clause']} label={t('trunks.returnClause')}>
                <Input style={{ width: 200 }} data-testid={`field-failover_rules-${i}-return_clause`} />
              </Form.Item>
            </>
          )}
        />
      ),
    },
    {
      key: 'stirShaken',
      children: (
        <>
          <Sel
            name={['stir_shaken', 'verification']}
            label={t('trunks.verification')}
            opts={options(t, 'trunks.verifications', ['none', 'verify', 'verify_reject'])}
          />
          <Sel
            name={['stir_shaken', 'signing']}
            label={t('trunks.signing')}
            opts={options(t, 'trunks.signings', ['none', 'sign', 'pass_through'])}
          />
          <Sel
            name={['stir_shaken', 'default_attestation']}
            label={t('trunks.defaultAttestation')}
            opts={api.trunks.ATTESTATIONS.map((a) => ({ value: a, label: a }))}
            allowClear
          />
          <Form.Item label={t('trunks.attestations')}>
            <Rows
              name={['stir_shaken', 'attestations']}
              add="trunks.addRow"
              testId="attestations"
              initial={{ ani_group: '', level: 'A' }}
              render={(i) => (
                <>
                  <Form.Item name={[i, 'ani_group']} label={t('trunks.aniGroup')}>
                    <Input style={{ width: 220 }} data-testid={`field-attestations-${i}-ani_group`} />
                  </Form.Item>
                  <Form.Item name={[i, 'level']} label={t('trunks.level')}>
                    <Select
                      style={{ width: 80 }}
                      options={api.trunks.ATTESTATIONS.map((a) => ({ value: a, label: a }))}
                      data-testid={`field-attestations-${i}-level`}
                    />
                  </Form.Item>
                </>
              )}
            />
          </Form.Item>
          <Sw name={['stir_shaken', 'resign']} label={t('trunks.resign')} />
          <Sw name={['stir_shaken', 'p_header']} label={t('trunks.pHeader')} />
          <Sw name={['stir_shaken', 'verstat']} label={t('trunks.verstat')} />
        </>
      ),
    },
    {
      key: 'spam',
      children: (
        <>
          <Sw name={['spam_scoring', 'enabled']} label={t('trunks.spamEnabled')} />
          <Space wrap>
            <Num name={['spam_scoring', 'max_spam_score']} label={t('trunks.maxSpamScore')} />
            <Num name={['spam_scoring', 'fraud_probability']} label={t('trunks.fraudProbability')} />
            <Num name={['spam_scoring', 'tcpa_probability']} label={t('trunks.tcpaProbability')} />
          </Space>
        </>
      ),
    },
    {
      key: 'sendTo',
      children: (
        <Tags name={['allowed_send_to_ips']} label={t('trunks.sendToIps')} help={t('trunks.sendToHelp')} />
      ),
    },
  ];
  return (
    <Tabs
      tabPosition="left"
      activeKey={tab}
      onChange={onTab}
      items={tabs
        .filter((x) => !x.hidden)
        .map((x) => ({
          key: x.key,
          label: <span data-testid={`tab-${x.key}`}>{t(`trunks.tabs.${x.key}`)}</span>,
          forceRender: true,
          children: x.children,
        }))}
    />
  );
}
