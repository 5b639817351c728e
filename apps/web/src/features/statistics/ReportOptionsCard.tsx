import { api } from '@tandem/contract';
import { Alert, Button, Card, Form, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { useApi, useApiMutation } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import { Dropdown } from '../../components/Dropdown';
import './dashboard/i18n';

/**
 * A system user's statistics options on its edit page (spec 02 section 6): "enable reporting
 * grouping" and the carriers it looks after, all it sees in statistics unless its role has
 * "View All Carriers".
 */
export function ReportOptionsCard({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const input = { params: { id: userId } };
  const options = useApi(api.stats.getUserReportOptions, input, { staleTime: 0 });
  const save = useApiMutation(api.stats.setUserReportOptions, [
    api.stats.getUserReportOptions,
    api.stats.getMyReportOptions,
  ]);
  const o = options.data;
  if (!o) return null;
  return (
    <Card
      size="small"
      title={t('dash.options.title')}
      style={{ marginTop: 16, maxWidth: 720 }}
      data-testid="report-options"
    >
      {o.view_all_carriers && (
        <Alert type="info" showIcon message={t('dash.options.viewAll')} style={{ marginBottom: 12 }} />
      )}
      <Form
        layout="vertical"
        initialValues={{ report_grouping: o.report_grouping, carrier_ids: o.carrier_ids }}
        onFinish={(v: { report_grouping: boolean; carrier_ids: number[] }) =>
          void save
            .mutateAsync({
              ...input,
              body: { report_grouping: v.report_grouping, carrier_ids: v.carrier_ids ?? [] },
            })
            .then(() => flash(t('dash.options.saved')))
        }
      >
        <Form.Item name="report_grouping" label={t('dash.options.grouping')} valuePropName="checked">
          <Switch data-testid="report-options-grouping" />
        </Form.Item>
        <Form.Item
          name="carrier_ids"
          label={t('dash.options.carriers')}
          help={t('dash.options.carriersHelp')}
        >
          <Dropdown
            multiple
            endpoint={api.carriers.carrier.list}
            valueField="client_id"
            labelField="name"
            kind="carrier"
            style={{ minWidth: 320 }}
            testId="report-options-carriers"
          />
        </Form.Item>
        <Button
          type="primary"
          htmlType="submit"
          loading={save.isPending}
          data-testid="report-options-save"
          style={{ marginTop: 16 }}
        >
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}
