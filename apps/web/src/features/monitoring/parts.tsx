import { FileSearchOutlined, PlayCircleOutlined, UnlockOutlined } from '@ant-design/icons';
import { api, type Endpoint } from '@tandem/contract';
import { Button, Tabs, Tag, Tooltip, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { call } from '../../api/client';
import { useFeedback } from '../../app/feedback';
import { ResourceList } from '../../components/resource/ResourceList';
import type { ListResource } from '../../components/resource/types';
import { when } from '../routing/shared';
import './i18n';

type LogRow = api.monitoring.MonitoringLogRow;
type BlockRow = api.monitoring.MonitoringBlockRow;
export type Kind = 'fraud' | 'rule' | 'loop';

const LOG: Record<Kind, Endpoint> = {
  fraud: api.monitoring.fraudLog,
  rule: api.monitoring.ruleLog,
  loop: api.monitoring.loopLog,
};

/** The figures a rule saw, short: "revenue 1.5 · minutes 30 · attempts 30". */
export function figuresText(f: Record<string, number | null> | null): string {
  if (!f) return '';
  return Object.entries(f)
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `${k} ${v}`)
    .join(' · ');
}

/** The colour of an execution-log event: red for what acts against traffic, green for what lifts it. */
export function eventColor(e: api.monitoring.LogEvent): string {
  if (e === 'triggered' || e === 'blocked' || e === 'loop') return 'red';
  if (e === 'cleared' || e === 'unblocked') return 'green';
  return e === 'email_failed' ? 'orange' : 'blue';
}

/** An execution-log event as a coloured tag (the logs and the live page). */
export function EventTag({ event }: { event: api.monitoring.LogEvent }) {
  const { t } = useTranslation();
  return (
    <Tag color={eventColor(event)} data-testid={`event-${event}`}>
      {t(`monitoring.events.${event}`)}
    </Tag>
  );
}

/** The execution log of one kind of rule (optionally one rule). */
export function logResource(kind: Kind, ruleId?: number): ListResource<LogRow> {
  return {
    key: `monitoring-log-${kind}${ruleId ? `-${ruleId}` : ''}`,
    title: 'monitoring.tabs.log',
    list: LOG[kind],
    rowKey: 'id',
    csvName: `${kind}-log`,
    defaultSort: { by: 'at', dir: 'desc' },
    fixedQuery: ruleId ? { rule_id: ruleId } : undefined,
    refetchMs: 10_000,
    columns: [
      { key: 'at', title: 'monitoring.at', sortable: true, render: (r) => when(r.at) },
      { key: 'rule_name', title: 'monitoring.rule', sortable: true },
      {
        key: 'event',
        title: 'monitoring.event',
        sortable: true,
        csv: (r) => r.event,
        render: (r) => <EventTag event={r.event} />,
      },
      { key: 'trunk_name', title: 'monitoring.trunk' },
      { key: 'carrier_name', title: 'monitoring.carrier' },
      { key: 'subject', title: 'monitoring.subject' },
      { key: 'detail', title: 'monitoring.detail' },
      {
        key: 'figures',
        title: 'monitoring.figures',
        csv: (r) => figuresText(r.figures),
        render: (r) => (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {figuresText(r.figures)}
          </Typography.Text>
        ),
      },
    ],
    filters: [
      {
        name: 'event',
        title: 'monitoring.event',
        kind: 'select',
        options: api.monitoring.LOG_EVENTS.map((e) => ({ value: e, label: e })),
      },
    ],
  };
}

function blockResource(kind: 'fraud' | 'rule', ruleId?: number): ListResource<BlockRow> {
  return {
    key: `monitoring-blocks-${kind}${ruleId ? `-${ruleId}` : ''}`,
    title: 'monitoring.tabs.blocks',
    list: kind === 'fraud' ? api.monitoring.fraudBlocks : api.monitoring.ruleBlocks,
    rowKey: 'block_id',
    csvName: `${kind}-blocks`,
    defaultSort: { by: 'created_at', dir: 'desc' },
    fixedQuery: ruleId ? { rule_id: ruleId } : undefined,
    refetchMs: 10_000,
    columns: [
      {
        key: 'created_at',
        title: 'monitoring.blockedSince',
        sortable: true,
        render: (r) => when(r.created_at),
      },
      { key: 'rule_name', title: 'monitoring.rule', sortable: true },
      { key: 'trunk_name', title: 'monitoring.trunk' },
      { key: 'carrier_name', title: 'monitoring.carrier' },
      { key: 'ani', title: 'monitoring.ani' },
      {
        key: 'codes',
        title: 'monitoring.codes',
        csv: (r) => (r.codes ?? []).join(' '),
        render: (r) => (r.codes ?? []).join(', '),
      },
      {
        key: 'until',
        title: 'monitoring.until',
        sortable: true,
        render: (r, t) => (r.until ? when(r.until) : t('monitoring.untilLifted')),
      },
      {
        key: 'active',
        title: 'common.status',
        csv: (r) => (r.active ? 'active' : (r.lift_reason ?? 'expired')),
        render: (r, t) =>
          r.active ? (
            <Tag color="red" data-testid={`block-active-${r.block_id}`}>
              {t('monitoring.blockStates.active')}
            </Tag>
          ) : (
            <Tag color="green">
              {t(`monitoring.blockStates.${r.lift_reason === 'manual' ? 'manual' : 'expired'}`)}
              {r.lifted_by && r.lift_reason === 'manual' ? ` · ${r.lifted_by}` : ''}
            </Tag>
          ),
      },
    ],
    filters: [
      {
        name: 'active',
        title: 'monitoring.activeOnly',
        kind: 'select',
        options: [
          { value: 'true', label: '✓' },
          { value: 'false', label: '✗' },
        ],
      },
    ],
  };
}

