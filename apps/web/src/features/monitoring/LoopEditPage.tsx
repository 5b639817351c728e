import { api } from '@tandem/contract';
import { useMemo } from 'react';
import { useParams } from 'react-router-dom';
import { crudFormResource } from '../../components/resource/crudResource';
import { ResourceForm } from '../../components/resource/ResourceForm';
import { useTrunkOptions } from '../routing/shared';
import './i18n';

/** Monitoring > Loop Detection > New / Edit. */
export default function LoopEditPage() {
  const { id } = useParams();
  const ingress = useTrunkOptions('ingress');
  const resource = useMemo(
    () =>
      crudFormResource(api.monitoring.loopRule, {
        key: 'loop-rule',
        titleNew: 'monitoring.newLoopRule',
        titleEdit: 'monitoring.editLoopRule',
        listPath: '/monitoring/loop_detection',
        initial: {
          rule_name: '',
          trunk_ids: [] as number[],
          number_ranges: [] as string[],
          max_calls: 5,
          window_seconds: 10,
          block_seconds: 300,
        } as Record<string, unknown>,
        tabs: [
          {
            key: 'general',
            title: 'monitoring.loopDetection',
            fields: [
              { name: 'rule_name', label: 'monitoring.ruleName', kind: 'text', required: true },
              {
                name: 'trunk_ids',
                label: 'monitoring.ingressTrunks',
                kind: 'multiselect',
                options: ingress.options,
              },
              {
                name: 'number_ranges',
                label: 'monitoring.numberRanges',
                kind: 'tags',
                help: 'monitoring.numberRangesHelp',
              },
              {
                name: 'max_calls',
                label: 'monitoring.maxCalls',
                kind: 'number',
                required: true,
                help: 'monitoring.maxCallsHelp',
              },
              {
                name: 'window_seconds',
                label: 'monitoring.windowSeconds',
                kind: 'number',
                required: true,
                help: 'monitoring.windowSecondsHelp',
              },
              {
                name: 'block_seconds',
                label: 'monitoring.blockSeconds',
                kind: 'number',
                required: true,
                help: 'monitoring.blockSecondsHelp',
              },
            ],
          },
        ],
      }),
    [ingress.options],
  );
  return <ResourceForm resource={resource} id={id ? Number(id) : null} />;
}
