import { api } from '@tandem/contract';
import { Button, Table } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { useApi, useApiMutation } from '../../api/queries';
import { useFeedback } from '../../app/feedback';
import './i18n';

/** Configuration > Invoice Setting > carriers ({id}/carriers/{type}): which carriers use this setting. */
export default function InvoiceSettingCarriersPage() {
  const { t } = useTranslation();
  const { flash } = useFeedback();
  const p = useParams();
  const id = Number(p.id);
  const type = p.type === 'client' || p.type === 'vendor' ? p.type : null;
  const setting = useApi(api.billing.invoiceSetting.get, { params: { id } });
  const carriers = useApi(api.billing.settingCarriers, { params: { id } });
  const assign = useApiMutation(api.billing.assignSetting, [
    api.billing.settingCarriers,
    api.billing.invoiceSetting.list,
  ]);
  const [selected, setSelected] = useState<number[]>([]);
  useEffect(() => {
    if (carriers.data)
      setSelected(carriers.data.items.filter((c) => c.invoice_setting_id === id).map((c) => c.client_id));
  }, [carriers.data, id]);
  const rows = (carriers.data?.items ?? []).filter((c) => !type || c.client_type === type);
  return (
    <div>
      <div className="page-head">
        <h1>
          {t('billing.invoiceSettings')}: {setting.data?.name} — {t('billing.assignCarriers')}
        </h1>
        <Button
          type="primary"
          data-testid="assign-save"
          onClick={async () => {
            const r = await assign.mutateAsync({ params: { id }, body: { client_ids: selected } });
            flash(t('billing.assigned', { count: r.assigned }));
          }}
        >
          {t('common.save')}
        </Button>
      </div>
      <Table
        rowKey="client_id"
        size="small"
        pagination={false}
        dataSource={rows}
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) =>
            setSelected([
              ...selected.filter((k) => !rows.some((r) => r.client_id === k)),
              ...keys.map(Number),
            ]),
        }}
        columns={[
          { key: 'name', title: t('billing.carrier'), dataIndex: 'name' },
          { key: 'client_type', title: t('billing.side'), dataIndex: 'client_type' },
        ]}
      />
    </div>
  );
}