/** The blocks a kind of rule placed, with Unblock on the active ones. */
export function BlocksList({ kind, ruleId }: { kind: 'fraud' | 'rule'; ruleId?: number }) {
  const { t } = useTranslation();
  const { confirm, flash } = useFeedback();
  const qc = useQueryClient();
  const unblock = kind === 'fraud' ? api.monitoring.fraudUnblock : api.monitoring.ruleUnblock;
  const list = kind === 'fraud' ? api.monitoring.fraudBlocks : api.monitoring.ruleBlocks;
  return (
    <ResourceList
      resource={blockResource(kind, ruleId)}
      extraActions={(r) =>
        r.active ? (
          <Tooltip title={t('monitoring.unblock')}>
            <Button
              size="small"
              type="text"
              icon={<UnlockOutlined />}
              aria-label={t('monitoring.unblock')}
              data-testid={`unblock-${r.block_id}`}
              onClick={() =>
                void confirm({ title: t('monitoring.unblockConfirm') }).then(async (yes) => {
                  if (!yes) return;
                  await call(unblock, { params: { id: r.block_id } } as never, { errorMode: 'inline' });
                  flash(t('monitoring.unblocked'));
                  await qc.invalidateQueries({ queryKey: [list.method, list.path] });
                })
              }
            />
          </Tooltip>
        ) : null
      }
    />
  );
}

/** Evaluates the rules now (the monitoring job), instead of waiting for the next minute. */
export function RunNowButton({ kind }: { kind: 'fraud' | 'rule' }) {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const qc = useQueryClient();
  return (
    <Button
      icon={<PlayCircleOutlined />}
      data-testid="run-now"
      onClick={() =>
        void call(
          kind === 'fraud' ? api.monitoring.fraudRun : api.monitoring.ruleRun,
          {},
          { errorMode: 'inline' },
        ).then((r) => {
          flash(t('monitoring.runQueued', { id: r.job_id }));
          setTimeout(() => void qc.invalidateQueries(), 1500);
        })
      }
    >
      {t('monitoring.runNow')}
    </Button>
  );
}

/** Tabs that are paths (so each tab has its own address). */
export function PathTabs({ items }: { items: { path: string; label: string; children: React.ReactNode }[] }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const active = items.find((i) => i.path === pathname) ?? items[0]!;
  return (
    <Tabs
      activeKey={active.path}
      destroyInactiveTabPane
      onChange={(k) => navigate(k)}
      items={items.map((i) => ({ key: i.path, label: i.label, children: i.children }))}
    />
  );
}

/**
 * A rule page of Monitoring (fraud detection, monitoring rules): the rules with run-now and a link
 * per rule, the rules' execution log, and the blocks they placed, as tabs under `base`.
 */
export function RuleTabs<Row extends { id: number }>({
  base,
  kind,
  resource,
  logPath,
  rowLink,
}: {
  base: string;
  kind: 'fraud' | 'rule';
  resource: ListResource<Row>;
  /** The log tab's path under `base`. */
  logPath: string;
  /** The per-rule link: its i18n key and its path under `base`. */
  rowLink: { label: string; path: (r: Row) => string };
}) {
  const { t } = useTranslation();
  return (
    <PathTabs
      items={[
        {
          path: base,
          label: t('monitoring.tabs.rules'),
          children: (
            <ResourceList
              resource={resource}
              toolbar={<RunNowButton kind={kind} />}
              extraActions={(r) => (
                <Tooltip title={t(rowLink.label)}>
                  <Link to={`${base}/${rowLink.path(r)}`}>
                    <Button
                      size="small"
                      type="text"
                      icon={<FileSearchOutlined />}
                      aria-label={t(rowLink.label)}
                    />
                  </Link>
                </Tooltip>
              )}
            />
          ),
        },
        {
          path: `${base}/${logPath}`,
          label: t('monitoring.tabs.log'),
          children: <ResourceList resource={logResource(kind)} />,
        },
        { path: `${base}/blocks`, label: t('monitoring.tabs.blocks'), children: <BlocksList kind={kind} /> },
      ]}
    />
  );
}
