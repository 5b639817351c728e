import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { api } from '@tandem/contract';
import { Button, Input, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Option } from './shared';

export interface TrunkEntry {
  trunk_id: number | null;
  percentage: string | null;
}

/**
 * An ordered list of egress trunks (the order is the try order); with percentages when the
 * strategy is 'percentage', and their running sum (the server refuses anything but 100 %).
 */
export function TrunkListEditor({
  value = [],
  onChange,
  options,
  percentages,
}: {
  value?: TrunkEntry[];
  onChange?: (v: TrunkEntry[]) => void;
  options: Option[];
  percentages: boolean;
}) {
  const { t } = useTranslation();
  const set = (next: TrunkEntry[]) => onChange?.(next);
  const move = (i: number, d: number) => {
    const next = [...value];
    const [x] = next.splice(i, 1);
    next.splice(i + d, 0, x!);
    set(next);
  };
  const valid = value.every((e) => e.percentage !== null && /^\d{1,3}(\.\d{1,2})?$/.test(e.percentage));
  const sum = valid ? value.reduce((n, e) => n + api.routing.hundredths(e.percentage ?? '0'), 0) / 100 : null;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="trunk-list">
      {value.map((e, i) => (
        <Space key={i} data-testid={`trunk-entry-${i}`}>
          <Typography.Text type="secondary" style={{ width: 20, display: 'inline-block' }}>
            {i + 1}.
          </Typography.Text>
          <Select
            showSearch
            optionFilterProp="label"
            style={{ width: 320 }}
            value={e.trunk_id}
            placeholder={t('routing.chooseTrunk')}
            options={options.filter(
              (o) => o.value === e.trunk_id || !value.some((x) => x.trunk_id === o.value),
            )}
            onChange={(v: number) => set(value.map((x, k) => (k === i ? { ...x, trunk_id: v } : x)))}
            data-testid={`trunk-select-${i}`}
          />
          {percentages && (
            <Input
              style={{ width: 110 }}
              suffix="%"
              value={e.percentage ?? ''}
              onChange={(ev) =>
                set(
                  value.map((x, k) =>
                    k === i ? { ...x, percentage: ev.target.value === '' ? null : ev.target.value } : x,
                  ),
                )
              }
              data-testid={`trunk-percentage-${i}`}
            />
          )}
          <Button
            size="small"
            icon={<ArrowUpOutlined />}
            disabled={i === 0}
            onClick={() => move(i, -1)}
            aria-label={t('routing.moveUp')}
          />
          <Button
            size="small"
            icon={<ArrowDownOutlined />}
            disabled={i === value.length - 1}
            onClick={() => move(i, 1)}
            aria-label={t('routing.moveDown')}
          />
          <Button
            size="small"
            danger
            icon={<DeleteOutlined />}
            onClick={() => set(value.filter((_, k) => k !== i))}
            aria-label={t('common.delete')}
            data-testid={`trunk-remove-${i}`}
          />
        </Space>
      ))}
      <Space>
        <Button
          icon={<PlusOutlined />}
          onClick={() => set([...value, { trunk_id: null, percentage: null }])}
          data-testid="trunk-add"
        >
          {t('routing.addTrunk')}
        </Button>
        {percentages && value.length > 0 && (
          <Typography.Text type={sum === 100 ? 'success' : 'danger'} data-testid="percentage-sum">
            {t('routing.percentageSum', { sum: sum === null ? '—' : sum.toFixed(2) })}
          </Typography.Text>
        )}
      </Space>
    </Space>
  );
}
