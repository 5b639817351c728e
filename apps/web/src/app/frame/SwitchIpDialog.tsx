import type { z } from 'zod';
import type { api } from '@tandem/contract';
import { Modal, Table } from 'antd';
import { useTranslation } from 'react-i18next';

type Host = z.infer<typeof api.sw.sipHost>;

/** Where a carrier sends its traffic: the switch SIP hosts. */
export function SwitchIpDialog({
  open,
  onClose,
  hosts,
}: {
  open: boolean;
  onClose: () => void;
  hosts: Host[];
}) {
  const { t } = useTranslation();
  return (
    <Modal open={open} onCancel={onClose} footer={null} title={t('frame.switchIpTitle')}>
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={hosts}
        columns={[
          { title: t('system.host'), dataIndex: 'host_name' },
          { title: 'IP', dataIndex: 'sip_ip' },
          { title: t('system.port'), dataIndex: 'sip_port' },
        ]}
      />
    </Modal>
  );
}
