import { api } from '@tandem/contract';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { crudFormResource } from '../../components/resource/crudResource';
import { ResourceForm } from '../../components/resource/ResourceForm';
import { useTrunkOptions } from '../routing/shared';
import './i18n';

const num = { kind: 'number' as const };

/** Monitoring > Fraud Detection > New / Edit: scope, thresholds per hour and 24 hours, actions. */
export default function FraudRuleEditPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const ingress = useTrunkOptions('ingress');
  const resource = useMemo(
    () =>
      crudFormResource(api.monitoring.fraudRule, {
        key: 'fraud-rule',
        titleNew: 'monitoring.newFraudRule',
        titleEdit: 'monitoring.editFraudRule',
        listPath: '/monitoring/fraud_detection',
        initial: {
          rule_name: '',
          scope: 'trunks',
          granularity: 'trunk',
          trunk_ids: [] as number[],
          hour_minutes: null,
          hour_revenue: null,
          hour_cost: null,
          day_minutes: null,
          day_revenue: null,
          day_cost: null,
          asr_below: null,
          acd_below: null,
          min_attempts: 1,
          block: true,
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
                name: 'scope',
                label: 'monitoring.scope',
                kind: 'select',
                options: (['trunks', 'all'] as const).map((v) => ({
                  value: v,
                  label: t(`monitoring.scopes.${v}`),
                })),
              },
              {
                name: 'trunk_ids',
                label: 'monitoring.ingressTrunks',
                kind: 'multiselect',
                options: ingress.options,
                visible: (v) => v.scope !== 'all',
              },
              {
                name: 'granularity',
                label: 'monitoring.granularity',
                kind: 'select',
                options: (['trunk', 'ani'] as const).map((v) => ({
                  value: v,
                  label: t(`monitoring.granularities.${v}`),
                })),
              },
            ],
          },
          {
            key: 'thresholds',
            title: 'monitoring.tabs.thresholds',
            fields: [
              {
                name: 'hour_minutes',
                label: 'monitoring.hourMinutes',
                ...num,
                help: 'monitoring.windowsHelp',
              },
              { name: 'hour_revenue', label: 'monitoring.hourRevenue', ...num },
              { name: 'hour_cost', label: 'monitoring.hourCost', ...num },
              { name: 'day_minutes', label: 'monitoring.dayMinutes', ...num },
              { name: 'day_revenue', label: 'monitoring.dayRevenue', ...num },
              { name: 'day_cost', label: 'monitoring.dayCost', ...num },
              { name: 'asr_below', label: 'monitoring.asrBelow', ...num },
              { name: 'acd_below', label: 'monitoring.acdBelow', ...num, help: 'monitoring.thresholdsHelp' },
              {
                name: 'min_attempts',
                label: 'monitoring.minAttempts',
                ...num,
                help: 'monitoring.minAttemptsHelp',
              },
            ],
          },
          {
            key: 'actions',
            title: 'monitoring.tabs.actions',
            fields: [
              { name: 'block', label: 'monitoring.block', kind: 'switch' },
              {
                name: 'unblock_after_minutes',
                label: 'monitoring.unblockAfter',
                kind: 'number',
                help: 'monitoring.unblockHelp',
                visible: (v) => v.block === true,
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
    [ingress.options, t],
  );
  return <ResourceForm resource={resource} id={id ? Number(id) : null} />;
}
