import { api } from '@tandem/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { crudFormResource } from '../../components/resource/crudResource';
import { ResourceForm } from '../../components/resource/ResourceForm';
import { useTrunkOptions } from '../routing/shared';
import './i18n';

const num = { kind: 'number' as const };

/** Monitoring > Rule > New / Edit: scope, condition, frequency and sample size, action. */
export default function RuleEditPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const ingress = useTrunkOptions('ingress');
  const egress = useTrunkOptions('egress');
  const resource = useMemo(
    () =>
      crudFormResource(api.monitoring.monitoringRule, {
        key: 'monitoring-rule',
        titleNew: 'monitoring.newRule',
        titleEdit: 'monitoring.editRule',
        listPath: '/monitoring/rule',
        initial: {
          rule_name: '',
          side: 'egress',
          trunk_ids: [] as number[],
          code_mode: 'all',
          codes: [] as string[],
          asr_below: null,
          acd_below: null,
          ner_below: null,
          profit_below: null,
          sdp_above: null,
          pdd_above: null,
          min_attempts: 10,
          sample_minutes: 60,
          every_minutes: 5,
          action_block: 'none',
          unblock_after_minutes: null,
          email_to: 'none',
          email_subject: '',
        } as Record<string, unknown>,
        tabs: [
          {
            key: 'scope',
            title: 'monitoring.tabs.scope',
            fields: [
              { name: 'rule_name', label: 'monitoring.ruleName', kind: 'text', required: true },
              {
                name: 'side',
                label: 'monitoring.side',
                kind: 'select',
                options: (['egress', 'ingress'] as const).map((v) => ({
                  value: v,
                  label: t(`monitoring.sides.${v}`),
                })),
              },
              {
                name: 'trunk_ids',
                label: 'monitoring.trunks',
                kind: 'multiselect',
                required: true,
                options: [
                  ...egress.options.map((o) => ({
                    ...o,
                    label: `${o.label} · ${t('monitoring.sides.egress')}`,
                  })),
                  ...ingress.options.map((o) => ({
                    ...o,
                    label: `${o.label} · ${t('monitoring.sides.ingress')}`,
                  })),
                ],
              },
              {
                name: 'code_mode',
                label: 'monitoring.codeMode',
                kind: 'select',
                options: (['all', 'include', 'exclude'] as const).map((v) => ({
                  value: v,
                  label: t(`monitoring.codeModes.${v}`),
                })),
              },
              {
                name: 'codes',
                label: 'monitoring.codes',
                kind: 'tags',
                help: 'monitoring.codesHelp',
                visible: (v) => v.code_mode !== 'all',
              },
            ],
          },
          {
            key: 'condition',
            title: 'monitoring.tabs.condition',
            fields: [
              { name: 'asr_below', label: 'monitoring.asrBelow', ...num, help: 'monitoring.thresholdsHelp' },
              { name: 'acd_below', label: 'monitoring.acdBelow', ...num },
              { name: 'ner_below', label: 'monitoring.nerBelow', ...num },
              { name: 'profit_below', label: 'monitoring.profitBelow', ...num },
              { name: 'sdp_above', label: 'monitoring.sdpAbove', ...num },
              { name: 'pdd_above', label: 'monitoring.pddAbove', ...num },
            ],
          },
          {
            key: 'frequency',
            title: 'monitoring.tabs.frequency',
            fields: [
              {
                name: 'every_minutes',
                label: 'monitoring.everyMinutes',
                kind: 'select',
                required: true,
                options: api.monitoring.RULE_SCHEDULES.map((n) => ({
                  value: n,
                  label: t('monitoring.every', { n }),
                })),
              },
              {
                name: 'sample_minutes',
                label: 'monitoring.sampleMinutes',
                kind: 'select',
                required: true,
                help: 'monitoring.sampleHelp',
                options: api.monitoring.SAMPLE_SIZES.map((n) => ({ value: n, label: String(n) })),
              },
              {
                name: 'min_attempts',
                label: 'monitoring.minAttempts',
                ...num,
                required: true,
                help: 'monitoring.minAttemptsHelp',
              },
            ],
          },
          {
            key: 'actions',
            title: 'monitoring.tabs.actions',
            fields: [
              {
                name: 'action_block',
                label: 'monitoring.actionBlock',
                kind: 'select',
                options: (['none', 'trunk', 'route'] as const).map((v) => ({
                  value: v,
                  label: t(`monitoring.actionBlocks.${v}`),
                })),
              },
              {
                name: 'unblock_after_minutes',
                label: 'monitoring.unblockAfter',
                kind: 'number',
                visible: (v) => v.action_block !== 'none',
              },
              {
                name: 'email_to',
                label: 'monitoring.emailTo',
                kind: 'select',
                options: api.monitoring.EMAIL_TARGETS.map((v) => ({
                  value: v,
                  label: t(`monitoring.emailTargets.${v}`),
                })),
              },
              {
                name: 'email_subject',
                label: 'monitoring.emailSubject',
                kind: 'text',
                help: 'monitoring.emailSubjectHelp',
                visible: (v) => v.email_to !== 'none',
              },
            ],
          },
        ],
      }),
    [ingress.options, egress.options, t],
  );
  return <ResourceForm resource={resource} id={id ? Number(id) : null} />;
}
